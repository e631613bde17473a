import { sql, type Kysely, type Selectable } from 'kysely';
import { keysetPage } from './keyset.js';
import type { Database, SamplesTable } from './schema.js';
import type { Page, PageRequest, SampleFilter, SampleRecord } from '../../model/records.js';
import { FAILED_DOCUMENT_STATUSES, SETTLED_DOCUMENT_STATUSES } from '../../model/lifecycle.js';

type Row = Selectable<SamplesTable> & { documents: number; pending: number; failed: number };

// Per sample, over the documents it created that still exist: how many, how many still in
// processing, how many failed. Its status follows from them.
const documentCount = sql<number>`count(d.id)`;
const pendingCount = sql<number>`sum(case when d.id is not null and d.status not in (${sql.join([...SETTLED_DOCUMENT_STATUSES])}) then 1 else 0 end)`;
const failedCount = sql<number>`sum(case when d.status in (${sql.join([...FAILED_DOCUMENT_STATUSES])}) then 1 else 0 end)`;

function toRecord(r: Row): SampleRecord {
  const pending = Number(r.pending);
  const failed = Number(r.failed);
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    catalogId: r.catalog_id,
    catalogVersion: r.catalog_version ?? '1',
    name: r.name,
    docsetId: r.docset_id,
    suggestedProperties: JSON.parse(r.suggested_properties) as string[],
    status: pending > 0 ? 'InProgress' : failed > 0 ? 'Error' : 'Ready',
    documentCount: Number(r.documents),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class SamplesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(s: Omit<SampleRecord, 'status' | 'documentCount'>): Promise<void> {
    await this.db
      .insertInto('samples')
      .values({
        id: s.id,
        workspace_id: s.workspaceId,
        catalog_id: s.catalogId,
        catalog_version: s.catalogVersion,
        name: s.name,
        docset_id: s.docsetId,
        suggested_properties: JSON.stringify(s.suggestedProperties),
        created_at: s.createdAt,
        updated_at: s.updatedAt,
      })
      .execute();
  }

  /**
   * Records a document the sample created and flags it as a sample document (hidden from lists
   * unless `samples=true`); called in the transaction that inserts the document.
   */
  async addDocument(workspaceId: string, sampleId: string, documentId: string): Promise<void> {
    await this.db.insertInto('sample_documents').values({ sample_id: sampleId, document_id: documentId }).execute();
    await this.db.updateTable('documents').set({ is_sample: 1 }).where('workspace_id', '=', workspaceId).where('id', '=', documentId).execute();
  }

  private withStatus(workspaceId: string) {
    return this.db
      .selectFrom('samples as s')
      .leftJoin('sample_documents as sd', 'sd.sample_id', 's.id')
      .leftJoin('documents as d', 'd.id', 'sd.document_id')
      .selectAll('s')
      .select([documentCount.as('documents'), pendingCount.as('pending'), failedCount.as('failed')])
      .where('s.workspace_id', '=', workspaceId)
      .groupBy('s.id');
  }

  async get(workspaceId: string, id: string): Promise<SampleRecord | undefined> {
    const row = await this.withStatus(workspaceId).where('s.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(workspaceId: string, f: SampleFilter, page: PageRequest): Promise<Page<SampleRecord>> {
    let q = this.withStatus(workspaceId);
    if (f.name !== undefined) q = q.where('s.name', '=', f.name);
    if (page.after !== undefined) q = q.where('s.id', '>', page.after);
    if (f.status === 'InProgress') q = q.having(pendingCount, '>', 0);
    if (f.status === 'Ready') q = q.having(pendingCount, '=', 0).having(failedCount, '=', 0);
    if (f.status === 'Error') q = q.having(pendingCount, '=', 0).having(failedCount, '>', 0);
    return keysetPage(await q.orderBy('s.id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  /** Removes the sample's own rows (not its docset or documents). */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.db.deleteFrom('sample_documents').where('sample_id', '=', id).execute();
    await this.db.deleteFrom('samples').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  }
}
