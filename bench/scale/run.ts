// bench/scale: Quire scaled out on one PostgreSQL.
//  1. workers: pages/s from upload to Ready over ../shared/corpus/kgrag with 1 and then 2 `quire worker`
//     processes (one analysing thread each) behind one `serve --no-worker`; the scaling factor.
//  2. list: `GET /documents` p99 with 1,000,000 documents in PostgreSQL, seeded by COPY (psql).
// See bench/README.md for the commands and the last figures. A measurement, not a test: exit 0 either way.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { Store } from '../../src/store/db/index.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import { originalKeyOf } from '../../src/store/blobs/keys.js';
import { partitionKeyOf } from '../../src/model/partition.js';
import { Rng } from '../../src/samples/prng.js';
import { CORPUS, ROOT, TEST_SECRET_KEY } from '../../test/helpers/quire.js';
import { findPgBin, startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';
import { DIST_MAIN, checkDist, startDistQuire, type DistQuire } from '../lib/quire-dist.js';
import { cpuSeconds, envNumber, gitState, machine, median, printTable, waitForQuiet } from '../lib/machine.js';
import { cleanUp, onCleanUp, tempDir } from '../lib/cleanup.js';

const { values: args } = parseArgs({ options: { part: { type: 'string', default: 'all' } } });
const RUNS = envNumber('BENCH_RUNS', 2);
const DOCS = envNumber('BENCH_DOCS', 1_000_000);
const DURATION = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10);
const KGRAG = process.env.BENCH_CORPUS ?? path.join(CORPUS, 'kgrag');
/** Each file is uploaded this many times (under other names): 16 documents are too few to keep two workers busy to the end. */
const COPIES = envNumber('BENCH_COPIES', 3);
const LIST_P99_TARGET_MS = 30;

const pdfs = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? pdfs(path.join(dir, e.name)) : e.name.endsWith('.pdf') ? [path.join(dir, e.name)] : []));

async function api(q: DistQuire, p: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${q.api}${p}`, { ...init, headers: { authorization: `Bearer ${q.key}`, ...(init.headers ?? {}) } });
}

// ---------------------------------------------------------------------------------------------
// 1. Workers

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((p) => fs.existsSync(p));

/**
 * A `quire worker`, pinned to CPU `cpu` when taskset exists: a worker process has a reading and an
 * analysing thread besides its main one and would otherwise spread over every core, so that one
 * worker alone already used the whole machine and the scaling figure said nothing.
 */
function startWorker(env: NodeJS.ProcessEnv, cpu: number): { child: ChildProcess; exited: Promise<void> } {
  const cmd = TASKSET ? [TASKSET, '-c', String(cpu % os.availableParallelism()), process.execPath] : [process.execPath];
  const child = spawn(cmd[0]!, [...cmd.slice(1), DIST_MAIN, 'worker'], { env, cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err = (err + d).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.on('exit', (code) => (code && code !== 143 && console.log(`  worker exited ${code}: ${err}`), resolve())));
  return { child, exited };
}

interface WorkersRun {
  workers: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Share of one core used by the worker processes (threads and children included) during the run. */
  workerCpu: number;
  errors: number;
}

async function workersRun(cluster: PgCluster, n: number, run: number, files: string[]): Promise<WorkersRun> {
  const url = await cluster.createDatabase(`scale_w${n}_${run}`);
  const dataDir = tempDir('quire-scale-');
  const env = { DATABASE_URL: url, QUIRE_SECRET_KEY: TEST_SECRET_KEY, QUIRE_WORKER_CONCURRENCY: '1', QUIRE_JOB_POLL_MS: '50' };
  const q = await startDistQuire({ dataDir, args: ['serve', '--no-worker'], extraEnv: env });
  const workers = Array.from({ length: n }, (_, i) =>
    startWorker({ PATH: process.env.PATH, HOME: process.env.HOME, QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'warn', ...env }, i),
  );
  try {
    await new Promise((r) => setTimeout(r, 1500)); // workers connected and polling
    await waitForQuiet();
    const cpu = () => workers.reduce((s, w) => s + (cpuSeconds(w.child.pid!, true) || 0), 0);
    const cpu0 = cpu();
    const t0 = performance.now();
    const pending = Array.from({ length: COPIES }, (_, c) => files.map((f) => ({ f, name: `${c}-${path.basename(f)}` }))).flat();
    const total = pending.length;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let next = pending.shift(); next; next = pending.shift()) {
          const { f, name } = next;
          const form = new FormData();
          form.append('file', new Blob([fs.readFileSync(f)]), name);
          const r = await api(q, '/documents/content', { method: 'POST', body: form });
          if (r.status !== 200 && r.status !== 201) throw new Error(`upload ${f}: ${r.status} ${await r.text()}`);
        }
      }),
    );
    let docs: { status: string; pageCount: number | null }[] = [];
    for (;;) {
      docs = ((await (await api(q, '/documents?limit=100')).json()) as { documents: typeof docs }).documents;
      if (docs.length === total && docs.every((d) => d.status === 'Ready' || d.status === 'Error')) break;
      if (performance.now() - t0 > 600_000) throw new Error('documents not Ready after 10 minutes');
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - t0) / 1000;
    const pages = docs.reduce((s, d) => s + (d.pageCount ?? 0), 0);
    const workerCpu = (cpu() - cpu0) / seconds;
    return { workers: n, pages, seconds, pagesPerSecond: pages / seconds, workerCpu, errors: docs.filter((d) => d.status === 'Error').length };
  } finally {
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await q.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. List at a million documents

const COLUMNS = ['id', 'workspace_id', 'name', 'format', 'content_type', 'size', 'sha256', 'blob_key', 'status', 'page_count', 'is_sample', 'error_title', 'error_detail', 'created_at', 'updated_at', 'processed_at', 'pkey'];
const ID_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';
const STATUSES: [string, number][] = [['Ready', 0.6], ['Error', 0.1], ['Processing', 0.08], ['Ingested', 0.07], ['New', 0.05], ['Ingesting', 0.05], ['OverQuota', 0.05]];

/** CSV lines of `n` documents (one every 30 s up to now, ids in newId() form), as COPY reads them. */
function* documentRows(workspaceId: string, n: number): Generator<string> {
  const rng = new Rng(42);
  const start = Date.now() - n * 30_000;
  for (let i = 0; i < n; i++) {
    const createdAt = start + i * 30_000;
    let id = createdAt.toString(36).padStart(9, '0');
    for (let k = 0; k < 7; k++) id += ID_CHARS[Math.floor(rng.next() * 36)];
    let r = rng.next();
    const status = STATUSES.find(([, w]) => (r -= w) < 0)?.[0] ?? 'Ready';
    const pages = status === 'New' || status === 'Ingesting' ? '' : String(1 + Math.floor(rng.next() * 200));
    const processedAt = status === 'Ready' || status === 'Error' ? String(createdAt + 5_000 + Math.floor(rng.next() * 115_000)) : '';
    const size = Math.round(Math.exp(Math.log(1e3) + rng.next() * (Math.log(5e7) - Math.log(1e3))));
    const sha = createHash('sha256').update(`doc-${i}`).digest('hex');
    const error = status === 'Error' ? ['Processing failed', 'The document could not be parsed.'] : ['', ''];
    yield [id, workspaceId, `report-${String(i).padStart(7, '0')}.pdf`, 'pdf', 'application/pdf', size, sha, originalKeyOf({ workspaceId, id }), status, pages, 0, ...error, createdAt, processedAt || createdAt, processedAt, partitionKeyOf(id)].join(',') + '\n';
  }
}

/** psql: on PATH, else beside initdb (Debian keeps it in /usr/lib/postgresql/N/bin too). */
function psqlPath(): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), findPgBin() ?? '']) {
    if (dir && fs.existsSync(path.join(dir, 'psql'))) return path.join(dir, 'psql');
  }
  throw new Error('psql is not installed (the list part seeds with COPY through psql)');
}

async function seedMillion(url: string): Promise<{ workspaceId: string; seconds: number; sampleId: string }> {
  const store = await Store.open({ kind: 'postgres', url });
  const workspaceId = (await new WorkspaceService(store).ensureDefault()).id;
  await store.close();
  const t0 = performance.now();
  const psql = spawn(psqlPath(), [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `COPY documents (${COLUMNS.join(', ')}) FROM STDIN WITH (FORMAT csv)`], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const done = new Promise<number | null>((resolve, reject) => psql.on('exit', resolve).on('error', reject));
  let sampleId = '';
  let i = 0;
  for (const line of documentRows(workspaceId, DOCS)) {
    if (i++ === DOCS / 2) sampleId = line.slice(0, 16);
    if (!psql.stdin!.write(line)) await new Promise((r) => psql.stdin!.once('drain', r));
  }
  psql.stdin!.end();
  if ((await done) !== 0) throw new Error('COPY failed');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // What autovacuum does within a minute of such a load; measuring during it would measure it.
  await client.query('VACUUM (ANALYZE) documents');
  await client.end();
  return { workspaceId, seconds: (performance.now() - t0) / 1000, sampleId };
}

interface ListRow {
  route: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measureRoute(q: DistQuire, route: string): Promise<ListRow> {
  const opts = { url: `${q.api}${route}`, connections: CONNECTIONS, headers: { authorization: `Bearer ${q.key}` } };
  await waitForQuiet();
  await autocannon({ ...opts, duration: 3 });
  const lat: number[] = [];
  const inst = autocannon({ ...opts, duration: DURATION });
  inst.on('response', (_c: unknown, status: number, _b: number, ms: number) => status >= 200 && status < 300 && lat.push(ms));
  const r = await inst;
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN;
  return { route, reqPerSec: lat.length / r.duration, p50: pct(50), p99: pct(99), errors: r.errors + r.non2xx + r.timeouts };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  checkDist();
  if (!findPgBin()) throw new Error('PostgreSQL server binaries (initdb, pg_ctl, psql) are needed');
  console.log(`measuring commit ${gitState()?.commit.slice(0, 12) ?? '?'}`);
  const cluster = await startPgCluster();
  onCleanUp(() => cluster.stop());
  const result: Record<string, unknown> = { date: new Date().toISOString(), command: `npx tsx bench/scale/run.ts --part ${args.part}`, git: gitState(), machine: machine() };

  if (args.part === 'all' || args.part === 'workers') {
    const files = pdfs(KGRAG).sort();
    console.log(`== workers: ${files.length} PDFs from ${KGRAG} × ${COPIES}, serve --no-worker + N × quire worker (QUIRE_WORKER_CONCURRENCY=1${TASKSET ? ', worker i pinned to CPU i' : ', not pinned: taskset is missing'}), PostgreSQL, ${RUNS} runs each`);
    const runs: WorkersRun[] = [];
    for (const n of [1, 2]) {
      for (let run = 1; run <= RUNS; run++) {
        const r = await workersRun(cluster, n, run, files);
        console.log(`  ${n} worker(s), run ${run}: ${r.pages} pages in ${r.seconds.toFixed(2)} s = ${r.pagesPerSecond.toFixed(1)} pages/s, workers cpu ${Math.round(100 * r.workerCpu)}%, ${r.errors} Error`);
        runs.push(r);
      }
    }
    const pps = (n: number) => median(runs.filter((r) => r.workers === n).map((r) => r.pagesPerSecond));
    const factor = pps(2) / pps(1);
    printTable(
      [
        ['workers', 'pages/s to Ready (median)', 'scaling'],
        ['1', pps(1).toFixed(1), '1.00'],
        ['2', pps(2).toFixed(1), factor.toFixed(2)],
      ],
      new Set([1, 2]),
    );
    result.workers = { runs, pagesPerSecond1: pps(1), pagesPerSecond2: pps(2), factor };
  }

  if (args.part === 'all' || args.part === 'list') {
    const url = await cluster.createDatabase('scale_list');
    console.log(`== list: ${DOCS.toLocaleString('en-US')} documents seeded by COPY, then ${CONNECTIONS} connections × ${DURATION} s per route`);
    const seeded = await seedMillion(url);
    console.log(`  seeded in ${seeded.seconds.toFixed(1)} s (COPY + VACUUM ANALYZE)`);
    const q = await startDistQuire({ dataDir: tempDir('quire-scale-list-'), args: ['serve', '--no-worker'], extraEnv: { DATABASE_URL: url } });
    try {
      const routes = ['/documents?limit=100', '/documents?limit=100&status=Ready&minPages=50', '/documents?limit=100&status=Error', `/documents/${seeded.sampleId}`];
      const rows: ListRow[] = [];
      for (const route of routes) {
        const r = await measureRoute(q, route);
        console.log(`  ${route}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.errors} errors`);
        rows.push(r);
      }
      printTable(
        [
          ['route', 'req/s', 'p50 ms', 'p99 ms', 'errors', `target p99 ≤ ${LIST_P99_TARGET_MS} ms`],
          ...rows.map((r) => [r.route, r.reqPerSec.toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2), String(r.errors), r.route.includes('?') ? (r.p99 <= LIST_P99_TARGET_MS ? 'PASS' : 'FAIL') : '']),
        ],
        new Set([1, 2, 3, 4]),
      );
      result.list = { documents: DOCS, seedSeconds: seeded.seconds, rows };
    } finally {
      await q.stop();
    }
  }

  const out = path.join(ROOT, 'bench/results', `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`results: ${path.relative(ROOT, out)}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanUp);
