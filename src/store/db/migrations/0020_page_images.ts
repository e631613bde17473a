import type { Kysely } from 'kysely';

// The page images kept in storage (src/domain/pages.ts): their bytes and when each was last served,
// so the server keeps them within QUIRE_PAGE_IMAGE_CACHE_MB by deleting the least recently used
// (shared by every process on the database). A document's rows go with it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_images')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_images_used_at').on('page_images').columns(['used_at']).execute();
  await db.schema.createIndex('page_images_document').on('page_images').columns(['document_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('page_images').ifExists().execute();
}
