import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface PageImageRow {
  key: string;
  documentId: string;
  bytes: number;
  usedAt: number;
}

/** The ledger of page images kept in storage: their sizes and last use (src/domain/pages.ts). */
export class PageImagesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string): Promise<PageImageRow | null> {
    const row = await this.db.selectFrom('page_images').selectAll().where('key', '=', key).executeTakeFirst();
    return row ? { key: row.key, documentId: row.document_id, bytes: Number(row.bytes), usedAt: Number(row.used_at) } : null;
  }

  /** Records an image (again, when it was rendered anew). */
  async record(row: PageImageRow): Promise<void> {
    await this.db
      .insertInto('page_images')
      .values({ key: row.key, document_id: row.documentId, bytes: row.bytes, used_at: row.usedAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ bytes: row.bytes, used_at: row.usedAt }))
      .execute();
  }

  async touch(key: string, at: number): Promise<void> {
    await this.db.updateTable('page_images').set({ used_at: at }).where('key', '=', key).execute();
  }

  async totalBytes(): Promise<number> {
    const row = await this.db.selectFrom('page_images').select(sql<number>`coalesce(sum(bytes), 0)`.as('total')).executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** The least recently used images, oldest first. */
  async leastRecentlyUsed(limit: number): Promise<{ key: string; bytes: number }[]> {
    const rows = await this.db.selectFrom('page_images').select(['key', 'bytes']).orderBy('used_at').orderBy('key').limit(limit).execute();
    return rows.map((r) => ({ key: r.key, bytes: Number(r.bytes) }));
  }

  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('page_images').where('key', '=', key).execute();
  }
}
