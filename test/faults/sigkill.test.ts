/**
 * SIGKILL of a real Quire process (SQLite, local blob files) in the middle of work, then a restart
 * on the same data: a multipart upload leaves no document and, once the staged-blob sweep has run,
 * no blob; a chunked upload session keeps its chunks and is finished after the restart; a webhook
 * delivery held open by its receiver at the kill is delivered after the restart.
 *
 * SIGKILL mid-ingestion is proven by test/api/ingestion.test.ts ("SIGKILL mid-ingestion", SQLite and
 * PostgreSQL); SIGKILL between a change and its delivery by test/api/webhooks.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import Database from 'libsql';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, until, type Client, type Res } from '../helpers/http.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { committedFiles, stagedFiles, stagingDirOf } from '../helpers/blob-files.js';

const CHUNK = 64 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function count(q: Quire, table: string): number {
  const db = new Database(path.join(q.dataDir, 'quire.db'), { readonly: true });
  try {
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

const stagingDir = (q: Quire) => stagingDirOf(q.dataDir);
const staged = (q: Quire) => stagedFiles(q.dataDir);
const documentBlobs = (q: Quire) => committedFiles(q.dataDir);

/**
 * Starts a multipart POST whose body is `form` encoded, sends its first `sendBytes` bytes and stops
 * there (the request stays open); errors of the request (the server killed) are ignored.
 */
async function startPartialPost(q: Quire, urlPath: string, form: FormData, sendBytes: number): Promise<http.ClientRequest> {
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  assert.ok(sendBytes < body.length);
  const req = http.request(`${q.api}${urlPath}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${q.key}`, 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) },
  });
  req.on('error', () => undefined);
  req.write(body.subarray(0, sendBytes));
  return req;
}

function sendChunk(c: Client, sessionId: string, byteOffset: number, bytes: Buffer): Promise<Res> {
  const form = new FormData();
  form.append('byteOffset', String(byteOffset));
  form.append('file', new Blob([bytes]), 'chunk');
  return c.post(`/documents/uploads/session/${sessionId}/chunk`, { body: form });
}

/** SIGKILL and wait for the process to be gone. */
async function kill(q: Quire) {
  q.process.kill('SIGKILL');
  await q.exited;
}

const restart = (q: Quire, extraEnv: NodeJS.ProcessEnv = {}) => startQuire({ dataDir: q.dataDir, extraEnv: { ...extraEnv, QUIRE_BOOTSTRAP_KEY: q.key } });

describe('faults: SIGKILL and restart', () => {
  test('during a multipart upload: no document, and no blob once the stale staged bytes are swept', async () => {
    const q1 = await startQuire();
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(6 * 1024 * 1024, 'k')]), 'killed.txt');
    const req = await startPartialPost(q1, '/documents/content', form, 3 * 1024 * 1024);
    // Killed while the bytes are being written to the staged file.
    await until('the upload to be staged', async () => (staged(q1).some((f) => fs.statSync(path.join(stagingDir(q1), f)).size > 1024 * 1024) ? true : undefined), 20_000, 20);
    await kill(q1);
    req.destroy();
    const left = staged(q1);
    assert.equal(left.length, 1, 'the kill left the partial staged file');
    assert.equal(count(q1, 'documents'), 0);

    // A staged file younger than an hour may be an upload of another process in progress: the sweep
    // (at start and hourly, STAGED_MAX_AGE_MS in src/main.ts) keeps it. Aged past the hour, it goes.
    const q2 = await restart(q1);
    try {
      assert.deepEqual(staged(q2), left, 'a fresh staged file is kept by the start-up sweep');
    } finally {
      assert.equal(await q2.stop(), 0, q2.logs());
    }
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(path.join(stagingDir(q1), left[0]!), old, old);
    const q3 = await restart(q1);
    try {
      assert.deepEqual(staged(q3), [], 'the start-up sweep removed the stale staged file');
      assert.deepEqual(documentBlobs(q3), [], 'no committed blob');
      assert.equal(count(q3, 'documents'), 0, 'no document row');
      const c = client(q3.api, q3.key);
      assert.deepEqual((await c.get('/documents')).json.documents, []);
    } finally {
      assert.equal(await q3.stop(), 0, q3.logs());
    }
  });

  test('during a chunk of an upload session: the session and its chunks survive; the rest is sent and finalized', async () => {
    const env = { QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK) };
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 4 * CHUNK + 1000 }, (_, i) => (i * 7919) % 251))]);
    const offsets = [0, CHUNK, 2 * CHUNK, 3 * CHUNK, 4 * CHUNK];
    const part = (o: number) => bytes.subarray(o, o + CHUNK);
    const q1 = await startQuire({ extraEnv: env });
    const c1 = client(q1.api, q1.key);
    const sform = new FormData();
    sform.append('fileName', 'resumed.pdf');
    sform.append('fileSize', String(bytes.length));
    const s = await c1.post('/documents/uploads/session', { body: sform });
    assertJson(s, 201);
    const id = s.json.sessionId as string;
    assertJson(await sendChunk(c1, id, 0, part(0)));
    assertJson(await sendChunk(c1, id, 2 * CHUNK, part(2 * CHUNK)));
    // Chunk 1 is half sent when the process dies.
    const form = new FormData();
    form.append('byteOffset', String(CHUNK));
    form.append('file', new Blob([part(CHUNK)]), 'chunk');
    const req = await startPartialPost(q1, `/documents/uploads/session/${id}/chunk`, form, CHUNK / 2);
    await until('the chunk to be staged', async () => (staged(q1).length > 0 ? true : undefined), 20_000, 20);
    await kill(q1);
    req.destroy();

    const q2 = await restart(q1, env);
    try {
      const c2 = client(q2.api, q2.key);
      const st = await c2.get(`/documents/uploads/session/${id}`);
      assertJson(st);
      assert.deepEqual(st.json.receivedOffsets, [0, 2 * CHUNK], 'the chunks received before the kill, not the half one');
      for (const o of offsets.filter((o) => o !== 0 && o !== 2 * CHUNK)) assertJson(await sendChunk(c2, id, o, part(o)));
      const fin = await c2.post(`/documents/uploads/session/${id}/finalize`);
      assertJson(fin, 201);
      assert.equal(fin.json.sha256, sha256(bytes));
      const content = await c2.get(`/documents/${fin.json.id}/content`);
      assert.equal(content.status, 200);
      assert.ok(content.buffer.equals(bytes), 'the document holds exactly the bytes sent');
    } finally {
      assert.equal(await q2.stop(), 0, q2.logs());
    }
  });

  test('during a webhook delivery held open by the receiver: delivered after the restart', async () => {
    const env = {
      QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      QUIRE_WEBHOOK_RETRY_SCHEDULE: `0,200ms,${Array(20).fill('500ms').join(',')}`,
      QUIRE_WEBHOOK_TIMEOUT_MS: '5000',
    };
    const receiver = new WebhookReceiver();
    await receiver.listen();
    let q: Quire | undefined;
    try {
      const q1 = await startQuire({ extraEnv: env });
      q = q1;
      const c1 = client(q1.api, q1.key);
      const h = await c1.post('/webhooks', { json: { target: 'Documents', url: receiver.expect('/hold', null, 'hang') } });
      assertJson(h, 201);
      const doc = (await c1.upload({ bytes: 'delivered despite the crash\n', name: 'held.txt' })).json.id as string;
      await receiver.waitFor('the delivery to arrive and be held', () => (receiver.hits.get('/hold') ?? 0) >= 1, 20_000);
      await kill(q1);
      assert.deepEqual(receiver.unique('/hold'), [], 'nothing was accepted before the kill');
      receiver.set('/hold', 'ok');

      const q2 = await restart(q1, env);
      q = q2;
      await receiver.waitFor(
        'the held event after the restart',
        () => receiver.unique('/hold').some((r) => r.body.type === 'Documents.Create' && r.body.data.id === doc),
        60_000,
      );
      const c2 = client(q2.api, q2.key);
      const deliveries = (await c2.get(`/webhooks/${h.json.id}/deliveries`)).json.deliveries as { type: string; state: string }[];
      assert.ok(deliveries.some((d) => d.type === 'Documents.Create' && d.state === 'delivered'), JSON.stringify(deliveries));
    } finally {
      if (q && q.process.exitCode === null) assert.equal(await q.stop(), 0, q.logs());
      await receiver.close();
    }
  });
});
