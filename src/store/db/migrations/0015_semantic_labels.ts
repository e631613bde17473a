import type { Kysely } from 'kysely';

// The labels found in each document's structure (inline spans of kind `label`, `docset:{name}` in
// DGML), summarised once when the document becomes Ready: one row per name with an example and how
// many spans it has, and one scan row per document saying of which processing (`processed_at`) the
// rows are. A docset's labels are then one aggregate over its documents' rows, no structure read.
// Rows go with their document (ON DELETE CASCADE; SQLite runs with foreign_keys on).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('semantic_labels')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('example', 'text', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('semantic_labels_pk', ['document_id', 'name'])
    .execute();
  await db.schema
    .createTable('semantic_label_scans')
    .addColumn('document_id', 'text', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    /** The document's `processed_at` when its structure was summarised: rows of an older processing do not count. */
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .addColumn('label_count', 'integer', (c) => c.notNull())
    .addColumn('scanned_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('semantic_label_scans').ifExists().execute();
  await db.schema.dropTable('semantic_labels').ifExists().execute();
}
