import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { BlobStore } from '../store/blobs/blob-store.js';
import { ownerOfKey, type BlobOwner } from '../store/blobs/keys.js';
import type { Store } from '../store/db/index.js';

/**
 * A committed blob younger than this is never removed, row or no row: it may belong to a transaction
 * that has not committed yet (blobs are committed inside the transaction of their row, which takes
 * seconds at most).
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface OrphanSweep {
  /** Committed blobs looked at. */
  checked: number;
  /** Removed: no row names them, and they were older than the grace. */
  removed: number;
}

/**
 * Removes the blobs no row points to: left by a crash (or a power loss that rolled SQLite back)
 * between a blob's commit and its row's, or between a row's delete and its blobs'. A blob is kept
 * while its row exists: a document's blobs (original, rendition, structure, page images) while the
 * document does, an upload chunk while its session's chunk row names it, a project's blob while an
 * artifact row names it. Blobs of no known layout, and any younger than `graceMs`, are kept.
 */
export async function sweepOrphanBlobs(store: Store, blobs: BlobStore, graceMs = ORPHAN_GRACE_MS, now = Date.now()): Promise<OrphanSweep> {
  const cutoff = now - graceMs;
  let checked = 0;
  let removed = 0;
  // A document's blobs are listed one after another: its row is read once for all of them.
  let lastDocument: { id: string; exists: boolean } | null = null;
  const rowExists = async (owner: BlobOwner, key: string): Promise<boolean> => {
    switch (owner.kind) {
      case 'document': {
        if (lastDocument?.id !== `${owner.workspaceId}/${owner.documentId}`) {
          const exists = (await store.documents.get(owner.workspaceId, owner.documentId)) !== undefined;
          lastDocument = { id: `${owner.workspaceId}/${owner.documentId}`, exists };
        }
        return lastDocument.exists;
      }
      case 'uploadChunk':
        return (await store.uploadSessions.getChunk(owner.sessionId, owner.byteOffset))?.blobKey === key;
      case 'artifact':
        return store.artifacts.blobInUse(key);
    }
  };
  for await (const { key, committedAt } of blobs.list()) {
    checked++;
    if (checked % 200 === 0) await yieldToLoop();
    if (committedAt >= cutoff) continue;
    const owner = ownerOfKey(key);
    if (!owner || (await rowExists(owner, key))) continue;
    await blobs.delete(key);
    removed++;
  }
  return { checked, removed };
}
