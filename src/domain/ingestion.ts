import { SETTLED_DOCUMENT_STATUSES, type DocumentStatus } from '../model/lifecycle.js';
import type { DocumentRecord, WorkspaceRecord } from '../model/records.js';
import type { IngestError } from '../document/pages.js';
import type { Repos } from '../store/db/index.js';

/**
 * The rules of ingestion (the jobs that apply them are in src/ingest/jobs/): which job owns a
 * document in which status, and the page quota. A document goes New → Ingesting → Ingested under its
 * `ingest` job, then Processing → Ready under its `process` job; Error and OverQuota end it too.
 */

/** States after which a document's ingestion is over: a re-run of its job does nothing. */
const SETTLED: ReadonlySet<string> = new Set(SETTLED_DOCUMENT_STATUSES);

/**
 * Whether the `ingest` job still has work on a document in `status`: not once it is settled, and not
 * once it is Ingested or Processing when those belong to its `process` job (queued with Ingested).
 */
export function ingestOwns(status: DocumentStatus, processJobQueued: boolean): boolean {
  if (SETTLED.has(status)) return false; // already done
  return !((status === 'Ingested' || status === 'Processing') && processJobQueued);
}

/** Whether the `process` job has work on a document in `status`: Ingested, or Processing after a crash or a released lease. */
export function processOwns(status: DocumentStatus): boolean {
  return !SETTLED.has(status) && (status === 'Ingested' || status === 'Processing');
}

/**
 * Why a document of `pages` pages goes OverQuota, or null when it fits: a workspace limits the pages
 * of one document and of all its documents. `usedByOthers` (the pages its other documents hold) is
 * only asked when the document passes the first limit; it runs under the workspace lock, so that
 * concurrent documents cannot both take the last pages.
 */
export async function overQuotaReason(
  w: Pick<WorkspaceRecord, 'pageQuotaMax' | 'pageQuotaPerDocument'> | null | undefined,
  pages: number,
  usedByOthers: () => Promise<number>,
): Promise<string | null> {
  if (!w) return null;
  if (pages > w.pageQuotaPerDocument) {
    return `The document has ${pages} pages; documents are limited to ${w.pageQuotaPerDocument} pages in this workspace.`;
  }
  const used = await usedByOthers();
  if (used + pages > w.pageQuotaMax) return `The workspace has ${w.pageQuotaMax - used} of its ${w.pageQuotaMax} pages left; the document has ${pages}.`;
  return null;
}

/** The status writes both jobs make when a document ends in Error. */
type ErrorWrites = Pick<Repos['ingest'], 'setError'>;

/** A document its reader cannot read or its pipeline cannot process (an IngestError): Error, with the reason, and no retry. */
export async function cannotIngest(ingest: ErrorWrites, doc: Pick<DocumentRecord, 'workspaceId' | 'id'>, err: IngestError): Promise<void> {
  await ingest.setError(doc.workspaceId, doc.id, err.title, err.detail, Date.now());
}

/** A document whose job failed its last attempt: Error, with the last failure. */
export async function failedAfterAttempts(ingest: ErrorWrites, workspaceId: string, documentId: string, attempts: number, error: unknown): Promise<void> {
  const detail = error instanceof Error ? error.message : String(error);
  await ingest.setError(workspaceId, documentId, 'Processing failed', `Processing failed after ${attempts} attempts: ${detail}`, Date.now());
}
