import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Adds `delta` to the workspace's stored bytes (its row made on first use), in the caller's transaction. */
export async function adjustStoredBytes(db: Kysely<Database>, workspaceId: string, delta: number): Promise<number> {
  const row = await db
    .insertInto('workspace_usage')
    .values({ workspace_id: workspaceId, stored_bytes: delta })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ stored_bytes: sql<number>`workspace_usage.stored_bytes + ${delta}` }))
    .returning('stored_bytes')
    .executeTakeFirstOrThrow();
  return Number(row.stored_bytes);
}

/** A workspace's use of storage, for its limits (src/domain/limits.ts). */
export class UsageRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The workspace's stored bytes, its usage row locked until the transaction ends: checks of a
   * workspace's limits take turns (PostgreSQL; SQLite's write transactions already do).
   */
  lock(workspaceId: string): Promise<number> {
    return adjustStoredBytes(this.db, workspaceId, 0);
  }

  async storedBytes(workspaceId: string): Promise<number> {
    const row = await this.db.selectFrom('workspace_usage').select('stored_bytes').where('workspace_id', '=', workspaceId).executeTakeFirst();
    return row ? Number(row.stored_bytes) : 0;
  }
}
