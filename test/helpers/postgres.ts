import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import type { Config } from '../../src/runtime/config.js';
import { freePort } from './quire.js';
import { atExit, scratchDir } from './scratch.js';

export interface PgCluster {
  /** A URL for a new, empty database in the cluster. */
  createDatabase: (name: string) => Promise<string>;
  /** Stops the server (fast shutdown: sessions are terminated) and keeps its data, for `resume`. */
  halt: () => void;
  /** Starts the halted server again on the same port. */
  resume: () => void;
  stop: () => void;
}

/** The directory holding initdb and pg_ctl, or null when PostgreSQL's server binaries are absent. */
export function findPgBin(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb']).stdout?.toString().trim();
  if (onPath) return path.dirname(onPath);
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/**
 * Starts a throwaway PostgreSQL cluster in the test file's scratch folder on a free loopback port.
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user the Debian package
 * creates. A cluster not stopped when the test process exits is stopped then (its folder goes with
 * the scratch folder).
 */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found');
  const dir = scratchDir('pg-');
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  // Its own folder as TMPDIR: the `postgres` user may not write to the test process's.
  const env = { ...process.env, TMPDIR: dir };
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['runuser', '-u', 'postgres', '--', path.join(bin, cmd), ...args] : [path.join(bin, cmd), ...args];
    execFileSync(full[0]!, full.slice(1), { stdio: 'pipe', env });
  };
  let running = false;
  const forget = atExit(() => {
    if (running) run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
  });
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'quire', '-E', 'UTF8', '--no-sync', '--locale=C.UTF-8']);
  const port = await freePort();
  // Dynamic shared memory in the data directory (`mmap`), not in /dev/shm: an immediate stop, like a
  // crash, leaves its segments behind, and there they go with the directory.
  const start = () => {
    running = true;
    run('pg_ctl', [
      '-D', dataDir, '-l', path.join(dir, 'log'), '-w', '-t', '60',
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c dynamic_shared_memory_type=mmap`,
      'start',
    ]);
  };
  start();
  const adminUrl = `postgres://quire@127.0.0.1:${port}/postgres`;
  return {
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://quire@127.0.0.1:${port}/${name}`;
    },
    halt: () => {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    resume: start,
    stop: () => {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        running = false;
      } finally {
        forget();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Registers `suite` for SQLite (a fresh file) and for PostgreSQL (a throwaway cluster with database
 * `pgDatabase`); without PostgreSQL's server binaries the PostgreSQL suite is one skipped test saying why.
 */
export function onBothDatabases(
  title: string,
  pgDatabase: string,
  suite: (dialect: 'SQLite' | 'PostgreSQL', database: () => Promise<Config['database']>, teardown: () => Promise<void>) => void,
): void {
  suite('SQLite', async () => ({ kind: 'sqlite', file: path.join(scratchDir(`${pgDatabase}-`), 'quire.db') }), async () => {});
  if (!findPgBin()) {
    describe(`${title} (PostgreSQL)`, () => {
      test('PostgreSQL', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
    });
    return;
  }
  let cluster: PgCluster | undefined;
  suite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return { kind: 'postgres', url: await cluster.createDatabase(pgDatabase) };
    },
    async () => cluster?.stop(),
  );
}
