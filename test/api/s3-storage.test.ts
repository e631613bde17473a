/**
 * Quire with QUIRE_STORAGE_URL=s3://… against a throwaway moto server, over real HTTP: multipart and
 * chunked uploads land in the bucket, downloads (with Range) give the same bytes, page images are
 * cached as objects, and deleting the documents leaves no object of theirs. Skipped with the reason
 * when moto is not installed (QUIRE_TEST_REQUIRE_ALL=1 turns that into a failure).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, type Client } from '../helpers/http.js';
import { s3Unavailable, startS3, type S3Server } from '../helpers/s3.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');
const SHOREBUCKS = path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf');
const CHUNK = 128 * 1024;
const BUCKET = 'quire-blobs';
const PREFIX = 'quire-test/';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function waitForStatus(c: Client, id: string, wanted: string[], ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = (await c.get(`/documents/${id}`)).json;
    if (wanted.includes(d.status)) return d;
    if (Date.now() > deadline) throw new Error(`document ${id} stayed ${d.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function chunkedUpload(c: Client, s3: S3Server, file: string): Promise<{ id: string; sessionId: string }> {
  const bytes = fs.readFileSync(file);
  const form = new FormData();
  form.append('fileName', path.basename(file));
  form.append('fileSize', String(bytes.length));
  const created = await c.post('/documents/uploads/session', { body: form });
  assertJson(created, 201);
  const { sessionId } = created.json;
  for (let o = 0; o < bytes.length; o += CHUNK) {
    const part = new FormData();
    part.append('byteOffset', String(o));
    part.append('file', new Blob([bytes.subarray(o, o + CHUNK)]), 'chunk');
    assertJson(await c.post(`/documents/uploads/session/${sessionId}/chunk`, { body: part }));
  }
  const chunkKeys = (await s3.listKeys(BUCKET)).filter((k) => k.startsWith(PREFIX) && k.includes(`/uploads/${sessionId}/`));
  assert.equal(chunkKeys.length, Math.ceil(bytes.length / CHUNK), 'each chunk is an object in the bucket');
  const fin = await c.post(`/documents/uploads/session/${sessionId}/finalize`);
  assertJson(fin, 201);
  return { id: fin.json.id, sessionId };
}

/** Whole download and three ranges (head, middle, tail) give the original's bytes. */
async function assertSameBytes(c: Client, id: string, original: Buffer): Promise<void> {
  const whole = await c.get(`/documents/${id}/content`);
  assert.equal(whole.status, 200);
  assert.equal(sha256(whole.buffer), sha256(original));
  const mid = Math.floor(original.length / 2);
  const ranges: Array<[string, Buffer]> = [
    ['bytes=0-1023', original.subarray(0, 1024)],
    [`bytes=${mid}-${mid + 70_000}`, original.subarray(mid, mid + 70_001)],
    ['bytes=-100', original.subarray(original.length - 100)],
  ];
  for (const [range, want] of ranges) {
    const r = await c.get(`/documents/${id}/content`, { headers: { range } });
    assert.equal(r.status, 206, `${range}: ${r.status} ${r.text.slice(0, 200)}`);
    assert.ok(r.buffer.equals(want), `${range} gave other bytes`);
  }
}

const noS3 = s3Unavailable();
if (noS3) {
  describe('S3 storage (API)', () => {
    test('S3 storage suite', { skip: noS3 }, () => {});
  });
} else {
  describe('S3 storage (API)', () => {
    let s3: S3Server;
    let q: Quire;
    let c: Client;
    before(async () => {
      s3 = await startS3();
      const url = await s3.createBucket(BUCKET, PREFIX);
      q = await startQuire({ extraEnv: { ...s3.env, QUIRE_STORAGE_URL: url, QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK) } });
      c = client(q.api, q.key);
    });
    after(async () => {
      const code = await q?.stop();
      await s3?.stop();
      assert.equal(code, 0);
    });

    test('/readyz probes the bucket', async () => {
      const r = await fetch(`${q.origin}/readyz`);
      assert.equal(r.status, 200);
      assert.equal(((await r.json()) as { checks: { storage: string } }).checks.storage, 'ok');
    });

    test('uploads, ranged downloads, page images and deletes all go through the bucket', async () => {
      const nda = fs.readFileSync(NDA);
      const shorebucks = fs.readFileSync(SHOREBUCKS);

      const plain = await c.upload({ path: NDA });
      assertJson(plain, 201);
      assert.equal(plain.json.sha256, sha256(nda));
      assert.equal(plain.json.size, nda.length);
      const chunked = await chunkedUpload(c, s3, SHOREBUCKS);
      const doc2 = (await c.get(`/documents/${chunked.id}`)).json;
      assert.equal(doc2.sha256, sha256(shorebucks));
      assert.equal(doc2.size, shorebucks.length);

      await assertSameBytes(c, plain.json.id, nda);
      await assertSameBytes(c, chunked.id, shorebucks);

      // Every byte is in the bucket under the prefix; nothing under the data directory.
      let keys = await s3.listKeys(BUCKET);
      assert.ok(keys.every((k) => k.startsWith(PREFIX)), `keys outside the prefix: ${keys.join(', ')}`);
      assert.ok(keys.some((k) => k.endsWith(`/documents/${plain.json.id}/original`)), `no original of ${plain.json.id} in ${keys.join(', ')}`);
      assert.ok(keys.some((k) => k.endsWith(`/documents/${chunked.id}/original`)));
      assert.ok(!keys.some((k) => k.includes(`/uploads/${chunked.sessionId}/`)), 'the session chunks are removed once finalized');
      assert.ok(!keys.some((k) => k.includes('.staging/')), 'no staged object remains');
      const local = path.join(q.dataDir, 'blobs');
      assert.ok(!fs.existsSync(local) || (fs.readdirSync(local, { recursive: true }) as string[]).length === 0, 'blobs written to the data directory');

      for (const id of [plain.json.id, chunked.id]) {
        const d = await waitForStatus(c, id, ['Ready', 'Error']);
        assert.equal(d.status, 'Ready', JSON.stringify(d.error));
      }
      const img = await c.get(`/documents/${plain.json.id}/pages/1/content?dpi=72`);
      assert.equal(img.status, 200);
      assert.equal(img.headers.get('content-type'), 'image/png');
      assert.ok(img.buffer.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')), 'not a PNG');
      assert.deepEqual([img.buffer.readUInt32BE(16), img.buffer.readUInt32BE(20)], [612, 792]);
      keys = await s3.listKeys(BUCKET);
      assert.ok(keys.some((k) => k.endsWith(`/documents/${plain.json.id}/pages/1-72.png`)), `page image not cached in the bucket: ${keys.join(', ')}`);
      // Served again from the cached object: same bytes.
      assert.ok((await c.get(`/documents/${plain.json.id}/pages/1/content?dpi=72`)).buffer.equals(img.buffer));
      // The renderer reads a local copy of the PDF (one per document, shared by its renders in
      // flight): several pages at once are all drawn, and no copy is left behind.
      const many = await Promise.all([1, 2, 3, 4].map((n) => c.get(`/documents/${chunked.id}/pages/${n}/content?dpi=50`)));
      assert.deepEqual(many.map((r) => r.status), [200, 200, 200, 200], many.map((r) => r.text.slice(0, 200)).join('\n'));
      const spool = path.join(q.dataDir, 'page-renders');
      assert.deepEqual(fs.existsSync(spool) ? fs.readdirSync(spool) : [], [], 'a copy of a PDF left in page-renders/');

      for (const id of [plain.json.id, chunked.id]) assert.equal((await c.del(`/documents/${id}`)).status, 204);
      keys = await s3.listKeys(BUCKET);
      const theirs = keys.filter((k) => k.includes(plain.json.id) || k.includes(chunked.id) || k.includes(chunked.sessionId) || k.includes('.staging/'));
      assert.deepEqual(theirs, [], 'objects left after deleting the documents');
      assert.equal((await c.get(`/documents/${plain.json.id}/content`)).status, 404);
    });

    test('DGML, text and Markdown are kept as objects named by their SHA-256, served with it as ETag, and deleted with the document', async () => {
      const up = await c.upload({ path: NDA });
      assertJson(up, 201);
      const id = up.json.id as string;
      assert.equal((await waitForStatus(c, id, ['Ready', 'Error'])).status, 'Ready');
      for (const [format, url] of [['dgml', `/documents/${id}/dgml`], ['text', `/documents/${id}/content?format=text`], ['markdown', `/documents/${id}/content?format=markdown`]] as const) {
        const r = await c.get(url);
        assert.equal(r.status, 200);
        const digest = createHash('sha256').update(r.buffer).digest();
        assert.equal(r.headers.get('etag'), `"${digest.toString('base64url').slice(0, 32)}"`);
        const keys = await s3.listKeys(BUCKET);
        assert.ok(keys.some((k) => k.endsWith(`/documents/${id}/files/${format}-${digest.toString('hex')}`)), `${format} not kept in the bucket: ${keys.join(', ')}`);
        assert.equal((await c.get(url, { headers: { 'if-none-match': r.headers.get('etag')! } })).status, 304);
      }
      assert.equal((await c.del(`/documents/${id}`)).status, 204);
      assert.deepEqual((await s3.listKeys(BUCKET)).filter((k) => k.includes(id)), [], 'objects left after deleting the document');
    });
  });
}
