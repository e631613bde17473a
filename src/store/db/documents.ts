import { sql, type Kysely, type Selectable } from 'kysely';
import { keysetPage } from './keyset.js';
import { partitionPage } from './partitions.js';
import { partitionKeyOf, type PartitionPage, type PartitionPageRequest } from '../../model/partition.js';
import { precompiled } from './precompiled.js';
import type { PointReads } from './point-reads.js';
import type { Database, DocumentsTable } from './schema.js';
import type { DocumentFilter, DocumentProgress, ProcessingDetails, DocumentRecord, MetadataEntry, Page, PageRequest } from '../../model/records.js';
import type { DocumentStatus } from '../../model/lifecycle.js';
import { adjustStoredBytes } from './usage.js';

type Row = Selectable<DocumentsTable>;

function toRecord(r: Row): DocumentRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    docsetId: r.docset_id,
    docsetCandidates: r.docset_candidates ? r.docset_candidates.split('|') : [],
    name: r.name,
    format: r.format,
    contentType: r.content_type,
    size: Number(r.size),
    sha256: r.sha256,
    blobKey: r.blob_key,
    status: r.status as DocumentStatus,
    pageCount: r.page_count === null ? null : Number(r.page_count),
    isSample: Boolean(r.is_sample),
    error: r.error_title ? { title: r.error_title, detail: r.error_detail ?? '' } : null,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    processedAt: r.processed_at === null ? null : Number(r.processed_at),
    progress: r.progress ? (JSON.parse(r.progress) as DocumentProgress) : null,
    renditionBlobKey: r.rendition_blob_key,
    structureBlobKey: r.structure_blob_key,
    classification: r.classification ? (JSON.parse(r.classification) as DocumentRecord['classification']) : null,
    processing: r.processing ? (JSON.parse(r.processing) as ProcessingDetails) : null,
    metadata: r.metadata ? (JSON.parse(r.metadata) as MetadataEntry[]) : [],
  };
}

const getDocument = precompiled<Database, [string, string], Row>(2, (db, workspaceId, id) =>
  db.selectFrom('documents').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId),
);

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class DocumentsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pointReads?: PointReads,
  ) {}

  async insert(d: DocumentRecord): Promise<void> {
    await this.db
      .insertInto('documents')
      .values({
        id: d.id,
        workspace_id: d.workspaceId,
        docset_id: d.docsetId,
        docset_candidates: d.docsetCandidates.length ? d.docsetCandidates.join('|') : null,
        name: d.name,
        format: d.format,
        content_type: d.contentType,
        size: d.size,
        sha256: d.sha256,
        blob_key: d.blobKey,
        status: d.status,
        page_count: d.pageCount,
        is_sample: d.isSample ? 1 : 0,
        error_title: d.error?.title ?? null,
        error_detail: d.error?.detail ?? null,
        created_at: d.createdAt,
        updated_at: d.updatedAt,
        processed_at: d.processedAt,
        pkey: partitionKeyOf(d.id),
        metadata: d.metadata?.length ? JSON.stringify(d.metadata) : null,
      })
      .execute();
    await adjustStoredBytes(this.db, d.workspaceId, d.size);
  }

  async get(workspaceId: string, id: string): Promise<DocumentRecord | undefined> {
    if (this.pointReads) return this.pointReads.first(getDocument.compiledFor(this.db), [workspaceId, id], toRecord);
    const [row] = await getDocument(this.db, workspaceId, id);
    return row && toRecord(row);
  }

  /**
   * The document as it is now, its row locked until the transaction ends (PostgreSQL: a concurrent
   * move or delete waits, and this read sees what it committed). A no-op UPDATE … RETURNING, so it
   * means the same on SQLite, whose write transactions already take turns.
   */
  async getLocked(workspaceId: string, id: string): Promise<DocumentRecord | undefined> {
    const row = await this.db
      .updateTable('documents')
      .set({ updated_at: sql<number>`updated_at` })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The documents of a workspace matching a filter (REST lists and partitioned listings share it). */
  private filtered(workspaceId: string, f: DocumentFilter) {
    let q = this.db.selectFrom('documents').selectAll().where('workspace_id', '=', workspaceId);
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.prefix !== undefined) q = q.where('name', 'like', sql<string>`${escapeLike(f.prefix) + '%'} escape '\\'`);
    if (f.docsetId !== undefined) q = q.where('docset_id', '=', f.docsetId);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    if (f.minPages !== undefined) q = q.where('page_count', '>=', f.minPages);
    if (f.maxPages !== undefined) q = q.where('page_count', '<=', f.maxPages);
    if (f.minSize !== undefined) q = q.where('size', '>=', f.minSize);
    if (f.maxSize !== undefined) q = q.where('size', '<=', f.maxSize);
    if (!f.samples) q = q.where('is_sample', '=', 0);
    for (const [key, value] of Object.entries(f.metadata ?? {})) {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('document_metadata as m')
            .select(sql`1`.as('one'))
            .whereRef('m.document_id', '=', 'documents.id')
            .where('m.workspace_id', '=', workspaceId)
            .where('m.key', '=', key)
            .where('m.value', '=', value),
        ),
      );
    }
    return q;
  }

  async list(workspaceId: string, f: DocumentFilter, page: PageRequest): Promise<Page<DocumentRecord>> {
    let q = this.filtered(workspaceId, f);
    if (page.after !== undefined) q = q.where('id', '>', page.after);
    return keysetPage(await q.orderBy('id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  /** One page of a key range in (pkey, id) order: the partitioned listing's hook. */
  async listPartitioned(workspaceId: string, f: DocumentFilter, page: PartitionPageRequest): Promise<PartitionPage<DocumentRecord>> {
    let q = this.filtered(workspaceId, f).where('pkey', '>=', page.range.min).where('pkey', '<=', page.range.max);
    if (page.after) {
      const { pkey, id } = page.after;
      q = q.where((eb) => eb.or([eb('pkey', '>', pkey), eb.and([eb('pkey', '=', pkey), eb('id', '>', id)])]));
    }
    return partitionPage(await q.orderBy('pkey').orderBy('id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  /** Moves a document from docset `from` to `to` only if it is still in `from`; true when it moved. */
  async moveDocset(workspaceId: string, id: string, from: string | null, to: string | null, now: number): Promise<boolean> {
    let q = this.db
      .updateTable('documents')
      .set({ docset_id: to, docset_candidates: null, updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id);
    q = from === null ? q.where('docset_id', 'is', null) : q.where('docset_id', '=', from);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async setDocset(workspaceId: string, ids: string[], docsetId: string | null, now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('documents')
      .set({ docset_id: docsetId, updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
  }

  async idsInDocset(workspaceId: string, docsetId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('documents').select('id').where('workspace_id', '=', workspaceId).where('docset_id', '=', docsetId).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  async clearDocset(workspaceId: string, docsetId: string, now: number): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ docset_id: null, updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('docset_id', '=', docsetId)
      .execute();
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('documents').where('id', '=', id).where('workspace_id', '=', workspaceId).returning('size').executeTakeFirst();
    if (!r) return false;
    await adjustStoredBytes(this.db, workspaceId, -Number(r.size));
    return true;
  }

  /** Pages counted against the quota: every document that is not over quota. */
  async pagesUsed(workspaceId: string): Promise<number> {
    const row = await this.db
      .selectFrom('documents')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('page_count'), sql<number>`0`).as('pages'))
      .where('workspace_id', '=', workspaceId)
      .where('status', '!=', 'OverQuota')
      .executeTakeFirstOrThrow();
    return Number(row.pages);
  }
}
