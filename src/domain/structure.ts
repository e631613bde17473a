import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Store } from '../store/db/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import type { StructureModel } from '../ingest/structure.js';
import { renderDgml } from '../ingest/stages/dgml.js';
import { renderMarkdown, renderText } from '../ingest/stages/text.js';
import { QUIRE_VERSION } from '../version.js';
import type { DocumentRecord } from './model.js';
import { DomainError, notFound } from './errors.js';

const gunzipAsync = promisify(gunzip);

/** The name of the `docset` namespace for documents outside any docset. */
export const UNASSIGNED_DOCSET = 'Unassigned';

const IN_FLIGHT: ReadonlySet<string> = new Set(['New', 'Ingesting', 'Ingested', 'Processing']);

export type TextFormat = 'text' | 'markdown';

/** What Quire understood of a document, served as DGML, plain text or Markdown. */
export class StructureService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
  ) {}

  /** DGML of a document; with `docsetId`, the document must be in that docset. */
  async dgml(workspaceId: string, documentId: string, docsetId?: string): Promise<{ document: DocumentRecord; xml: string }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document || (docsetId !== undefined && document.docsetId !== docsetId)) {
      throw docsetId !== undefined ? new DomainError('not-found', `Document ${JSON.stringify(documentId)} is not in docset ${JSON.stringify(docsetId)}.`) : notFound('Document', documentId);
    }
    const [structure, workspace, docset] = await Promise.all([
      this.load(document),
      this.store.workspaces.get(workspaceId),
      document.docsetId ? this.store.docsets.get(workspaceId, document.docsetId) : undefined,
    ]);
    const xml = renderDgml(structure, {
      workspace: workspace?.name ?? workspaceId,
      docsetName: docset?.name ?? UNASSIGNED_DOCSET,
      version: QUIRE_VERSION,
    });
    return { document, xml };
  }

  async text(workspaceId: string, documentId: string, format: TextFormat): Promise<{ document: DocumentRecord; text: string }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document) throw notFound('Document', documentId);
    const structure = await this.load(document);
    return { document, text: format === 'markdown' ? renderMarkdown(structure) : renderText(structure) };
  }

  private async load(document: DocumentRecord): Promise<StructureModel> {
    if (IN_FLIGHT.has(document.status)) {
      throw new DomainError('conflict', `The document is not processed yet: it is ${document.status}. Try again shortly.`, {}, { 'retry-after': '5' });
    }
    if (!document.structureBlobKey) {
      const why =
        document.status === 'Ready'
          ? document.format === 'zip'
            ? 'it is a ZIP archive whose members became documents of their own'
            : 'it was processed before document understanding existed; upload it again'
          : `it is ${document.status}${document.error ? ` (${document.error.title}: ${document.error.detail})` : ''}`;
      throw new DomainError('conflict', `This document has no structure: ${why}.`);
    }
    const chunks: Buffer[] = [];
    for await (const c of await this.blobs.read(document.structureBlobKey)) chunks.push(c as Buffer);
    return JSON.parse((await gunzipAsync(Buffer.concat(chunks))).toString('utf8')) as StructureModel;
  }
}
