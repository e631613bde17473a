import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../store/blobs/blob-store.js';
import type { DocumentRecord } from '../../model/records.js';
import { IngestError, type DocumentModel } from '../../document/pages.js';
import type { ArchiveSource } from '../readers/zip/zip.js';

/** Read models kept in memory between the two jobs of a document, up to this many bytes of PDF. */
const HANDOFF_BYTES = 256 * 1024 * 1024;

/**
 * Models read by the `ingest` job (jobs/ingest.ts), waiting for the `process` job (jobs/process.ts)
 * in this process; a model not found here (another process, or let go for room) is read again.
 */
export class Handoff {
  private readonly models = new Map<string, DocumentModel>();
  private bytes = 0;

  keep(documentId: string, model: DocumentModel): void {
    this.models.set(documentId, model);
    this.bytes += model.pdf.byteLength;
    for (const [id, m] of this.models) {
      if (this.bytes <= HANDOFF_BYTES) break;
      this.models.delete(id);
      this.bytes -= m.pdf.byteLength;
    }
  }

  take(documentId: string): DocumentModel | undefined {
    const m = this.models.get(documentId);
    if (m) {
      this.models.delete(documentId);
      this.bytes -= m.pdf.byteLength;
    }
    return m;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function damaged(): IngestError {
  return new IngestError('Stored content is damaged', 'The stored bytes no longer match the upload (size or SHA-256 differ).');
}

/** The document's stored bytes, checked against the upload's size and SHA-256. */
export async function verifiedBytes(blobs: BlobStore, doc: DocumentRecord): Promise<Buffer> {
  const bytes = await readAll(await blobs.read(doc.blobKey));
  if (bytes.length !== doc.size || createHash('sha256').update(bytes).digest('hex') !== doc.sha256) throw damaged();
  return bytes;
}

/** The most one read of an archive asks for while its SHA-256 is checked. */
export const ARCHIVE_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * The document's stored bytes as random access (a ZIP archive, read by ranges as it is expanded),
 * after checking their size and SHA-256 as verifiedBytes does, but a slice at a time: no read asks
 * for the whole blob, and none of it is held.
 */
export async function verifiedSource(blobs: BlobStore, doc: DocumentRecord): Promise<ArchiveSource> {
  const stored = await blobs.stat(doc.blobKey);
  if (!stored) throw Object.assign(new Error(`ENOENT: no such blob '${doc.blobKey}'`), { code: 'ENOENT' });
  if (stored.size !== doc.size) throw damaged();
  const hash = createHash('sha256');
  let size = 0;
  for (let start = 0; start < doc.size; start += ARCHIVE_SLICE_BYTES) {
    const end = Math.min(doc.size, start + ARCHIVE_SLICE_BYTES) - 1;
    for await (const chunk of await blobs.read(doc.blobKey, { start, end })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  }
  if (size !== doc.size || hash.digest('hex') !== doc.sha256) throw damaged();
  return { size: doc.size, read: (start, end) => blobs.read(doc.blobKey, { start, end }) };
}
