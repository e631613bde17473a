/**
 * One contract for every BlobStore: the local-files store and the S3 store (against a throwaway moto
 * server) must behave alike, including for missing keys. Without moto the S3 half is reported as
 * skipped with the reason (QUIRE_TEST_REQUIRE_ALL=1 turns that into a failure).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { after, before, describe, test } from 'node:test';
import { HeadObjectCommand, ListMultipartUploadsCommand, ListPartsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { BlobTooLargeError, type BlobStore } from '../../src/store/blobs/blob-store.js';
import { openBlobStore } from '../../src/store/blobs/index.js';
import { FsBlobStore } from '../../src/store/blobs/fs.js';
import { S3BlobStore } from '../../src/store/blobs/s3.js';
import { s3Unavailable, startS3, type S3Server } from '../helpers/s3.js';
import { scratchDir } from '../helpers/scratch.js';

const MiB = 1024 * 1024;

interface Harness {
  store: BlobStore;
  /** Everything the store holds, staged or committed (and unfinished multipart uploads). */
  leftovers: () => Promise<string[]>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// Freed buffers are returned to the OS only after a collection; collecting now and then keeps RSS
// about what is really held, so the bound below measures retention rather than GC laziness.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Splits `bytes` into uneven chunks, as a network stream delivers them. */
function streamOf(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0, n = 1; i < bytes.length; i += n, n = (n * 7 + 13) % 70_000 + 1) chunks.push(bytes.subarray(i, i + n));
  return Readable.from(chunks, { objectMode: false });
}

async function rejectsWithCode(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (err: NodeJS.ErrnoException) => {
    assert.equal(err.code, code);
    return true;
  });
}

function contract(name: string, open: () => Promise<Harness>, close: () => Promise<void>): void {
  describe(`BlobStore contract (${name})`, () => {
    let h: Harness;
    let store: BlobStore;
    before(async () => {
      h = await open();
      store = h.store;
    });
    after(close);

    async function put(key: string, bytes: Buffer): Promise<void> {
      const staged = await store.stage(streamOf(bytes), { maxBytes: bytes.length });
      await store.commit(staged.tempKey, key);
    }

    test('stage + commit + read: same bytes, sha256, size and head (a multi-part sized body)', async () => {
      const bytes = randomBytes(12 * MiB + 12345);
      const staged = await store.stage(streamOf(bytes), { maxBytes: 300 * MiB });
      assert.equal(staged.size, bytes.length);
      assert.equal(staged.sha256, sha(bytes));
      assert.deepEqual(staged.head, bytes.subarray(0, 4096));
      await store.commit(staged.tempKey, 'docs/big/original.bin');
      const back = await readAll(await store.read('docs/big/original.bin'));
      assert.equal(back.length, bytes.length);
      assert.ok(back.equals(bytes), 'the bytes read back differ');
      assert.deepEqual(await store.stat('docs/big/original.bin'), { size: bytes.length });
      await store.delete('docs/big/original.bin');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('small and empty bodies; head shorter than 4 KiB', async () => {
      const small = Buffer.from('%PDF-1.7 tiny');
      const s = await store.stage(streamOf(small), { maxBytes: 100 });
      assert.deepEqual(s.head, small);
      assert.equal(s.sha256, sha(small));
      await store.commit(s.tempKey, 'docs/small');
      assert.ok((await readAll(await store.read('docs/small'))).equals(small));
      const e = await store.stage(Readable.from([]), { maxBytes: 100 });
      assert.equal(e.size, 0);
      assert.equal(e.sha256, sha(Buffer.alloc(0)));
      assert.equal(e.head.length, 0);
      await store.commit(e.tempKey, 'docs/empty');
      assert.deepEqual(await store.stat('docs/empty'), { size: 0 });
      assert.equal((await readAll(await store.read('docs/empty'))).length, 0);
      await store.deletePrefix('docs');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('bodies staged at once after a large one each read back as they were (write blocks are reused)', async () => {
      await put('docs/large', randomBytes(3 * MiB + 17));
      const bodies = Array.from({ length: 12 }, (_, i) => randomBytes(1 + i * 40_000));
      await Promise.all(bodies.map((b, i) => put(`docs/many/${i}`, b)));
      for (const [i, b] of bodies.entries()) assert.ok((await readAll(await store.read(`docs/many/${i}`))).equals(b), `body ${i} (${b.length} bytes)`);
      await store.deletePrefix('docs');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('Range reads are inclusive, up to the last byte', async () => {
      const bytes = randomBytes(100_000);
      await put('r/blob', bytes);
      const cases: Array<[number, number]> = [[0, 0], [0, 99_999], [10, 20], [99_000, 99_999], [65_535, 65_536]];
      for (const [start, end] of cases) {
        const got = await readAll(await store.read('r/blob', { start, end }));
        assert.ok(got.equals(bytes.subarray(start, end + 1)), `range ${start}-${end}`);
      }
      await store.delete('r/blob');
    });

    test('discard removes a staged blob; it cannot be committed afterwards', async () => {
      const staged = await store.stage(streamOf(randomBytes(1000)), { maxBytes: 1000 });
      assert.equal((await h.leftovers()).length, 1);
      await store.discard(staged.tempKey);
      assert.deepEqual(await h.leftovers(), []);
      await rejectsWithCode(store.commit(staged.tempKey, 'never/there'), 'ENOENT');
      assert.equal(await store.stat('never/there'), null);
      await store.discard(staged.tempKey); // twice is fine
    });

    test('past maxBytes: BlobTooLargeError and nothing left (small and multi-part sized)', async () => {
      await assert.rejects(store.stage(streamOf(randomBytes(5000)), { maxBytes: 4999 }), (err) => {
        assert.ok(err instanceof BlobTooLargeError);
        assert.equal(err.limit, 4999);
        return true;
      });
      await assert.rejects(store.stage(streamOf(randomBytes(13 * MiB)), { maxBytes: 11 * MiB }), BlobTooLargeError);
      assert.deepEqual(await h.leftovers(), []);
      // Exactly maxBytes is allowed.
      const ok = await store.stage(streamOf(randomBytes(5000)), { maxBytes: 5000 });
      assert.equal(ok.size, 5000);
      await store.discard(ok.tempKey);
    });

    test('a failing source stream fails the stage and leaves nothing', async () => {
      const source = Readable.from(
        (async function* () {
          yield randomBytes(6 * MiB);
          throw new Error('client went away');
        })(),
        { objectMode: false },
      );
      await assert.rejects(store.stage(source, { maxBytes: 100 * MiB }), /client went away/);
      assert.deepEqual(await h.leftovers(), []);
    });

    test('missing keys: read rejects with ENOENT, stat is null, delete and deletePrefix are no-ops', async () => {
      await rejectsWithCode(store.read('no/such/key'), 'ENOENT');
      await rejectsWithCode(store.read('no/such/key', { start: 0, end: 10 }), 'ENOENT');
      assert.equal(await store.stat('no/such/key'), null);
      await store.delete('no/such/key');
      await store.deletePrefix('no/such');
      await store.discard('00000000-0000-4000-8000-000000000000');
      await rejectsWithCode(store.commit('00000000-0000-4000-8000-000000000000', 'x/y'), 'ENOENT');
    });

    test('invalid keys are refused', async () => {
      await assert.rejects(store.read('../etc/passwd'), /invalid blob key/);
      await assert.rejects(store.stat('/abs'), /invalid blob key/);
      await assert.rejects(store.delete('a/../../b'), /invalid blob key/);
      await assert.rejects(store.commit('not-a-staged-key', 'a'), /invalid staged key/);
      await assert.rejects(store.deletePrefix(''), /refusing|invalid/);
    });

    test('stat, replace and delete', async () => {
      await put('s/one', Buffer.from('hello'));
      assert.deepEqual(await store.stat('s/one'), { size: 5 });
      // Committing to an existing key replaces its bytes.
      await put('s/one', Buffer.from('replaced'));
      assert.equal((await readAll(await store.read('s/one'))).toString(), 'replaced');
      assert.deepEqual(await store.stat('s/one'), { size: 8 });
      await store.delete('s/one');
      assert.equal(await store.stat('s/one'), null);
      await rejectsWithCode(store.read('s/one'), 'ENOENT');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('deletePrefix removes exactly the keys under prefix/', async () => {
      for (const k of ['w/1/docs/a/original', 'w/1/docs/a/pages/1.png', 'w/1/docs/a/pages/2.png', 'w/1/docs/ab/original', 'w/1/docs/b']) {
        await put(k, Buffer.from(k));
      }
      await store.deletePrefix('w/1/docs/a/');
      assert.equal(await store.stat('w/1/docs/a/original'), null);
      assert.equal(await store.stat('w/1/docs/a/pages/2.png'), null);
      assert.deepEqual(await store.stat('w/1/docs/ab/original'), { size: 'w/1/docs/ab/original'.length });
      assert.deepEqual(await store.stat('w/1/docs/b'), { size: 'w/1/docs/b'.length });
      await store.deletePrefix('w');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('deletePrefix while blobs are committed under the prefix resolves, and takes what was there before it', async () => {
      // A document deleted as its DGML and text files are written at Ready: those commits land in the
      // folder being removed (on local files the removal met a folder no longer empty: ENOTEMPTY).
      const before = Array.from({ length: 200 }, (_, i) => `race/doc/pages/${i}.png`);
      await Promise.all(before.map((k) => put(k, Buffer.from(k))));
      let deleted = false;
      const writes = Promise.all(
        [0, 1, 2, 3].map(async (w) => {
          for (let i = 0; i < 100 && !deleted; i++) await put(`race/doc/files/${w}/${i}.xml`, Buffer.from('late'));
        }),
      );
      await store.deletePrefix('race/doc').finally(() => (deleted = true));
      await writes;
      for (const k of before) assert.equal(await store.stat(k), null, k);
      await store.deletePrefix('race');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('sweepStaged removes staged blobs older than the age given, not newer ones', async () => {
      const old = await store.stage(streamOf(randomBytes(100)), { maxBytes: 100 });
      await put('kept/committed', Buffer.from('committed'));
      assert.equal(await store.sweepStaged(60 * 60 * 1000), 0);
      // S3's LastModified is whole seconds: a blob staged just now can look up to a second old. The old
      // one is over 2.1 s old at the sweep, the fresh one under 2 s however its second is rounded.
      await new Promise((r) => setTimeout(r, 2100));
      const fresh = await store.stage(streamOf(randomBytes(100)), { maxBytes: 100 });
      assert.equal(await store.sweepStaged(2000), 1);
      await rejectsWithCode(store.commit(old.tempKey, 'swept/away'), 'ENOENT');
      await store.commit(fresh.tempKey, 'kept/fresh');
      assert.deepEqual(await store.stat('kept/committed'), { size: 9 });
      await store.deletePrefix('kept');
      assert.deepEqual(await h.leftovers(), []);
    });

    test('list() names committed blobs with when they were committed (not staged), never staged ones', async () => {
      const staged = await store.stage(streamOf(Buffer.from('staged a while ago')), { maxBytes: 100 });
      // S3's LastModified is whole seconds: 2.1 s between the stage and the commit tell them apart.
      await new Promise((r) => setTimeout(r, 2100));
      const before = Date.now();
      await store.commit(staged.tempKey, 'listed/a');
      const pending = await store.stage(streamOf(Buffer.from('not committed')), { maxBytes: 100 });
      const listed: { key: string; committedAt: number }[] = [];
      for await (const b of store.list()) listed.push(b);
      assert.deepEqual(listed.map((b) => b.key), ['listed/a']);
      assert.ok(listed[0]!.committedAt >= before - 1000, `committedAt ${listed[0]!.committedAt} is the stage's time, not the commit's (${before})`);
      await store.discard(pending.tempKey);
      await store.delete('listed/a');
    });

    test('memory stays bounded while staging 200 MB from a generator', async (t) => {
      const total = 200 * MiB;
      const block = randomBytes(MiB);
      const expected = createHash('sha256');
      gc();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      try {
        const source = Readable.from(
          (async function* () {
            for (let i = 0; i < total / MiB; i++) {
              // A fresh buffer each time (as a socket gives), stamped so no two blocks are equal.
              if (i % 16 === 0) gc();
              const b = Buffer.from(block);
              b.writeUInt32BE(i, 0);
              expected.update(b);
              yield b;
            }
          })(),
          { objectMode: false },
        );
        const staged = await store.stage(source, { maxBytes: 300 * MiB });
        peak = Math.max(peak, process.memoryUsage().rss);
        assert.equal(staged.size, total);
        assert.equal(staged.sha256, expected.digest('hex'));
        await store.discard(staged.tempKey);
      } finally {
        clearInterval(sampler);
      }
      const growth = peak - baseline;
      t.diagnostic(`RSS growth ${Math.round(growth / MiB)} MiB`);
      assert.ok(growth < 100 * MiB, `RSS grew by ${Math.round(growth / MiB)} MiB while staging 200 MiB`);
      assert.deepEqual(await h.leftovers(), []);
    });
  });
}

function fsLeftovers(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out;
}

describe('QUIRE_STORAGE_URL', () => {
  test('s3:// URLs: bucket, endpoint, region, forcePathStyle and prefix', () => {
    const storage = (url: string, env: NodeJS.ProcessEnv = {}) => loadConfig({ ...env, QUIRE_STORAGE_URL: url }).storage;
    assert.deepEqual(storage('s3://my-bucket?endpoint=http://127.0.0.1:9000/&region=us-east-1&forcePathStyle=true&prefix=/a/b/'), {
      kind: 's3', bucket: 'my-bucket', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', forcePathStyle: true, prefix: 'a/b/',
    });
    assert.deepEqual(storage('s3://bucket.example', { AWS_REGION: 'eu-west-3' }), {
      kind: 's3', bucket: 'bucket.example', endpoint: undefined, region: 'eu-west-3', forcePathStyle: false, prefix: '',
    });
    assert.equal((storage('s3://b12?region=us-east-1&forcePathStyle=false') as { forcePathStyle: boolean }).forcePathStyle, false);
    const refused: Array<[string, RegExp]> = [
      ['s3://?region=us-east-1', /needs a bucket/],
      ['s3://Bad_Bucket?region=us-east-1', /invalid bucket name/],
      ['s3://bucket', /needs a region/],
      ['s3://bucket?region=US East', /invalid region/],
      ['s3://bucket?region=us-east-1&endpoint=ftp://host', /endpoint must be an http/],
      ['s3://bucket?region=us-east-1&endpoint=not a url', /endpoint is not a valid URL/],
      ['s3://bucket?region=us-east-1&forcePathStyle=yes', /forcePathStyle must be true or false/],
      ['s3://bucket/some/path?region=us-east-1', /prefix=/],
      ['s3://key:secret@bucket?region=us-east-1', /credentials come from AWS_/],
      ['s3://bucket?region=us-east-1&prefix=a/../b', /prefix must be/],
      ['s3://bucket?region=us-east-1&bucket=x', /unknown option "bucket"/],
    ];
    for (const [url, pattern] of refused) {
      assert.throws(() => storage(url), (err: Error) => {
        assert.ok(err instanceof ConfigError, url);
        assert.match(err.message, /^invalid configuration: QUIRE_STORAGE_URL /);
        assert.match(err.message, pattern, url);
        assert.ok(!err.message.includes('\n'), 'one line');
        return true;
      });
    }
  });
});

let fsRoot: string;
contract(
  'fs',
  async () => {
    fsRoot = scratchDir('quire-blobs-');
    return { store: new FsBlobStore(fsRoot), leftovers: async () => fsLeftovers(fsRoot) };
  },
  async () => fs.rmSync(fsRoot, { recursive: true, force: true }),
);

const noS3 = s3Unavailable();
if (noS3) {
  describe('BlobStore contract (s3)', () => {
    test('S3 blob store suite', { skip: noS3 }, () => {});
  });
} else {
  let server: S3Server | undefined;
  let s3: S3BlobStore | undefined;
  const BUCKET = 'contract';
  const PREFIX = 'tenant-a/';
  const s3Leftovers = async () => {
    const keys = await server!.listKeys(BUCKET);
    const uploads = await server!.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
    return [...keys, ...(uploads.Uploads ?? []).map((u) => `multipart:${u.Key}`)];
  };
  contract(
    's3',
    async () => {
      server = await startS3();
      await server.createBucket(BUCKET);
      // An object outside the store's prefix: the store must never touch or list it.
      await server.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'other-tenant/keep', Body: 'x' }));
      Object.assign(process.env, server.env);
      s3 = new S3BlobStore({ bucket: BUCKET, region: server.region, endpoint: server.endpoint, forcePathStyle: true, prefix: PREFIX, partSize: 5 * MiB });
      return { store: s3, leftovers: async () => (await s3Leftovers()).filter((k) => k !== 'other-tenant/keep') };
    },
    async () => {
      // Still there after every deletePrefix and sweep of the suite.
      const keys = await server?.listKeys(BUCKET);
      s3?.close();
      await server?.stop();
      assert.deepEqual(keys, ['other-tenant/keep']);
    },
  );

  describe('S3 blob store specifics', () => {
    let srv: S3Server;
    before(async () => {
      srv = await startS3();
      await srv.createBucket('specifics');
      Object.assign(process.env, srv.env);
    });
    after(async () => srv?.stop());
    const open = (extra: Partial<ConstructorParameters<typeof S3BlobStore>[0]> = {}) =>
      new S3BlobStore({ bucket: 'specifics', region: srv.region, endpoint: srv.endpoint, forcePathStyle: true, prefix: '', partSize: 5 * MiB, ...extra });

    test('opened from QUIRE_STORAGE_URL, with credentials from the AWS environment variables', async () => {
      const url = await srv.createBucket('from-config', 'p/q');
      const store = await openBlobStore(loadConfig({ QUIRE_STORAGE_URL: url }).storage);
      assert.ok(store instanceof S3BlobStore);
      const staged = await store.stage(streamOf(Buffer.from('through the config')), { maxBytes: 100 });
      await store.commit(staged.tempKey, 'k/1');
      assert.deepEqual(await srv.listKeys('from-config'), ['p/q/k/1']);
      assert.equal((await readAll(await store.read('k/1'))).toString(), 'through the config');
      await store.delete('k/1');
      assert.deepEqual(await srv.listKeys('from-config'), []);
      (store as S3BlobStore).close();
    });

    test('a 12 MB stage is a multipart upload of 5 MB parts', async () => {
      const store = open();
      const staged = await store.stage(streamOf(randomBytes(12 * MiB)), { maxBytes: 20 * MiB });
      const head = await store.client.send(new HeadObjectCommand({ Bucket: 'specifics', Key: `.staging/${staged.tempKey}` }));
      assert.match(head.ETag ?? '', /-3"?$/, `ETag ${head.ETag} is not a 3-part multipart ETag`);
      await store.discard(staged.tempKey);
      store.close();
    });

    test('commit of an object past the CopyObject limit copies part by part (UploadPartCopy)', async () => {
      const store = open({ copyObjectLimit: 6 * MiB, copyPartSize: 5 * MiB });
      const bytes = randomBytes(12 * MiB + 7);
      const staged = await store.stage(streamOf(bytes), { maxBytes: 20 * MiB });
      await store.commit(staged.tempKey, 'copied/in/parts');
      const head = await store.client.send(new HeadObjectCommand({ Bucket: 'specifics', Key: 'copied/in/parts' }));
      assert.match(head.ETag ?? '', /-3"?$/, `ETag ${head.ETag}: not assembled from 3 copied parts`);
      assert.ok((await readAll(await store.read('copied/in/parts'))).equals(bytes));
      assert.ok((await readAll(await store.read('copied/in/parts', { start: 5 * MiB - 3, end: 5 * MiB + 3 }))).equals(bytes.subarray(5 * MiB - 3, 5 * MiB + 4)));
      await store.delete('copied/in/parts');
      assert.deepEqual(await srv.listKeys('specifics'), []);
      store.close();
    });

    test('deletePrefix deletes more than one listing page (1000 keys) of objects', async () => {
      const store = open();
      const n = 1234;
      for (let i = 0; i < n; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, n - i) }, (_, j) => srv.client.send(new PutObjectCommand({ Bucket: 'specifics', Key: `many/k${i + j}`, Body: 'x' }))),
        );
      }
      await srv.client.send(new PutObjectCommand({ Bucket: 'specifics', Key: 'many-not/k', Body: 'x' }));
      assert.equal((await srv.listKeys('specifics')).length, n + 1);
      await store.deletePrefix('many');
      assert.deepEqual(await srv.listKeys('specifics'), ['many-not/k']);
      await store.delete('many-not/k');
      store.close();
    });

    test('sweepStaged aborts a multipart upload left by a crash, not one still receiving parts however long ago it began', async () => {
      const store = open();
      const uploads = async () => (await srv.client.send(new ListMultipartUploadsCommand({ Bucket: 'specifics' }))).Uploads ?? [];
      // A stage that stalls after its first part: its multipart upload is started and has a part.
      const source = new Readable({ read() {} });
      source.push(randomBytes(6 * MiB));
      const pending = store.stage(source, { maxBytes: 100 * MiB }).catch(() => undefined);
      let parts = 0;
      for (let i = 0; i < 200 && parts === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const [u] = await uploads();
        if (u) parts = (await srv.client.send(new ListPartsCommand({ Bucket: 'specifics', Key: u.Key, UploadId: u.UploadId }))).Parts?.length ?? 0;
      }
      assert.equal(parts, 1, 'the multipart upload did not receive its first part');
      // moto reports every upload as initiated in 2010 (as a slow upload begun hours ago looks): its
      // fresh part says it is still running, and it is kept.
      assert.ok((await uploads())[0]!.Initiated! < new Date(Date.now() - 2000));
      assert.equal(await store.sweepStaged(2000), 0);
      assert.equal((await uploads()).length, 1);
      // No part for longer than the age (the process went away): aborted.
      await new Promise((r) => setTimeout(r, 2100));
      assert.equal(await store.sweepStaged(2000), 1);
      assert.equal((await uploads()).length, 0);
      source.destroy(new Error('gone'));
      await pending;
      store.close();
    });
  });
}
