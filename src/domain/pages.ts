import { Readable } from 'node:stream';
import type { Store } from '../store/db/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import type { DocumentRecord } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { pageImageKeyOf } from '../store/blobs/keys.js';

export const DEFAULT_DPI = 300;
export const MIN_DPI = 36;
export const MAX_DPI = 300;

export interface PageRecord {
  number: number;
  /** Pixels at 300 DPI: the coordinate space of DGML bounding boxes. */
  width: number;
  height: number;
}

/** Renders one page of a PDF to PNG; the ingestion side provides it (off the event loop). */
export type RenderPage = (pdf: Uint8Array, page: number, dpi: number) => Promise<Buffer>;

const NOT_YET: ReadonlySet<string> = new Set(['New', 'Ingesting']);

/** Pages of ingested documents, and their images: rendered on first request, then kept as blobs. */
export class PageService {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly render: RenderPage,
  ) {}

  async list(workspaceId: string, documentId: string): Promise<{ document: DocumentRecord; pages: PageRecord[] }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document) throw notFound('Document', documentId);
    if (NOT_YET.has(document.status)) {
      throw new DomainError('conflict', `The pages of this document are not known yet: it is ${document.status}. Try again shortly.`, {}, { 'retry-after': '5' });
    }
    const pages = await this.store.ingest.pages(documentId);
    if (pages.length === 0) {
      const why = document.error ? `${document.error.title}: ${document.error.detail}` : `it is ${document.status}`;
      throw new DomainError('conflict', `This document has no pages (${why}).`);
    }
    return { document, pages };
  }

  async get(workspaceId: string, documentId: string, number: number): Promise<{ document: DocumentRecord; page: PageRecord }> {
    const { document, pages } = await this.list(workspaceId, documentId);
    const page = pages.find((p) => p.number === number);
    if (!page) throw new DomainError('not-found', `Page ${number} was not found: this document has ${pages.length} page(s).`);
    return { document, page };
  }

  /** The PNG of a page at `dpi`, rendered once per (page, dpi) and then served from storage. */
  async image(workspaceId: string, documentId: string, number: number, dpi: number): Promise<{ document: DocumentRecord; key: string; size: number }> {
    if (!Number.isInteger(dpi) || dpi < MIN_DPI || dpi > MAX_DPI) throw invalid(`dpi must be an integer from ${MIN_DPI} to ${MAX_DPI}.`);
    const { document } = await this.get(workspaceId, documentId, number);
    const key = pageImageKeyOf(document, number, dpi);
    let stat = await this.blobs.stat(key);
    if (!stat) {
      let pending = this.inFlight.get(key);
      if (!pending) {
        pending = this.renderAndStore(document, number, dpi, key).finally(() => this.inFlight.delete(key));
        this.inFlight.set(key, pending);
      }
      await pending;
      stat = await this.blobs.stat(key);
      if (!stat) throw new Error(`page image ${key} missing after rendering`);
    }
    return { document, key, size: stat.size };
  }

  openImage(key: string): Promise<Readable> {
    return this.blobs.read(key);
  }

  private async renderAndStore(document: DocumentRecord, number: number, dpi: number, key: string): Promise<void> {
    const pdfKey = document.format === 'pdf' ? document.blobKey : document.renditionBlobKey;
    if (!pdfKey) throw new DomainError('conflict', 'This document has no paginated rendition yet.', {}, { 'retry-after': '5' });
    const pdf = await readAll(await this.blobs.read(pdfKey));
    const png = await this.render(pdf, number, dpi);
    const staged = await this.blobs.stage(Readable.from([png]), { maxBytes: 512 * 1024 * 1024 });
    await this.blobs.commit(staged.tempKey, key);
  }
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
