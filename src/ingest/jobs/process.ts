import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Repos, Store } from '../../store/db/index.js';
import type { BlobStore } from '../../store/blobs/blob-store.js';
import type { Job, JobHandler } from '../../store/queue/queue.js';
import type { DocumentRecord, ProcessingDetails } from '../../model/records.js';
import { newId } from '../../model/ids.js';
import { DGML_EVENT } from '../../model/events.js';
import { PROCESS_JOB } from '../../model/jobs.js';
import { ingestMetrics, ocrMetrics } from '../../runtime/metrics.js';
import { IngestError, type DocumentModel } from '../../document/pages.js';
import type { ClassificationFeatures } from '../../document/classification.js';
import type { LabelSummaryEntry } from '../../document/label-summary.js';
import { cannotIngest, failedAfterAttempts, IllegalTransitionError, processOwns, recordReady, startProcessing } from '../../domain/ingestion.js';
import { structureKeyOf } from '../../store/blobs/keys.js';
import type { ThreadPool } from '../thread-pool.js';
import type { AnalyzeTimings } from '../stages/stage.js';
import { verifiedBytes, type Handoff } from './handoff.js';

/** How often the pages a document's analysis has read are recorded while it goes on. */
const PROGRESS_EVERY_MS = 500;

export interface ProcessPayload {
  documentId: string;
  /** When ingestion started (epoch ms), for the total duration recorded at Ready. */
  startedAt: number;
}

export interface ProcessOptions {
  ocrPageTimeoutMs: number;
  /**
   * Inside the transaction that makes a document Ready: it joins the docset it resembles most when
   * the upload named several, its words count in its docset's statistics, its property values get
   * extracted; `labels` (the found labels the analysing thread summarised) are recorded.
   */
  onReady?: (s: Repos, doc: DocumentRecord, features: ClassificationFeatures, labels: LabelSummaryEntry[] | undefined) => Promise<void>;
  /** Once the document is Ready (committed): its DGML, text and Markdown are written and kept. A failure is logged; a request writes them then. */
  afterReady?: (doc: DocumentRecord) => Promise<void>;
}

/**
 * The `process` job of one document, queued by its `ingest` job (jobs/ingest.ts) with Ingested:
 * Processing → the pipeline (ingest/pipeline.ts) in an analysing thread → the structure stored →
 * Ready, with the DGML event. It takes the model `ingest` read from the hand-off, or reads the
 * document again. An IngestError ends it in Error; any other failure is retried by the queue.
 */
export class ProcessJob implements JobHandler<ProcessPayload> {
  static readonly queue = PROCESS_JOB;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly pool: ThreadPool,
    private readonly handoff: Handoff,
    private readonly logger: Logger,
    private readonly options: ProcessOptions,
  ) {}

  async run(job: Job<ProcessPayload>, signal: AbortSignal): Promise<void> {
    const doc = await this.store.documents.get(job.workspaceId, job.payload.documentId);
    if (!doc || !processOwns(doc.status)) return;
    const log = this.logger.child({ document: doc.id, job: job.id, attempt: job.attempt });
    try {
      const progress = { stage: 'processing', pagesDone: 0, pagesTotal: doc.pageCount ?? null };
      // Only one `process` job exists per document (queued with Ingested); a document already
      // Processing is this job's, run again after a crash or a released lease.
      if (doc.status === 'Ingested') await startProcessing(this.store.ingest, doc, progress);
      const model = this.handoff.take(doc.id) ?? (await this.pool.read(await verifiedBytes(this.blobs, doc), doc.format, signal));
      await this.process(doc, model, doc.processing ?? { format: model.format, pagination: model.pagination }, job.payload.startedAt, signal, log);
    } catch (err) {
      if (err instanceof IllegalTransitionError) {
        // Another run of this job moved the document on first (see IngestJob.run).
        log.warn({ err: err.message }, 'the document was moved on by another run of its job; this run stops');
        return;
      }
      if (!(err instanceof IngestError)) throw err;
      ingestMetrics.documents.inc({ stage: 'process', outcome: 'error' });
      log.info({ title: err.title, detail: err.detail }, 'document cannot be processed');
      await cannotIngest(this.store.ingest, doc, err);
    }
  }

  async onFinalFailure(job: Job<ProcessPayload>, error: unknown): Promise<void> {
    ingestMetrics.documents.inc({ stage: 'process', outcome: 'failed' });
    await failedAfterAttempts(this.store.ingest, job.workspaceId, job.payload.documentId, job.attempt, error);
  }

  /** `Processing` → `Ready`: the structure model (OCR, layout, entities), stored, and the DGML event. */
  private async process(doc: DocumentRecord, model: DocumentModel, processing: ProcessingDetails, started: number, signal: AbortSignal, log: Logger): Promise<void> {
    // Pages read so far (a scanned document's OCR takes a second or more a page), recorded at most
    // every PROGRESS_EVERY_MS, and the last report always, one write after the other.
    let recordedAt = 0;
    let recording: Promise<void> = Promise.resolve();
    const onProgress = (pagesDone: number, pagesTotal: number) => {
      const now = Date.now();
      if (pagesDone < pagesTotal && now - recordedAt < PROGRESS_EVERY_MS) return;
      recordedAt = now;
      recording = recording
        .then(() => this.store.ingest.setProgress(doc.workspaceId, doc.id, { stage: 'processing', pagesDone, pagesTotal }, 'Processing'))
        .catch((err: unknown) => log.warn({ err }, 'progress not recorded'));
    };
    const processStarted = performance.now();
    const { stored, timings, features, labels } = await this.pool.analyze(model, this.options.ocrPageTimeoutMs, signal, onProgress);
    await recording;
    if (timings.ocrTimedOutPages.length) {
      log.warn({ pages: timings.ocrTimedOutPages, budgetMs: this.options.ocrPageTimeoutMs }, 'OCR ran past its per-page budget: those pages keep the text they had');
    }
    const storeStarted = performance.now();
    const gz = Buffer.from(stored.gz.buffer, stored.gz.byteOffset, stored.gz.byteLength);
    const staged = await this.blobs.stage(Readable.from([gz]), { maxBytes: Number.MAX_SAFE_INTEGER });
    const key = structureKeyOf(doc);
    let committed = false;
    try {
      const found = await this.store.tx(async (s) => {
        // Locked: a second run of this job (its lease lost, or run again after a crash) waits here and
        // then finds the document no longer Processing: it records nothing (no second Ready event).
        const current = await s.documents.getLocked(doc.workspaceId, doc.id);
        if (!current || current.status !== 'Processing') return false; // deleted meanwhile, or made Ready by another run
        const analysis = { ...timings, ocrPages: stored.ocrPages, storeMs: performance.now() - storeStarted };
        const now = Date.now();
        await recordReady(s.ingest, doc, { structureBlobKey: key, processing: { ...processing, durationMs: now - started, analysis }, now });
        await s.events.insert({ id: newId(), workspaceId: doc.workspaceId, type: DGML_EVENT, payload: { documentId: doc.id, docsetId: current.docsetId }, createdAt: now });
        await this.options.onReady?.(s, { ...current, status: 'Ready' }, features, labels);
        await this.blobs.commit(staged.tempKey, key);
        committed = true;
        return true;
      });
      if (!found) return;
      ingestMetrics.documents.inc({ stage: 'process', outcome: 'ok' });
      ingestMetrics.seconds.observe({ stage: 'process' }, (performance.now() - processStarted) / 1000);
      ingestMetrics.pages.inc({ kind: 'ready' }, model.pages.length);
      ingestMetrics.pages.inc({ kind: 'ocr' }, stored.ocrPages.length);
      countOcr(timings);
    } catch (err) {
      if (committed) await this.blobs.delete(key).catch(() => undefined);
      throw err;
    } finally {
      if (!committed) await this.blobs.discard(staged.tempKey).catch(() => undefined);
    }
    log.info({ pages: model.pages.length, pagination: model.pagination, ocrPages: stored.ocrPages.length, durationMs: Date.now() - started }, 'document ready');
    await this.options.afterReady?.(doc).catch((err: unknown) => log.warn({ err }, 'DGML, text and Markdown not written at Ready: the first request writes them'));
  }
}

/** OCR's pages and time, by engine, from what the reading thread reported (its own registry is not scraped). */
function countOcr(timings: AnalyzeTimings): void {
  const engine = timings.ocrEngine;
  if (!engine || timings.ocrPages === 0) return;
  const failed = timings.ocrFailedPages.length;
  const timedOut = timings.ocrTimedOutPages.length;
  ocrMetrics.pages.inc({ engine, outcome: 'read' }, Math.max(0, timings.ocrPages - failed - timedOut));
  if (failed) ocrMetrics.pages.inc({ engine, outcome: 'failed' }, failed);
  if (timedOut) ocrMetrics.pages.inc({ engine, outcome: 'timed-out' }, timedOut);
  ocrMetrics.seconds.inc({ engine }, timings.ocrMs / 1000);
}
