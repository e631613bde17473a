/**
 * The blob store runs out of space or stops being writable under a running Quire: uploads answer
 * 507 (full) or 503 with `retry-after` (read-only), both Problem JSON, and nothing half-written
 * stays: no document row, no staged or committed blob, no chunk of an upload session. Once space
 * is back (or the store writable again) uploads succeed without a restart.
 *
 * The store is a 2 MiB tmpfs mounted by the test (which needs root: skipped with the reason
 * otherwise), remounted read-only for the unwritable case. The database (SQLite) is elsewhere.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'libsql';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, type Client, type Res } from '../helpers/http.js';
import { atExit, scratchDir } from '../helpers/scratch.js';

const MiB = 1024 * 1024;
const CHUNK = MiB;

/** Why a tmpfs cannot be mounted here, or null (it mounts and unmounts one to find out). */
function tmpfsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = scratchDir('quire-tmpfs-probe-');
  try {
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    if (r.status !== 0) return `mount -t tmpfs was refused: ${(r.stderr ?? '').toString().trim() || r.error}`;
    spawnSync('umount', [dir]);
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir` (the staging directory included), relative to it. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

function count(q: Quire, table: string, where = '1 = 1'): number {
  const db = new Database(path.join(q.dataDir, 'quire.db'), { readonly: true });
  try {
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

/**
 * Waits until every document has settled and no job is queued or running, so that nothing of the
 * earlier tests is still writing blobs (a small TXT's rendition and structure can take seconds
 * under load, with LibreOffice).
 */
async function quiet(q: Quire): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const busy = count(q, 'documents', "status NOT IN ('Ready', 'Error', 'OverQuota')") + count(q, 'jobs', "state IN ('queued', 'active')");
    if (busy === 0) return;
    assert.ok(Date.now() < deadline, `${busy} documents or jobs still at work after 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Sends a chunk over node:http. A refused chunk is answered before its body has been read, with
 * `connection: close`; fetch (undici) then reports the reset instead of the answer, where a client
 * such as curl reads the answer. This one reads the answer whatever happens to the rest of the body.
 */
async function sendChunk(c: Client, q: Quire, sessionId: string, byteOffset: number, bytes: Buffer): Promise<Res> {
  const form = new FormData();
  form.append('byteOffset', String(byteOffset));
  form.append('file', new Blob([bytes]), 'chunk');
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(`${q.api}/documents/uploads/session/${sessionId}/chunk`);
  void c;
  return new Promise<Res>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${q.key}`, 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const buffer = Buffer.concat(parts);
        const text = buffer.toString('utf8');
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        resolve({ status: res.statusCode!, headers, text, buffer, json: /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(body);
  });
}

const why = tmpfsUnavailable();
if (why) {
  describe('faults: blob storage full or unwritable', () => {
    test('storage full / read-only', { skip: why }, () => {});
  });
} else {
  describe('faults: blob storage full or unwritable', () => {
    let mnt: string;
    let q: Quire;
    let c: Client;
    /** Document blobs and staged blobs: nothing but what `expected` lists. */
    const assertBlobs = (expected: string[], what: string) => assert.deepEqual(filesUnder(mnt).filter((f) => !expected.includes(f)), [], what);

    before(async () => {
      mnt = scratchDir('quire-small-store-');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt]);
      // Unmounted also when the process ends before `after` runs: a mounted folder cannot be removed.
      atExit(() => spawnSync('umount', ['-l', mnt]));
      q = await startQuire({ extraEnv: { QUIRE_STORAGE_URL: `file://${mnt}`, QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK) } });
      c = client(q.api, q.key);
    });

    after(async () => {
      try {
        if (q) assert.equal(await q.stop(), 0, q.logs());
      } finally {
        spawnSync('umount', ['-l', mnt]);
        fs.rmSync(mnt, { recursive: true, force: true });
      }
    });

    test('full: a multipart upload larger than the free space answers 507 and leaves nothing', async () => {
      const res = await c.upload({ bytes: Buffer.alloc(3 * MiB, 'full '), name: 'too-big-for-the-disk.txt' });
      assertProblem(res, 507, /storage is full/);
      assert.equal(res.json.title, 'Insufficient Storage');
      assert.equal(count(q, 'documents'), 0, 'no document row');
      assertBlobs([], 'no staged or committed blob');
      assert.ok(fs.statfsSync(mnt).bfree * fs.statfsSync(mnt).bsize > 1.9 * MiB, 'the space is free again');
      assert.equal(q.process.exitCode, null);

      // Space is there again: the next upload is stored, without a restart.
      const ok = await c.upload({ bytes: 'fits easily\n', name: 'small.txt' });
      assertJson(ok, 201);
      assert.equal(count(q, 'documents'), 1);
    });

    test('full: a chunk that does not fit answers 507; the session keeps its earlier chunks and nothing half-written', async () => {
      const form = new FormData();
      form.append('fileName', 'chunked.txt');
      form.append('fileSize', String(3 * CHUNK));
      const s = await c.post('/documents/uploads/session', { body: form });
      assertJson(s, 201);
      const id = s.json.sessionId as string;
      const chunks = () => filesUnder(mnt).filter((f) => f.includes(`/uploads/${id}/`));
      assertJson(await sendChunk(c, q, id, 0, Buffer.alloc(CHUNK, 'a')));
      assert.equal(chunks().length, 1, 'the first chunk is stored');
      const res = await sendChunk(c, q, id, CHUNK, Buffer.alloc(CHUNK, 'b'));
      assertProblem(res, 507, /storage is full/);
      assert.equal(chunks().length, 1, 'the refused chunk left no committed blob');
      assert.deepEqual(filesUnder(mnt).filter((f) => f.startsWith('.staging')), [], 'nor a staged one');
      assert.equal(count(q, 'upload_chunks'), 1, 'one chunk row: the first');
      const st = await c.get(`/documents/uploads/session/${id}`);
      assertJson(st);
      assert.deepEqual(st.json.receivedOffsets, [0]);
    });

    test('read-only: an upload answers 503 with retry-after and leaves nothing; writable again, it succeeds', async () => {
      const docs = count(q, 'documents');
      await quiet(q); // the earlier small documents' ingestion writes are over
      const blobs = filesUnder(mnt);
      execFileSync('mount', ['-o', 'remount,ro', mnt]);
      try {
        const res = await c.upload({ bytes: 'written to a read-only store\n', name: 'ro.txt' });
        assertProblem(res, 503, /storage cannot be written/);
        assert.match(res.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
        assert.equal(count(q, 'documents'), docs, 'no document row');
        assert.deepEqual(filesUnder(mnt), blobs, 'no blob');
      } finally {
        execFileSync('mount', ['-o', 'remount,rw', mnt]);
      }
      assertJson(await c.upload({ bytes: 'writable again\n', name: 'rw.txt' }), 201);
      assert.equal(count(q, 'documents'), docs + 1);
      assert.equal(q.process.exitCode, null);
    });
  });
}
