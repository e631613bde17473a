import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { atExit, scratchDir, scratchEnv } from './scratch.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS = path.resolve(ROOT, '../shared/corpus');
const MAIN = path.join(ROOT, 'src/main.ts');
/** tsx's loader by URL, so a CLI run from another folder still finds it. */
const TSX = import.meta.resolve('tsx');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Kills `child` (SIGKILL) if it is still running when the test process exits. */
function killAtExit(child: ChildProcess): void {
  const forget = atExit(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.once('exit', forget);
}

/** Runs the real CLI (`quire …`, from source through tsx) with the given environment (TMPDIR in the scratch folder unless it sets one). */
/** Runs `quire ARGS` (src/main.ts through tsx) in `cwd` (default the checkout). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { env: withSecretKey({ ...scratchEnv(), ...env }), cwd });
    killAtExit(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Quire {
  /** `{public}/v1preview1` */
  api: string;
  origin: string;
  key: string;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  process: ChildProcess;
  logs: () => string;
  cli: (args: string[]) => Promise<CliResult>;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop: () => Promise<number | null>;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

export interface StartOptions {
  databaseUrl?: string;
  dataDir?: string;
  extraEnv?: NodeJS.ProcessEnv;
  /** The command line after `main.ts` (default `['serve']`). */
  args?: string[];
}

/**
 * Optimising all of PDFium at start costs ~4 core-seconds, and a run starts dozens of servers and
 * workers on 2 cores; the DGML corpus test runs with the default (`optimized`). The analysing
 * threads' warm-up (half a core-second each) is off for the same reason; test/unit/warm-up.test.ts
 * runs it.
 */
const TEST_PDFIUM = { QUIRE_PDFIUM_COMPILE: 'lazy', QUIRE_ANALYSIS_WARM_UP_MS: '0' };

/**
 * PostgreSQL needs QUIRE_SECRET_KEY (webhook secrets are sealed with it, and every process sharing
 * the database must have the same one): one key for every process this test file starts. SQLite
 * servers keep the default, a key generated into their data directory.
 */
export const TEST_SECRET_KEY = randomBytes(32).toString('base64');
export function withSecretKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.DATABASE_URL && env.QUIRE_SECRET_KEY === undefined && env.QUIRE_SECRET_KEY_FILE === undefined ? { ...env, QUIRE_SECRET_KEY: TEST_SECRET_KEY } : env;
}

/**
 * How long a process may take to start. Alone a server is healthy in a few seconds (tsx compiles
 * its modules), but the cluster test starts two servers and two workers at once on two cores, and
 * then a server takes 15-25 s; 30 s was once not enough on a busy host.
 */
const START_DEADLINE_MS = 60_000;

/**
 * Starts a real Quire server process on a free port with a fresh data directory. The data directory
 * and the server's TMPDIR are in the test file's scratch folder, and a server still running when the
 * test process exits is killed: nothing outlives the file.
 */
export async function startQuire(opts: StartOptions = {}): Promise<Quire> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? scratchDir('server-');
  const key = opts.extraEnv?.QUIRE_BOOTSTRAP_KEY ?? `test-key-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const env: NodeJS.ProcessEnv = withSecretKey({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    QUIRE_DATA_DIR: dataDir,
    QUIRE_BOOTSTRAP_KEY: key,
    QUIRE_LOG_LEVEL: 'warn',
    ...scratchEnv(),
    ...TEST_PDFIUM,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.extraEnv,
  });
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...(opts.args ?? ['serve'])], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  killAtExit(child);
  let output = '';
  // QUIRE_TEST_SERVER_LOGS=1 echoes every test server's output, to see why a request failed.
  const echo = process.env.QUIRE_TEST_SERVER_LOGS === '1';
  const take = (d: Buffer) => {
    output += d;
    if (echo) process.stderr.write(d);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_DEADLINE_MS;
  let ready = false;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const r = await fetch(`${origin}/healthz`);
      if (r.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`quire did not become healthy:\n${output}`);
  }
  return {
    api: `${origin}/v1preview1`,
    origin,
    key,
    env,
    dataDir,
    process: child,
    logs: () => output,
    cli: (args) => runCli(args, env),
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      // A 500 says only that it was logged: show the log line in the test run's output.
      const failures = output.split('\n').filter((l) => l.includes('"msg":"request failed"') && l.includes('"level":50'));
      if (failures.length) process.stderr.write(`quire server on port ${port} logged ${failures.length} failed request(s):\n${failures.join('\n')}\n`);
      return code;
    },
  };
}

export interface QuireWorker {
  process: ChildProcess;
  pid: number;
  logs: () => string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop: () => Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts a `quire worker` process (jobs only, no HTTP) with `env` (typically a server's env, so it
 * shares its database and storage) and its own data directory, and waits until its workers have
 * started. It logs at `info`: one line per document made Ready, and the line its start is seen by.
 */
export async function startWorker(env: NodeJS.ProcessEnv, opts: { dataDir?: string } = {}): Promise<QuireWorker> {
  const dataDir = opts.dataDir ?? scratchDir('worker-');
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'worker'], {
    env: withSecretKey({ ...scratchEnv(), ...TEST_PDFIUM, ...env, QUIRE_LOG_LEVEL: 'info', QUIRE_DATA_DIR: dataDir }),
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAtExit(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + START_DEADLINE_MS;
  while (!output.includes('job consumers started')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`quire worker did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    process: child,
    pid: child.pid!,
    logs: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
