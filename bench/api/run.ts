// API benchmark (bench/README.md): with BENCH_DOCS (default 100,000) documents seeded, requests/s
// and latency of `GET /documents/{id}` and `GET /documents?limit=100&status=Ready&minPages=50`
// against a bare Fastify route answering a JSON body of the same size, all in one run.
//
//   npx tsx bench/api/run.ts [--postgres | --postgres-only] [--analyze] [--profile]
//   npm run bench:api -- [flags]
//
// The load generator (autocannon) runs in this process; every server runs in its own child process,
// so on a 2-core machine the client and the server under test each have a core.
//
//   --postgres       after the SQLite run, run the same against a throwaway PostgreSQL cluster
//   --postgres-only  only the PostgreSQL run
//   --profile        start Quire under `node --cpu-prof` (one server per route) and print where its
//                    CPU time goes; figures of a profiled run are slower and are not judged
//   --analyze        run ANALYZE on the seeded SQLite database before Quire starts, so the planner
//                    has statistics whether or not Quire gathers them itself (PostgreSQL is always
//                    analysed, as autovacuum would be)
//
// Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS
// (default 10), BENCH_DOCS (default 100000), BENCH_QUIET_WAIT (s, default 180), BENCH_RETRIES
// (default 2), BENCH_KEEP_DATA=1.
// Results also go to bench/results/api-<timestamp>.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as AcRequest, type Result as AcResult } from 'autocannon';
import Libsql from 'libsql';
import pg from 'pg';
import { Store } from '../../src/store/db/index.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import { originalKeyOf } from '../../src/store/blobs/keys.js';
import { FORMATS } from '../../src/model/formats.js';
import { DOCUMENT_STATUSES, type DocumentStatus } from '../../src/model/lifecycle.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { Rng } from '../../src/samples/prng.js';
import { ROOT, TEST_SECRET_KEY as SECRET_KEY, freePort, startQuire } from '../../test/helpers/quire.js';
import { startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';
import { outerTmpdir } from '../../test/helpers/scratch.js';
import { cpuSeconds, envNumber, gitState, machineBusySeconds } from '../lib/machine.js';
import { cleanUp, onCleanUp, tempDir } from '../lib/cleanup.js';

// ---------------------------------------------------------------------------------------------
// Settings

const { values: flags } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    'postgres-only': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    analyze: { type: 'boolean', default: false },
  },
  strict: true,
});

const DURATION = Math.max(1, envNumber('BENCH_DURATION', 10));
const WARMUP = envNumber('BENCH_WARMUP', 3);
const CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_CONNECTIONS', 10)));
const DOCS = Math.max(1, Math.round(envNumber('BENCH_DOCS', 100_000)));
const SEED_BATCH = 5_000;
/** BENCH_KEEP_DATA=1 keeps the seeded data directory (SQLite file) for a closer look afterwards. */
const KEEP_DATA = process.env.BENCH_KEEP_DATA === '1';
/** How many distinct ids GET-by-id rotates over. */
const ID_POOL = Math.max(1, Math.round(envNumber('BENCH_ID_POOL', 20_000)));
/** QUIRE_READ_CACHE_MB for the server (unset: Quire's default). */
const READ_CACHE_MB = process.env.BENCH_READ_CACHE_MB;

const LIST_QUERY = 'limit=100&status=Ready&minPages=50';
const TARGET_BY_ID_RATIO = 0.5;
const TARGET_LIST_P99_MS = 20;

const BARE_SERVER = path.join(ROOT, 'bench/api/bare-server.ts');
const MAIN = path.join(ROOT, 'src/main.ts');
const RESULTS_DIR = path.join(ROOT, 'bench/results');

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started is stopped, every temp dir removed, also on Ctrl-C.

// ---------------------------------------------------------------------------------------------
// Seeding

// Most documents of a live workspace are processed; the rest spread over the other states.
const STATUS_WEIGHTS: Record<DocumentStatus, number> = {
  New: 0.05,
  Ingesting: 0.05,
  Ingested: 0.07,
  Processing: 0.08,
  Ready: 0.6,
  Error: 0.1,
  OverQuota: 0.05,
};
const WORDS = ['contract', 'invoice', 'lease', 'report', 'policy', 'minutes', 'memo', 'statement', 'agreement', 'amendment', 'claim', 'notice'];
const EXT_WEIGHTS: [string, number][] = [['pdf', 0.55], ['docx', 0.25], ['doc', 0.05], ['txt', 0.05], ['html', 0.05], ['zip', 0.05]];
const ID_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';

function weighted<T extends string>(r: number, entries: [T, number][]): T {
  let acc = 0;
  for (const [v, w] of entries) {
    acc += w;
    if (r < acc) return v;
  }
  return entries[entries.length - 1]![0];
}

/** The `n` documents of the corpus, in id (= creation) order, one every 30 s up to now. */
function* corpus(workspaceId: string, n: number): Generator<DocumentRecord> {
  const rng = new Rng(42);
  const rand = () => rng.next();
  const step = 30_000;
  const start = Date.now() - n * step;
  const statuses = DOCUMENT_STATUSES.map((s) => [s, STATUS_WEIGHTS[s]] as [DocumentStatus, number]);
  for (let i = 0; i < n; i++) {
    const createdAt = start + i * step;
    // The shape of ids.ts's newId(): 9 base-36 chars of time, then 7 random ones.
    let id = createdAt.toString(36).padStart(9, '0');
    for (let k = 0; k < 7; k++) id += ID_CHARS[Math.floor(rand() * 36)];
    const ext = weighted(rand(), EXT_WEIGHTS);
    const format = FORMATS.find((f) => f.ext === ext)!;
    const status = weighted(rand(), statuses);
    const pages = 1 + Math.floor(rand() * 200);
    const processed = status === 'Ready' || status === 'Error';
    const processedAt = processed ? createdAt + 5_000 + Math.floor(rand() * 115_000) : null;
    const name = `${WORDS[Math.floor(rand() * WORDS.length)]}-${WORDS[Math.floor(rand() * WORDS.length)]}-${String(i).padStart(6, '0')}.${ext}`;
    yield {
      id,
      workspaceId,
      docsetId: null,
      docsetCandidates: [],
      name,
      format: format.ext,
      contentType: format.contentType,
      // Log-uniform from 1 KB to 50 MB.
      size: Math.round(Math.exp(Math.log(1e3) + rand() * (Math.log(5e7) - Math.log(1e3)))),
      sha256: createHash('sha256').update(`doc-${i}`).digest('hex'),
      blobKey: originalKeyOf({ workspaceId, id }),
      status,
      pageCount: status === 'New' || status === 'Ingesting' ? null : pages,
      isSample: false,
      error: status === 'Error' ? { title: 'Processing failed', detail: 'The document could not be parsed: unexpected end of stream.' } : null,
      createdAt,
      updatedAt: processedAt ?? createdAt,
      processedAt,
    };
  }
}

interface Seeded {
  workspaceId: string;
  ids: string[];
  /** A Ready document with a page count: the body the bare route copies. */
  sampleId: string;
  seconds: number;
  counts: Record<string, number>;
}

async function seed(database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }): Promise<Seeded> {
  const t0 = performance.now();
  const store = await Store.open(database);
  try {
    const workspace = await new WorkspaceService(store).ensureDefault();
    const ids: string[] = [];
    const counts: Record<string, number> = {};
    let sampleId: string | undefined;
    let batch: DocumentRecord[] = [];
    const flush = async () => {
      const rows = batch;
      batch = [];
      await store.tx(async (s) => {
        for (const d of rows) await s.documents.insert(d);
      });
    };
    for (const d of corpus(workspace.id, DOCS)) {
      ids.push(d.id);
      counts[d.status] = (counts[d.status] ?? 0) + 1;
      if (d.status === 'Ready' && sampleId === undefined && ids.length > DOCS / 2) sampleId = d.id;
      batch.push(d);
      if (batch.length >= SEED_BATCH) {
        await flush();
        if (process.stdout.isTTY) process.stdout.write(`\r  seeded ${ids.length.toLocaleString('en-US')} documents`);
      }
    }
    if (batch.length) await flush();
    const seconds = (performance.now() - t0) / 1000;
    process.stdout.write(`${process.stdout.isTTY ? '\r' : ''}  seeded ${ids.length.toLocaleString('en-US')} documents in ${seconds.toFixed(1)} s\n`);
    return { workspaceId: workspace.id, ids, sampleId: sampleId ?? ids[0]!, seconds, counts };
  } finally {
    await store.close();
  }
}

// The statement DocumentsRepo.list issues for LIST_QUERY (as Kysely compiles it).
const LIST_SQL =
  'select * from "documents" where "workspace_id" = $1 and "status" = $2 and "page_count" >= $3 and "is_sample" = $4 order by "id" limit $5';
const LIST_PARAMS = (workspaceId: string) => [workspaceId, 'Ready', 50, 0, 101];

function sqlitePlan(file: string, workspaceId: string): string[] {
  const db = new Libsql(file, { readonly: true });
  try {
    const rows = db.prepare(`explain query plan ${LIST_SQL.replace(/\$\d/g, '?')}`).all(...LIST_PARAMS(workspaceId)) as { detail: string }[];
    const byId = db
      .prepare('explain query plan select * from "documents" where "id" = ? and "workspace_id" = ?')
      .all('x', workspaceId) as { detail: string }[];
    return [...rows.map((r) => `list: ${r.detail}`), ...byId.map((r) => `get: ${r.detail}`)];
  } finally {
    db.close();
  }
}

async function postgresPlan(url: string, workspaceId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${LIST_SQL}`, LIST_PARAMS(workspaceId));
    return r.rows.map((x) => `list: ${x['QUERY PLAN']}`);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Servers

interface Server {
  origin: string;
  pid: number;
  stop: () => Promise<unknown>;
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function startBare(bodyFile: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', BARE_SERVER, String(port), bodyFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bare server did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      output += d;
      if (/^ready$/m.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => (output += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bare server exited (${code}):\n${output}`));
    });
  });
  const exited = waitForExit(child);
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Quire through test/helpers' startQuire (the same start-up as the API tests). */
async function startServer(opts: { dataDir: string; databaseUrl?: string }): Promise<Server & { key: string }> {
  // The per-key rate limit (100,000/min by default) would answer 429 within seconds at these rates.
  const q = await startQuire({ dataDir: opts.dataDir, extraEnv: { QUIRE_RATE_LIMIT: '0', ...(READ_CACHE_MB ? { QUIRE_READ_CACHE_MB: READ_CACHE_MB } : {}) }, ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) });
  return { origin: q.origin, pid: q.process.pid!, key: q.key, stop: q.stop };
}

/**
 * Quire started like startQuire does, but as `node --cpu-prof --import tsx src/main.ts serve`; the
 * profile is written when the server exits (SIGTERM, which the server answers with process.exit).
 */
async function startProfiledServer(opts: { dataDir: string; databaseUrl?: string; profDir: string }): Promise<Server & { key: string }> {
  const port = await freePort();
  const key = `bench-key-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    QUIRE_DATA_DIR: opts.dataDir,
    QUIRE_BOOTSTRAP_KEY: key,
    QUIRE_LOG_LEVEL: 'warn',
    QUIRE_RATE_LIMIT: '0',
    ...(READ_CACHE_MB ? { QUIRE_READ_CACHE_MB: READ_CACHE_MB } : {}),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl, QUIRE_SECRET_KEY: SECRET_KEY } : {}),
  };
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${opts.profDir}`, '--import', 'tsx', MAIN, 'serve'], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = waitForExit(child);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`profiled quire did not become healthy:\n${output}`);
    }
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    pid: child.pid!,
    key,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * CPU seconds used so far by the PostgreSQL cluster listening on `port`: its postmaster, the
 * postmaster's live children (backends, workers) and the children that have ended.
 */
function postgresCpuSeconds(port: number): number {
  const [master, ...children] = postgresPids(port);
  if (master === undefined) return NaN;
  return children.reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), cpuSeconds(master, true));
}

/** The PostgreSQL postmaster listening on `port` and all its children (backends, workers). */
function postgresPids(port: number): number[] {
  const all: { pid: number; ppid: number; cmd: string }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      all.push({ pid: Number(name), ppid, cmd });
    } catch {
      // the process ended meanwhile
    }
  }
  const master = all.find((p) => /\bpostgres\b/.test(p.cmd) && p.cmd.includes(`-p ${port} `));
  return master ? [master.pid, ...all.filter((p) => p.ppid === master.pid).map((p) => p.pid)] : [];
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Measurement {
  route: string;
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  bytesPerResponse: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  /** Share of one core the server process used during the measurement. */
  serverCpu: number;
  /** Share of one core this process (autocannon) used during the measurement. */
  clientCpu: number;
  /** Share of one core the PostgreSQL processes used (0 for SQLite, which runs inside the server). */
  dbCpu: number;
  /**
   * Share of one core used by everything else on the machine (other jobs, interrupts not charged to
   * any process): more than a few percent means the figures are disturbed.
   */
  otherCpu: number;
}

/** The monotonic-clock window (µs, the clock of V8's CPU profiles) of the last measurement. */
let lastWindowUs: [number, number] = [0, 0];

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Waits (up to BENCH_QUIET_WAIT s, default 180) until the machine is idle: less than a fifth of a
 * core busy over one second. A shared 2-core machine running something else skews every figure.
 */
async function waitForQuiet(): Promise<void> {
  const limit = Date.now() + 1000 * envNumber('BENCH_QUIET_WAIT', 180);
  let said = false;
  for (;;) {
    const b0 = machineBusySeconds();
    const own0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1000));
    const busy = machineBusySeconds() - b0 - process.cpuUsage(own0).user / 1e6 - process.cpuUsage(own0).system / 1e6;
    if (!(busy > 0.2)) return;
    if (Date.now() > limit) {
      console.log(`  the machine is still busy (${Math.round(100 * busy)}% of a core used by other processes): measuring anyway`);
      return;
    }
    if (!said) console.log(`  waiting for the machine to be quiet (${Math.round(100 * busy)}% of a core used by other processes)`);
    said = true;
  }
}

/** Share of a core used by other processes above which a measurement is taken again. */
const DISTURBED = 0.15;

/** Measures once, and again (up to BENCH_RETRIES times, default 2) while other processes disturb it. */
async function measure(
  route: string,
  target: Parameters<typeof measureOnce>[1],
  connections = CONNECTIONS,
): Promise<Measurement> {
  const retries = Math.round(envNumber('BENCH_RETRIES', 2));
  for (let attempt = 0; ; attempt++) {
    const m = await measureOnce(route, target, connections);
    if (m.otherCpu <= DISTURBED || attempt >= retries) return m;
    console.log(`  ${route}: other processes used ${Math.round(100 * m.otherCpu)}% of a core meanwhile; measuring again`);
  }
}

async function measureOnce(
  route: string,
  target: { url: string; pid: number; dbCpu?: () => number; headers?: Record<string, string>; requests?: AcRequest[] },
  connections = CONNECTIONS,
): Promise<Measurement> {
  const base = { url: target.url, connections, headers: target.headers ?? {}, ...(target.requests ? { requests: target.requests } : {}) };
  await waitForQuiet();
  if (WARMUP > 0) await autocannon({ ...base, duration: WARMUP });

  // autocannon's own histogram has 1 ms resolution; keep every 2xx latency to get exact percentiles.
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let bytes = 0;
  const dbCpu = target.dbCpu ?? (() => 0);
  const cpu0 = cpuSeconds(target.pid);
  const db0 = dbCpu();
  const own0 = process.cpuUsage();
  const busy0 = machineBusySeconds();
  const w0 = Number(process.hrtime.bigint() / 1000n);
  const t0 = performance.now();
  const instance = autocannon({ ...base, duration: DURATION });
  instance.on('response', (_client: unknown, status: number, resBytes: number, ms: number) => {
    if (status < 200 || status > 299) return;
    if (n === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[n++] = ms;
    bytes += resBytes;
  });
  const r: AcResult = await instance;
  const elapsed = (performance.now() - t0) / 1000;
  lastWindowUs = [w0, Number(process.hrtime.bigint() / 1000n)];
  const cpu1 = cpuSeconds(target.pid);
  const own = process.cpuUsage(own0);
  const busy = machineBusySeconds() - busy0;
  const db = dbCpu() - db0;
  const sorted = latencies.slice(0, n).sort();
  return {
    route,
    connections,
    durationS: r.duration,
    requests: n,
    reqPerSec: n / r.duration,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? NaN,
    bytesPerResponse: n ? Math.round(bytes / n) : 0,
    errors: r.errors,
    non2xx: r.non2xx,
    timeouts: r.timeouts,
    serverCpu: (cpu1 - cpu0) / elapsed,
    clientCpu: (own.user + own.system) / 1e6 / elapsed,
    dbCpu: db / elapsed,
    otherCpu: Math.max(0, (busy - (cpu1 - cpu0) - db - (own.user + own.system) / 1e6) / elapsed),
  };
}

// ---------------------------------------------------------------------------------------------
// CPU profiles (--profile)

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const src = url.indexOf('/src/');
  if (src >= 0) return 'quire ' + url.slice(src + 1).split('/').slice(0, -1).join('/');
  return url;
}

interface ProfileSummary {
  samples: number;
  selfByFunction: { fn: string; pct: number }[];
  selfByArea: { area: string; pct: number }[];
  totalByArea: { area: string; pct: number }[];
}

/** Where the profiled process spent its CPU time within `window` (µs, monotonic clock). */
function summariseProfile(file: string, window: [number, number], top = 25): ProfileSummary {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: CpuProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const short = url.replace(/^file:\/\//, '').replace(ROOT + '/', '').replace(/^.*node_modules\//, '');
    return `${functionName || '(anonymous)'}${short ? ` ${short}:${lineNumber + 1}` : ''}`;
  };
  const selfFn = new Map<string, number>();
  const selfArea = new Map<string, number>();
  const totalArea = new Map<string, number>();
  let counted = 0;
  let t = prof.startTime;
  for (const [i, id] of prof.samples.entries()) {
    t += prof.timeDeltas[i] ?? 0;
    if (t < window[0] || t > window[1]) continue;
    const node = byId.get(id);
    if (!node) continue;
    const fn = node.callFrame.functionName;
    if (fn === '(idle)') continue;
    counted++;
    selfFn.set(label(node), (selfFn.get(label(node)) ?? 0) + 1);
    const area = areaOf(node.callFrame.url, fn);
    selfArea.set(area, (selfArea.get(area) ?? 0) + 1);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const c = byId.get(cur)!;
      if (c.callFrame.functionName === '(root)') continue;
      seen.add(areaOf(c.callFrame.url, c.callFrame.functionName));
    }
    for (const a of seen) totalArea.set(a, (totalArea.get(a) ?? 0) + 1);
  }
  const rank = <K extends string>(m: Map<string, number>, key: K, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, c]) => ({ [key]: name, pct: Math.round((1000 * c) / counted) / 10 }) as { [P in K]: string } & { pct: number });
  return {
    samples: counted,
    selfByFunction: rank(selfFn, 'fn', top),
    selfByArea: rank(selfArea, 'area', 15),
    totalByArea: rank(totalArea, 'area', 15),
  };
}

function printProfile(route: string, s: ProfileSummary): void {
  console.log(`\n  CPU profile of the server while measuring ${route} (${s.samples} non-idle samples of 1 ms)`);
  console.log('  self time by area:   ' + s.selfByArea.map((a) => `${a.area} ${a.pct}%`).join(', '));
  console.log('  on stack, by area:   ' + s.totalByArea.map((a) => `${a.area} ${a.pct}%`).join(', '));
  console.log('  top functions by self time:');
  for (const f of s.selfByFunction) console.log(`    ${f.pct.toFixed(1).padStart(5)}%  ${f.fn}`);
}

// ---------------------------------------------------------------------------------------------
// One run against one database

type Database = 'sqlite' | 'postgres';

interface RunResult {
  database: Database;
  /** Whether the bench gathered planner statistics (always for PostgreSQL; SQLite with --analyze). */
  analyzed: boolean;
  documents: number;
  seedSeconds: number;
  statusCounts: Record<string, number>;
  plan: string[];
  bodyBytes: number;
  profiled: boolean;
  measurements: Measurement[];
  byIdRatio: number;
  pass: { byIdRatio: boolean; listP99: boolean } | null;
  profiles?: Record<string, ProfileSummary>;
}

async function runOne(database: Database): Promise<RunResult> {
  console.log(`\n== ${database}: seeding ${DOCS.toLocaleString('en-US')} documents`);
  // Kept: in the real temp directory, not in the scratch folder test/helpers/quire.ts removes at exit.
  const dataDir = KEEP_DATA ? fs.mkdtempSync(path.join(outerTmpdir(), 'quire-bench-')) : tempDir('quire-bench-');
  if (KEEP_DATA) console.log(`  data directory (kept, BENCH_KEEP_DATA=1): ${dataDir}`);
  let databaseUrl: string | undefined;
  let dbCpu: (() => number) | undefined;
  let seeded: Seeded;
  if (database === 'sqlite') {
    const file = path.join(dataDir, 'quire.db');
    seeded = await seed({ kind: 'sqlite', file });
    if (flags.analyze) {
      const db = new Libsql(file);
      db.exec('ANALYZE');
      db.close();
      console.log('  ran ANALYZE (--analyze)');
    }
  } else {
    const cluster: PgCluster = await startPgCluster();
    onCleanUp(() => cluster.stop());
    databaseUrl = await cluster.createDatabase('quire_bench');
    const pgPort = Number(new URL(databaseUrl).port);
    dbCpu = () => postgresCpuSeconds(pgPort);
    seeded = await seed({ kind: 'postgres', url: databaseUrl });
    // What autovacuum does within a minute of a bulk load; without it the first minutes plan blind.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('analyze');
    await client.end();
  }

  const profDir = flags.profile ? tempDir('quire-bench-prof-') : '';
  const start = () =>
    flags.profile
      ? startProfiledServer({ dataDir, profDir, ...(databaseUrl ? { databaseUrl } : {}) })
      : startServer({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });

  let quire = await start();
  let stopQuire = quire.stop;
  onCleanUp(() => stopQuire());

  // The plans of the two queries as the running server's database sees them (after whatever the
  // server does at start-up, such as gathering statistics).
  const plan = databaseUrl ? await postgresPlan(databaseUrl, seeded.workspaceId) : sqlitePlan(path.join(dataDir, 'quire.db'), seeded.workspaceId);
  for (const line of plan) console.log(`  plan ${line}`);
  const auth = () => ({ authorization: `Bearer ${quire.key}` });

  // The body the bare route answers: the real response of one document, byte for byte.
  const res = await fetch(`${quire.origin}/v1preview1/documents/${seeded.sampleId}`, { headers: auth() });
  if (!res.ok) throw new Error(`GET /documents/${seeded.sampleId}: ${res.status} ${await res.text()}`);
  const body = await res.text();
  const bodyBytes = Buffer.byteLength(body);
  const bodyFile = path.join(tempDir('quire-bench-body-'), 'body.json');
  fs.writeFileSync(bodyFile, body);
  const bare = await startBare(bodyFile);
  onCleanUp(() => bare.stop());
  const bareBody = await (await fetch(`${bare.origin}/bare`)).text();
  if (Buffer.byteLength(bareBody) !== bodyBytes) throw new Error(`bare body is ${Buffer.byteLength(bareBody)} bytes, expected ${bodyBytes}`);
  const listRes = await fetch(`${quire.origin}/v1preview1/documents?${LIST_QUERY}`, { headers: auth() });
  const listJson = (await listRes.json()) as { documents?: unknown[] };
  if (!listRes.ok || listJson.documents?.length !== 100) throw new Error(`GET /documents?${LIST_QUERY}: ${listRes.status}, ${listJson.documents?.length} documents`);
  console.log(`  document body ${bodyBytes} bytes; list body ${Buffer.byteLength(JSON.stringify(listJson))} bytes`);

  // GET-by-id rotates over ID_POOL ids spread evenly over the whole corpus.
  const step = Math.max(1, Math.floor(seeded.ids.length / ID_POOL));
  const pool = seeded.ids.filter((_, i) => i % step === 0);
  let next = 0;
  const byIdRequests: AcRequest[] = [
    {
      method: 'GET',
      setupRequest: (req) => {
        next = (next + 7919) % pool.length;
        return { ...req, path: `/v1preview1/documents/${pool[next]}` };
      },
    },
  ];

  const measurements: Measurement[] = [];
  const profiles: Record<string, ProfileSummary> = {};
  const show = (m: Measurement) =>
    console.log(
      `  ${m.route.padEnd(44)} ${m.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${m.p50Ms.toFixed(2)} ms  p99 ${m.p99Ms.toFixed(2)} ms  server cpu ${(100 * m.serverCpu).toFixed(0)}%${m.dbCpu ? `  postgres cpu ${(100 * m.dbCpu).toFixed(0)}%` : ''}  client cpu ${(100 * m.clientCpu).toFixed(0)}%  other cpu ${(100 * m.otherCpu).toFixed(0)}%` +
        (m.errors || m.non2xx || m.timeouts ? `  ERRORS ${m.errors} non2xx ${m.non2xx} timeouts ${m.timeouts}` : ''),
    );
  /** With --profile every Quire route gets a fresh profiled server, so each profile is one route's. */
  const quireRoute = async (route: string, fn: () => Promise<Measurement>) => {
    if (flags.profile && measurements.some((m) => m.route !== 'bare')) {
      await quire.stop();
      quire = await start();
      stopQuire = quire.stop;
    }
    const m = await fn();
    measurements.push(m);
    show(m);
    if (flags.profile) {
      const before = new Set(fs.readdirSync(profDir));
      await quire.stop();
      const file = fs.readdirSync(profDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
      if (file) {
        const key = `${route} (${m.connections} connections)`;
        const summary = summariseProfile(path.join(profDir, file), lastWindowUs);
        profiles[key] = summary;
        printProfile(key, summary);
      } else console.log('  (no CPU profile was written)');
    }
  };

  console.log(`== ${database}: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per route${flags.profile ? ' (profiled)' : ''}`);
  const bareM = await measure('bare', { url: `${bare.origin}/bare`, pid: bare.pid });
  measurements.push(bareM);
  show(bareM);
  const byIdRoute = 'GET /documents/{id}';
  await quireRoute(byIdRoute, () => measure(byIdRoute, { url: quire.origin, pid: quire.pid, dbCpu, headers: auth(), requests: byIdRequests }));
  const listRoute = `GET /documents?${LIST_QUERY}`;
  await quireRoute(listRoute, () => measure(listRoute, { url: `${quire.origin}/v1preview1/documents?${LIST_QUERY}`, pid: quire.pid, dbCpu, headers: auth() }));
  if (CONNECTIONS !== 1) {
    // The list's latency when it is not queued behind other requests.
    await quireRoute(listRoute, () => measure(listRoute, { url: `${quire.origin}/v1preview1/documents?${LIST_QUERY}`, pid: quire.pid, dbCpu, headers: auth() }, 1));
  }
  if (!flags.profile) await quire.stop();
  await bare.stop();

  const byId = measurements.find((m) => m.route === byIdRoute)!;
  const list = measurements.find((m) => m.route === listRoute && m.connections === CONNECTIONS)!;
  const byIdRatio = byId.reqPerSec / bareM.reqPerSec;
  return {
    database,
    analyzed: database === 'postgres' || (flags.analyze ?? false),
    documents: DOCS,
    seedSeconds: seeded.seconds,
    statusCounts: seeded.counts,
    plan,
    bodyBytes,
    profiled: flags.profile ?? false,
    measurements,
    byIdRatio,
    pass: flags.profile ? null : { byIdRatio: byIdRatio >= TARGET_BY_ID_RATIO, listP99: list.p99Ms <= TARGET_LIST_P99_MS },
    ...(flags.profile ? { profiles } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function printTable(results: RunResult[]): void {
  const rows: string[][] = [['db', 'route', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'bytes/resp', 'server cpu', 'pg cpu', 'other cpu', 'vs bare', 'target']];
  for (const r of results) {
    const bare = r.measurements.find((m) => m.route === 'bare')!;
    r.measurements.forEach((m, i) => {
      let target = '';
      if (m.route.startsWith('GET /documents/{id}')) {
        target = `ratio ≥ ${TARGET_BY_ID_RATIO}: ${r.pass ? (r.pass.byIdRatio ? 'PASS' : 'FAIL') : 'n/a (profiled)'}`;
      } else if (m.route.startsWith('GET /documents?') && m.connections === CONNECTIONS) {
        target = `p99 ≤ ${TARGET_LIST_P99_MS} ms: ${r.pass ? (r.pass.listP99 ? 'PASS' : 'FAIL') : 'n/a (profiled)'}`;
      }
      rows.push([
        i === 0 ? (r.database === 'sqlite' && r.analyzed ? 'sqlite+analyze' : r.database) : '',
        m.route,
        String(m.connections),
        m.reqPerSec.toFixed(0),
        m.p50Ms.toFixed(2),
        m.p99Ms.toFixed(2),
        String(m.bytesPerResponse),
        `${(100 * m.serverCpu).toFixed(0)}%`,
        r.database === 'postgres' && m.route !== 'bare' ? `${(100 * m.dbCpu).toFixed(0)}%` : '',
        `${(100 * m.otherCpu).toFixed(0)}%`,
        m.route === 'bare' ? '1.00' : (m.reqPerSec / bare.reqPerSec).toFixed(2),
        target,
      ]);
    });
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log('');
  for (const [i, r] of rows.entries()) {
    console.log(r.map((v, c) => (c >= 2 && c <= 10 ? v.padStart(widths[c]!) : v.padEnd(widths[c]!))).join('  ').trimEnd());
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

async function main(): Promise<void> {
  const databases: Database[] = flags['postgres-only'] ? ['postgres'] : flags.postgres ? ['sqlite', 'postgres'] : ['sqlite'];
  const started = new Date();
  const git = gitState();
  if (git) console.log(`measuring commit ${git.commit.slice(0, 12)}${git.srcDirty ? ' with uncommitted changes under src/' : ''}`);
  const results: RunResult[] = [];
  try {
    for (const db of databases) {
      results.push(await runOne(db));
      await cleanUp();
    }
  } finally {
    await cleanUp();
  }
  printTable(results);
  const out = {
    date: started.toISOString(),
    command: `npx tsx bench/api/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    git,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    settings: { documents: DOCS, connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP, listQuery: LIST_QUERY, idPool: ID_POOL, readCacheMb: READ_CACHE_MB ?? 'default' },
    targets: { byIdRatioMin: TARGET_BY_ID_RATIO, listP99MaxMs: TARGET_LIST_P99_MS },
    results,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `api-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nresults: ${path.relative(ROOT, file)}`);
  const disturbed = results.flatMap((r) => r.measurements).filter((m) => m.otherCpu > DISTURBED);
  if (disturbed.length) {
    console.log(`warning: other processes used CPU during ${disturbed.map((m) => `${m.route} (${Math.round(100 * m.otherCpu)}%)`).join(', ')}; those figures are disturbed`);
  }
  const failed = results.some((r) => r.pass && (!r.pass.byIdRatio || !r.pass.listP99));
  if (failed) console.log('targets: NOT MET (see FAIL above)');
  else if (results.every((r) => r.pass)) console.log('targets: met');
}

main().catch(async (err: unknown) => {
  console.error((err as Error)?.stack ?? String(err));
  await cleanUp();
  process.exit(1);
});
