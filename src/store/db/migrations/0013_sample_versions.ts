import type { Kysely } from 'kysely';

// A sample records the version of the catalogue entry it was made from (a Sample's `version`), so a
// later version of the generators does not rewrite what an existing sample says it is. Every sample
// made before this migration came from version "1", the only version the catalogue had.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('samples').addColumn('catalog_version', 'text').execute();
  await db.updateTable('samples').set({ catalog_version: '1' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('samples').dropColumn('catalog_version').execute();
}
