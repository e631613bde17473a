import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { MetadataEntry } from '../../model/records.js';

export class MetadataRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(documentId: string): Promise<MetadataEntry[]> {
    const rows = await this.db
      .selectFrom('document_metadata')
      .select(['key', 'value'])
      .where('document_id', '=', documentId)
      .orderBy('position')
      .execute();
    return rows;
  }

  /**
   * Writes the whole set of entries for a document, replacing what was there: its rows (what filters
   * search) and the copy on the document's row (what every Document response shows). Call it in a
   * transaction, after the document row exists.
   */
  async replace(workspaceId: string, documentId: string, entries: MetadataEntry[]): Promise<void> {
    await this.db.deleteFrom('document_metadata').where('document_id', '=', documentId).execute();
    await this.db
      .updateTable('documents')
      .set({ metadata: entries.length ? JSON.stringify(entries) : null })
      .where('id', '=', documentId)
      .where('workspace_id', '=', workspaceId)
      .execute();
    if (entries.length === 0) return;
    await this.db
      .insertInto('document_metadata')
      .values(entries.map((e, i) => ({ document_id: documentId, workspace_id: workspaceId, key: e.key, value: e.value, position: i })))
      .execute();
  }

  async deleteFor(documentId: string): Promise<void> {
    await this.db.deleteFrom('document_metadata').where('document_id', '=', documentId).execute();
  }
}
