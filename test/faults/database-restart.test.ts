/**
 * PostgreSQL restarts underneath a running Quire: while the database is down every request that
 * needs it answers 503 Problem JSON with `retry-after` (never a 500, never a hang), nothing is half
 * stored, and once the database is back the same process serves again, ingestion included.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startQuire, type Quire } from '../helpers/quire.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { assertJson, assertProblem, client, until, type Client, type Res } from '../helpers/http.js';

const SETTLED = ['Ready', 'Error', 'OverQuota'];

/** Asserts the outage answer: 503 Problem JSON, a positive integer `retry-after`, and quickly. */
async function assertOutage(what: string, send: () => Promise<Res>) {
  const started = Date.now();
  const res = await send();
  const took = Date.now() - started;
  assertProblem(res, 503, /database/i);
  assert.match(res.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/, `${what}: retry-after missing`);
  assert.ok(took < 12_000, `${what} took ${took} ms during the outage (a hang)`);
}

if (!findPgBin()) {
  describe('faults: PostgreSQL restart', () => {
    test('PostgreSQL restart', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
} else {
  describe('faults: PostgreSQL restarts underneath the running service', () => {
    let cluster: PgCluster;
    let q: Quire;
    let c: Client;

    before(async () => {
      cluster = await startPgCluster();
      q = await startQuire({ databaseUrl: await cluster.createDatabase('quire_faults_db'), extraEnv: { QUIRE_JOB_POLL_MS: '200' } });
      c = client(q.api, q.key);
    });

    after(async () => {
      try {
        const code = await q?.stop();
        assert.equal(code, 0, q?.logs());
      } finally {
        cluster?.stop();
      }
    });

    test('503 + retry-after during the outage, the same process serving again after it', async () => {
      const first = await c.upload({ bytes: 'stored before the outage\n', name: 'before.txt' });
      assertJson(first, 201);
      const id = first.json.id as string;
      // A running service: its workers started and the first document ingested.
      const ready = await until('the first document to settle', async () => {
        const d = (await c.get(`/documents/${id}`)).json;
        return SETTLED.includes(d.status) ? d : undefined;
      }, 60_000);
      assert.equal(ready.status, 'Ready', JSON.stringify(ready));
      const pid = q.process.pid;

      cluster.halt();
      try {
        await assertOutage('GET /documents/{id}', () => c.get(`/documents/${id}`));
        await assertOutage('GET /documents', () => c.get('/documents'));
        await assertOutage('POST /documents/content', () => c.upload({ bytes: 'sent during the outage\n', name: 'during.txt' }));
        await assertOutage('POST /docsets', () => c.post('/docsets', { json: { name: 'during' } }));
        // A little later (pool clients discarded, reconnects refused): still 503, not 500.
        await new Promise((r) => setTimeout(r, 1500));
        await assertOutage('GET /documents/{id} again', () => c.get(`/documents/${id}`));
        const probe = await fetch(`${q.origin}/readyz`);
        assert.equal(probe.status, 503);
        assert.ok(probe.headers.get('retry-after'));
        assert.equal(q.process.exitCode, null, `the process died during the outage:\n${q.logs()}`);
      } finally {
        cluster.resume();
      }

      // Back without restarting Quire.
      const back = await until('the first request to succeed after the restart', async () => {
        const r = await c.get(`/documents/${id}`);
        if (r.status === 200) return r;
        assertProblem(r, 503);
        return undefined;
      }, 30_000, 250);
      assert.equal(back.json.id, id);
      assert.equal(q.process.pid, pid);
      assert.equal(q.process.exitCode, null);
      assert.equal((await fetch(`${q.origin}/readyz`)).status, 200);

      // Nothing of the refused requests was kept: one document, no docset, no staged bytes.
      const docs = (await c.get('/documents?limit=100')).json.documents as { id: string }[];
      assert.deepEqual(docs.map((d) => d.id), [id]);
      assert.deepEqual((await c.get('/docsets')).json.docsets, []);
      const staging = path.join(q.dataDir, 'blobs', '.staging');
      assert.deepEqual(fs.existsSync(staging) ? fs.readdirSync(staging) : [], []);

      // Writes and the job queue work again: a new upload is ingested to Ready.
      const later = await c.upload({ bytes: 'stored after the outage\n'.repeat(20), name: 'after.txt' });
      assertJson(later, 201);
      const done = await until('the new document to settle', async () => {
        const d = (await c.get(`/documents/${later.json.id}`)).json;
        return SETTLED.includes(d.status) ? d : undefined;
      }, 60_000);
      assert.equal(done.status, 'Ready', JSON.stringify(done));
      assert.doesNotMatch(q.logs(), /uncaught|unhandled/i);
    });
  });
}
