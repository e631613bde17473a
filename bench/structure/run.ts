// Structure-file benchmark (bench/README.md, issue 46): the event-loop delay of a server while 20
// clients fetch the DGML of the largest document of ../shared/corpus that Quire ingests, measured on
// this build (DGML written once and kept) and, with --base, on another build the same way (before
// issue 46: written on the event loop at every request). The server's own monitorEventLoopDelay
// (perf_hooks, through prom-client's `nodejs_eventloop_lag_*` of GET /metrics, which resets it at each
// scrape) gives p50/p99/max over each window: idle for BENCH_IDLE_SECONDS, then BENCH_SECONDS of the
// clients, each fetching again as soon as its last answer is in, beside a probe that reads the
// document's record (GET /documents/{id}) every 100 ms, to show what another tenant's request waits.
// Builds alternate (this, base, this, base…) for BENCH_ROUNDS rounds, each a fresh server (SQLite).
//
//   npm run build && npx tsx bench/structure/run.ts [--base /tmp/quire-base]
//
// A base build: `git worktree add --detach /tmp/quire-base <commit>`, `ln -s "$PWD/node_modules"
// /tmp/quire-base/`, `(cd /tmp/quire-base && npx tsc -p tsconfig.build.json)`.
// Environment: BENCH_CLIENTS (20), BENCH_SECONDS (10), BENCH_IDLE_SECONDS (3), BENCH_ROUNDS (2),
// BENCH_DOCUMENT (a path; default the largest corpus file by size), BENCH_QUIET_WAIT (s, 180).
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { FORMATS } from '../../src/model/formats.js';
import { checkDist, DIST_MAIN, startDistQuire, uploadDocument, type DistQuire } from '../lib/quire-dist.js';
import { cpuWindow, envNumber, gitState, machine, median, printTable, waitForQuiet } from '../lib/machine.js';
import { cleanUp, onCleanUp, tempDir } from '../lib/cleanup.js';
import { writeResults } from '../lib/results.js';

const CLIENTS = Math.max(1, Math.round(envNumber('BENCH_CLIENTS', 20)));
const SECONDS = envNumber('BENCH_SECONDS', 10);
const IDLE_SECONDS = envNumber('BENCH_IDLE_SECONDS', 3);
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 2)));
const baseIndex = process.argv.indexOf('--base');
const BASE = baseIndex > 0 ? path.resolve(process.argv[baseIndex + 1] ?? '') : null;

/** The largest file of the corpus in a format Quire ingests (ZIPs aside: their members become documents). */
function largestDocument(): string {
  const exts = new Set(FORMATS.map((f) => `.${f.ext}`).filter((e) => e !== '.zip'));
  let best = { file: '', size: -1 };
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (exts.has(path.extname(e.name).toLowerCase())) {
        const size = fs.statSync(p).size;
        if (size > best.size) best = { file: p, size };
      }
    }
  };
  walk(CORPUS);
  return best.file;
}

interface Lag {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The event-loop delay since the last scrape (prom-client resets the histogram at each). */
async function scrapeLag(q: DistQuire): Promise<Lag> {
  const text = await (await fetch(`${q.origin}/metrics`)).text();
  const value = (name: string) => {
    const m = new RegExp(`^nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    if (!m) throw new Error(`no nodejs_eventloop_lag_${name}_seconds in /metrics`);
    return Number(m[1]) * 1000;
  };
  return { p50Ms: value('p50'), p99Ms: value('p99'), maxMs: value('max') };
}

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function timedGet(url: string, key: string): Promise<{ ms: number; status: number; bytes: number; etag: string | null }> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = Buffer.from(await r.arrayBuffer());
  return { ms: performance.now() - t0, status: r.status, bytes: body.length, etag: r.headers.get('etag') };
}

interface RoundResult {
  build: 'this' | 'base';
  readyMs: number;
  firstGetMs: number;
  dgmlBytes: number;
  idle: Lag;
  load: Lag & { requests: number; perSecond: number; getP50Ms: number; getP99Ms: number; probeP50Ms: number; probeP99Ms: number; serverCores: number; serverCpuMsPerGet: number; otherCores: number; errors: number };
}

async function round(build: 'this' | 'base', document: string): Promise<RoundResult> {
  const main = build === 'this' ? DIST_MAIN : path.join(BASE!, 'dist/main.js');
  const q = await startDistQuire({ main, dataDir: tempDir('quire-bench-structure-') });
  onCleanUp(() => q.stop());
  try {
    const t0 = performance.now();
    const id = await uploadDocument(q, path.basename(document), fs.readFileSync(document));
    for (;;) {
      const d = (await (await fetch(`${q.api}/documents/${id}`, { headers: { authorization: `Bearer ${q.key}` } })).json()) as { status: string };
      if (d.status === 'Ready') break;
      if (d.status === 'Error' || d.status === 'OverQuota') throw new Error(`${document} ended ${d.status}`);
      if (performance.now() - t0 > 600_000) throw new Error(`${document} not Ready after 10 minutes`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const readyMs = performance.now() - t0;
    const dgmlUrl = `${q.api}/documents/${id}/dgml`;
    const first = await timedGet(dgmlUrl, q.key);
    if (first.status !== 200) throw new Error(`GET dgml: ${first.status}`);
    await waitForQuiet();

    await scrapeLag(q);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = await scrapeLag(q);

    await scrapeLag(q);
    const cpu = cpuWindow(() => [q.process.pid!]);
    const until = performance.now() + SECONDS * 1000;
    const gets: number[] = [];
    const probes: number[] = [];
    let errors = 0;
    const client = async () => {
      while (performance.now() < until) {
        const r = await timedGet(dgmlUrl, q.key);
        if (r.status === 200 && r.bytes === first.bytes) gets.push(r.ms);
        else errors++;
      }
    };
    const probe = async () => {
      while (performance.now() < until) {
        const r = await timedGet(`${q.api}/documents/${id}`, q.key);
        if (r.status === 200) probes.push(r.ms);
        else errors++;
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    await Promise.all([...Array.from({ length: CLIENTS }, client), probe()]);
    const used = cpu();
    const lag = await scrapeLag(q);
    return {
      build,
      readyMs,
      firstGetMs: first.ms,
      dgmlBytes: first.bytes,
      idle,
      load: {
        ...lag,
        requests: gets.length,
        perSecond: gets.length / used.seconds,
        getP50Ms: percentile(gets, 50),
        getP99Ms: percentile(gets, 99),
        probeP50Ms: percentile(probes, 50),
        probeP99Ms: percentile(probes, 99),
        serverCores: used.server,
        serverCpuMsPerGet: (used.server * used.seconds * 1000) / Math.max(1, gets.length),
        otherCores: used.other,
        errors,
      },
    };
  } finally {
    await q.stop();
  }
}

const started = new Date();
checkDist();
if (BASE && !fs.existsSync(path.join(BASE, 'dist/main.js'))) throw new Error(`${BASE}/dist/main.js does not exist: build the base first (see the header of this file)`);
const document = process.env.BENCH_DOCUMENT ? path.resolve(process.env.BENCH_DOCUMENT) : largestDocument();
console.log(`structure files: ${CLIENTS} clients fetch the DGML of ${path.relative(CORPUS, document)} (${fs.statSync(document).size} bytes) for ${SECONDS} s; ${ROUNDS} round(s)${BASE ? `, base ${BASE}` : ''}`);
const results: RoundResult[] = [];
try {
  for (let i = 0; i < ROUNDS; i++) {
    for (const build of BASE ? (['this', 'base'] as const) : (['this'] as const)) {
      const r = await round(build, document);
      results.push(r);
      console.log(
        `  round ${i + 1} ${build}: ${r.load.requests} GETs, lag p50/p99/max ${r.load.p50Ms.toFixed(1)}/${r.load.p99Ms.toFixed(1)}/${r.load.maxMs.toFixed(0)} ms (idle ${r.idle.p50Ms.toFixed(1)}/${r.idle.p99Ms.toFixed(1)}/${r.idle.maxMs.toFixed(0)})`,
      );
    }
  }
} finally {
  await cleanUp();
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const rows = [['build', 'round', 'DGML bytes', 'first GET ms', 'idle lag p50/p99/max ms', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'GET/s', 'GET p50/p99 ms', 'probe p50/p99 ms', 'server cores', 'server CPU ms/GET', 'other cpu', 'errors']];
const roundOf = new Map<string, number>();
for (const r of results) {
  const n = (roundOf.get(r.build) ?? 0) + 1;
  roundOf.set(r.build, n);
  rows.push([
    r.build === 'this' ? 'this build' : 'base',
    String(n),
    String(r.dgmlBytes),
    fmt(r.firstGetMs, 0),
    `${fmt(r.idle.p50Ms)}/${fmt(r.idle.p99Ms)}/${fmt(r.idle.maxMs, 0)}`,
    fmt(r.load.p50Ms),
    fmt(r.load.p99Ms),
    fmt(r.load.maxMs, 0),
    fmt(r.load.perSecond),
    `${fmt(r.load.getP50Ms, 0)}/${fmt(r.load.getP99Ms, 0)}`,
    `${fmt(r.load.probeP50Ms)}/${fmt(r.load.probeP99Ms)}`,
    fmt(r.load.serverCores, 2),
    fmt(r.load.serverCpuMsPerGet, 2),
    fmt(r.load.otherCores, 2),
    String(r.load.errors),
  ]);
}
console.log('');
printTable(rows, new Set([1, 2, 3, 5, 6, 7, 8, 11, 12, 13, 14]));
for (const build of ['this', 'base'] as const) {
  const mine = results.filter((r) => r.build === build);
  if (!mine.length) continue;
  console.log(
    `${build === 'this' ? 'this build' : 'base'} (median of ${mine.length}): lag p50 ${fmt(median(mine.map((r) => r.load.p50Ms)))} ms, p99 ${fmt(median(mine.map((r) => r.load.p99Ms)))} ms, max ${fmt(median(mine.map((r) => r.load.maxMs)), 0)} ms; server CPU ${fmt(median(mine.map((r) => r.load.serverCpuMsPerGet)), 2)} ms/GET; probe p99 ${fmt(median(mine.map((r) => r.load.probeP99Ms)))} ms`,
  );
}
writeResults('structure', started, { machine: machine(), git: gitState(), root: ROOT, base: BASE, document, clients: CLIENTS, seconds: SECONDS, results });
