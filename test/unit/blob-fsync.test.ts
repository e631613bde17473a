/**
 * The file blob store makes a blob durable before the row naming it can commit: the staged file is
 * fsynced when its write ends (on the writer thread), and commit() fsyncs the directory the file is
 * renamed into and the parent of every directory it created. The system calls are observed by a spy
 * loaded into this process and its threads (test/helpers/fsync-spy.ts). What a test cannot show is
 * that the disk honours them; that is the kernel's and the drive's part.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { scratchDir } from '../helpers/scratch.js';

const spy = new URL('../helpers/fsync-spy.ts', import.meta.url).href;
const dir = scratchDir('quire-fsync-');
const log = path.join(dir, 'fsync.log');
process.env.QUIRE_TEST_FSYNC_LOG = log;
// Before the store's module is loaded: its writer thread then loads the spy too.
await import(spy);
const { FsBlobStore } = await import('../../src/store/blobs/fs.js');

const synced = (): string[] => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);

describe('file blob store: fsync before the row commits', () => {
  let root: string;
  let store: InstanceType<typeof FsBlobStore>;
  before(() => {
    fs.mkdirSync(path.join(dir, 'blobs'), { recursive: true });
    root = fs.realpathSync(path.join(dir, 'blobs'));
    store = new FsBlobStore(root);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('stage() has fsynced the file by the time it resolves', async () => {
    fs.rmSync(log, { force: true });
    const staged = await store.stage(Readable.from([Buffer.from('durable bytes')]), { maxBytes: 100 });
    assert.ok(synced().includes(path.join(root, '.staging', staged.tempKey)), `fsynced: ${JSON.stringify(synced())}`);
    await store.discard(staged.tempKey);
  });

  test('commit() fsyncs the directory it renames into, and the parents of the directories it creates', async () => {
    const first = await store.stage(Readable.from([Buffer.from('one')]), { maxBytes: 100 });
    fs.rmSync(log, { force: true });
    await store.commit(first.tempKey, 'w/1/documents/d1/original');
    const dirs = synced();
    for (const d of ['w/1/documents/d1', 'w/1/documents', 'w/1', 'w', '.']) {
      assert.ok(dirs.includes(path.join(root, d)), `${d} not fsynced: ${JSON.stringify(dirs)}`);
    }
    // Into an existing directory: that directory only.
    const second = await store.stage(Readable.from([Buffer.from('two')]), { maxBytes: 100 });
    fs.rmSync(log, { force: true });
    await store.commit(second.tempKey, 'w/1/documents/d1/rendition.pdf');
    assert.deepEqual(synced(), [path.join(root, 'w/1/documents/d1')]);
    assert.equal(fs.readFileSync(path.join(root, 'w/1/documents/d1/rendition.pdf'), 'utf8'), 'two');
  });
});
