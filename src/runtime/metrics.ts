import client from 'prom-client';

/**
 * Quire's own metrics of this process beside the HTTP ones, for `GET /metrics` (served with the HTTP
 * metrics): ingestion, OCR, webhook deliveries and the job queue. Counted where the work happens; a
 * process that serves no API (`quire worker`) serves them with QUIRE_METRICS_PORT.
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

export const ocrMetrics = {
  pages: new client.Counter({
    name: 'quire_ocr_pages_total',
    help: 'Scanned pages OCR read, by engine (tesseract-cli or tesseract.js) and outcome: read, failed (the engine broke) or timed-out (past the per-page budget)',
    labelNames: ['engine', 'outcome'] as const,
    registers: [ingestRegistry],
  }),
  seconds: new client.Counter({
    name: 'quire_ocr_seconds_total',
    help: "Wall time of documents' OCR, by engine (pages of one document are read several at a time)",
    labelNames: ['engine'] as const,
    registers: [ingestRegistry],
  }),
};

export const webhookMetrics = {
  deliveries: new client.Counter({
    name: 'quire_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, tried again later), gave-up (failed, out of retries) or disabled (failed, and the webhook was disabled)',
    labelNames: ['outcome'] as const,
    registers: [ingestRegistry],
  }),
  lag: new client.Histogram({
    name: 'quire_webhook_delivery_lag_seconds',
    help: 'Seconds from an event to its successful delivery to a webhook (retries included)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 24 * 3600],
    registers: [ingestRegistry],
  }),
};

/** One job kind (queue name) of the durable queue, as `Queue.stats` reads it. */
export interface QueueStats {
  queue: string;
  /** Due and not held by a worker. */
  waiting: number;
  /** Not due yet: waiting for a retry's back-off or a later start. */
  delayed: number;
  /** Held by a worker. */
  running: number;
  /** Seconds the longest-waiting due job has been due (0 when none waits). */
  oldestWaitingSeconds: number;
}

/** Scrapes within this long of each other share one reading of the queue. */
const QUEUE_STATS_TTL_MS = 5000;

let queueStatsSource: (() => Promise<QueueStats[]>) | null = null;
let queueStatsCache: { at: number; stats: Promise<QueueStats[]> } | null = null;

/** Read once per scrape (at most once per QUEUE_STATS_TTL_MS); an unreachable queue gives no series rather than a failed scrape. */
function queueStats(): Promise<QueueStats[]> {
  if (!queueStatsSource) return Promise.resolve([]);
  if (!queueStatsCache || Date.now() - queueStatsCache.at > QUEUE_STATS_TTL_MS) {
    queueStatsCache = { at: Date.now(), stats: queueStatsSource().catch(() => []) };
  }
  return queueStatsCache.stats;
}

/** Where the queue gauges read from at scrape time (the process's queue; set by the composition root). */
export function observeQueue(stats: () => Promise<QueueStats[]>): void {
  queueStatsSource = stats;
  queueStatsCache = null;
}

export const queueMetrics = {
  jobs: new client.Gauge({
    name: 'quire_queue_jobs',
    help: 'Jobs of the durable queue by job kind and state: waiting (due), delayed (retry back-off or later start), running',
    labelNames: ['queue', 'state'] as const,
    registers: [ingestRegistry],
    async collect() {
      this.reset();
      for (const s of await queueStats()) {
        this.set({ queue: s.queue, state: 'waiting' }, s.waiting);
        this.set({ queue: s.queue, state: 'delayed' }, s.delayed);
        this.set({ queue: s.queue, state: 'running' }, s.running);
      }
    },
  }),
  oldestWaiting: new client.Gauge({
    name: 'quire_queue_oldest_waiting_seconds',
    help: 'Seconds the longest-waiting due job of each job kind has been waiting for a worker (0 when none waits)',
    labelNames: ['queue'] as const,
    registers: [ingestRegistry],
    async collect() {
      this.reset();
      for (const s of await queueStats()) this.set({ queue: s.queue }, s.oldestWaitingSeconds);
    },
  }),
};
