import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, UploadChunksTable, UploadSessionsTable } from './schema.js';
import type { UploadChunkRecord, UploadSessionRecord } from '../../model/records.js';

function toSession(r: Selectable<UploadSessionsTable>): UploadSessionRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    fileName: r.file_name,
    fileSize: Number(r.file_size),
    chunkSize: Number(r.chunk_size),
    docsetIds: r.docset_ids ? r.docset_ids.split('|') : [],
    metadataJson: r.metadata,
    documentId: r.document_id,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    expiresAt: Number(r.expires_at),
  };
}

function toChunk(r: Selectable<UploadChunksTable>): UploadChunkRecord {
  return {
    sessionId: r.session_id,
    byteOffset: Number(r.byte_offset),
    size: Number(r.size),
    blobKey: r.blob_key,
    sha256: r.sha256,
    receivedAt: Number(r.received_at),
  };
}

/** Upload sessions and their received chunks. */
export class UploadSessionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Sessions of the workspace not finalized and not expired, and the bytes they declared. */
  async openSummary(workspaceId: string, now: number): Promise<{ count: number; bytes: number }> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('file_size'), sql<number>`0`).as('bytes')])
      .where('workspace_id', '=', workspaceId)
      .where('document_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), bytes: Number(row.bytes) };
  }

  async insert(s: UploadSessionRecord): Promise<void> {
    await this.db
      .insertInto('upload_sessions')
      .values({
        id: s.id,
        workspace_id: s.workspaceId,
        file_name: s.fileName,
        file_size: s.fileSize,
        chunk_size: s.chunkSize,
        docset_ids: s.docsetIds.length ? s.docsetIds.join('|') : null,
        metadata: s.metadataJson,
        document_id: s.documentId,
        created_at: s.createdAt,
        updated_at: s.updatedAt,
        expires_at: s.expiresAt,
      })
      .execute();
  }

  async get(workspaceId: string, id: string): Promise<UploadSessionRecord | undefined> {
    const row = await this.db.selectFrom('upload_sessions').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    return row && toSession(row);
  }

  /**
   * Marks an open, unexpired session as touched. It takes the session's row lock, so a chunk write
   * and a finalize (or an expiry sweep) of the same session never interleave. False when the session
   * is gone, expired or already finalized.
   */
  async touchOpen(workspaceId: string, id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('upload_sessions')
      .set({ updated_at: now })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('document_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Records the document a session became; false when another finalize got there first. */
  async setDocument(workspaceId: string, id: string, documentId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('upload_sessions')
      .set({ document_id: documentId, updated_at: now })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('document_id', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Inserts or replaces the chunk at its offset. */
  async putChunk(c: UploadChunkRecord): Promise<void> {
    await this.db
      .insertInto('upload_chunks')
      .values({
        session_id: c.sessionId,
        byte_offset: c.byteOffset,
        size: c.size,
        blob_key: c.blobKey,
        sha256: c.sha256,
        received_at: c.receivedAt,
      })
      .onConflict((oc) =>
        oc.columns(['session_id', 'byte_offset']).doUpdateSet({ size: c.size, blob_key: c.blobKey, sha256: c.sha256, received_at: c.receivedAt }),
      )
      .execute();
  }

  async getChunk(sessionId: string, byteOffset: number): Promise<UploadChunkRecord | undefined> {
    const row = await this.db
      .selectFrom('upload_chunks')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('byte_offset', '=', byteOffset)
      .executeTakeFirst();
    return row && toChunk(row);
  }

  async chunks(sessionId: string): Promise<UploadChunkRecord[]> {
    const rows = await this.db.selectFrom('upload_chunks').selectAll().where('session_id', '=', sessionId).orderBy('byte_offset').execute();
    return rows.map(toChunk);
  }

  async deleteChunks(sessionId: string): Promise<void> {
    await this.db.deleteFrom('upload_chunks').where('session_id', '=', sessionId).execute();
  }

  /** Up to `limit` sessions that expired before `now` (any workspace). */
  async expired(now: number, limit: number): Promise<{ id: string; workspaceId: string }[]> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .select(['id', 'workspace_id'])
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
  }

  /** Deletes an expired session and its chunk rows; false when it was not (or no longer) expired. */
  async deleteExpired(id: string, now: number): Promise<boolean> {
    const r = await this.db.deleteFrom('upload_sessions').where('id', '=', id).where('expires_at', '<=', now).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return false;
    await this.db.deleteFrom('upload_chunks').where('session_id', '=', id).execute();
    return true;
  }
}
