import type { Kysely } from 'kysely';

// DGML, text and Markdown, written once from the structure model and kept as blobs: one row per
// document and format naming the blob, the SHA-256 of its bytes (the ETag) and of what it was
// written from (`inputs`: the structure's processing, Quire's version, and for DGML the workspace and
// docset names and the property values it tags). A row whose inputs differ from the document's now
// is written again. Rows go with their document (ON DELETE CASCADE), blobs with its prefix.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('structure_files')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('inputs', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('written_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('structure_files_pk', ['document_id', 'format'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('structure_files').ifExists().execute();
}
