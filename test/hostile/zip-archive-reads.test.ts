/**
 * Issue 46, ZIP expansion: the ingest job never holds the archive. A real ZIP (corpus PDFs and DOCX
 * files, stored and deflated, and small text members) is ingested by the `ingest` job through a blob
 * store that records every read; on the file store and on S3 (moto), on SQLite and PostgreSQL:
 *  - no read of the archive asks for the whole blob; each asks for at most a hash slice or one
 *    member's compressed bytes (plus the read-ahead of a header), and all of them together for little
 *    more than twice the archive (the SHA-256 check, then the expansion);
 *  - every member is a document whose stored bytes are the corpus file's, the ZIP is Ready;
 *  - a damaged archive (one byte changed in storage) ends in Error "Stored content is damaged";
 *  - a storage read failing mid-expansion (a dropped connection) fails the job for the queue to retry,
 *    not the archive: the ZIP stays Ingesting with no member, and the next run expands it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { onBothDatabases } from '../helpers/postgres.js';
import { CORPUS } from '../helpers/quire.js';
import { makeZip, type ZipInput } from '../helpers/zip.js';
import { scratchDir } from '../helpers/scratch.js';
import { s3Unavailable, startS3, type S3Server } from '../helpers/s3.js';
import { Store } from '../../src/store/db/index.js';
import type { BlobStore } from '../../src/store/blobs/blob-store.js';
import { FsBlobStore } from '../../src/store/blobs/fs.js';
import { S3BlobStore } from '../../src/store/blobs/s3.js';
import { DocumentService } from '../../src/domain/documents.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import { IngestJob } from '../../src/ingest/jobs/ingest.js';
import { ARCHIVE_SLICE_BYTES, Handoff } from '../../src/ingest/jobs/handoff.js';
import type { ThreadPool } from '../../src/ingest/thread-pool.js';
import { INGEST_JOB } from '../../src/model/jobs.js';
import { formatOfName } from '../../src/model/formats.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { MAX_UPLOAD_BYTES } from '../../src/runtime/config.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every PDF and DOCX of the corpus, twice (stored under a/, deflated under b/), and small text files. */
function corpusArchive(): { archive: Buffer; expected: Map<string, string>; largestMember: number } {
  const files = ['kgrag', 'office', 'pdf', 'reference-dgml'].flatMap((dir) =>
    fs.readdirSync(path.join(CORPUS, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(pdf|docx)$/.test(f))
      .map((f) => path.join(CORPUS, dir, f)),
  );
  const entries: ZipInput[] = [];
  const expected = new Map<string, string>();
  for (const [folder, deflate] of [['a', false], ['b', true]] as const) {
    for (const file of files) {
      const data = fs.readFileSync(file);
      entries.push({ name: `${folder}/${path.basename(file)}`, data, deflate });
      expected.set(path.basename(file), sha256(data));
    }
  }
  for (let i = 0; i < 5; i++) {
    const data = `note ${i}: a small member, served from the block its local header came in\n`;
    entries.push({ name: `notes/note${i}.txt`, data, deflate: i % 2 === 0 });
    expected.set(`note${i}.txt`, sha256(Buffer.from(data)));
  }
  const largestMember = Math.max(...entries.map((e) => Buffer.byteLength(e.data ?? '')));
  return { archive: makeZip(entries), expected, largestMember };
}

interface ReadCall {
  key: string;
  range?: { start: number; end: number };
}

/** The store, recording each read it is asked for. */
function recording(blobs: BlobStore, calls: ReadCall[]): BlobStore {
  return new Proxy(blobs, {
    get(target, prop, receiver) {
      if (prop === 'read') {
        return (key: string, range?: { start: number; end: number }) => {
          calls.push({ key, ...(range ? { range: { ...range } } : {}) });
          return target.read(key, range);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** The store, failing the `failAt`-th read of `key` (1-based) with a dropped connection. */
function failingRead(blobs: BlobStore, key: string, failAt: number): BlobStore {
  let n = 0;
  return new Proxy(blobs, {
    get(target, prop, receiver) {
      if (prop === 'read') {
        return async (k: string, range?: { start: number; end: number }) => {
          if (k === key && ++n === failAt) {
            const dropped = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
            return new Readable({ read() { this.destroy(dropped); } });
          }
          return target.read(k, range);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const READ_AHEAD_ALLOWANCE = 64 * 1024;
const noS3 = s3Unavailable();

onBothDatabases('zip archive reads', 'quire_zip_archive_reads', (dialect, database, teardown) => {
  describe(`ZIP expansion reads the stored archive by ranges (${dialect})`, () => {
    let db: Awaited<ReturnType<typeof database>>;
    let s3: S3Server | undefined;
    const fixture = corpusArchive();
    before(async () => {
      db = await database();
    });
    after(async () => {
      await s3?.stop();
      await teardown();
    });

    const stores: [string, () => Promise<BlobStore>, string | undefined][] = [
      ['file store', async () => new FsBlobStore(scratchDir('zip-reads-')), undefined],
      [
        'S3',
        async () => {
          s3 ??= await startS3();
          const bucket = `zip-reads-${Math.random().toString(36).slice(2, 8)}`;
          await s3.createBucket(bucket);
          return new S3BlobStore({ bucket, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, prefix: '', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
        },
        noS3 ?? undefined,
      ],
    ];

    for (const [storeName, openStore, skip] of stores) {
      test(`${storeName}: members stored, the archive never read whole; a damaged archive ends in Error`, { skip }, async () => {
        const store = await Store.open(db);
        const blobs = await openStore();
        try {
          const calls: ReadCall[] = [];
          const ws = await new WorkspaceService(store).create(`zip-reads-${storeName === 'S3' ? 's3' : 'fs'}`);
          const documents = new DocumentService(store, blobs, MAX_UPLOAD_BYTES);
          const job = new IngestJob(store, recording(blobs, calls), undefined as unknown as ThreadPool, new Handoff(), pino({ level: 'silent' }), {
            createZipMembers: (doc, members, skipped) => documents.createZipMembers(doc, members, skipped),
            enqueueProcess: async () => undefined,
          });
          const upload = async (bytes: Buffer, name: string): Promise<DocumentRecord> => {
            const staged = await blobs.stage(Readable.from([bytes]), { maxBytes: MAX_UPLOAD_BYTES });
            return documents.createFromStaged({ workspaceId: ws.id, name, format: formatOfName(name)!, docsetIds: [], metadata: [] }, staged);
          };
          const ingest = (doc: DocumentRecord) =>
            job.run({ id: `job-${doc.id}`, queue: INGEST_JOB, workspaceId: ws.id, payload: { documentId: doc.id }, attempt: 1, maxAttempts: 1 }, new AbortController().signal);

          const { archive, expected, largestMember } = fixture;
          assert.ok(archive.length > ARCHIVE_SLICE_BYTES, `the archive (${archive.length} bytes) spans more than one hash slice`);
          const parent = await upload(archive, 'corpus.zip');
          await ingest(parent);

          const expanded = await documents.get(ws.id, parent.id);
          assert.equal(expanded.status, 'Ready', JSON.stringify(expanded.error));
          const members = (await documents.list(ws.id, {}, { limit: 500 })).items.filter((d) => d.id !== parent.id);
          assert.equal(members.length, 2 * (expected.size - 5) + 5);
          for (const m of members) {
            const stored = Buffer.concat(await (await blobs.read(m.blobKey)).toArray());
            assert.equal(sha256(stored), expected.get(m.name), m.name);
          }

          const archiveReads = calls.filter((c) => c.key === parent.blobKey);
          assert.ok(archiveReads.length > 0);
          const whole = archiveReads.filter((c) => !c.range);
          assert.equal(whole.length, 0, 'no read of the whole archive');
          const lengths = archiveReads.map((c) => c.range!.end - c.range!.start + 1);
          const most = Math.max(ARCHIVE_SLICE_BYTES, largestMember + READ_AHEAD_ALLOWANCE);
          assert.ok(Math.max(...lengths) <= most, `largest read ${Math.max(...lengths)} > ${most}`);
          assert.ok(Math.max(...lengths) < archive.length);
          const total = lengths.reduce((a, b) => a + b, 0);
          assert.ok(total <= 2 * archive.length + members.length * READ_AHEAD_ALLOWANCE, `${total} bytes read for an archive of ${archive.length}`);

          // One byte changed in storage: the SHA-256 check refuses the archive before anything is created.
          const damagedBytes = Buffer.from(archive);
          damagedBytes[Math.floor(damagedBytes.length / 2)]! ^= 0xff;
          const damaged = await upload(archive, 'damaged.zip');
          const replacement = await blobs.stage(Readable.from([damagedBytes]), { maxBytes: MAX_UPLOAD_BYTES });
          await blobs.commit(replacement.tempKey, damaged.blobKey);
          const countBefore = (await documents.list(ws.id, {}, { limit: 500 })).items.length;
          await ingest(damaged);
          const d = await documents.get(ws.id, damaged.id);
          assert.equal(d.status, 'Error');
          assert.equal(d.error?.title, 'Stored content is damaged');
          assert.equal((await documents.list(ws.id, {}, { limit: 500 })).items.length, countBefore);
        } finally {
          blobs.close?.();
          await store.close();
        }
      });

      test(`${storeName}: a read failing mid-expansion is retried, not an Error; the next run expands the archive`, { skip }, async () => {
        const store = await Store.open(db);
        const blobs = await openStore();
        try {
          const ws = await new WorkspaceService(store).create(`zip-retry-${storeName === 'S3' ? 's3' : 'fs'}`);
          const documents = new DocumentService(store, blobs, MAX_UPLOAD_BYTES);
          const jobOver = (over: BlobStore) =>
            new IngestJob(store, over, undefined as unknown as ThreadPool, new Handoff(), pino({ level: 'silent' }), {
              createZipMembers: (doc, members, skipped) => documents.createZipMembers(doc, members, skipped),
              enqueueProcess: async () => undefined,
            });
          const { archive, expected } = fixture;
          const staged = await blobs.stage(Readable.from([archive]), { maxBytes: MAX_UPLOAD_BYTES });
          const parent = await documents.createFromStaged({ workspaceId: ws.id, name: 'retry.zip', format: formatOfName('retry.zip')!, docsetIds: [], metadata: [] }, staged);
          const run = (over: BlobStore) =>
            jobOver(over).run({ id: `job-${parent.id}`, queue: INGEST_JOB, workspaceId: ws.id, payload: { documentId: parent.id }, attempt: 1, maxAttempts: 3 }, new AbortController().signal);

          // Two hash slices, the end of the archive with its central directory, then members: the 12th read is one of a member's.
          await assert.rejects(run(failingRead(blobs, parent.blobKey, 12)), (err: Error & { code?: string }) => {
            assert.equal(err.code, 'ECONNRESET', `${err.name}: ${err.message}`);
            return true;
          });
          assert.equal((await documents.get(ws.id, parent.id)).status, 'Ingesting');
          assert.equal((await documents.list(ws.id, {}, { limit: 500 })).items.length, 1, 'no member created');

          await run(blobs);
          assert.equal((await documents.get(ws.id, parent.id)).status, 'Ready');
          const members = (await documents.list(ws.id, {}, { limit: 500 })).items.filter((d) => d.id !== parent.id);
          assert.equal(members.length, 2 * (expected.size - 5) + 5);
        } finally {
          blobs.close?.();
          await store.close();
        }
      });
    }
  });
});
