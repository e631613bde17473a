import { sql, type Kysely } from 'kysely';

// What each workspace stores, kept as it changes (src/store/db/usage.ts) so a limit check is one row
// read, not a sum over the workspace's documents; apart from `workspaces`, whose changes notify every
// process's point reads. Filled from the documents already stored.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspace_usage')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey())
    /** Bytes of the workspace's documents as uploaded (ZIP members included). */
    .addColumn('stored_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into workspace_usage (workspace_id, stored_bytes) select workspace_id, sum(size) from documents group by workspace_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('workspace_usage').ifExists().execute();
}
