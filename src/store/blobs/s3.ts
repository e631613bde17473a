import { randomUUID, createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  S3Client,
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobStore, StagedBlob } from './blob-store.js';
import { StagingMeter } from './meter.js';

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
const STAGED_PATTERN = /^[0-9a-f-]{36}$/;
const MiB = 1024 * 1024;
/** CopyObject copies at most 5 GiB; larger objects are copied part by part (UploadPartCopy). */
const COPY_OBJECT_LIMIT = 5 * 1024 * MiB;

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Prepended to every object key ('' or ending with '/'). */
  prefix: string;
  /** Unset: the AWS SDK's own chain (environment, profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Multipart upload part size (min 5 MiB); at most `queueSize + 1` parts are held in memory per stage. */
  partSize?: number;
  queueSize?: number;
  /** Objects larger than this are committed with UploadPartCopy (tests lower it to exercise that path). */
  copyObjectLimit?: number;
  /** Part size of UploadPartCopy. */
  copyPartSize?: number;
}

/** An error like the one the file store throws for a missing file: callers test `code === 'ENOENT'`. */
function missing(key: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`ENOENT: no such blob '${key}'`);
  err.code = 'ENOENT';
  return err;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.Code === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs as objects in one S3(-compatible) bucket. Staged objects live under `{prefix}.staging/`
 * (a name no blob key can have); commit is a server-side copy, so bytes never pass through Quire twice.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly staging: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly copyObjectLimit: number;
  private readonly copyPartSize: number;

  constructor(opts: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      // Many S3-compatible servers do not know the SDK's newer default checksums; send them only where S3 requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.bucket = opts.bucket;
    this.prefix = opts.prefix;
    this.staging = `${opts.prefix}.staging/`;
    this.partSize = Math.max(5 * MiB, opts.partSize ?? 8 * MiB);
    this.queueSize = Math.max(1, opts.queueSize ?? 2);
    this.copyObjectLimit = opts.copyObjectLimit ?? COPY_OBJECT_LIMIT;
    this.copyPartSize = Math.max(5 * MiB, opts.copyPartSize ?? 512 * MiB);
  }

  private keyOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').includes('..')) throw new Error(`invalid blob key ${key}`);
    return this.prefix + key;
  }

  private stagedKey(tempKey: string): string {
    if (!STAGED_PATTERN.test(tempKey)) throw new Error(`invalid staged key ${tempKey}`);
    return this.staging + tempKey;
  }

  async stage(source: Readable, opts: { maxBytes: number }): Promise<StagedBlob> {
    const tempKey = randomUUID();
    const objectKey = this.stagedKey(tempKey);
    const hash = createHash('sha256');
    const meter = new StagingMeter(opts.maxBytes, hash);
    // The upload pulls from `body` as it fills parts: backpressure keeps at most queueSize + 1 parts in memory.
    const body = new PassThrough({ highWaterMark: 64 * 1024 });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: body },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    // A failed upload stops reading `body`: destroying it ends the pipeline instead of leaving it stalled.
    const uploaded = upload.done().catch((err) => {
      body.destroy(err);
      throw err;
    });
    // A failing source destroys `body`, which fails the upload's reader; the upload then aborts its
    // multipart upload itself before `uploaded` settles.
    const [piped, done] = await Promise.allSettled([pipeline(source, meter, body), uploaded]);
    if (piped.status === 'rejected' || done.status === 'rejected') {
      await this.removeStaged(objectKey);
      throw piped.status === 'rejected' ? piped.reason : (done as PromiseRejectedResult).reason;
    }
    return { tempKey, size: meter.size, sha256: hash.digest('hex'), head: meter.head };
  }

  /** Removes what a failed stage may have left: the object, or a multipart upload that escaped its abort. */
  private async removeStaged(objectKey: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey })).catch(() => undefined);
    const open = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: objectKey })).catch(() => undefined);
    for (const u of open?.Uploads ?? []) {
      if (u.Key !== objectKey) continue;
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: u.Key, UploadId: u.UploadId })).catch(() => undefined);
    }
  }

  async commit(tempKey: string, key: string): Promise<void> {
    const from = this.stagedKey(tempKey);
    const to = this.keyOf(key);
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: from }));
      size = head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) throw missing(tempKey);
      throw err;
    }
    const copySource = `${this.bucket}/${encodeURI(from)}`;
    if (size <= this.copyObjectLimit) {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: copySource }));
    } else {
      await this.copyInParts(copySource, to, size);
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: from }));
  }

  /** A server-side copy of an object too large for CopyObject, one UploadPartCopy per range. */
  private async copyInParts(copySource: string, to: string, size: number): Promise<void> {
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to }));
    try {
      const parts: CompletedPart[] = [];
      for (let start = 0, n = 1; start < size; start += this.copyPartSize, n++) {
        const end = Math.min(size, start + this.copyPartSize) - 1;
        const r = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: to,
            UploadId,
            PartNumber: n,
            CopySource: copySource,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ PartNumber: n, ETag: r.CopyPartResult?.ETag });
      }
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  async discard(tempKey: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.stagedKey(tempKey) }));
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const objectKey = this.keyOf(key);
    try {
      const r = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: objectKey, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return r.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw missing(key);
      // A range starting past the end: no bytes, as a file read gives.
      if ((err as { name?: string }).name === 'InvalidRange') return Readable.from([]);
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const trimmed = prefix.replace(/\/+$/, '');
    if (!trimmed) throw new Error('refusing to delete every blob');
    await this.deleteListed(this.keyOf(trimmed) + '/', () => true);
  }

  async sweepStaged(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = await this.deleteListed(this.staging, (o) => (o.LastModified?.getTime() ?? 0) < cutoff);
    // A process that died mid-stage leaves an unfinished multipart upload: its parts cost storage too.
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.staging, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const u of page.Uploads ?? []) {
        if ((u.Initiated?.getTime() ?? 0) >= cutoff) continue;
        // Begun long ago is not abandoned: a slow upload of a large file may still be sending parts.
        if ((await this.lastPartAt(u.Key!, u.UploadId!)) >= cutoff) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: u.Key, UploadId: u.UploadId }));
        removed++;
      }
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
    return removed;
  }

  async *list(): AsyncIterable<{ key: string; committedAt: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token, MaxKeys: 1000 }));
      for (const o of page.Contents ?? []) {
        if (!o.Key || o.Key.startsWith(this.staging)) continue;
        // Commit is a copy: an object's LastModified is when it was committed.
        yield { key: o.Key.slice(this.prefix.length), committedAt: o.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** When the multipart upload last received a part (epoch ms; 0 without parts). */
  private async lastPartAt(key: string, uploadId: string): Promise<number> {
    let last = 0;
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }));
      for (const p of page.Parts ?? []) last = Math.max(last, p.LastModified?.getTime() ?? 0);
      if (!page.IsTruncated || !page.NextPartNumberMarker) return last;
      marker = page.NextPartNumberMarker;
    }
  }

  /** Deletes the objects under `prefix` that `select` picks, a listed page (≤ 1000) per DeleteObjects. */
  private async deleteListed(prefix: string, select: (o: { Key?: string; LastModified?: Date }) => boolean): Promise<number> {
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: 1000 }));
      const keys = (page.Contents ?? []).filter(select).map((o) => ({ Key: o.Key! }));
      if (keys.length) {
        const r = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
        const failed = (r.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length) throw new Error(`could not delete ${failed.length} blob(s) under ${prefix}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`.trim());
        removed += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  /** The bucket exists and these credentials may use it. */
  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
