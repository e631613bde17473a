// bench/fairness: one workspace's flood of uploads against another workspace's single document (issue 46).
// The built service as `npm start` runs it (API and job consumers in one process), on SQLite, and with
// --postgres on a throwaway PostgreSQL cluster (pg-boss) too.
//  1. Idle: workspace B uploads one document at a time and waits until it is Ready (BENCH_IDLE_RUNS,
//     after one warm-up): the time-to-Ready of a document on an idle server (median).
//  2. Flood: workspace A uploads BENCH_FLOOD (500) documents through the API, 4 uploads in flight
//     (contract clauses from ../shared/corpus/contracts as text files, every 25th a small kgrag PDF, one
//     of the three scanned: OCR),
//     and then B uploads one more. Reported: how many of A's were Ready when B uploaded and when B's
//     was found Ready (polled every BENCH_POLL_MS), and B's time-to-Ready against the idle one. The server stops once B's document is Ready (A's need not finish).
// See bench/README.md for the figures. A measurement, not a test: exit 0 either way.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CORPUS, ROOT, TEST_SECRET_KEY } from '../../test/helpers/quire.js';
import { startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';
import { checkDist, createWorkspaceKey, startDistQuire, type DistQuire } from '../lib/quire-dist.js';
import { largeRows } from '../lib/csl.js';
import { envNumber, gitState, machine, median, printTable, waitForQuiet } from '../lib/machine.js';
import { cleanUp, tempDir } from '../lib/cleanup.js';

const FLOOD = envNumber('BENCH_FLOOD', 500);
const IDLE_RUNS = envNumber('BENCH_IDLE_RUNS', 3);
const POLL_MS = envNumber('BENCH_POLL_MS', 100);
const UPLOADS_IN_FLIGHT = 4;
const PDF_EVERY = 25;
const SMALL_PDFS = ['kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf', 'kgrag/us-fed-agency-reports/NARA2022.pdf', 'kgrag/ntsb-aviation-incident-accident-reports/20080108X00031.pdf'];

interface Doc {
  name: string;
  bytes: Uint8Array;
}

/** A's documents: CSL clauses as text files, every PDF_EVERY-th one a small PDF of the corpus. */
function floodDocuments(n: number, clauses: string[]): Doc[] {
  const pdfs = SMALL_PDFS.map((p) => ({ name: path.basename(p), bytes: fs.readFileSync(path.join(CORPUS, p)) }));
  return Array.from({ length: n }, (_, i) =>
    i % PDF_EVERY === PDF_EVERY - 1 ? pdfs[(i / PDF_EVERY) % pdfs.length | 0]! : { name: `clause-${i}.txt`, bytes: new TextEncoder().encode(clauses[i % clauses.length]!) },
  );
}

async function upload(q: DistQuire, key: string, d: Doc): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([d.bytes]), d.name);
  const r = await fetch(`${q.api}/documents/content`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`upload of ${d.name}: ${r.status} ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

async function status(q: DistQuire, key: string, id: string): Promise<string> {
  const r = await fetch(`${q.api}/documents/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return ((await r.json()) as { status: string }).status;
}

/** How many of the workspace's documents are Ready (paged through the list). */
async function readyCount(q: DistQuire, key: string): Promise<number> {
  let n = 0;
  let url: string | null = `${q.api}/documents?status=Ready&limit=100`;
  while (url) {
    const r = (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as { documents: unknown[]; next: string | null };
    n += r.documents.length;
    url = r.next;
  }
  return n;
}

/** Uploads one document of B and waits for Ready; `whileWaiting` runs before each status poll. Returns ms from the upload's start. */
async function timeToReady(q: DistQuire, key: string, d: Doc, whileWaiting?: () => Promise<void>): Promise<{ id: string; ms: number }> {
  const t0 = performance.now();
  const id = await upload(q, key, d);
  for (;;) {
    await whileWaiting?.();
    const s = await status(q, key, id);
    if (s === 'Ready') return { id, ms: performance.now() - t0 };
    if (s === 'Error' || s === 'OverQuota') throw new Error(`B's document ended ${s}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

interface Outcome {
  database: string;
  idleMs: number[];
  floodUploadSeconds: number;
  aReadyWhenBUploaded: number;
  aReadyWhenBReady: number;
  bMs: number;
}

async function measure(database: 'SQLite' | 'PostgreSQL', dbEnv: NodeJS.ProcessEnv): Promise<Outcome> {
  const dataDir = tempDir('quire-fairness-');
  const env = { QUIRE_DATA_DIR: dataDir, QUIRE_RATE_LIMIT: '0', ...dbEnv };
  const q = await startDistQuire({ dataDir, extraEnv: env });
  try {
    const keyA = q.key;
    const keyB = createWorkspaceKey(env, 'tenant-b');
    const clauses = largeRows().map((r) => r.text).filter((t) => t.trim().length > 200);
    const bDocs = clauses.slice(0, IDLE_RUNS + 2).map((text, i) => ({ name: `b-${i}.txt`, bytes: new TextEncoder().encode(text) }));
    const aDocs = floodDocuments(FLOOD, clauses.slice(IDLE_RUNS + 2));
    await waitForQuiet();
    await timeToReady(q, keyB, bDocs[0]!); // warm-up
    const idleMs: number[] = [];
    for (let i = 1; i <= IDLE_RUNS; i++) idleMs.push((await timeToReady(q, keyB, bDocs[i]!)).ms);
    console.log(`  ${database}: idle time-to-Ready ${idleMs.map((m) => m.toFixed(0)).join(', ')} ms`);

    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: UPLOADS_IN_FLIGHT }, async () => {
        while (next < aDocs.length) await upload(q, keyA, aDocs[next++]!);
      }),
    );
    const floodUploadSeconds = (performance.now() - t0) / 1000;
    const aReadyWhenBUploaded = await readyCount(q, keyA);
    let aReadyWhenBReady = aReadyWhenBUploaded;
    const b = await timeToReady(q, keyB, bDocs[IDLE_RUNS + 1]!, async () => void (aReadyWhenBReady = await readyCount(q, keyA)));
    console.log(
      `  ${database}: A's ${FLOOD} uploads took ${floodUploadSeconds.toFixed(1)} s; ${aReadyWhenBUploaded} of them Ready when B uploaded, ${aReadyWhenBReady} when B's was Ready (after ${b.ms.toFixed(0)} ms)`,
    );
    return { database, idleMs, floodUploadSeconds, aReadyWhenBUploaded, aReadyWhenBReady, bMs: b.ms };
  } finally {
    await q.stop();
  }
}

async function main() {
  const { values } = parseArgs({ options: { postgres: { type: 'boolean', default: false } } });
  checkDist();
  console.log(`measuring commit ${gitState()?.commit.slice(0, 12) ?? '?'}: A uploads ${FLOOD} documents, then B one`);
  const outcomes: Outcome[] = [await measure('SQLite', {})];
  if (values.postgres) {
    let cluster: PgCluster | undefined;
    try {
      cluster = await startPgCluster();
      const url = await cluster.createDatabase('quire_fairness');
      outcomes.push(await measure('PostgreSQL', { DATABASE_URL: url, QUIRE_SECRET_KEY: TEST_SECRET_KEY }));
    } finally {
      cluster?.stop();
    }
  }
  printTable(
    [
      ['database', 'idle Ready ms (median)', "A's Ready when B uploaded", "A's Ready when B's was", 'while B waited', "B's Ready ms", 'B ÷ idle'],
      ...outcomes.map((o) => [
        o.database,
        median(o.idleMs).toFixed(0),
        `${o.aReadyWhenBUploaded} of ${FLOOD}`,
        String(o.aReadyWhenBReady),
        String(o.aReadyWhenBReady - o.aReadyWhenBUploaded),
        o.bMs.toFixed(0),
        (o.bMs / median(o.idleMs)).toFixed(1),
      ]),
    ],
    new Set([1, 2, 3, 4, 5, 6]),
  );
  const out = path.join(ROOT, 'bench/results', `fairness-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), git: gitState(), machine: machine(), flood: FLOOD, pollMs: POLL_MS, outcomes }, null, 2));
  console.log(`results: ${path.relative(ROOT, out)}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanUp);
