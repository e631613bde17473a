import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { BlobStore, StagedBlob } from './blob-store.js';
import { StagingMeter } from './meter.js';
import { HashingFileSink } from './file-sink.js';

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
/**
 * Removals of a prefix before a folder that keeps filling is reported (about 1.2 s of waits); and
 * renames into a folder that keeps being removed before a commit gives up.
 */
const PREFIX_REMOVAL_ATTEMPTS = 16;

/** Makes the entries of `dir` (a rename into it, a directory created in it) durable. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Blobs as files under one root directory; staged files live in `root/.staging`. */
export class FsBlobStore implements BlobStore {
  private readonly staging: string;

  constructor(private readonly root: string) {
    this.staging = path.join(root, '.staging');
    fs.mkdirSync(this.staging, { recursive: true });
  }

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').includes('..')) throw new Error(`invalid blob key ${key}`);
    return path.join(this.root, key);
  }

  private stagedPath(tempKey: string): string {
    if (!/^[0-9a-f-]{36}$/.test(tempKey)) throw new Error(`invalid staged key ${tempKey}`);
    return path.join(this.staging, tempKey);
  }

  async stage(source: Readable, opts: { maxBytes: number }): Promise<StagedBlob> {
    const tempKey = randomUUID();
    const file = this.stagedPath(tempKey);
    const meter = new StagingMeter(opts.maxBytes);
    const sink = new HashingFileSink(file);
    try {
      await pipeline(source, meter, sink);
    } catch (err) {
      sink.destroy();
      await sink.settled;
      await fsp.rm(file, { force: true });
      throw err;
    }
    return { tempKey, size: meter.size, sha256: sink.sha256, head: meter.head };
  }

  /**
   * The staged file was fsynced when it was written (file-sink-thread.ts); the rename is made durable
   * here by fsyncing the directory that now holds it, and the parents of any directory created for
   * it. Callers commit inside the transaction of the row naming the blob, before it commits: a row
   * that survives a power loss names bytes that do too.
   */
  async commit(tempKey: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    const dir = path.dirname(target);
    const staged = this.stagedPath(tempKey);
    // The file's time is when it was written; from now on it is when it was committed (list()).
    const now = new Date();
    await fsp.utimes(staged, now, now);
    let firstCreated: string | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await fsp.mkdir(dir, { recursive: true });
        // The topmost folder any attempt made: every one below it is new too.
        if (created && (!firstCreated || created.length < firstCreated.length)) firstCreated = created;
        await fsp.rename(staged, target);
        break;
      } catch (err) {
        // A folder on the way was removed as it was made, or before the rename: by a delete of the
        // last blob beside this one (it removes the folders it empties), or of the prefix. The file
        // is still staged: the folder is made again.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === PREFIX_REMOVAL_ATTEMPTS || !(await this.exists(staged))) throw err;
      }
    }
    try {
      await syncDirectory(dir);
    } catch (err) {
      // Gone right after the rename: a prefix removed meanwhile took the blob with it, as it would a
      // moment later.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    // Each directory mkdir created is an entry of its parent: from dir's parent up to firstCreated's.
    if (firstCreated) {
      for (let d = dir; d !== path.dirname(firstCreated); ) {
        d = path.dirname(d);
        await syncDirectory(d);
      }
    }
  }

  private async exists(file: string): Promise<boolean> {
    return fsp.access(file).then(
      () => true,
      () => false,
    );
  }

  async discard(tempKey: string): Promise<void> {
    await fsp.rm(this.stagedPath(tempKey), { force: true });
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fsp.open(file, 'r');
    // 1 MiB reads: a chunked upload's finalize reads every chunk back, downloads stream whole files.
    return handle.createReadStream({ highWaterMark: 1024 * 1024, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  /** The root is a directory this process can reach. */
  async ping(): Promise<void> {
    const s = await fsp.stat(this.root);
    if (!s.isDirectory()) throw new Error(`${this.root} is not a directory`);
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      return { size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fsp.rm(file, { force: true });
    // Remove now-empty parent directories up to the root, so deletes leave no litter.
    let dir = path.dirname(file);
    while (dir.startsWith(this.root) && dir !== this.root) {
      try {
        await fsp.rmdir(dir);
      } catch {
        break;
      }
      dir = path.dirname(dir);
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    const dir = this.pathOf(prefix.replace(/\/+$/, ''));
    if (dir === this.root) throw new Error('refusing to delete every blob');
    // A blob committed under the prefix while it is removed (a document deleted as its DGML is
    // written) leaves a folder no longer empty: the removal goes again over what came meanwhile.
    for (let attempt = 1; ; attempt++) {
      try {
        await fsp.rm(dir, { recursive: true, force: true });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || attempt === PREFIX_REMOVAL_ATTEMPTS) throw err;
        await delay(attempt * 10);
      }
    }
    let parent = path.dirname(dir);
    while (parent.startsWith(this.root) && parent !== this.root) {
      try {
        await fsp.rmdir(parent);
      } catch {
        break;
      }
      parent = path.dirname(parent);
    }
  }

  async *list(): AsyncIterable<{ key: string; committedAt: number }> {
    yield* this.listUnder('');
  }

  private async *listUnder(prefix: string): AsyncIterable<{ key: string; committedAt: number }> {
    const dir = path.join(this.root, prefix);
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return []; // removed meanwhile
      throw err;
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const key = prefix ? `${prefix}/${e.name}` : e.name;
      if (!prefix && e.name === '.staging') continue;
      if (e.isDirectory()) yield* this.listUnder(key);
      else if (e.isFile()) {
        const s = await fsp.stat(path.join(this.root, key)).catch(() => null);
        if (s) yield { key, committedAt: s.mtimeMs };
      }
    }
  }

  async sweepStaged(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await fsp.readdir(this.staging)) {
      const file = path.join(this.staging, name);
      const s = await fsp.stat(file).catch(() => null);
      if (s && s.mtimeMs < cutoff) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
