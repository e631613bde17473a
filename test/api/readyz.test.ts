/**
 * /readyz over real HTTP: every dependency is probed (database, storage, queue); one that cannot be
 * reached makes a 503 naming it (and nothing of why: that is logged), and readiness comes back with
 * it. The probes only read: /readyz answers while another connection holds SQLite's write lock, or
 * holds PostgreSQL tables in SHARE mode (which only writers wait for).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'libsql';
import pg from 'pg';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { startQuire, type Quire } from '../helpers/quire.js';

describe('readiness', () => {
  let q: Quire;
  before(async () => {
    q = await startQuire({});
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('200 with each dependency ok; storage gone: 503 naming it; back: 200', async () => {
    const ok = await fetch(`${q.origin}/readyz`);
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });

    // The blob directory replaced by a file: the storage probe cannot look inside it.
    const blobs = path.join(q.dataDir, 'blobs');
    const aside = `${blobs}.aside`;
    fs.mkdirSync(blobs, { recursive: true });
    fs.renameSync(blobs, aside);
    fs.writeFileSync(blobs, 'not a directory');
    try {
      const down = await fetch(`${q.origin}/readyz`);
      assert.equal(down.status, 503);
      assert.ok(down.headers.get('retry-after'));
      const body = (await down.json()) as { status: string; failed: string[]; checks: Record<string, string> };
      assert.equal(body.status, 'unavailable');
      assert.deepEqual(body.failed, ['storage']);
      assert.equal(body.checks.storage, 'failed');
      assert.equal(body.checks.database, 'ok');
      const text = JSON.stringify(body);
      assert.ok(!text.includes(q.dataDir) && !/directory|ENOTDIR|Error/i.test(text), `internal text in ${text}`);
      for (let i = 0; i < 50 && !/readiness check failed/.test(q.logs()); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(q.logs(), /not a directory.*readiness check failed/, 'why is logged');
      assert.equal((await fetch(`${q.origin}/healthz`)).status, 200, 'liveness is not readiness');
    } finally {
      fs.rmSync(blobs);
      fs.renameSync(aside, blobs);
    }
    assert.equal((await fetch(`${q.origin}/readyz`)).status, 200);
  });

  test('read-only: 200 while another connection holds the database write lock', async () => {
    const other = new Database(path.join(q.dataDir, 'quire.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      const r = await fetch(`${q.origin}/readyz`);
      assert.equal(r.status, 200, await r.text());
      assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('readiness on PostgreSQL', { skip: findPgBin() ? false : 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {
  let cluster: PgCluster;
  let url: string;
  let q: Quire;
  before(async () => {
    cluster = await startPgCluster();
    url = await cluster.createDatabase('quire_readyz');
    q = await startQuire({ databaseUrl: url });
  });
  after(async () => {
    const code = await q?.stop();
    cluster?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('read-only: 200 while another transaction holds a lock only writers wait for', async () => {
    assert.equal((await fetch(`${q.origin}/readyz`)).status, 200);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // SHARE mode lets every reader through and makes every INSERT, UPDATE and DELETE wait.
      await admin.query('BEGIN');
      for (const table of ['settings', 'workspaces', 'api_keys', 'documents']) await admin.query(`LOCK TABLE ${table} IN SHARE MODE`);
      const started = Date.now();
      const ready = await fetch(`${q.origin}/readyz`);
      const body = await ready.text();
      assert.equal(ready.status, 200, body);
      assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
      assert.deepEqual(JSON.parse(body), { status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });
    } finally {
      await admin.query('ROLLBACK');
      await admin.end();
    }
  });
});
