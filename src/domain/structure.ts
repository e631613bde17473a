import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Store } from '../store/db/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import { structureFileKeyOf } from '../store/blobs/keys.js';
import type { StructureModel } from '../document/structure.js';
import type { ValueAnchor, ValueToTag } from '../document/properties.js';
import {
  STRUCTURE_FILE_FORMATS,
  writeStructureFileFromStored,
  type StructureFileFormat,
  type StructureFileRequest,
} from '../document/writers/structure-file.js';
import { effectiveValue } from './properties.js';
import { QUIRE_VERSION } from '../runtime/version.js';
import type { DocumentRecord } from '../model/records.js';
import { DomainError, notFound } from './errors.js';
import { IN_FLIGHT_DOCUMENT_STATUSES } from '../model/lifecycle.js';

const gunzipAsync = promisify(gunzip);

/** The name of the `docset` namespace for documents outside any docset. */
export const UNASSIGNED_DOCSET = 'Unassigned';

const IN_FLIGHT: ReadonlySet<string> = new Set(IN_FLIGHT_DOCUMENT_STATUSES);

export type TextFormat = 'text' | 'markdown';

/** Writes a file from a stored structure (gzip of its JSON); the app hands in a thread, off the event loop. */
export type WriteStructureFile = (gz: Uint8Array, request: StructureFileRequest) => Promise<Buffer>;

/** A document's DGML, text or Markdown as stored: its hash (the ETag) and size known before its bytes are read. */
export interface StructureFile {
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  size: number;
  /** The bytes. */
  open(): Promise<Readable | Buffer>;
}

/** What one file is written from, and the hash of it that says whether a stored file is current. */
interface Plan {
  format: StructureFileFormat;
  request: StructureFileRequest;
  inputs: string;
}

/**
 * What Quire understood of a document, served as DGML, plain text or Markdown. Each is written once
 * (in a thread the app hands in) and kept as a blob with a row (`structure_files`) saying what it was
 * written from: the structure's processing and Quire's version, and for DGML the workspace's and
 * docset's names and the property values it tags. A request reads those (rows only), and streams the
 * stored file while they are what it was written from; otherwise the file is written again and kept.
 * So no path that changes a file's inputs can leave a stale one served, and a document made Ready
 * before files were kept gets its files at its first request.
 */
export class StructureService {
  /** Files being written, by document, format and inputs: concurrent requests for one file share the write. */
  private readonly writing = new Map<string, Promise<StructureFile>>();

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly writeFile: WriteStructureFile = async (gz, request) => writeStructureFileFromStored(gz, request),
  ) {}

  /** DGML of a document; with `docsetId`, the document must be in that docset. */
  async dgml(workspaceId: string, documentId: string, docsetId?: string): Promise<{ document: DocumentRecord; file: StructureFile }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document || (docsetId !== undefined && document.docsetId !== docsetId)) {
      throw docsetId !== undefined ? new DomainError('not-found', `Document ${JSON.stringify(documentId)} is not in docset ${JSON.stringify(docsetId)}.`) : notFound('Document', documentId);
    }
    const key = structureKeyOrConflict(document);
    return { document, file: await this.current(document, key, await this.dgmlPlan(document, key)) };
  }

  async text(workspaceId: string, documentId: string, format: TextFormat): Promise<{ document: DocumentRecord; file: StructureFile }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document) throw notFound('Document', documentId);
    const key = structureKeyOrConflict(document);
    return { document, file: await this.current(document, key, textPlan(document, key, format)) };
  }

  /**
   * Writes whichever of the document's files are not current (all three once it is Ready; DGML again
   * when its property values changed). Nothing for a document that is gone or has no structure.
   */
  async writeFiles(workspaceId: string, documentId: string, formats: readonly StructureFileFormat[] = STRUCTURE_FILE_FORMATS): Promise<void> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document || document.status !== 'Ready' || !document.structureBlobKey) return;
    const key = document.structureBlobKey;
    for (const format of formats) {
      const plan = format === 'dgml' ? await this.dgmlPlan(document, key) : textPlan(document, key, format);
      await this.current(document, key, plan);
    }
  }

  /** The stored file when it was written from these inputs; else a new one, written and kept. */
  private async current(document: DocumentRecord, structureKey: string, plan: Plan): Promise<StructureFile> {
    const row = await this.store.structureFiles.get(document.id, plan.format);
    if (row?.inputs === plan.inputs) {
      return {
        sha256: row.sha256,
        size: row.size,
        // Read as the range it is: the file store's reads then take buffers of the file's size, not
        // of 1 MiB (twice: the second read finds the end), which made GC the largest cost of a request.
        // Gone meanwhile (replaced by a concurrent write of other inputs): written again, the same bytes.
        open: () => this.blobs.read(row.blobKey, row.size > 0 ? { start: 0, end: row.size - 1 } : undefined).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? this.written(document, structureKey, plan).then((f) => f.open()) : Promise.reject(err))),
      };
    }
    return this.written(document, structureKey, plan);
  }

  private written(document: DocumentRecord, structureKey: string, plan: Plan): Promise<StructureFile> {
    const id = `${document.id}/${plan.format}/${plan.inputs}`;
    let pending = this.writing.get(id);
    if (!pending) {
      pending = this.write(document, structureKey, plan).finally(() => this.writing.delete(id));
      this.writing.set(id, pending);
    }
    return pending;
  }

  private async write(document: DocumentRecord, structureKey: string, plan: Plan): Promise<StructureFile> {
    const bytes = await this.writeFile(await this.storedStructure(structureKey), plan.request);
    const staged = await this.blobs.stage(Readable.from([bytes]), { maxBytes: Number.MAX_SAFE_INTEGER });
    const key = structureFileKeyOf(document, plan.format, staged.sha256);
    try {
      await this.blobs.commit(staged.tempKey, key);
    } catch (err) {
      await this.blobs.discard(staged.tempKey).catch(() => undefined);
      throw err;
    }
    const before = await this.store.structureFiles.get(document.id, plan.format);
    const row = { documentId: document.id, workspaceId: document.workspaceId, format: plan.format, inputs: plan.inputs, blobKey: key, sha256: staged.sha256, size: staged.size, writtenAt: Date.now() };
    // A document deleted meanwhile keeps no file (its prefix may have been swept before this one came).
    const kept = await this.store.structureFiles.put(row).catch(() => false);
    if (!kept) await this.blobs.delete(key).catch(() => undefined);
    else if (before && before.blobKey !== key) await this.blobs.delete(before.blobKey).catch(() => undefined);
    return { sha256: staged.sha256, size: staged.size, open: async () => bytes };
  }

  /** What the DGML is written from: the workspace's and docset's names and the property values it tags. */
  private async dgmlPlan(document: DocumentRecord, structureKey: string): Promise<Plan> {
    const [workspace, docset] = await Promise.all([
      this.store.workspaces.get(document.workspaceId),
      document.docsetId ? this.store.docsets.get(document.workspaceId, document.docsetId) : undefined,
    ]);
    const values = docset ? await this.valuesToTag(document.workspaceId, docset.id, document.id) : [];
    const request: StructureFileRequest = { format: 'dgml', workspace: workspace?.name ?? document.workspaceId, docsetName: docset?.name ?? UNASSIGNED_DOCSET, version: QUIRE_VERSION, values };
    return { format: 'dgml', request, inputs: inputsOf(document, structureKey, request) };
  }

  /** The document's property values (manual or extracted), to tag as `docset:{labelId}`. */
  private async valuesToTag(workspaceId: string, docsetId: string, documentId: string): Promise<ValueToTag[]> {
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
    return toTag;
  }

  /** The stored structure model of a processed document (409 before, or when it has none). */
  async structureOf(document: DocumentRecord): Promise<StructureModel> {
    return this.structureAt(structureKeyOrConflict(document));
  }

  /** The structure model stored under a document's `structureBlobKey`. */
  async structureAt(blobKey: string): Promise<StructureModel> {
    return JSON.parse((await gunzipAsync(await this.storedStructure(blobKey))).toString('utf8')) as StructureModel;
  }

  private async storedStructure(blobKey: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of await this.blobs.read(blobKey)) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }
}

function textPlan(document: DocumentRecord, structureKey: string, format: TextFormat): Plan {
  const request: StructureFileRequest = { format };
  return { format, request, inputs: inputsOf(document, structureKey, request) };
}

/** The hash of everything a file is written from: the structure (which processing of it), Quire's version, the request. */
function inputsOf(document: DocumentRecord, structureKey: string, request: StructureFileRequest): string {
  return createHash('sha256').update(JSON.stringify([QUIRE_VERSION, structureKey, document.processedAt, request])).digest('hex');
}

/** The key of the document's structure; 409 while it is processed, or when it has none. */
function structureKeyOrConflict(document: DocumentRecord): string {
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
  return document.structureBlobKey;
}
