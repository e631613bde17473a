import type { Kysely } from 'kysely';

// Ingestion: durable jobs, domain events, page rows, and the in-flight state of documents.
// Portable column types only (text, integer, bigint): the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_queue_state_run_at').on('jobs').columns(['queue', 'state', 'run_at']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_workspace_id').on('events').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('document_pages')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_pages_pk', ['document_id', 'number'])
    .execute();

  await db.schema.alterTable('documents').addColumn('progress', 'text').execute();
  await db.schema.alterTable('documents').addColumn('processing', 'text').execute();
  await db.schema.alterTable('documents').addColumn('rendition_blob_key', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['rendition_blob_key', 'processing', 'progress']) {
    await db.schema.alterTable('documents').dropColumn(c).execute();
  }
  for (const t of ['document_pages', 'events', 'jobs']) await db.schema.dropTable(t).ifExists().execute();
}
