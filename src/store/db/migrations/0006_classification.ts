import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Classification of uploads into docsets: per-docset term statistics, kept incrementally, and each
// document's own term weights so that removing it subtracts exactly what adding it added. Weights are
// fixed-point integers (see src/domain/classification.ts), so sums are exact on both databases.
// Portable column types only (text, integer, bigint): the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  // Classifying reads thousands of term rows by primary key: on SQLite the rows live in the key's
  // B-tree (WITHOUT ROWID), not in a table beside it that every row would be looked up in.
  const clustered = db.getExecutor().adapter instanceof SqliteAdapter ? sql`without rowid` : sql``;

  await db.schema
    .createTable('docset_class_stats')
    .addColumn('docset_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    /** Documents counted in the docset's statistics. */
    .addColumn('documents', 'integer', (c) => c.notNull())
    /** Σ over terms of weight_sum²: the squared length of the docset's summed document vector. */
    .addColumn('norm_sq', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('docset_class_terms')
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('docset_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    /** Σ of the term's weight over the docset's documents. */
    .addColumn('weight_sum', 'bigint', (c) => c.notNull())
    /** How many of the docset's documents have the term. */
    .addColumn('documents', 'integer', (c) => c.notNull())
    // Term first: a query reads each of its terms' rows, for all candidate docsets, in one range.
    .addPrimaryKeyConstraint('docset_class_terms_pk', ['term', 'docset_id'])
    .modifyEnd(clustered)
    .execute();
  await db.schema.createIndex('docset_class_terms_docset').on('docset_class_terms').columns(['docset_id']).execute();

  await db.schema
    .createTable('document_class_terms')
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    /** The docset the document is counted in; null while it is in none (its terms wait to be counted). */
    .addColumn('docset_id', 'text')
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_class_terms_pk', ['document_id', 'term'])
    .modifyEnd(clustered)
    .execute();
  await db.schema.createIndex('document_class_terms_docset').on('document_class_terms').columns(['docset_id']).execute();

  /** JSON `{candidates: [{docset: {id}, score, basis}], chosen: {id}}` when the upload named several docsets. */
  await db.schema.alterTable('documents').addColumn('classification', 'text').execute();
}
