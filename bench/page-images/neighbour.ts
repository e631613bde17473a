// Page images, noisy neighbour (bench/README.md, issue 46): how long workspace B waits for a page
// image while workspace A floods the server with renders, against a quiet server, with A's renders in
// flight limited (QUIRE_PAGE_RENDERS_PER_WORKSPACE, default 2) and not (0: as before issue 46).
// B asks BENCH_PROBES images one after another (each a new one: every dpi is drawn anew); A keeps
// BENCH_FLOOD requests for new images in flight the whole time (a 503 is asked again at once).
//
//   npx tsx bench/page-images/neighbour.ts
//
// Environment: BENCH_PROBES (20), BENCH_FLOOD (16), BENCH_LIMITS (0,1,2).
import path from 'node:path';
import { client, type Client } from '../../test/helpers/http.js';
import { CORPUS, startQuire } from '../../test/helpers/quire.js';
import { envNumber, gitState, machine, printTable } from '../lib/machine.js';
import { writeResults } from '../lib/results.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');
const PROBES = Math.max(2, Math.round(envNumber('BENCH_PROBES', 20)));
const FLOOD = Math.max(1, Math.round(envNumber('BENCH_FLOOD', 16)));
const LIMITS = (process.env.BENCH_LIMITS ?? '0,1,2').split(',').map(Number);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};

async function ready(c: Client, id: string): Promise<void> {
  for (;;) {
    const d = (await c.get(`/documents/${id}`)).json;
    if (d.status === 'Ready') return;
    if (d.status === 'Error') throw new Error(JSON.stringify(d.error));
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** B's probes: `PROBES` new images one after another, ms each. */
async function probe(b: Client, id: string, dpis: () => number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const t = performance.now();
    const r = await b.get(`/documents/${id}/pages/1/content?dpi=${dpis()}`);
    if (r.status !== 200) throw new Error(`B's image: ${r.status} ${r.text.slice(0, 200)}`);
    out.push(performance.now() - t);
  }
  return out;
}

const started = new Date();
const runs: Record<string, unknown>[] = [];
for (const limit of LIMITS) {
  const q = await startQuire({ extraEnv: { QUIRE_PAGE_RENDERS_PER_WORKSPACE: String(limit) } });
  try {
    const a = client(q.api, q.key);
    await q.cli(['workspaces', 'create', 'neighbour']);
    const b = client(q.api, (await q.cli(['keys', 'create', '--workspace', 'neighbour', '--scopes', 'admin'])).stdout.trim());
    const [mine, theirs] = [(await a.upload({ path: NDA })).json.id as string, (await b.upload({ path: NDA })).json.id as string];
    await Promise.all([ready(a, mine), ready(b, theirs)]);
    let bDpi = 100;
    const nextB = () => bDpi++;
    await probe(b, theirs, nextB); // warm-up: the rendering thread and PDFium loaded
    const quiet = await probe(b, theirs, nextB);

    let aDpi = 36;
    let flooding = true;
    const answers = { ok: 0, busy: 0, other: 0 };
    const flood = Array.from({ length: FLOOD }, async () => {
      while (flooding) {
        const dpi = aDpi;
        aDpi = dpi >= 300 ? 36 : dpi + 1;
        const r = await a.get(`/documents/${mine}/pages/${1 + (dpi % 2)}/content?dpi=${dpi}`);
        if (r.status === 200) answers.ok++;
        else if (r.status === 503) answers.busy++;
        else answers.other++;
      }
    });
    await new Promise((r) => setTimeout(r, 2000));
    const noisy = await probe(b, theirs, nextB);
    flooding = false;
    await Promise.all(flood);
    runs.push({ limit, quiet, noisy, answers, p50: [quantile(quiet, 0.5), quantile(noisy, 0.5)], p99: [quantile(quiet, 0.99), quantile(noisy, 0.99)] });
  } finally {
    await q.stop();
  }
}

const rows = [['renders per workspace', 'quiet p50 ms', 'quiet p99 ms', 'flooded p50 ms', 'flooded p99 ms', 'p99 flooded/quiet', "A's answers 200/503/other"]];
for (const r of runs as { limit: number; p50: number[]; p99: number[]; answers: { ok: number; busy: number; other: number } }[]) {
  rows.push([
    r.limit === 0 ? '0 (no limit: before)' : String(r.limit),
    r.p50[0]!.toFixed(0),
    r.p99[0]!.toFixed(0),
    r.p50[1]!.toFixed(0),
    r.p99[1]!.toFixed(0),
    `${(r.p99[1]! / r.p99[0]!).toFixed(1)}x`,
    `${r.answers.ok}/${r.answers.busy}/${r.answers.other}`,
  ]);
}
printTable(rows, new Set([1, 2, 3, 4, 5]));
writeResults('page-images-neighbour', started, { git: gitState(), machine: machine(), settings: { probes: PROBES, flood: FLOOD, limits: LIMITS }, runs });
