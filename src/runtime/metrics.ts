import client from 'prom-client';

/**
 * What this process's ingestion did, for `GET /metrics` (served with the HTTP metrics). Counted where
 * the work happens: a process that serves no HTTP (`quire worker`) counts too but is not scraped.
 */
export const ingestRegistry = new client.Registry();

export const ingestMetrics = {
  documents: new client.Counter({
    name: 'quire_ingest_documents_total',
    help: 'Documents through a stage: ingest (to Ingested) or process (to Ready); outcome ok, over-quota, error (the document cannot be read) or failed (retries exhausted)',
    labelNames: ['stage', 'outcome'] as const,
    registers: [ingestRegistry],
  }),
  seconds: new client.Histogram({
    name: 'quire_ingest_stage_seconds',
    help: 'Time a document spent in a stage that ended ok: ingest (reading, rendition, pages stored) or process (OCR, layout, entities, structure stored)',
    labelNames: ['stage'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [ingestRegistry],
  }),
  renditions: new client.Counter({
    name: 'quire_ingest_renditions_total',
    help: 'Ingested documents by how their pages were made: pdf (its own), libreoffice, or text-layout (Quire lays the text out)',
    labelNames: ['pagination'] as const,
    registers: [ingestRegistry],
  }),
  pages: new client.Counter({
    name: 'quire_ingest_pages_total',
    help: 'Pages of documents that reached Ready (kind ready), and those of them read by OCR (kind ocr)',
    labelNames: ['kind'] as const,
    registers: [ingestRegistry],
  }),
};
