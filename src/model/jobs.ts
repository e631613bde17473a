/** Job queue names: each job is enqueued by a domain service and handled by one file in src/ingest/jobs/ (or reports/, webhooks/), registered in src/app/jobs.ts. */

/** The durable job that ingests one document (payload `{documentId}`). */
export const INGEST_JOB = 'ingest';

/**
 * The `process` job: `Ingested` → `Processing` → `Ready`. A job of its own so that every uploaded
 * document reaches `Ingested` (page count, sizes, images) without waiting behind other documents'
 * OCR and layout: the thread pool serves reads before analyses.
 */
export const PROCESS_JOB = 'process';

/** The durable job that extracts property values: payload `{docsetId, documentId?}` (all Ready documents without one). */
export const EXTRACT_JOB = 'extract';

/** The durable job that publishes a project's next version: payload `{projectId}`. */
export const PUBLISH_JOB = 'publish';

/** The delivery job queue: one job per webhook at a time drains its due deliveries in order. */
export const WEBHOOK_JOB = 'webhook';
