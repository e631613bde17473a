import { canMove, DOCUMENT_TRANSITIONS, IN_FLIGHT_DOCUMENT_STATUSES, type DocumentStatus } from '../model/lifecycle.js';
import type { DocumentProgress, DocumentRecord, ProcessingDetails, WorkspaceRecord } from '../model/records.js';
import type { IngestError } from '../document/pages.js';
import type { Repos } from '../store/db/index.js';

/**
 * The rules of ingestion (the jobs that apply them are in src/ingest/jobs/): which job owns a
 * document in which status, the page quota, and every change of a document's status. A document goes
 * New → Ingesting → Ingested under its `ingest` job, then Processing → Ready under its `process` job;
 * Error and OverQuota end it too. Each step below is a move DOCUMENT_TRANSITIONS (src/model/lifecycle.ts)
 * allows, written only while the document is in a status the step starts from.
 */

/**
 * The statuses each step takes a document from (every one a move of DOCUMENT_TRANSITIONS): the
 * `ingest` job starts on a New document, or again on one left Ingesting by a crash.
 */
const INGESTS: readonly DocumentStatus[] = ['New', 'Ingesting'];
/** Its `process` job (queued with Ingested) starts on an Ingested document, or again on one left Processing. */
const PROCESSES: readonly DocumentStatus[] = ['Ingested', 'Processing'];

/** Whether the `ingest` job has work on a document in `status`: not once it is Ingested (then it is its `process` job's) or settled. */
export function ingestOwns(status: DocumentStatus): boolean {
  return INGESTS.includes(status);
}

/** Whether the `process` job has work on a document in `status`: Ingested, or Processing after a crash or a released lease. */
export function processOwns(status: DocumentStatus): boolean {
  return PROCESSES.includes(status);
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

/** A status write asked for a move DOCUMENT_TRANSITIONS does not allow, or found the document in a status its step does not start from. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly documentId: string,
    readonly from: DocumentStatus,
    readonly to: DocumentStatus,
    /** The statuses the step takes a document from. */
    readonly expected: readonly DocumentStatus[],
  ) {
    const allowed = DOCUMENT_TRANSITIONS[from];
    const why = canMove(from, to)
      ? `this step takes a document to ${to} only from ${expected.join(' or ')}`
      : `the lifecycle (src/model/lifecycle.ts) ${allowed.length ? `takes a document in ${from} only to ${allowed.join(', ')}` : `ends at ${from}`}`;
    super(`Document ${documentId} cannot go from ${from} to ${to}: ${why}.`);
    this.name = 'IllegalTransitionError';
  }
}

/** The store's status writes (src/store/db/ingest.ts), which only the steps below call. */
export type StatusWrites = Pick<Repos['ingest'], 'statusOf' | 'setStatus' | 'setIngested' | 'setOverQuota' | 'setReady' | 'setExpanded' | 'setError'>;

type DocumentRef = Pick<DocumentRecord, 'workspaceId' | 'id'>;

/**
 * Moves `doc` from one of `from` to `to` by `write`: true when it did, false when the document is
 * gone (deleted meanwhile). Throws IllegalTransitionError, writing nothing, when a status of `from`
 * may not go to `to` or the document is in another status.
 */
async function move(
  ingest: Pick<StatusWrites, 'statusOf'>,
  doc: DocumentRef,
  from: readonly DocumentStatus[],
  to: DocumentStatus,
  write: (from: readonly DocumentStatus[]) => Promise<boolean>,
): Promise<boolean> {
  const illegal = from.find((f) => !canMove(f, to));
  if (illegal) throw new IllegalTransitionError(doc.id, illegal, to, from);
  if (await write(from)) return true;
  const now = await ingest.statusOf(doc.workspaceId, doc.id);
  if (now === null) return false;
  throw new IllegalTransitionError(doc.id, now, to, from);
}

/** New → Ingesting (or Ingesting again, after a crash): its `ingest` job starts. */
export function startIngesting(ingest: StatusWrites, doc: DocumentRef, progress: DocumentProgress): Promise<boolean> {
  return move(ingest, doc, INGESTS, 'Ingesting', (from) => ingest.setStatus(doc.workspaceId, doc.id, from, 'Ingesting', progress, Date.now()));
}

/** Ingesting → Ingested: its pages, rendition and processing details stored. */
export function recordIngested(
  ingest: StatusWrites,
  doc: DocumentRef,
  v: { pageCount: number; renditionBlobKey: string | null; processing: ProcessingDetails; progress: DocumentProgress; now: number },
): Promise<boolean> {
  return move(ingest, doc, ['Ingesting'], 'Ingested', (from) => ingest.setIngested(doc.workspaceId, doc.id, from, v));
}

/** Ingested → OverQuota, with the reason overQuotaReason gave: kept, not processed, not counted. */
export function recordOverQuota(ingest: StatusWrites, doc: DocumentRef, reason: string, now: number): Promise<boolean> {
  return move(ingest, doc, ['Ingested'], 'OverQuota', (from) => ingest.setOverQuota(doc.workspaceId, doc.id, from, reason, now));
}

/** Ingested → Processing: its `process` job starts. */
export function startProcessing(ingest: StatusWrites, doc: DocumentRef, progress: DocumentProgress): Promise<boolean> {
  return move(ingest, doc, ['Ingested'], 'Processing', (from) => ingest.setStatus(doc.workspaceId, doc.id, from, 'Processing', progress, Date.now()));
}

/** Processing → Ready: its structure stored under `structureBlobKey`. */
export function recordReady(ingest: StatusWrites, doc: DocumentRef, v: { structureBlobKey: string; processing: ProcessingDetails; now: number }): Promise<boolean> {
  return move(ingest, doc, ['Processing'], 'Ready', (from) => ingest.setReady(doc.workspaceId, doc.id, from, v));
}

/** Ingesting → Ready: a ZIP upload whose members became documents of their own (`processing` lists them). */
export function recordExpanded(ingest: StatusWrites, doc: DocumentRef, processing: unknown, now: number): Promise<boolean> {
  return move(ingest, doc, ['Ingesting'], 'Ready', (from) => ingest.setExpanded(doc.workspaceId, doc.id, from, processing, now));
}

/** A document not yet settled → Error, with why. */
function endInError(ingest: StatusWrites, doc: DocumentRef, title: string, detail: string): Promise<boolean> {
  return move(ingest, doc, IN_FLIGHT_DOCUMENT_STATUSES, 'Error', (from) => ingest.setError(doc.workspaceId, doc.id, from, title, detail, Date.now()));
}

/** A document its reader cannot read or its pipeline cannot process (an IngestError): Error, with the reason, and no retry. */
export async function cannotIngest(ingest: StatusWrites, doc: DocumentRef, err: IngestError): Promise<void> {
  await endInError(ingest, doc, err.title, err.detail);
}

/** A document whose job failed its last attempt: Error, with the last failure. */
export async function failedAfterAttempts(ingest: StatusWrites, workspaceId: string, documentId: string, attempts: number, error: unknown): Promise<void> {
  const detail = error instanceof Error ? error.message : String(error);
  await endInError(ingest, { workspaceId, id: documentId }, 'Processing failed', `Processing failed after ${attempts} attempts: ${detail}`);
}
