import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Store } from '../store/db/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import { cellsByLeafIndex, type StructureModel, type TableCell } from '../document/structure.js';
import { tagProperties } from '../document/tag.js';
import type { ValueAnchor, ValueToTag } from '../document/properties.js';
import { effectiveValue } from './properties.js';
import { renderDgml } from '../document/writers/dgml.js';
import { renderMarkdown, renderText } from '../document/writers/text.js';
import { QUIRE_VERSION } from '../runtime/version.js';
import type { DocumentRecord } from '../model/records.js';
import { DomainError, notFound } from './errors.js';
import { IN_FLIGHT_DOCUMENT_STATUSES } from '../model/lifecycle.js';

const gunzipAsync = promisify(gunzip);

/** The name of the `docset` namespace for documents outside any docset. */
export const UNASSIGNED_DOCSET = 'Unassigned';

const IN_FLIGHT: ReadonlySet<string> = new Set(IN_FLIGHT_DOCUMENT_STATUSES);

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
    const labelCells = docset ? await this.tagPropertyValues(structure, workspaceId, docset.id, document.id) : undefined;
    const xml = renderDgml(structure, {
      workspace: workspace?.name ?? workspaceId,
      docsetName: docset?.name ?? UNASSIGNED_DOCSET,
      version: QUIRE_VERSION,
      labelCells,
    });
    return { document, xml };
  }

  /**
   * Tags the document's property values (manual or extracted) in its structure, as
   * `docset:{labelId}`; returns the label cells of form tables to tag as `docset:{labelId}-cell`.
   */
  private async tagPropertyValues(structure: StructureModel, workspaceId: string, docsetId: string, documentId: string): Promise<Map<TableCell, string>> {
    const [properties, values] = await Promise.all([this.store.properties.list(workspaceId, docsetId), this.store.properties.valuesOf(docsetId, documentId)]);
    const byProperty = new Map(values.map((v) => [v.propertyId, v]));
    const toTag: ValueToTag[] = [];
    for (const p of properties) {
      const record = byProperty.get(p.id);
      const v = effectiveValue(record);
      if (v.value === null || !v.value.trim()) continue;
      // An extracted value knows where it is; a manual one is looked for by its text.
      const anchor = v.source === 'extracted' ? ((record?.extraction?.anchor as ValueAnchor | null | undefined) ?? null) : null;
      toTag.push({ labelId: p.labelId, propertyId: p.id, value: v.value, anchor });
    }
    const labelCells = new Map<TableCell, string>();
    if (toTag.length === 0) return labelCells;
    const labelLeaves = tagProperties(structure, toTag);
    const cells = cellsByLeafIndex(structure.nodes);
    for (const [leaf, labelId] of labelLeaves) {
      const cell = cells.get(leaf);
      if (cell) labelCells.set(cell, labelId);
    }
    return labelCells;
  }

  async text(workspaceId: string, documentId: string, format: TextFormat): Promise<{ document: DocumentRecord; text: string }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document) throw notFound('Document', documentId);
    const structure = await this.load(document);
    return { document, text: format === 'markdown' ? renderMarkdown(structure) : renderText(structure) };
  }

  /** The stored structure model of a processed document (409 before, or when it has none). */
  async structureOf(document: DocumentRecord): Promise<StructureModel> {
    return this.load(document);
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
    return this.structureAt(document.structureBlobKey);
  }

  /** The structure model stored under a document's `structureBlobKey`. */
  async structureAt(blobKey: string): Promise<StructureModel> {
    const chunks: Buffer[] = [];
    for await (const c of await this.blobs.read(blobKey)) chunks.push(c as Buffer);
    return JSON.parse((await gunzipAsync(Buffer.concat(chunks))).toString('utf8')) as StructureModel;
  }
}
