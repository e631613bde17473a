import type { Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from './blob-store.js';

const HEAD_BYTES = 4096;

/**
 * What every store puts between an upload and its storage: counts the bytes, fails with
 * BlobTooLargeError past `maxBytes`, keeps the first 4 KiB (`head`), and feeds `hash` when given.
 */
export class StagingMeter extends Transform {
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly hash?: Hash,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new BlobTooLargeError(this.maxBytes));
    this.hash?.update(chunk);
    if (this.headBytes < HEAD_BYTES) {
      this.headChunks.push(chunk.subarray(0, HEAD_BYTES - this.headBytes));
      this.headBytes += Math.min(chunk.length, HEAD_BYTES - this.headBytes);
    }
    done(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}
