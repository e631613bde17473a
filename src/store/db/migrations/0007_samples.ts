import type { Kysely } from 'kysely';

// Samples created from the catalogue: each one's docset and the documents generated into it. Portable
// column types only (text, bigint): the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('samples')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('catalog_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('docset_id', 'text', (c) => c.notNull())
    /** JSON array of property labels. */
    .addColumn('suggested_properties', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('samples_ws_id').on('samples').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('samples_ws_name').on('samples').columns(['workspace_id', 'name']).execute();

  // The documents a sample created: its status is theirs, wherever they have moved since.
  await db.schema
    .createTable('sample_documents')
    .addColumn('sample_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sample_documents_pk', ['sample_id', 'document_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sample_documents').ifExists().execute();
  await db.schema.dropTable('samples').ifExists().execute();
}
