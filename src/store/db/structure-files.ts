import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A stored DGML, text or Markdown file of a document. */
export interface StructureFileRow {
  documentId: string;
  workspaceId: string;
  format: string;
  /** SHA-256 of what it was written from. */
  inputs: string;
  blobKey: string;
  /** SHA-256 of its bytes, hex. */
  sha256: string;
  size: number;
  writtenAt: number;
}

/** The files written from documents' structures (`structure_files`, one row per document and format). */
export class StructureFilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(documentId: string, format: string): Promise<StructureFileRow | undefined> {
    const r = await this.db.selectFrom('structure_files').selectAll().where('document_id', '=', documentId).where('format', '=', format).executeTakeFirst();
    return r && { documentId: r.document_id, workspaceId: r.workspace_id, format: r.format, inputs: r.inputs, blobKey: r.blob_key, sha256: r.sha256, size: Number(r.size), writtenAt: Number(r.written_at) };
  }

  /**
   * Records the document's file of this format (replacing the one before); false when the document is
   * gone (its rows went with it, and this one would name a blob its deletion may already have missed).
   */
  async put(row: StructureFileRow): Promise<boolean> {
    const values = { inputs: row.inputs, blob_key: row.blobKey, sha256: row.sha256, size: row.size, written_at: row.writtenAt };
    const doc = await this.db.selectFrom('documents').select('id').where('id', '=', row.documentId).executeTakeFirst();
    if (!doc) return false;
    await this.db
      .insertInto('structure_files')
      .values({ document_id: row.documentId, workspace_id: row.workspaceId, format: row.format, ...values })
      .onConflict((oc) => oc.columns(['document_id', 'format']).doUpdateSet(values))
      .execute();
    return true;
  }
}
