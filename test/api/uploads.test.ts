/**
 * Chunked (resumable) upload sessions: real HTTP against a real server process. Runs on SQLite, and
 * on a throwaway PostgreSQL cluster when initdb/pg_ctl exist (skipped with the reason otherwise).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire, type StartOptions } from '../helpers/quire.js';
import { assertJson, assertProblem, client, type Client, type Res } from '../helpers/http.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';

const CHUNK = 64 * 1024;
const PDF = path.join(CORPUS, 'kgrag/sec-10-q/2023 Q1 AAPL.pdf');
const ENV = { QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK) };
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function createSession(c: Client, fields: Record<string, string>): Promise<Res> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return c.post('/documents/uploads/session', { body: form });
}

function sendChunk(c: Client, sessionId: string, byteOffset: number | string | undefined, bytes: Buffer): Promise<Res> {
  const form = new FormData();
  if (byteOffset !== undefined) form.append('byteOffset', String(byteOffset));
  form.append('file', new Blob([bytes]), 'chunk');
  return c.post(`/documents/uploads/session/${sessionId}/chunk`, { body: form });
}

/** Every chunk blob directory of a session, whatever its workspace. */
function chunkDirs(q: Quire, sessionId: string): string[] {
  const root = path.join(q.dataDir, 'blobs', 'workspaces');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .map((ws) => path.join(root, ws, 'uploads', sessionId))
    .filter((d) => fs.existsSync(d));
}

function stagedFiles(q: Quire): string[] {
  const dir = path.join(q.dataDir, 'blobs', '.staging');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** Runs `fn` over `items` with at most `n` in flight. */
async function parallel<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

function shuffled<T>(xs: T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function uploadSuite(label: string, start: (opts: StartOptions) => Promise<Quire>, teardown: () => Promise<void> = async () => {}) {
  describe(`chunked uploads (${label})`, () => {
    let q: Quire;
    let c: Client;
    let other: Client;
    let readOnly: Client;
    let writeOnly: Client;
    const pdf = fs.readFileSync(PDF);
    const offsets: number[] = [];
    for (let o = 0; o < pdf.length; o += CHUNK) offsets.push(o);

    before(async () => {
      q = await start({ extraEnv: ENV });
      c = client(q.api, q.key);
      const ws = await q.cli(['workspaces', 'create', 'other']);
      assert.equal(ws.code, 0, ws.stderr);
      const mk = async (workspace: string, scopes: string) => {
        const r = await q.cli(['keys', 'create', '--workspace', workspace, '--scopes', scopes]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout.trim();
      };
      other = client(q.api, await mk('other', 'admin'));
      readOnly = client(q.api, await mk('default', 'read:documents'));
      writeOnly = client(q.api, await mk('default', 'write:documents'));
    });

    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, q?.logs());
    });

    test('a corpus PDF in shuffled, parallel chunks (one replaced, one repeated) becomes the same bytes', async () => {
      assert.ok(offsets.length >= 4, 'the PDF spans several chunks');
      const docset = await c.post('/docsets', { json: { name: 'chunked' } });
      assertJson(docset, 201);
      const created = await createSession(c, {
        fileName: path.basename(PDF),
        fileSize: String(pdf.length),
        'docset.id': docset.json.id,
        metadata: JSON.stringify({ metadata: [{ key: 'via', value: 'chunks' }] }),
      });
      assertJson(created, 201);
      const { sessionId, chunkSize, expiration, fileName } = created.json;
      assert.equal(chunkSize, CHUNK);
      assert.equal(fileName, path.basename(PDF));
      const ttl = Date.parse(expiration) - Date.now();
      assert.ok(ttl > 23 * 3600_000 && ttl <= 24 * 3600_000, `expiration ${expiration}`);

      const bytesAt = (o: number) => pdf.subarray(o, Math.min(o + CHUNK, pdf.length));
      // First a wrong version of one chunk (right length), replaced later by the right bytes.
      const replaced = offsets[1]!;
      const wrong = await sendChunk(c, sessionId, replaced, Buffer.alloc(bytesAt(replaced).length, 0x41));
      assertJson(wrong);
      assert.equal(wrong.json.status, 'in-progress');
      assert.equal(wrong.json.blockId, sha256(Buffer.alloc(bytesAt(replaced).length, 0x41)));

      const mid = await c.get(`/documents/uploads/session/${sessionId}`);
      assertJson(mid);
      assert.deepEqual(mid.json.receivedOffsets, [replaced]);
      assert.equal(mid.json.status, 'in-progress');

      // Every chunk in shuffled order, three at a time, the last chunk twice at once.
      const last = offsets[offsets.length - 1]!;
      const order = shuffled([...offsets, last]);
      const blockIds = new Map<number, string>();
      await parallel(order, 3, async (o) => {
        const r = await sendChunk(c, sessionId, o, bytesAt(o));
        assertJson(r);
        assert.equal(r.json.sessionId, sessionId);
        assert.equal(r.json.status, 'in-progress');
        assert.equal(r.json.blockId, sha256(bytesAt(o)));
        blockIds.set(o, r.json.blockId);
      });
      assert.equal(blockIds.size, offsets.length);

      const state = await c.get(`/documents/uploads/session/${sessionId}`);
      assertJson(state);
      assert.deepEqual(state.json.receivedOffsets, offsets);
      assert.equal(state.json.bytesReceived, pdf.length);
      assert.equal(state.json.fileSize, pdf.length);
      assert.equal(state.json.chunkSize, CHUNK);
      assert.equal(state.json.expiration, expiration);
      assert.equal(state.json.status, 'in-progress');
      assert.equal(state.json.document, undefined);
      const dirs = chunkDirs(q, sessionId);
      assert.equal(dirs.length, 1, 'chunks are stored under the session');
      assert.equal(fs.readdirSync(dirs[0]!).length, offsets.length, 'replaced and repeated chunks leave one blob per offset');

      const fin = await c.post(`/documents/uploads/session/${sessionId}/finalize`);
      assertJson(fin, 201);
      const doc = fin.json;
      assert.equal(doc.name, path.basename(PDF));
      assert.equal(doc.size, pdf.length);
      assert.equal(doc.sha256, sha256(pdf));
      assert.equal(doc.contentType, 'application/pdf');
      assert.equal(doc.docset.id, docset.json.id);
      assert.equal(doc.documents[0].id, doc.id);

      const content = await c.get(`/documents/${doc.id}/content`);
      assert.equal(content.status, 200);
      assert.equal(sha256(content.buffer), sha256(pdf));
      assert.equal(content.buffer.length, pdf.length);
      const meta = await c.get(`/documents/${doc.id}/metadata`);
      assertJson(meta);
      assert.deepEqual(meta.json.metadata, [{ key: 'via', value: 'chunks' }]);
      const ds = await c.get(`/docsets/${docset.json.id}`);
      assert.equal(ds.json.documentCount, 1);

      assert.deepEqual(chunkDirs(q, sessionId), [], 'chunks are deleted once finalized');
      const done = await c.get(`/documents/uploads/session/${sessionId}`);
      assertJson(done);
      assert.equal(done.json.status, 'finalized');
      assert.deepEqual(done.json.document, { id: doc.id, url: `${q.api}/documents/${doc.id}` });
      assert.deepEqual(done.json.receivedOffsets, offsets);

      // Finalizing again answers the same document; concurrent finalizes too.
      const again = await Promise.all([1, 2, 3].map(() => c.post(`/documents/uploads/session/${sessionId}/finalize`)));
      for (const r of again) {
        assertJson(r, 200);
        assert.equal(r.json.id, doc.id);
      }
      const list = await c.get(`/documents?name=${encodeURIComponent(path.basename(PDF))}`);
      assert.equal(list.json.documents.length, 1, 'one session makes one document');

      // A finalized session takes no more chunks.
      assertProblem(await sendChunk(c, sessionId, 0, bytesAt(0)), 409, /finalized/);
    });

    test('concurrent finalizes of a complete session make one document', async () => {
      const bytes = Buffer.from('%PDF-1.4\n' + 'x'.repeat(CHUNK + 100));
      const s = await createSession(c, { fileName: 'race.pdf', fileSize: String(bytes.length) });
      assertJson(s, 201);
      const id = s.json.sessionId;
      assertJson(await sendChunk(c, id, 0, bytes.subarray(0, CHUNK)));
      assertJson(await sendChunk(c, id, CHUNK, bytes.subarray(CHUNK)));
      const results = await Promise.all([1, 2, 3, 4].map(() => c.post(`/documents/uploads/session/${id}/finalize`)));
      const ids = new Set(results.map((r) => r.json?.id));
      assert.equal(ids.size, 1, results.map((r) => r.text).join('\n'));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 200, 201]);
      const list = await c.get('/documents?name=race.pdf');
      assert.equal(list.json.documents.length, 1);
    });

    test('chunk rules: alignment, range, length, fields, each a 400 naming the rule', async () => {
      const size = 2 * CHUNK + 1000;
      const s = await createSession(c, { fileName: 'rules.txt', fileSize: String(size) });
      assertJson(s, 201);
      const id = s.json.sessionId;
      assertProblem(await sendChunk(c, id, 1000, Buffer.alloc(CHUNK)), 400, /byteOffset 1000 is not a multiple of chunkSize 65536/);
      assertProblem(await sendChunk(c, id, size, Buffer.alloc(10)), 400, /must be less than fileSize/);
      assertProblem(await sendChunk(c, id, 3 * CHUNK, Buffer.alloc(10)), 400, /must be less than fileSize/);
      assertProblem(await sendChunk(c, id, -CHUNK, Buffer.alloc(CHUNK)), 400, /byteOffset must be a non-negative whole number/);
      assertProblem(await sendChunk(c, id, 'abc', Buffer.alloc(CHUNK)), 400, /byteOffset must be/);
      assertProblem(await sendChunk(c, id, undefined, Buffer.alloc(CHUNK)), 400, /byteOffset is required/);
      assertProblem(await sendChunk(c, id, 0, Buffer.alloc(CHUNK - 1)), 400, /has 65535 bytes: a chunk at byteOffset 0 must be exactly 65536 bytes \(chunkSize\)/);
      assertProblem(await sendChunk(c, id, 0, Buffer.alloc(CHUNK + 1)), 400, /longer than/);
      assertProblem(await sendChunk(c, id, 2 * CHUNK, Buffer.alloc(999)), 400, /must be exactly 1000 bytes \(fileSize - byteOffset/);
      assertProblem(await sendChunk(c, id, 2 * CHUNK, Buffer.alloc(1001)), 400, /must be exactly 1000 bytes/);
      assertProblem(await sendChunk(c, id, 2 * CHUNK, Buffer.alloc(0)), 400, /has 0 bytes/);
      const notMultipart = await c.post(`/documents/uploads/session/${id}/chunk`, { json: { byteOffset: 0 } });
      assertProblem(notMultipart, 415);
      // A body larger than any chunk is refused from Content-Length, before it is read (no hang).
      const early = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const r = http.request(
          `${q.api}/documents/uploads/session/${id}/chunk`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${q.key}`, 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': String(4 * CHUNK) },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        r.on('error', reject);
        r.write('--xyz\r\ncontent-disposition: form-data; name="byteOffset"\r\n\r\n0\r\n');
      });
      assert.equal(early.status, 400);
      assert.match(JSON.parse(early.body).detail, /chunks are at most chunkSize \(65536\)/);
      const noFile = new FormData();
      noFile.append('byteOffset', '0');
      assertProblem(await c.post(`/documents/uploads/session/${id}/chunk`, { body: noFile }), 400, /no part named "file"/);

      // Nothing was stored by the refused chunks.
      const st = await c.get(`/documents/uploads/session/${id}`);
      assert.deepEqual(st.json.receivedOffsets, []);
      assert.equal(st.json.bytesReceived, 0);
      assert.deepEqual(chunkDirs(q, id), []);
      // A refused chunk's staged file is removed as its stream ends, which may be just after the 400
      // went out: give it a moment, then it must be gone.
      for (let i = 0; i < 20 && stagedFiles(q).length; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(stagedFiles(q), [], 'refused chunks leave no staged file');

      // Missing chunks on finalize: 400 listing them.
      assertJson(await sendChunk(c, id, CHUNK, Buffer.alloc(CHUNK, 0x61)));
      const fin = await c.post(`/documents/uploads/session/${id}/finalize`);
      assertProblem(fin, 400, /missing at byteOffset 0, 131072/);
      assert.deepEqual(fin.json.missingOffsets, [0, 2 * CHUNK]);
      // …and the session is intact: complete it and finalize.
      assertJson(await sendChunk(c, id, 0, Buffer.alloc(CHUNK, 0x61)));
      assertJson(await sendChunk(c, id, 2 * CHUNK, Buffer.alloc(1000, 0x62)));
      const ok = await c.post(`/documents/uploads/session/${id}/finalize`);
      assertJson(ok, 201);
      assert.equal(ok.json.size, size);
      const content = await c.get(`/documents/${ok.json.id}/content`);
      assert.equal(content.buffer.toString(), 'a'.repeat(2 * CHUNK) + 'b'.repeat(1000));
    });

    test('session creation is validated before any byte is sent', async () => {
      assertProblem(await createSession(c, { fileName: 'virus.exe', fileSize: '100' }), 415, /not a supported file type/);
      assertProblem(await createSession(c, { fileName: 'huge.pdf', fileSize: String(300 * 1024 * 1024 + 1) }), 413, /300 MB/);
      assertJson(await createSession(c, { fileName: 'max.pdf', fileSize: String(300 * 1024 * 1024) }), 201);
      assertProblem(await createSession(c, { fileSize: '100' }), 400, /no file name/);
      assertProblem(await createSession(c, { fileName: 'a.pdf' }), 400, /fileSize is required/);
      assertProblem(await createSession(c, { fileName: 'a.pdf', fileSize: '0' }), 400, /at least 1 byte/);
      assertProblem(await createSession(c, { fileName: 'a.pdf', fileSize: '-5' }), 400, /fileSize must be a whole number/);
      assertProblem(await createSession(c, { fileName: 'a.pdf', fileSize: '12abc' }), 400, /fileSize must be a whole number/);
      assertProblem(await createSession(c, { fileName: 'a.pdf', fileSize: '10', 'docset.id': 'nosuchdocset' }), 404, /Docset "nosuchdocset"/);
      assertProblem(await createSession(c, { fileName: 'a.pdf', fileSize: '10', metadata: '{nope' }), 400, /metadata/);
      assertProblem(await createSession(c, {}), 400);

      // A JSON body with the same fields works too.
      const viaJson = await c.post('/documents/uploads/session', { json: { fileName: 'j.txt', fileSize: 5, metadata: { metadata: [{ key: 'k', value: 'v' }] } } });
      assertJson(viaJson, 201);
      assert.equal(viaJson.json.chunkSize, CHUNK);
      assertJson(await sendChunk(c, viaJson.json.sessionId, 0, Buffer.from('hello')));
      const fin = await c.post(`/documents/uploads/session/${viaJson.json.sessionId}/finalize`);
      assertJson(fin, 201);
      assert.equal(fin.json.contentType, 'text/plain; charset=utf-8');
      const meta = await c.get(`/documents/${fin.json.id}/metadata`);
      assert.deepEqual(meta.json.metadata, [{ key: 'k', value: 'v' }]);
      assertProblem(await c.post('/documents/uploads/session', { json: { fileName: 'j.txt', fileSize: '5x' } }), 400, /fileSize/);
      assertProblem(await c.post('/documents/uploads/session', { json: { fileName: 7, fileSize: 5 } }), 400, /fileName must be a string/);
      assertProblem(await c.post('/documents/uploads/session', { json: { fileName: 'j.doc', fileSize: 5, docset: { id: 'missing1' } } }), 404);
      assertProblem(await c.post('/documents/uploads/session', { json: [1, 2] }), 400);
    });

    test('sessions belong to their workspace; scopes are enforced', async () => {
      const s = await createSession(c, { fileName: 'mine.txt', fileSize: '3' });
      assertJson(s, 201);
      const id = s.json.sessionId;
      assertProblem(await other.get(`/documents/uploads/session/${id}`), 404);
      assertProblem(await sendChunk(other, id, 0, Buffer.from('abc')), 404);
      assertProblem(await other.post(`/documents/uploads/session/${id}/finalize`), 404);
      assertProblem(await c.get('/documents/uploads/session/nosuchsession0000'), 404);
      assertProblem(await c.post('/documents/uploads/session/nosuchsession0000/finalize'), 404);
      assertProblem(await sendChunk(c, 'nosuchsession0000', 0, Buffer.from('abc')), 404);

      assertProblem(await createSession(readOnly, { fileName: 'r.txt', fileSize: '3' }), 403);
      assertProblem(await sendChunk(readOnly, id, 0, Buffer.from('abc')), 403);
      assertProblem(await readOnly.post(`/documents/uploads/session/${id}/finalize`), 403);
      assertJson(await readOnly.get(`/documents/uploads/session/${id}`));
      assertProblem(await writeOnly.get(`/documents/uploads/session/${id}`), 403);
      assertJson(await sendChunk(writeOnly, id, 0, Buffer.from('abc')));
      assertJson(await writeOnly.post(`/documents/uploads/session/${id}/finalize`), 201);
      assertProblem(await c.get(`/documents/uploads/session/${id}`, { key: null }), 401);
    });

    test('the routes are in the OpenAPI document', async () => {
      const spec = await c.get(`${q.origin}/openapi.json`);
      assertJson(spec);
      for (const p of ['/v1preview1/documents/uploads/session', '/v1preview1/documents/uploads/session/{sessionId}/chunk', '/v1preview1/documents/uploads/session/{sessionId}/finalize', '/v1preview1/documents/uploads/session/{sessionId}']) {
        assert.ok(spec.json.paths[p], `${p} documented`);
      }
    });

    test('a session survives a server restart and resumes where it stopped', async () => {
      const first = await start({ extraEnv: ENV });
      const reopen = { extraEnv: { ...ENV, QUIRE_BOOTSTRAP_KEY: first.key }, dataDir: first.dataDir, databaseUrl: first.env.DATABASE_URL };
      let second: Quire | undefined;
      try {
        const bytes = Buffer.from('%PDF-1.4\n' + 'r'.repeat(2 * CHUNK));
        const c1 = client(first.api, first.key);
        const s = await createSession(c1, { fileName: 'restart.pdf', fileSize: String(bytes.length) });
        assertJson(s, 201);
        const id = s.json.sessionId;
        assertJson(await sendChunk(c1, id, CHUNK, bytes.subarray(CHUNK, 2 * CHUNK)));
        assert.equal(await first.stop(), 0, first.logs());

        second = await start(reopen);
        const c2 = client(second.api, second.key);
        const st = await c2.get(`/documents/uploads/session/${id}`);
        assertJson(st);
        assert.deepEqual(st.json.receivedOffsets, [CHUNK]);
        for (const o of [0, 2 * CHUNK]) assertJson(await sendChunk(c2, id, o, bytes.subarray(o, o + CHUNK)));
        const fin = await c2.post(`/documents/uploads/session/${id}/finalize`);
        assertJson(fin, 201);
        assert.equal(fin.json.sha256, sha256(bytes));
      } finally {
        if (first.process.exitCode === null) await first.stop();
        if (second) assert.equal(await second.stop(), 0, second.logs());
      }
    });

    test('expired sessions answer 404 and their chunks are removed', async () => {
      // Long enough for both sessions to get their chunk on a loaded machine (2 s was not, on PostgreSQL).
      const short = await start({ extraEnv: { ...ENV, QUIRE_UPLOAD_SESSION_TTL_SECONDS: '5' } });
      try {
        const sc = client(short.api, short.key);
        const a = await createSession(sc, { fileName: 'a.txt', fileSize: String(CHUNK + 10) });
        const b = await createSession(sc, { fileName: 'b.txt', fileSize: String(CHUNK + 10) });
        assertJson(a, 201);
        assertJson(b, 201);
        assert.ok(Date.parse(a.json.expiration) - Date.now() <= 5000);
        assertJson(await sendChunk(sc, a.json.sessionId, 0, Buffer.alloc(CHUNK, 1)));
        assertJson(await sendChunk(sc, b.json.sessionId, CHUNK, Buffer.alloc(10, 2)));
        assert.equal(chunkDirs(short, a.json.sessionId).length, 1);
        assert.equal(chunkDirs(short, b.json.sessionId).length, 1);
        const expired = Math.max(Date.parse(a.json.expiration), Date.parse(b.json.expiration)) + 300;
        await new Promise((r) => setTimeout(r, Math.max(0, expired - Date.now())));
        // Touched after expiry: 404 at once, chunks gone.
        assertProblem(await sc.get(`/documents/uploads/session/${a.json.sessionId}`), 404);
        assertProblem(await sendChunk(sc, a.json.sessionId, CHUNK, Buffer.alloc(10)), 404);
        assertProblem(await sc.post(`/documents/uploads/session/${a.json.sessionId}/finalize`), 404);
        assert.deepEqual(chunkDirs(short, a.json.sessionId), []);
        // Never touched again: the periodic sweep removes it.
        const deadline = Date.now() + 30_000;
        while (chunkDirs(short, b.json.sessionId).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        assert.deepEqual(chunkDirs(short, b.json.sessionId), []);
        assertProblem(await sc.get(`/documents/uploads/session/${b.json.sessionId}`), 404);
      } finally {
        assert.equal(await short.stop(), 0, short.logs());
      }
    });
  });
}

uploadSuite('SQLite', (opts) => startQuire(opts));

if (findPgBin()) {
  let cluster: PgCluster | undefined;
  let n = 0;
  uploadSuite(
    'PostgreSQL',
    async (opts) => {
      cluster ??= await startPgCluster();
      return startQuire({ ...opts, databaseUrl: opts.databaseUrl ?? (await cluster.createDatabase(`quire_uploads_${n++}`)) });
    },
    async () => cluster?.stop(),
  );
} else {
  describe('chunked uploads (PostgreSQL)', () => {
    test('PostgreSQL suite', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
