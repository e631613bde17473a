import type { Kysely } from 'kysely';

// Projects, the documents each one has confirmed, their published versions and the artifacts of each
// version. Portable column types only: the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('docset_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('auto_confirm', 'integer', (c) => c.notNull())
    /** JSON array of property ids, in item order. */
    .addColumn('items', 'text', (c) => c.notNull())
    /** 0 until the first version is published. */
    .addColumn('latest_version', 'integer', (c) => c.notNull())
    /** Partition key of the id (src/model/partition.ts), for partitioned continuation. */
    .addColumn('pkey', 'integer', (c) => c.notNull())
    /** Set when an input changed and no version reflects it yet; cleared by the publish job. */
    .addColumn('dirty_at', 'bigint')
    /** The last change of an input (debounce: publish once changes stop for a moment). */
    .addColumn('changed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_ws_id').on('projects').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('projects_ws_pkey').on('projects').columns(['workspace_id', 'pkey', 'id']).execute();
  await db.schema.createIndex('projects_docset').on('projects').columns(['docset_id']).execute();

  // With autoConfirmDocuments off, a document that joins the docset waits here unconfirmed (absent)
  // until the project is published by hand or auto-confirmation is switched on.
  await db.schema
    .createTable('project_documents')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_documents_pk', ['project_id', 'document_id'])
    .execute();
  await db.schema.createIndex('project_documents_document').on('project_documents').columns(['document_id']).execute();

  await db.schema
    .createTable('project_versions')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    /** Hash of everything the version was generated from: an unchanged input publishes nothing. */
    .addColumn('inputs_hash', 'text', (c) => c.notNull())
    /** JSON `{common, documents: {id: hash}}`: which inputs each document's files were made from. */
    .addColumn('input_hashes', 'text', (c) => c.notNull())
    .addColumn('document_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_versions_pk', ['project_id', 'version'])
    .execute();

  await db.schema
    .createTable('artifacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    /** Unchanged content is shared with the previous version's artifact (same key). */
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('is_read_only', 'integer', (c) => c.notNull())
    .addColumn('pkey', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('artifacts_version').on('artifacts').columns(['project_id', 'version', 'id']).execute();
  await db.schema.createIndex('artifacts_version_pkey').on('artifacts').columns(['project_id', 'version', 'pkey', 'id']).execute();
  await db.schema.createIndex('artifacts_version_name').on('artifacts').columns(['project_id', 'version', 'name']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['artifacts', 'project_versions', 'project_documents', 'projects']) await db.schema.dropTable(t).ifExists().execute();
}
