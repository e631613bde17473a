// bench/load, the noisy-neighbour run (issue 46): one built Quire (SQLite, API and job consumers in one
// process, as `npm start` runs it) and two workspaces. The quiet one's requests (gets, lists, DGML) go
// at a fixed rate (BENCH_RATE req/s, BENCH_CONNECTIONS connections, BENCH_DURATION s); they run
// alone (quiet), then while the noisy workspace floods the server with uploads and page renders (a
// child process, flood.ts: BENCH_FLOOD_UPLOADS uploads in flight paced at BENCH_FLOOD_UPLOADS_PER_S,
// BENCH_FLOOD_RENDERS renders in flight, every render a page image not drawn before). The noisy
// workspace's backlog is ingested before the next quiet phase. BENCH_ROUNDS rounds of quiet then noisy. Target: the quiet
// workspace's p99 under the flood within 2x of its quiet p99.
// See bench/README.md for the figures. A measurement, not a test: exit 0 either way.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon, { type Request as AcRequest } from 'autocannon';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { checkDist, createWorkspaceKey, startDistQuire, uploadDocument, type DistQuire } from '../lib/quire-dist.js';
import { largeRows } from '../lib/csl.js';
import { cpuWindow, envNumber, gitState, machine, printTable, waitForQuiet } from '../lib/machine.js';
import { cleanUp, tempDir } from '../lib/cleanup.js';

const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10);
const RATE = envNumber('BENCH_RATE', 100);
const DURATION_S = envNumber('BENCH_DURATION', 30);
const ROUNDS = envNumber('BENCH_ROUNDS', 2);
const FLOOD_UPLOADS = envNumber('BENCH_FLOOD_UPLOADS', 4);
const FLOOD_UPLOADS_PER_S = envNumber('BENCH_FLOOD_UPLOADS_PER_S', 5);
const FLOOD_RENDERS = envNumber('BENCH_FLOOD_RENDERS', 4);
const QUIET_DOCS = 20;
const QUIET_PDF = 'kgrag/ntsb-aviation-incident-accident-reports/20080108X00031.pdf';
const RENDER_PDFS = ['kgrag/sec-10-q/2023 Q1 AAPL.pdf', 'kgrag/sec-10-q/2023 Q2 AAPL.pdf'];
/** Besides contract clauses as text files: a 3-page PDF with a text layer (a scanned one would keep the workers on OCR for many minutes after each phase). */
const FLOOD_PDF = 'kgrag/ntsb-aviation-incident-accident-reports/20080108X00031.pdf';
const FLOOD_CLAUSES = 30;

async function getJson<T>(q: DistQuire, key: string, p: string): Promise<T> {
  const r = await fetch(`${q.api}${p}`, { headers: { authorization: `Bearer ${key}` } });
  if (!r.ok) throw new Error(`GET ${p}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

async function untilReady(q: DistQuire, key: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    for (;;) {
      const d = await getJson<{ status: string }>(q, key, `/documents/${id}`);
      if (d.status === 'Ready') break;
      if (d.status === 'Error' || d.status === 'OverQuota') throw new Error(`seed document ${id} ended ${d.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The quiet workspace's requests, in turn: 2 gets, 1 list, 1 DGML of a clause, 1 get, 1 list of Ready, 1 DGML of the PDF. */
function quietMix(q: DistQuire, key: string, docs: string[], pdf: string): AcRequest[] {
  const auth = { authorization: `Bearer ${key}` };
  let n = 0;
  const doc = () => docs[n++ % docs.length]!;
  const get: AcRequest = { method: 'GET', headers: auth, setupRequest: (r) => ({ ...r, path: `/v1preview1/documents/${doc()}` }) };
  return [
    get,
    get,
    { method: 'GET', path: '/v1preview1/documents?limit=50', headers: auth },
    { method: 'GET', headers: auth, setupRequest: (r) => ({ ...r, path: `/v1preview1/documents/${doc()}/dgml` }) },
    get,
    { method: 'GET', path: '/v1preview1/documents?limit=50&status=Ready', headers: auth },
    { method: 'GET', path: `/v1preview1/documents/${pdf}/dgml`, headers: auth },
  ];
}

const IN_FLIGHT = ['New', 'Ingesting', 'Ingested', 'Processing'];

/** Waits until none of the workspace's documents is still being ingested (the flood's backlog done). */
async function waitForQueueToDrain(q: DistQuire, key: string): Promise<void> {
  for (;;) {
    const left = await Promise.all(IN_FLIGHT.map((st) => getJson<{ documents: unknown[] }>(q, key, `/documents?status=${st}&limit=1`)));
    if (left.every((r) => r.documents.length === 0)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface Measured {
  phase: 'quiet' | 'noisy';
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Share of a core used by everything on the machine but this process and the server's (other sessions). */
  otherCores: number;
  flood?: Record<string, Record<string, number>>;
}

async function measureQuiet(q: DistQuire, requests: AcRequest[]): Promise<Omit<Measured, 'phase' | 'otherCores'>> {
  const lat: number[] = [];
  const inst = autocannon({ url: q.origin, connections: CONNECTIONS, duration: DURATION_S, requests, ...({ overallRate: RATE } as object), timeout: 10 });
  inst.on('response', (_c: unknown, _status: number, _b: number, ms: number) => void lat.push(ms));
  const r = await inst;
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN;
  return { requests: lat.length, reqPerSec: lat.length / r.duration, p50: pct(50), p99: pct(99), errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/** Starts the noisy workspace's flood (flood.ts) in its own process; `stop` ends it and returns its counts. */
function startFlood(plan: object): { stop: () => Promise<Record<string, Record<string, number>>>; pid: number } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/load/flood.ts'), JSON.stringify(plan)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(out || '{}') as Record<string, Record<string, number>>;
    },
  };
}

async function main() {
  checkDist();
  console.log(`measuring commit ${gitState()?.commit.slice(0, 12) ?? '?'}: quiet workspace at ${RATE} req/s over ${CONNECTIONS} connections, ${DURATION_S} s a phase; flood: ${FLOOD_UPLOADS} uploads in flight (${FLOOD_UPLOADS_PER_S}/s) and ${FLOOD_RENDERS} renders in flight`);
  const dataDir = tempDir('quire-noisy-');
  const env = { QUIRE_DATA_DIR: dataDir, QUIRE_RATE_LIMIT: '0' };
  const q = await startDistQuire({ dataDir, extraEnv: env });
  try {
    const quietKey = q.key;
    const noisyKey = createWorkspaceKey(env, 'noisy');
    const clauses = largeRows().map((r) => r.text).filter((t) => t.trim().length > 200);
    const quietDocs: string[] = [];
    for (let i = 0; i < QUIET_DOCS; i++) quietDocs.push(await uploadDocument({ api: q.api, key: quietKey }, `clause-${i}.txt`, new TextEncoder().encode(clauses[i]!)));
    const pdf = await uploadDocument({ api: q.api, key: quietKey }, path.basename(QUIET_PDF), fs.readFileSync(path.join(CORPUS, QUIET_PDF)));
    const renderIds: string[] = [];
    for (const p of RENDER_PDFS) renderIds.push(await uploadDocument({ api: q.api, key: noisyKey }, path.basename(p), fs.readFileSync(path.join(CORPUS, p))));
    await untilReady(q, quietKey, [...quietDocs, pdf]);
    await untilReady(q, noisyKey, renderIds);
    const renderDocs = await Promise.all(renderIds.map(async (id) => ({ id, pages: (await getJson<{ pageCount: number }>(q, noisyKey, `/documents/${id}`)).pageCount })));
    console.log(`seeded: quiet ${quietDocs.length} clauses and a ${QUIET_PDF.split('/').pop()}; noisy ${renderDocs.map((d) => `${d.pages} pages`).join(' and ')} to render`);
    const requests = quietMix(q, quietKey, quietDocs, pdf);
    await measureQuiet(q, requests); // warm-up, not counted
    // The flood's files: clauses other than the quiet workspace's, written to the temporary folder, and the PDF.
    const floodFiles = clauses.slice(QUIET_DOCS, QUIET_DOCS + FLOOD_CLAUSES).map((text, i) => {
      const file = path.join(dataDir, `flood-clause-${i}.txt`);
      fs.writeFileSync(file, text);
      return file;
    });
    floodFiles.push(path.join(CORPUS, FLOOD_PDF));
    const plan = { api: q.api, key: noisyKey, uploadsInFlight: FLOOD_UPLOADS, uploadsPerSecond: FLOOD_UPLOADS_PER_S, rendersInFlight: FLOOD_RENDERS, files: floodFiles, renderDocs };
    const phases: Measured[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const phase of ['quiet', 'noisy'] as const) {
        if (phase === 'quiet') await waitForQuiet();
        const flood = phase === 'noisy' ? startFlood(plan) : null;
        if (flood) await new Promise((r) => setTimeout(r, 3000)); // the flood under way
        const cpu = cpuWindow(() => [q.process.pid!, ...(flood ? [flood.pid] : [])]);
        const m = await measureQuiet(q, requests);
        const { other } = cpu();
        const floodCounts = await flood?.stop();
        const measured: Measured = { phase, ...m, otherCores: other, ...(floodCounts ? { flood: floodCounts } : {}) };
        phases.push(measured);
        console.log(
          `  round ${round} ${phase}: ${m.reqPerSec.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, errors ${m.errors}, non-2xx ${m.non2xx}, other sessions ${measured.otherCores.toFixed(2)} cores` +
            (floodCounts ? `; flood ${JSON.stringify(floodCounts)}` : ''),
        );
        await waitForQueueToDrain(q, noisyKey);
      }
    }
    const quiet = phases.filter((p) => p.phase === 'quiet');
    const noisy = phases.filter((p) => p.phase === 'noisy');
    printTable(
      [
        ['round', 'quiet p99 ms', 'noisy p99 ms', 'noisy ÷ quiet', 'quiet p50', 'noisy p50', 'errors', 'flood uploads', 'flood renders', '≤ 2×'],
        ...quiet.map((qm, i) => {
          const nm = noisy[i]!;
          const sum = (kind: string) => Object.entries(nm.flood?.[kind] ?? {}).map(([s, n]) => `${n}×${s}`).join(' ');
          return [String(i + 1), qm.p99.toFixed(1), nm.p99.toFixed(1), (nm.p99 / qm.p99).toFixed(2), qm.p50.toFixed(1), nm.p50.toFixed(1), String(qm.errors + nm.errors + qm.non2xx + nm.non2xx), sum('upload'), sum('render'), nm.p99 <= 2 * qm.p99 ? 'PASS' : 'FAIL'];
        }),
      ],
      new Set([1, 2, 3, 4, 5, 6]),
    );
    const out = path.join(ROOT, 'bench/results', `load-noisy-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), git: gitState(), machine: machine(), rate: RATE, connections: CONNECTIONS, durationS: DURATION_S, flood: { uploads: FLOOD_UPLOADS, uploadsPerSecond: FLOOD_UPLOADS_PER_S, renders: FLOOD_RENDERS }, phases }, null, 2));
    console.log(`results: ${path.relative(ROOT, out)}`);
  } finally {
    await q.stop();
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanUp);
