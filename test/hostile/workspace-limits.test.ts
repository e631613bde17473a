/**
 * Issue 46, per-workspace limits (QUIRE_WORKSPACE_MAX_*), over real HTTP on SQLite and PostgreSQL:
 *  - webhooks: past the limit 409 (concurrent creates too: never more than the limit), room again after a delete;
 *  - open upload sessions: past the limit 429 with retry-after; a finalized session frees its place;
 *  - stored bytes: an upload, a chunked session or its finalize past the limit is a 409 and stores nothing
 *    (concurrent uploads never take a workspace past it), the documents already stored are untouched,
 *    deleting makes room;
 *  - another workspace of the same server is not held back by the first one's use.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onBothDatabases } from '../helpers/postgres.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertProblem, client, type Client, type Res } from '../helpers/http.js';

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
const ENV = {
  QUIRE_WORKSPACE_MAX_WEBHOOKS: '3',
  QUIRE_WORKSPACE_MAX_UPLOAD_SESSIONS: '2',
  QUIRE_WORKSPACE_MAX_STORED_MB: '1',
  QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK),
  QUIRE_WEBHOOK_ALLOW_HOSTS: 'receiver.example',
  // No ingestion: what is measured is what was uploaded.
  QUIRE_WORKER_CONCURRENCY: '1',
};

const text = (bytes: number, seed: string) => Buffer.from(`${seed}\n`.padEnd(bytes, 'x'));

function createSession(c: Client, fileName: string, fileSize: number): Promise<Res> {
  const form = new FormData();
  form.append('fileName', fileName);
  form.append('fileSize', String(fileSize));
  return c.post('/documents/uploads/session', { body: form });
}

function sendChunk(c: Client, sessionId: string, byteOffset: number, bytes: Buffer): Promise<Res> {
  const form = new FormData();
  form.append('byteOffset', String(byteOffset));
  form.append('file', new Blob([bytes]), 'chunk');
  return c.post(`/documents/uploads/session/${sessionId}/chunk`, { body: form });
}

/** Sends a session's bytes in chunks and finalizes it: the created document. */
async function finish(c: Client, sessionId: string, bytes: Buffer): Promise<Res> {
  for (let off = 0; off < bytes.length; off += CHUNK) {
    const r = await sendChunk(c, sessionId, off, bytes.subarray(off, off + CHUNK));
    assert.ok(r.status < 300, `chunk at ${off}: ${r.status} ${r.text}`);
  }
  return c.post(`/documents/uploads/session/${sessionId}/finalize`);
}

const hookBody = (i: number | string) => ({ json: { target: 'Documents', url: `https://receiver.example/hook/${i}` } });

onBothDatabases('workspace limits', 'quire_workspace_limits', (dialect, database, teardown) => {
  describe(`per-workspace limits answer 409/429 and lose nothing (${dialect})`, () => {
    let q: Quire;
    let c: Client;
    let other: Client;
    before(async () => {
      const db = await database();
      q = await startQuire({ ...(db.kind === 'postgres' ? { databaseUrl: db.url } : { dataDir: db.file.replace(/\/quire\.db$/, '') }), extraEnv: ENV });
      c = client(q.api, q.key);
      assert.equal((await q.cli(['workspaces', 'create', 'neighbour'])).code, 0);
      const key = await q.cli(['keys', 'create', '--workspace', 'neighbour', '--scopes', 'admin']);
      assert.equal(key.code, 0, key.stderr);
      other = client(q.api, key.stdout.trim());
    });
    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('webhooks: concurrent creates never pass the limit; 409 names it; a delete makes room', async () => {
      const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => c.post('/webhooks', hookBody(i))));
      assert.equal(rs.filter((r) => r.status === 201).length, 3, rs.map((r) => r.status).join(','));
      for (const r of rs.filter((x) => x.status !== 201)) {
        assertProblem(r, 409, /3 webhooks, the most it may have \(3\)/);
        assert.equal(r.json.limit, 3);
      }
      const listed = (await c.get('/webhooks')).json.webhooks;
      assert.equal(listed.length, 3);
      // The neighbour is not held back.
      assert.equal((await other.post('/webhooks', hookBody('n'))).status, 201);
      assert.equal((await c.del(`/webhooks/${listed[0].id}`)).status, 204);
      assert.equal((await c.post('/webhooks', hookBody('again'))).status, 201);
      assertProblem(await c.post('/webhooks', hookBody('more')), 409);
    });

    test('upload sessions: a third open one is a 429 with retry-after; finalizing frees a place', async () => {
      const a = await createSession(c, 'a.txt', 100);
      const b = await createSession(c, 'b.txt', 100);
      assert.equal(a.status, 201, a.text);
      assert.equal(b.status, 201, b.text);
      const third = await createSession(c, 'c.txt', 100);
      assertProblem(third, 429, /2 upload sessions open, the most it may have \(2\)/);
      assert.match(third.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal((await createSession(other, 'n.txt', 100)).status, 201, 'the neighbour is not held back');
      // The open sessions still work: one is finished, which frees its place.
      const fin = await finish(c, a.json.sessionId, text(100, 'a'));
      assert.equal(fin.status, 201, fin.text);
      const c2 = await createSession(c, 'c.txt', 100);
      assert.equal(c2.status, 201, c2.text);
      assertProblem(await createSession(c, 'd.txt', 100), 429);
      for (const s of [b, c2]) {
        const done = await finish(c, s.json.sessionId, text(100, s.json.sessionId));
        assert.equal(done.status, 201, done.text);
        assert.equal((await c.del(`/documents/${done.json.id}`)).status, 204);
      }
      assert.equal((await c.del(`/documents/${fin.json.id}`)).status, 204);
    });

    test('stored bytes: uploads past the limit are 409 and store nothing; concurrent uploads never pass it; deleting makes room', async () => {
      const first = await c.upload({ bytes: text(600 * 1024, 'first'), name: 'first.txt' });
      assert.equal(first.status, 201, first.text);
      const over = await c.upload({ bytes: text(600 * 1024, 'second'), name: 'second.txt' });
      assertProblem(over, 409, /stores 600 KB of the 1 MB it may store: 600 KB more does not fit.*nothing was stored/);
      assert.equal(over.json.limit, MiB);
      const docs = (await c.get('/documents?limit=100')).json.documents.map((d: { name: string }) => d.name);
      assert.deepEqual(docs, ['first.txt'], 'the refused upload left no document');
      const content = await c.get(`/documents/${first.json.id}/content`);
      assert.equal(content.status, 200);
      assert.equal(content.text.length, 600 * 1024, 'the stored document is untouched');
      assert.equal((await other.upload({ bytes: text(600 * 1024, 'n'), name: 'n.txt' })).status, 201, 'the neighbour is not held back');

      // A session declaring more than fits is refused before any byte is sent.
      assertProblem(await createSession(c, 'big.txt', 600 * 1024), 409, /does not fit/);

      // Concurrent uploads: whatever order they commit in, the workspace never stores past 1 MiB.
      assert.equal((await c.del(`/documents/${first.json.id}`)).status, 204);
      const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => c.upload({ bytes: text(300 * 1024, `c${i}`), name: `c${i}.txt` })));
      for (const r of rs) assert.ok(r.status === 201 || r.status === 409, `${r.status} ${r.text}`);
      assert.equal(rs.filter((r) => r.status === 201).length, 3, rs.map((r) => r.status).join(','));
      const stored = (await c.get('/documents?limit=100')).json.documents;
      assert.equal(stored.length, 3);
      assert.ok(stored.reduce((n: number, d: { size: number }) => n + d.size, 0) <= MiB);
    });

    test('stored bytes: a finalize past the limit is a 409 that keeps the chunks; it succeeds once room is made', async () => {
      for (const d of (await c.get('/documents?limit=100')).json.documents) await c.del(`/documents/${d.id}`);
      const bytes = text(3 * CHUNK, 'session');
      const s = await createSession(c, 'late.txt', bytes.length);
      assert.equal(s.status, 201, s.text);
      for (let off = 0; off < bytes.length; off += CHUNK) assert.ok((await sendChunk(c, s.json.sessionId, off, bytes.subarray(off, off + CHUNK))).status < 300);
      // Meanwhile a plain upload takes the room the session counted on.
      const filler = await c.upload({ bytes: text(MiB - 2 * CHUNK, 'filler'), name: 'filler.txt' });
      assert.equal(filler.status, 201, filler.text);
      assertProblem(await c.post(`/documents/uploads/session/${s.json.sessionId}/finalize`), 409, /does not fit/);
      const state = (await c.get(`/documents/uploads/session/${s.json.sessionId}`)).json;
      assert.equal(state.bytesReceived, bytes.length, 'the chunks are kept');
      assert.equal((await c.del(`/documents/${filler.json.id}`)).status, 204);
      const fin = await c.post(`/documents/uploads/session/${s.json.sessionId}/finalize`);
      assert.equal(fin.status, 201, fin.text);
      const got = await c.get(`/documents/${fin.json.id}/content`);
      assert.equal(got.text, bytes.toString());
    });
  });
});
