// Quire as `npm start` runs it (`node dist/main.js serve`, compiled JS, no tsx), started the way
// test/helpers' startQuire starts the source: free port, fresh data directory, bootstrap key.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, freePort } from '../../test/helpers/quire.js';

export interface DistQuire {
  api: string;
  origin: string;
  key: string;
  process: ReturnType<typeof spawn>;
  logs: () => string;
  stop: () => Promise<number | null>;
}

export const DIST_MAIN = path.join(ROOT, 'dist/main.js');

/** Fails with a clear message when dist/ is missing or older than src/ (run `npm run build`). */
export function checkDist(): void {
  if (!fs.existsSync(DIST_MAIN)) throw new Error('dist/main.js does not exist: run `npm run build` first (--dist measures the built service).');
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }, 0);
  if (newest(path.join(ROOT, 'src')) > fs.statSync(DIST_MAIN).mtimeMs) {
    console.log('  warning: src/ has files newer than dist/main.js; `npm run build` to measure the current source');
  }
}

/** `main`: another build's dist/main.js (a worktree of another commit), run from its own root; default this one's. */
export async function startDistQuire(opts: { dataDir?: string; args?: string[]; extraEnv?: NodeJS.ProcessEnv; nodeArgs?: string[]; main?: string } = {}): Promise<DistQuire> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const key = `bench-key-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    QUIRE_DATA_DIR: dataDir,
    QUIRE_BOOTSTRAP_KEY: key,
    QUIRE_LOG_LEVEL: 'warn',
    ...opts.extraEnv,
  };
  const main = opts.main ?? DIST_MAIN;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), main, ...(opts.args ?? ['serve'])], { env, cwd: path.resolve(path.dirname(main), '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`quire (dist) did not become healthy:\n${output}`);
    }
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    api: `${origin}/v1preview1`,
    origin,
    key,
    process: child,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Uploads one document (`POST /documents/content`, multipart) and returns its id; throws unless 201. */
export async function uploadDocument(q: { api: string; key: string }, name: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const r = await fetch(`${q.api}/documents/content`, { method: 'POST', body: form, headers: { authorization: `Bearer ${q.key}` } });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`upload of ${name}: ${r.status} ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

/**
 * A second workspace on the server's database and an admin key of it (`quire workspaces create`,
 * `quire keys create`), run with `env`: the server's database settings (QUIRE_DATA_DIR, DATABASE_URL…).
 */
export function createWorkspaceKey(env: NodeJS.ProcessEnv, name: string): string {
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [DIST_MAIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, QUIRE_LOG_LEVEL: 'warn', ...env }, cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`quire ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  run(['workspaces', 'create', name]);
  return run(['keys', 'create', '--workspace', name, '--scopes', 'admin', '--name', `${name}-bench`]);
}
