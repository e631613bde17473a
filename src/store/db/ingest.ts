import type { Kysely, Updateable } from 'kysely';
import type { Database, DocumentsTable } from './schema.js';
import type { DocumentProgress } from '../../model/records.js';
import { STARTED_DOCUMENT_STATUSES, type DocumentStatus } from '../../model/lifecycle.js';

export interface PageRow {
  number: number;
  width: number;
  height: number;
}

/** The writes of the ingestion pipeline: document states, page rows, and the quota lock. */
export class IngestRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private doc(workspaceId: string, id: string) {
    return this.db.updateTable('documents').where('workspace_id', '=', workspaceId).where('id', '=', id);
  }

  /**
   * Sets `to` (and the columns that go with it) on the document while it is in one of `from`; true
   * when it was. Which statuses may go where is the domain's (src/domain/ingestion.ts): every status
   * write goes through here, with the statuses it names.
   */
  private async move(workspaceId: string, id: string, from: readonly DocumentStatus[], to: DocumentStatus, columns: Updateable<DocumentsTable>): Promise<boolean> {
    const r = await this.doc(workspaceId, id)
      .where('status', 'in', [...from])
      .set({ ...columns, status: to })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The document's status; null when it is gone. */
  async statusOf(workspaceId: string, id: string): Promise<DocumentStatus | null> {
    const row = await this.db.selectFrom('documents').select('status').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    return row ? (row.status as DocumentStatus) : null;
  }

  /** From one of `from` to `to`, with its progress. */
  setStatus(workspaceId: string, id: string, from: readonly DocumentStatus[], to: DocumentStatus, progress: DocumentProgress | null, now: number): Promise<boolean> {
    return this.move(workspaceId, id, from, to, { progress: progress && JSON.stringify(progress), updated_at: now });
  }

  /** The document's progress; with `whileStatus`, only while it is in that status (a late report changes nothing). */
  async setProgress(workspaceId: string, id: string, progress: DocumentProgress | null, whileStatus?: DocumentStatus): Promise<void> {
    let q = this.doc(workspaceId, id).set({ progress: progress && JSON.stringify(progress) });
    if (whileStatus) q = q.where('status', '=', whileStatus);
    await q.execute();
  }

  /** `Ingested`: pages known, rendition and processing details stored. */
  setIngested(
    workspaceId: string,
    id: string,
    from: readonly DocumentStatus[],
    v: { pageCount: number; renditionBlobKey: string | null; processing: unknown; progress: DocumentProgress; now: number },
  ): Promise<boolean> {
    return this.move(workspaceId, id, from, 'Ingested', {
      page_count: v.pageCount,
      rendition_blob_key: v.renditionBlobKey,
      processing: JSON.stringify(v.processing),
      progress: JSON.stringify(v.progress),
      error_title: null,
      error_detail: null,
      updated_at: v.now,
    });
  }

  /** `Ready`: the structure model is stored, and processing details complete. */
  setReady(workspaceId: string, id: string, from: readonly DocumentStatus[], v: { structureBlobKey: string; processing: unknown; now: number }): Promise<boolean> {
    return this.move(workspaceId, id, from, 'Ready', {
      progress: null,
      structure_blob_key: v.structureBlobKey,
      processing: JSON.stringify(v.processing),
      processed_at: v.now,
      updated_at: v.now,
    });
  }

  /** Kept with its page count, not processed, not counted against the quota. */
  setOverQuota(workspaceId: string, id: string, from: readonly DocumentStatus[], detail: string, now: number): Promise<boolean> {
    return this.move(workspaceId, id, from, 'OverQuota', { progress: null, error_title: 'Over quota', error_detail: detail, updated_at: now });
  }

  /** A ZIP upload whose members became documents of their own: Ready, no pages of its own. */
  setExpanded(workspaceId: string, id: string, from: readonly DocumentStatus[], processing: unknown, now: number): Promise<boolean> {
    return this.move(workspaceId, id, from, 'Ready', { page_count: 0, processing: JSON.stringify(processing), progress: null, processed_at: now, updated_at: now });
  }

  setError(workspaceId: string, id: string, from: readonly DocumentStatus[], title: string, detail: string, now: number): Promise<boolean> {
    return this.move(workspaceId, id, from, 'Error', { progress: null, error_title: title, error_detail: detail, updated_at: now });
  }

  /**
   * Serializes quota decisions of one workspace: a no-op UPDATE of its row takes the row lock on
   * PostgreSQL (held until the transaction ends) and makes the transaction a writer on SQLite.
   */
  async lockWorkspace(workspaceId: string): Promise<void> {
    await this.db.updateTable('workspaces').set((eb) => ({ id: eb.ref('id') })).where('id', '=', workspaceId).execute();
  }

  /** Pages counted against the quota, without document `exceptId`. */
  async pagesUsedExcept(workspaceId: string, exceptId: string): Promise<number> {
    const row = await this.db
      .selectFrom('documents')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('page_count'), eb.lit(0)).as('pages'))
      .where('workspace_id', '=', workspaceId)
      .where('status', '!=', 'OverQuota')
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(row.pages);
  }

  async replacePages(documentId: string, pages: PageRow[]): Promise<void> {
    await this.db.deleteFrom('document_pages').where('document_id', '=', documentId).execute();
    for (let i = 0; i < pages.length; i += 200) {
      const chunk = pages.slice(i, i + 200);
      await this.db
        .insertInto('document_pages')
        .values(chunk.map((p) => ({ document_id: documentId, number: p.number, width: Math.round(p.width), height: Math.round(p.height) })))
        .execute();
    }
  }

  async pages(documentId: string): Promise<PageRow[]> {
    const rows = await this.db.selectFrom('document_pages').select(['number', 'width', 'height']).where('document_id', '=', documentId).orderBy('number').execute();
    return rows.map((r) => ({ number: Number(r.number), width: Number(r.width), height: Number(r.height) }));
  }

  async deletePages(documentId: string): Promise<void> {
    await this.db.deleteFrom('document_pages').where('document_id', '=', documentId).execute();
  }

  /** Documents left mid-ingestion (a process died): their jobs are re-leased once the lease expires. */
  async countInFlight(): Promise<number> {
    const row = await this.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', [...STARTED_DOCUMENT_STATUSES])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
