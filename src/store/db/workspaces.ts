import type { Kysely, Selectable } from 'kysely';
import type { Database, WorkspacesTable } from './schema.js';
import type { WorkspaceRecord } from '../../model/records.js';

export function toWorkspaceRecord(r: Selectable<WorkspacesTable>): WorkspaceRecord {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    createdAt: Number(r.created_at),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    pageQuotaMax: Number(r.page_quota_max),
    pageQuotaPerDocument: Number(r.page_quota_per_document),
    userQuotaMax: Number(r.user_quota_max),
  };
}

export class WorkspacesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(w: WorkspaceRecord): Promise<void> {
    await this.db
      .insertInto('workspaces')
      .values({
        id: w.id,
        name: w.name,
        type: w.type,
        created_at: w.createdAt,
        expires_at: w.expiresAt,
        page_quota_max: w.pageQuotaMax,
        page_quota_per_document: w.pageQuotaPerDocument,
        user_quota_max: w.userQuotaMax,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  async get(id: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toWorkspaceRecord(row);
  }

  async getByName(name: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toWorkspaceRecord(row);
  }

  async setQuota(id: string, q: { pageMax?: number; pagePerDocument?: number; userMax?: number }): Promise<void> {
    await this.db
      .updateTable('workspaces')
      .set({
        ...(q.pageMax !== undefined ? { page_quota_max: q.pageMax } : {}),
        ...(q.pagePerDocument !== undefined ? { page_quota_per_document: q.pagePerDocument } : {}),
        ...(q.userMax !== undefined ? { user_quota_max: q.userMax } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  async setExpiry(id: string, expiresAt: number | null): Promise<void> {
    await this.db.updateTable('workspaces').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async list(): Promise<WorkspaceRecord[]> {
    const rows = await this.db.selectFrom('workspaces').selectAll().orderBy('id').execute();
    return rows.map(toWorkspaceRecord);
  }
}
