import type { Kysely } from 'kysely';

// Docset properties and each document's value for them. Portable column types only (text, integer,
// bigint): the same migration runs on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('properties')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('docset_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('label_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One label id per docset: it is the property's element name in DGML.
  await db.schema.createIndex('properties_docset_label_id').on('properties').columns(['docset_id', 'label_id']).unique().execute();

  await db.schema
    .createTable('property_values')
    .addColumn('property_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('docset_id', 'text', (c) => c.notNull())
    /** The value extraction chose (null: none found), and its details as JSON (confidence, location, candidates, anchor, evidence). */
    .addColumn('extracted_value', 'text')
    .addColumn('extraction', 'text')
    .addColumn('extracted_at', 'bigint')
    /** A value set by hand: it wins over extraction and survives re-extraction. */
    .addColumn('manual_value', 'text')
    .addColumn('manual_at', 'bigint')
    /** JSON: where the manual value sits in the document, so the docset learns from it. */
    .addColumn('manual_evidence', 'text')
    .addPrimaryKeyConstraint('property_values_pk', ['property_id', 'document_id'])
    .execute();
  await db.schema.createIndex('property_values_document').on('property_values').columns(['document_id']).execute();
}
