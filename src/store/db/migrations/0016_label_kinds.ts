import type { Kysely } from 'kysely';

// Found labels name clauses as well as values (`kind`): a name may be both in one document (a
// `SecurityDeposit` amount inside the `SecurityDeposit` clause), so the kind is part of the key. The
// rows are a summary of stored structures, made again on demand for any document without a scan row:
// the table is made anew and every scan forgotten, so each Ready document is summarised with its clauses.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('semantic_labels').execute();
  await db.schema
    .createTable('semantic_labels')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    /** 'value' or 'clause'. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('example', 'text', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('semantic_labels_pk', ['document_id', 'kind', 'name'])
    .execute();
  await db.deleteFrom('semantic_label_scans').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('semantic_labels').execute();
  await db.schema
    .createTable('semantic_labels')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('example', 'text', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('semantic_labels_pk', ['document_id', 'name'])
    .execute();
  await db.deleteFrom('semantic_label_scans').execute();
}
