import type { Repos } from '../store/db/index.js';
import type { DocumentRecord } from '../model/records.js';

/**
 * What else changes when documents join or leave docsets (property values, classification
 * statistics): called inside the transaction that moves them.
 */
export interface MembershipListener {
  /** The document is now in `docsetId` (`doc` is its state before the move). */
  joined?(s: Repos, doc: DocumentRecord, docsetId: string): Promise<void>;
  left?(s: Repos, doc: DocumentRecord, docsetId: string): Promise<void>;
  /** The docset is being deleted (its documents stay, in no docset). */
  docsetDeleted?(s: Repos, workspaceId: string, docsetId: string): Promise<void>;
}
