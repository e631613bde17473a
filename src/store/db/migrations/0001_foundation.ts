import type { Kysely } from 'kysely';

// One migration set for both dialects: only portable column types (text, integer, bigint).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('page_quota_max', 'bigint', (c) => c.notNull())
    .addColumn('page_quota_per_document', 'bigint', (c) => c.notNull())
    .addColumn('user_quota_max', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('docsets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_sample', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('document_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('docsets_workspace_name').unique().on('docsets').columns(['workspace_id', 'name']).execute();
  await db.schema.createIndex('docsets_workspace_id').on('docsets').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createIndex('docsets_workspace_count')
    .on('docsets')
    .columns(['workspace_id', 'document_count', 'id'])
    .execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('docset_id', 'text', (c) => c.references('docsets.id'))
    .addColumn('docset_candidates', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('page_count', 'integer')
    .addColumn('is_sample', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_title', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .execute();
  // Every list filter has an index that starts with the workspace and ends with the keyset column.
  const documentIndexes: Record<string, string[]> = {
    documents_ws_id: ['workspace_id', 'id'],
    documents_ws_docset: ['workspace_id', 'docset_id', 'id'],
    documents_ws_status: ['workspace_id', 'status', 'id'],
    documents_ws_name: ['workspace_id', 'name', 'id'],
    documents_ws_pages: ['workspace_id', 'page_count', 'id'],
    documents_ws_size: ['workspace_id', 'size', 'id'],
  };
  for (const [name, columns] of Object.entries(documentIndexes)) {
    await db.schema.createIndex(name).on('documents').columns(columns).execute();
  }

  await db.schema
    .createTable('document_metadata')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_metadata_pk', ['document_id', 'key'])
    .execute();
  await db.schema
    .createIndex('document_metadata_ws_key_value')
    .on('document_metadata')
    .columns(['workspace_id', 'key', 'value', 'document_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['document_metadata', 'documents', 'docsets', 'api_keys', 'workspaces', 'settings']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
