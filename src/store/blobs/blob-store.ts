import type { Readable } from 'node:stream';

export interface StagedBlob {
  /** Opaque handle for `commit` or `discard`. */
  tempKey: string;
  size: number;
  sha256: string;
  /** The first bytes (up to 4 KiB), for telling the format of nameless content. */
  head: Buffer;
}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`content is larger than ${limit} bytes`);
  }
}

/**
 * Bytes by key. Writes are staged under a temporary name and committed under their final key only
 * once the database row that refers to them has been written, so a failed upload leaves nothing.
 */
export interface BlobStore {
  /** Streams `source` into a temporary blob; fails with BlobTooLargeError past `maxBytes`. */
  stage(source: Readable, opts: { maxBytes: number }): Promise<StagedBlob>;
  commit(tempKey: string, key: string): Promise<void>;
  discard(tempKey: string): Promise<void>;
  /** A stream of the bytes `start..end` (inclusive), or the whole blob. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** The file holding the blob, for a reader that reads parts of it in place (a store of files only). */
  localPath?(key: string): string;
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with `prefix/` (a missing prefix is fine). */
  deletePrefix(prefix: string): Promise<void>;
  /** Throws when the store cannot be reached (readiness): a missing directory or bucket, refused credentials. */
  ping(): Promise<void>;
  /** Releases connections (optional). */
  close?(): void;
  /** Removes staged blobs older than `olderThanMs` (left behind by a crash). Returns how many. */
  sweepStaged(olderThanMs: number): Promise<number>;
  /**
   * Every committed blob (staged ones are not listed), with when it was committed (epoch ms), in
   * key order within each directory (file store) or in key order (S3).
   */
  list(): AsyncIterable<{ key: string; committedAt: number }>;
}
