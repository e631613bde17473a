import type { Kysely } from 'kysely';

// Document understanding: where a document's structure model (the source of its DGML, text and
// Markdown) is stored. Null until the `Processing` stage has produced it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('structure_blob_key', 'text').execute();
}
