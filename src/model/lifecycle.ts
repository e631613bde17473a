/**
 * The lifecycle of a document, and of a sample set. A document goes
 * New → Ingesting → Ingested → Processing → Ready, or ends in Error (it cannot be read) or OverQuota
 * (its pages exceed the workspace's quota); the rules that move it are in src/domain/ingestion.ts.
 */
export const DOCUMENT_STATUSES = ['New', 'Ingesting', 'Ingested', 'Processing', 'Ready', 'Error', 'OverQuota'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Statuses of a document still on its way: its structure, DGML and pages are not there yet. */
export const IN_FLIGHT_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['New', 'Ingesting', 'Ingested', 'Processing'];
/** Document statuses processing ends in; of those, the ones that make a sample `Error`. */
export const SETTLED_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['Ready', 'Error', 'OverQuota'];
export const FAILED_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['Error', 'OverQuota'];

export const SAMPLE_STATUSES = ['InProgress', 'Ready', 'Error'] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];
