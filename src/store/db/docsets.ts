import type { Kysely, Selectable } from 'kysely';
import { keysetPage } from './keyset.js';
import { partitionPage } from './partitions.js';
import { partitionKeyOf, type PartitionPage, type PartitionPageRequest } from '../../model/partition.js';
import type { Database, DocsetsTable } from './schema.js';
import type { DocsetFilter, DocsetRecord, Page, PageRequest } from '../../model/records.js';

function toRecord(r: Selectable<DocsetsTable>): DocsetRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    name: r.name,
    isSample: Boolean(r.is_sample),
    documentCount: Number(r.document_count),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class DocsetsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(d: DocsetRecord): Promise<void> {
    await this.db
      .insertInto('docsets')
      .values({
        id: d.id,
        workspace_id: d.workspaceId,
        name: d.name,
        is_sample: d.isSample ? 1 : 0,
        document_count: d.documentCount,
        created_at: d.createdAt,
        updated_at: d.updatedAt,
        pkey: partitionKeyOf(d.id),
      })
      .execute();
  }

  async get(workspaceId: string, id: string): Promise<DocsetRecord | undefined> {
    const row = await this.db.selectFrom('docsets').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    return row && toRecord(row);
  }

  async getByName(workspaceId: string, name: string): Promise<DocsetRecord | undefined> {
    const row = await this.db.selectFrom('docsets').selectAll().where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  async existingIds(workspaceId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('docsets').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The docsets of a workspace matching a filter (REST lists and partitioned listings share it). */
  private filtered(workspaceId: string, f: DocsetFilter) {
    let q = this.db.selectFrom('docsets').selectAll().where('workspace_id', '=', workspaceId);
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.minDocuments !== undefined) q = q.where('document_count', '>=', f.minDocuments);
    if (f.maxDocuments !== undefined) q = q.where('document_count', '<=', f.maxDocuments);
    if (!f.samples) q = q.where('is_sample', '=', 0);
    return q;
  }

  async list(workspaceId: string, f: DocsetFilter, page: PageRequest): Promise<Page<DocsetRecord>> {
    let q = this.filtered(workspaceId, f);
    if (page.after !== undefined) q = q.where('id', '>', page.after);
    return keysetPage(await q.orderBy('id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  /** One page of a key range in (pkey, id) order: the partitioned listing's hook. */
  async listPartitioned(workspaceId: string, f: DocsetFilter, page: PartitionPageRequest): Promise<PartitionPage<DocsetRecord>> {
    let q = this.filtered(workspaceId, f).where('pkey', '>=', page.range.min).where('pkey', '<=', page.range.max);
    if (page.after) {
      const { pkey, id } = page.after;
      q = q.where((eb) => eb.or([eb('pkey', '>', pkey), eb.and([eb('pkey', '=', pkey), eb('id', '>', id)])]));
    }
    return partitionPage(await q.orderBy('pkey').orderBy('id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  /** Adds `delta` to the document count and touches `updatedAt`. */
  async adjustCount(workspaceId: string, id: string, delta: number, now: number): Promise<void> {
    await this.db
      .updateTable('docsets')
      .set((eb) => ({ document_count: eb('document_count', '+', delta), updated_at: now }))
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .execute();
  }

  async rename(workspaceId: string, id: string, name: string, now: number): Promise<void> {
    await this.db.updateTable('docsets').set({ name, updated_at: now }).where('id', '=', id).where('workspace_id', '=', workspaceId).execute();
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('docsets').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
