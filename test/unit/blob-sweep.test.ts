/**
 * The orphan sweep (src/domain/blob-sweep.ts): a committed blob no row points to (a crash between the
 * blob's commit and its row's, or between a row's delete and its blobs') is removed once older than
 * the grace; a blob its row names, one younger than the grace, and one of no known layout are kept.
 * The file store on SQLite and PostgreSQL, and the S3 store (moto) on SQLite; then a real server's
 * start-up sweep and `quire blobs sweep`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ORPHAN_GRACE_MS, sweepOrphanBlobs } from '../../src/domain/blob-sweep.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import type { DocumentRecord } from '../../src/model/records.js';
import type { Config } from '../../src/runtime/config.js';
import type { BlobStore } from '../../src/store/blobs/blob-store.js';
import { FsBlobStore } from '../../src/store/blobs/fs.js';
import { artifactKeyOf, originalKeyOf, pageImageKeyOf, structureKeyOf, uploadChunkKeyOf } from '../../src/store/blobs/keys.js';
import { S3BlobStore } from '../../src/store/blobs/s3.js';
import { Store } from '../../src/store/db/index.js';
import { assertJson, client } from '../helpers/http.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { s3Unavailable, startS3, type S3Server } from '../helpers/s3.js';
import { scratchDir } from '../helpers/scratch.js';

const HOUR = 3600_000;

function doc(workspaceId: string, id: string): DocumentRecord {
  const now = Date.now();
  return {
    id, workspaceId, docsetId: null, docsetCandidates: [], name: `${id}.pdf`, format: 'pdf', contentType: 'application/pdf',
    size: 10, sha256: 'a'.repeat(64), blobKey: originalKeyOf({ workspaceId, id }), status: 'Ready', pageCount: 1, isSample: false,
    error: null, createdAt: now, updatedAt: now, processedAt: now, progress: null, renditionBlobKey: null, structureBlobKey: null,
    classification: null, processing: null, metadata: [],
  } as unknown as DocumentRecord;
}

async function put(blobs: BlobStore, key: string): Promise<void> {
  const staged = await blobs.stage(Readable.from([Buffer.from(key)]), { maxBytes: 1000 });
  await blobs.commit(staged.tempKey, key);
}

async function keys(blobs: BlobStore): Promise<string[]> {
  const out: string[] = [];
  for await (const b of blobs.list()) out.push(b.key);
  return out.sort();
}

function sweepSuite(name: string, database: () => Promise<Config['database']>, openBlobs: () => Promise<BlobStore>, teardown: () => Promise<void>) {
  describe(`orphan blob sweep (${name})`, () => {
    let store: Store;
    let blobs: BlobStore;
    let ws: string;
    const kept: string[] = [];
    const orphans: string[] = [];

    before(async () => {
      store = await Store.open(await database());
      blobs = await openBlobs();
      ws = (await new WorkspaceService(store).ensureDefault()).id;

      // A document with its row: every blob under its prefix is kept.
      await store.documents.insert(doc(ws, 'd-live'));
      for (const k of [originalKeyOf({ workspaceId: ws, id: 'd-live' }), structureKeyOf({ workspaceId: ws, id: 'd-live' }), pageImageKeyOf({ workspaceId: ws, id: 'd-live' }, 1, 150)]) kept.push(k);
      // A document whose row never committed (or was deleted before its blobs were).
      orphans.push(originalKeyOf({ workspaceId: ws, id: 'd-gone' }), pageImageKeyOf({ workspaceId: ws, id: 'd-gone' }, 2, 150));

      // An upload session: the chunk its row names is kept, a superseded receipt of the same offset is not.
      const now = Date.now();
      const session = { id: 'sess1', workspaceId: ws };
      await store.uploadSessions.insert({ ...session, fileName: 'f.pdf', fileSize: 20, chunkSize: 10, docsetIds: [], metadataJson: null, documentId: null, createdAt: now, updatedAt: now, expiresAt: now + HOUR });
      const chunk = uploadChunkKeyOf(session, 0);
      await store.uploadSessions.putChunk({ sessionId: 'sess1', byteOffset: 0, size: 10, blobKey: chunk, sha256: 'b'.repeat(64), receivedAt: now });
      kept.push(chunk);
      orphans.push(uploadChunkKeyOf(session, 0), uploadChunkKeyOf(session, 10), uploadChunkKeyOf({ id: 'sess-gone', workspaceId: ws }, 0));

      // A project's blobs: kept while an artifact row names them.
      await store.artifacts.insertMany([
        { id: 'a1', workspaceId: ws, projectId: 'p1', version: 1, name: 'a.csv', documentId: null, size: 3, contentType: 'text/csv', sha256: 'c'.repeat(64), blobKey: artifactKeyOf('p1', 'a1'), isReadOnly: true, createdAt: now, updatedAt: now },
      ]);
      kept.push(artifactKeyOf('p1', 'a1'));
      orphans.push(artifactKeyOf('p1', 'a2'), artifactKeyOf('p-gone', 'a1'));

      // Not a layout Quire writes: never touched.
      kept.push('elsewhere/some-file');

      for (const k of [...kept, ...orphans]) await put(blobs, k);
    });
    after(async () => {
      await store?.close();
      (blobs as { close?: () => void })?.close?.();
      await teardown();
    });

    test('list() gives every committed blob, none of the staged ones', async () => {
      const staged = await blobs.stage(Readable.from([Buffer.from('in flight')]), { maxBytes: 100 });
      assert.deepEqual(await keys(blobs), [...kept, ...orphans].sort());
      await blobs.discard(staged.tempKey);
    });

    test('younger than the grace: nothing is removed', async () => {
      const r = await sweepOrphanBlobs(store, blobs, ORPHAN_GRACE_MS);
      assert.deepEqual(r, { checked: kept.length + orphans.length, removed: 0 });
      assert.deepEqual(await keys(blobs), [...kept, ...orphans].sort());
    });

    test('older than the grace: the blobs no row points to are removed, the others kept', async () => {
      // Two hours on: every blob is past the one-hour grace.
      const r = await sweepOrphanBlobs(store, blobs, ORPHAN_GRACE_MS, Date.now() + 2 * HOUR);
      assert.deepEqual(r, { checked: kept.length + orphans.length, removed: orphans.length });
      assert.deepEqual(await keys(blobs), [...kept].sort());
      // A blob committed now (its row about to commit) is kept by the same sweep a moment later.
      const fresh = originalKeyOf({ workspaceId: ws, id: 'd-committing' });
      await put(blobs, fresh);
      assert.equal((await sweepOrphanBlobs(store, blobs, ORPHAN_GRACE_MS)).removed, 0);
      assert.ok((await keys(blobs)).includes(fresh));
    });

    test('a document deleted after its blobs were written: its blobs go at the next sweep past the grace', async () => {
      await store.documents.delete(ws, 'd-live');
      const r = await sweepOrphanBlobs(store, blobs, ORPHAN_GRACE_MS, Date.now() + 2 * HOUR);
      // d-live's three blobs and the one committed in the previous test (no row was ever written for it).
      assert.equal(r.removed, 4);
      assert.ok(!(await keys(blobs)).some((k) => k.includes('/documents/')));
    });
  });
}

onBothDatabases('orphan blob sweep', 'quire_blob_sweep', (dialect, database, teardown) => {
  let root = '';
  sweepSuite(
    `files, ${dialect}`,
    database,
    async () => new FsBlobStore((root = scratchDir('quire-sweep-blobs-'))),
    async () => {
      await teardown();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    },
  );
});

const noS3 = s3Unavailable();
if (noS3) {
  describe('orphan blob sweep (S3, SQLite)', () => {
    test('S3', { skip: noS3 }, () => {});
  });
} else {
  let server: S3Server | undefined;
  sweepSuite(
    'S3, SQLite',
    async () => ({ kind: 'sqlite', file: path.join(scratchDir('quire-sweep-db-'), 'quire.db') }),
    async () => {
      server = await startS3();
      await server.createBucket('sweep');
      return new S3BlobStore({ bucket: 'sweep', region: server.region, endpoint: server.endpoint, forcePathStyle: true, prefix: 'tenant/', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    },
    async () => server?.stop(),
  );
}


describe('orphan blob sweep in a running server: at start-up and by `quire blobs sweep`', () => {
  let q: Quire | undefined;
  after(async () => {
    await q?.stop();
  });

  test('serve removes an old orphan at start; the CLI keeps young ones unless --grace says otherwise, and never a document with its row', async () => {
    const dataDir = scratchDir('quire-sweep-server-');
    const orphanAt = (id: string, ageMs: number) => {
      const file = path.join(dataDir, 'blobs', 'workspaces', 'w-gone', 'documents', id, 'original');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'left by a crash');
      const t = new Date(Date.now() - ageMs);
      fs.utimesSync(file, t, t);
      return file;
    };
    const atStart = orphanAt('d-start', 2 * HOUR);
    q = await startQuire({ dataDir });
    for (let i = 0; i < 100 && fs.existsSync(atStart); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!fs.existsSync(atStart), `the start-up sweep did not remove ${atStart}:\n${q.logs().slice(-2000)}`);

    const c = client(q.api, q.key);
    const up = await c.upload({ bytes: 'a document with its row', name: 'kept.txt' });
    assertJson(up, 201);
    const old = orphanAt('d-old', 2 * HOUR);
    const young = orphanAt('d-young', 60_000);

    const first = await q.cli(['blobs', 'sweep', '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).removed, 1);
    assert.ok(!fs.existsSync(old) && fs.existsSync(young));

    const second = await q.cli(['blobs', 'sweep', '--grace', '0ms', '--json']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).removed, 1);
    assert.ok(!fs.existsSync(young));
    const content = await c.get(`/documents/${up.json.id}/content`);
    assert.equal(content.status, 200);
    assert.equal(content.text, 'a document with its row');

    const bad = await q.cli(['blobs', 'sweep', '--grace', 'soon']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--grace has an invalid duration/);
  });
});
