import { Readable } from 'node:stream';
import type { Repos, Store } from '../store/db/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import { BlobTooLargeError, type StagedBlob } from '../store/blobs/blob-store.js';
import type { DocumentFilter, DocumentRecord, MetadataEntry, Page, PageRequest } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { ALLOWED_EXTENSIONS, FORMATS, formatOfName, sniffFormat, type Format } from '../model/formats.js';
import { isId, newId } from '../model/ids.js';
import { IngestError } from '../document/pages.js';
import { MAX_NAME_LENGTH, nameProblem } from '../model/names.js';
import { parseMetadataRequest } from './metadata.js';
import { recordExpanded } from './ingestion.js';
import type { Queue } from '../store/queue/queue.js';
import { DOCUMENT_CREATED, DOCUMENT_DELETED } from '../model/events.js';
import { INGEST_JOB } from '../model/jobs.js';
import { documentPrefixOf, originalKeyOf } from '../store/blobs/keys.js';
import { checkStoredBytes, NO_LIMITS, type WorkspaceLimits } from './limits.js';

export { MAX_NAME_LENGTH };

/** What an upload asks for, checked before any byte of it is stored. */
export interface UploadIntent {
  workspaceId: string;
  name: string;
  /** Declared by the name's extension; null when the name has none and the bytes must tell. */
  format: Format | null;
  docsetIds: string[];
  metadata: MetadataEntry[];
}

export class DocumentService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly maxUploadBytes: number,
    /** Where ingest jobs go; without one (CLI tools) documents stay `New`. */
    private readonly queue?: Queue,
    /** What else goes with a deleted document (classification statistics), in its transaction. */
    private readonly onDelete: ((s: Repos, doc: DocumentRecord) => Promise<void>)[] = [],
    /** The bytes a workspace may store. */
    private readonly limits: WorkspaceLimits = NO_LIMITS,
  ) {}

  /** Inside the transaction that inserts `doc`: its ingest job and its `Documents.Create` event. */
  private async recordCreated(s: Repos, doc: DocumentRecord): Promise<void> {
    if (this.queue) await this.queue.enqueue(INGEST_JOB, { documentId: doc.id }, { workspaceId: doc.workspaceId }, s);
    await s.events.insert({
      id: newId(),
      workspaceId: doc.workspaceId,
      type: DOCUMENT_CREATED,
      payload: { documentId: doc.id, name: doc.name, docsetId: doc.docsetId },
      createdAt: doc.createdAt,
    });
  }

  /** Validates name, docsets and metadata of an upload: 415, 404 and 400 come from here. */
  async prepareUpload(
    workspaceId: string,
    input: { fileName: string | undefined; docsetSpec: string | undefined; metadataJson: string | undefined },
  ): Promise<UploadIntent> {
    const name = validateName(input.fileName);
    const format = formatOfName(name);
    if (format === undefined) {
      throw new DomainError('unsupported-type', `"${name}" is not a supported file type; allowed extensions are ${ALLOWED_EXTENSIONS.join(' ')}.`);
    }
    let metadata: MetadataEntry[] = [];
    if (input.metadataJson !== undefined && input.metadataJson.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(input.metadataJson);
      } catch {
        throw invalid('The metadata part is not valid JSON.');
      }
      metadata = parseMetadataRequest(parsed);
    }
    const docsetIds = await this.resolveDocsets(workspaceId, input.docsetSpec);
    return { workspaceId, name, format, docsetIds, metadata };
  }

  /** `a|b|c`: each docset must exist in the workspace. */
  private async resolveDocsets(workspaceId: string, spec: string | undefined): Promise<string[]> {
    if (spec === undefined || spec.trim() === '') return [];
    const ids = [...new Set(spec.split('|').map((s) => s.trim()))];
    if (ids.some((id) => id === '')) throw invalid('docset.id contains an empty id.');
    const malformed = ids.find((id) => !isId(id));
    if (malformed) throw notFound('Docset', malformed);
    const found = await this.store.docsets.existingIds(workspaceId, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw notFound('Docset', missing);
    return ids;
  }

  /** Streams the upload's bytes to a staged blob (413 past the limit, 400 when empty). */
  async stageUpload(intent: UploadIntent, source: Readable): Promise<StagedBlob> {
    let staged: StagedBlob;
    try {
      staged = await this.blobs.stage(source, { maxBytes: this.maxUploadBytes });
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw tooLarge(this.maxUploadBytes);
      throw err;
    }
    if (staged.size === 0) {
      await this.discardStaged(staged);
      throw invalid('The file is empty.');
    }
    if (!intent.format && !sniffFormat(staged.head)) {
      await this.discardStaged(staged);
      throw new DomainError('unsupported-type', `"${intent.name}" has no extension and its content is not a supported type; allowed: ${ALLOWED_EXTENSIONS.join(' ')}.`);
    }
    return staged;
  }

  discardStaged(staged: StagedBlob): Promise<void> {
    return this.blobs.discard(staged.tempKey).catch(() => undefined);
  }

  /**
   * Creates the document for staged bytes. The blob is committed inside the transaction that
   * inserts the row, so a failure at any point leaves neither (the caller discards the stage).
   */
  async createFromStaged(
    intent: UploadIntent,
    staged: StagedBlob,
    /** Runs inside the transaction that inserts the row (an upload session records its document). */
    within?: (repos: Repos, doc: DocumentRecord) => Promise<void>,
  ): Promise<DocumentRecord> {
    const format = (intent.format ?? sniffFormat(staged.head))!;
    const now = Date.now();
    const id = newId();
    const doc: DocumentRecord = {
      id,
      workspaceId: intent.workspaceId,
      docsetId: intent.docsetIds.length === 1 ? intent.docsetIds[0]! : null,
      docsetCandidates: intent.docsetIds.length > 1 ? intent.docsetIds : [],
      name: intent.name,
      format: format.ext,
      contentType: format.contentType,
      size: staged.size,
      sha256: staged.sha256,
      blobKey: originalKeyOf({ workspaceId: intent.workspaceId, id }),
      status: 'New',
      pageCount: null,
      isSample: false,
      error: null,
      createdAt: now,
      updatedAt: now,
      processedAt: null,
      metadata: intent.metadata,
    };
    let blobCommitted = false;
    try {
      await this.store.tx(async (s) => {
      if (intent.docsetIds.length) {
        const still = await s.docsets.existingIds(intent.workspaceId, intent.docsetIds);
        const gone = intent.docsetIds.find((d) => !still.has(d));
        if (gone) throw notFound('Docset', gone);
      }
      await s.documents.insert(doc);
      await checkStoredBytes(s, doc.workspaceId, doc.size, this.limits);
      if (doc.docsetId) await s.docsets.adjustCount(doc.workspaceId, doc.docsetId, 1, now);
      if (intent.metadata.length) await s.metadata.replace(doc.workspaceId, doc.id, intent.metadata);
      await this.recordCreated(s, doc);
      if (within) await within(s, doc);
      await this.blobs.commit(staged.tempKey, doc.blobKey);
      blobCommitted = true;
      });
    } catch (err) {
      // The row did not commit: the bytes must not stay behind under their final key either.
      if (blobCommitted) await this.blobs.delete(doc.blobKey).catch(() => undefined);
      throw err;
    }
    return doc;
  }

  /**
   * The members of an ingested ZIP upload become documents of their own, in the ZIP's docset with its
   * metadata, each with its ingest job; the ZIP itself ends `Ready` without pages, its processing
   * details listing the members and the skipped entries. Each member is streamed to a staged blob
   * (never held whole in memory); then all of it commits at once, or nothing does. Safe to run again
   * and to run twice at once (a job run again after a lost lease or a crash): the ZIP's row is locked
   * and only one that is still `Ingesting` is expanded, so members are never created twice.
   */
  async createZipMembers(
    parent: DocumentRecord,
    members: { name: string; ext: string; open: () => Readable }[],
    skipped: { name: string; reason: string }[],
  ): Promise<void> {
    const staged: StagedBlob[] = [];
    const committed: string[] = [];
    try {
      for (const m of members) staged.push(await this.blobs.stage(m.open(), { maxBytes: this.maxUploadBytes }));
      await this.store.tx(async (s) => {
        const current = await s.documents.getLocked(parent.workspaceId, parent.id);
        if (!current || current.status !== 'Ingesting') return; // deleted meanwhile, or expanded by another run
        const metadata = await s.metadata.get(parent.id);
        const now = Date.now();
        const created: string[] = [];
        for (const [i, m] of members.entries()) {
          const format = formatOfName(m.name) ?? FORMATS.find((f) => f.ext === m.ext)!;
          const id = newId();
          const doc: DocumentRecord = {
            ...parent,
            id,
            name: m.name.split('/').pop()!.slice(0, MAX_NAME_LENGTH),
            format: format.ext,
            contentType: format.contentType,
            size: staged[i]!.size,
            sha256: staged[i]!.sha256,
            blobKey: originalKeyOf({ workspaceId: parent.workspaceId, id }),
            status: 'New',
            pageCount: null,
            error: null,
            createdAt: now,
            updatedAt: now,
            processedAt: null,
            progress: null,
            renditionBlobKey: null,
          };
          await s.documents.insert(doc);
          if (doc.docsetId) await s.docsets.adjustCount(doc.workspaceId, doc.docsetId, 1, now);
          if (metadata.length) await s.metadata.replace(doc.workspaceId, id, metadata);
          await this.recordCreated(s, doc);
          await this.blobs.commit(staged[i]!.tempKey, doc.blobKey);
          committed.push(doc.blobKey);
          created.push(id);
        }
        await checkStoredBytes(
          s,
          parent.workspaceId,
          staged.reduce((n, st) => n + st.size, 0),
          this.limits,
        ).catch((err: unknown) => {
          throw err instanceof DomainError ? new IngestError('Over storage limit', `The members of the archive do not fit: ${err.message}`) : err;
        });
        await recordExpanded(s.ingest, parent, { format: 'zip', members: created, skipped }, now);
      });
    } catch (err) {
      for (const key of committed) await this.blobs.delete(key).catch(() => undefined);
      throw err;
    } finally {
      for (const st of staged) await this.blobs.discard(st.tempKey).catch(() => undefined);
    }
  }

  async get(workspaceId: string, id: string): Promise<DocumentRecord> {
    const d = await this.store.documents.get(workspaceId, id);
    if (!d) throw notFound('Document', id);
    return d;
  }

  list(workspaceId: string, filter: DocumentFilter, page: PageRequest): Promise<Page<DocumentRecord>> {
    return this.store.documents.list(workspaceId, filter, page);
  }

  /**
   * Deletes the row (and its metadata, and its place in a docset), then its bytes. The row is read
   * locked: a move committed meanwhile is seen, so the docset that loses a document is the one it is
   * in (its `documentCount` stays true).
   */
  async delete(workspaceId: string, id: string): Promise<void> {
    const doc = await this.store.tx(async (s) => {
      const d = await s.documents.getLocked(workspaceId, id);
      if (!d) throw notFound('Document', id);
      // Rows are locked in a move's order (document, docset, then classification statistics), so a
      // delete and a move of documents of one docset cannot deadlock on PostgreSQL.
      if (d.docsetId) await s.docsets.adjustCount(workspaceId, d.docsetId, -1, Date.now());
      await s.metadata.deleteFor(id);
      await s.properties.deleteValuesOf(id);
      for (const hook of this.onDelete) await hook(s, d);
      await s.ingest.deletePages(id);
      await s.documents.delete(workspaceId, id);
      await s.events.insert({ id: newId(), workspaceId, type: DOCUMENT_DELETED, payload: { documentId: id, name: d.name }, createdAt: Date.now() });
      return d;
    });
    // The original, its rendition, page images and structure all live under the document's prefix.
    // The document is deleted once its row is: bytes that cannot be removed now are orphans the
    // daily sweep removes (blob-sweep.ts), not a failed delete the caller would repeat into a 404.
    await this.blobs.deletePrefix(documentPrefixOf(doc)).catch(() => undefined);
  }

  /** The document's original bytes, whole or a byte range (inclusive). */
  async openContent(doc: DocumentRecord, range?: { start: number; end: number }): Promise<Readable> {
    return this.blobs.read(doc.blobKey, range);
  }
}

export function tooLarge(limit: number): DomainError {
  return new DomainError('too-large', `Files are limited to ${Math.round(limit / 1024 / 1024)} MB.`);
}

function validateName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  const problem = nameProblem(name);
  if (problem) throw invalid(problem);
  return name;
}
