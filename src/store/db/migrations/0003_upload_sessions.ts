import type { Kysely } from 'kysely';

// Chunked (resumable) upload sessions. Portable column types only (text, integer, bigint): the same
// migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_size', 'bigint', (c) => c.notNull())
    /** `a|b|c` as validated at creation; null for none. */
    .addColumn('docset_ids', 'text')
    /** JSON `{"metadata": [...]}` as validated at creation; null for none. */
    .addColumn('metadata', 'text')
    /** Set in the transaction that creates the document: a session finalizes at most once. */
    .addColumn('document_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_sessions_expires').on('upload_sessions').columns(['expires_at', 'id']).execute();
  await db.schema.createIndex('upload_sessions_ws_id').on('upload_sessions').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('session_id', 'text', (c) => c.notNull().references('upload_sessions.id').onDelete('cascade'))
    .addColumn('byte_offset', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['session_id', 'byte_offset'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_chunks').ifExists().execute();
  await db.schema.dropTable('upload_sessions').ifExists().execute();
}
