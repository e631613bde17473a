import type { Kysely } from 'kysely';

const COLUMNS = ['id', 'workspace_id', 'project_id', 'version', 'name', 'document_id', 'size', 'content_type', 'sha256', 'blob_key', 'is_read_only', 'pkey', 'created_at', 'updated_at'] as const;

// An artifact a user uploaded is carried into every version a project publishes after it, under the
// same id (so `…/artifacts/latest/{id}` keeps finding it): an artifact row is now one artifact in one
// version, keyed (project_id, version, id), where the id alone was the key. Neither SQLite nor
// PostgreSQL changes a primary key in place portably, so the table is rebuilt, rows and all. The
// blob_key index serves the "is this blob still used" check of deletes and replacements, which
// carried rows (sharing their bytes) make more frequent.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('artifacts_rebuilt')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('is_read_only', 'integer', (c) => c.notNull())
    .addColumn('pkey', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('artifacts_pk', ['project_id', 'version', 'id'])
    .execute();
  await db
    .insertInto('artifacts_rebuilt')
    .columns([...COLUMNS])
    .expression(db.selectFrom('artifacts').select([...COLUMNS]))
    .execute();
  await db.schema.dropTable('artifacts').execute();
  await db.schema.alterTable('artifacts_rebuilt').renameTo('artifacts').execute();
  // (project_id, version, id) is the primary key's own index now.
  await db.schema.createIndex('artifacts_version_pkey').on('artifacts').columns(['project_id', 'version', 'pkey', 'id']).execute();
  await db.schema.createIndex('artifacts_version_name').on('artifacts').columns(['project_id', 'version', 'name']).execute();
  await db.schema.createIndex('artifacts_blob').on('artifacts').columns(['blob_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Back to one row per id: a carried upload keeps its newest version only.
  await db.schema
    .createTable('artifacts_rebuilt')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('is_read_only', 'integer', (c) => c.notNull())
    .addColumn('pkey', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('artifacts_rebuilt')
    .columns([...COLUMNS])
    .expression(
      db
        .selectFrom('artifacts as a')
        .select(COLUMNS.map((c) => `a.${c}` as const))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('artifacts as b').select('b.id').whereRef('b.id', '=', 'a.id').whereRef('b.project_id', '=', 'a.project_id').whereRef('b.version', '>', 'a.version'))),
        ),
    )
    .execute();
  await db.schema.dropTable('artifacts').execute();
  await db.schema.alterTable('artifacts_rebuilt').renameTo('artifacts').execute();
  await db.schema.createIndex('artifacts_version').on('artifacts').columns(['project_id', 'version', 'id']).execute();
  await db.schema.createIndex('artifacts_version_pkey').on('artifacts').columns(['project_id', 'version', 'pkey', 'id']).execute();
  await db.schema.createIndex('artifacts_version_name').on('artifacts').columns(['project_id', 'version', 'name']).execute();
}
