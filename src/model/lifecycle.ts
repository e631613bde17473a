/**
 * The lifecycle of a document, and of a sample set. A document goes
 * New → Ingesting → Ingested → Processing → Ready, or ends in Error (it cannot be read) or OverQuota
 * (its pages exceed the workspace's quota); the rules that move it are in src/domain/ingestion.ts,
 * and every move is one of DOCUMENT_TRANSITIONS.
 */
export const DOCUMENT_STATUSES = ['New', 'Ingesting', 'Ingested', 'Processing', 'Ready', 'Error', 'OverQuota'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Statuses of a document still on its way: its structure, DGML and pages are not there yet. */
export const IN_FLIGHT_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['New', 'Ingesting', 'Ingested', 'Processing'];
/** In flight with a job at work on them (a New document's job has not started): left so, a process died. */
export const STARTED_DOCUMENT_STATUSES: readonly DocumentStatus[] = IN_FLIGHT_DOCUMENT_STATUSES.filter((s) => s !== 'New');
/** Document statuses processing ends in; of those, the ones that make a sample `Error`. */
export const SETTLED_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['Ready', 'Error', 'OverQuota'];
export const FAILED_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['Error', 'OverQuota'];

/**
 * Where a document may go from each status; nothing else moves it. A document is created New.
 * - New → Ingesting: its `ingest` job starts; → Error: that job failed every attempt before it started.
 * - Ingesting → Ingesting: the job runs again after a crash; → Ingested: pages and rendition stored;
 *   → Ready: a ZIP whose members became documents of their own; → Error: it cannot be read.
 * - Ingested → OverQuota: its pages do not fit the workspace's quota; → Processing: its `process` job
 *   starts; → Error: that job failed every attempt before it started.
 * - Processing → Ready: its structure stored; → Error: it cannot be analysed.
 * - Ready, Error and OverQuota are final.
 */
export const DOCUMENT_TRANSITIONS: { readonly [From in DocumentStatus]: readonly DocumentStatus[] } = {
  New: ['Ingesting', 'Error'],
  Ingesting: ['Ingesting', 'Ingested', 'Ready', 'Error'],
  Ingested: ['OverQuota', 'Processing', 'Error'],
  Processing: ['Ready', 'Error'],
  Ready: [],
  Error: [],
  OverQuota: [],
};

/** Whether a document in status `from` may go to `to`. */
export function canMove(from: DocumentStatus, to: DocumentStatus): boolean {
  return DOCUMENT_TRANSITIONS[from].includes(to);
}

export const SAMPLE_STATUSES = ['InProgress', 'Ready', 'Error'] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];
