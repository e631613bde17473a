import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Repos, Store } from '../../store/db/index.js';
import type { BlobStore } from '../../store/blobs/blob-store.js';
import type { Job, JobHandler } from '../../store/queue/queue.js';
import type { DocumentProgress, DocumentRecord, ProcessingDetails } from '../../model/records.js';
import { newId } from '../../model/ids.js';
import { DGML_EVENT } from '../../model/events.js';
import { ingestMetrics } from '../../runtime/metrics.js';
import { IngestError, type DocumentModel } from '../../document/pages.js';
import type { WorkerPool } from '../worker-pool.js';
import type { ClassificationFeatures } from '../../document/classify.js';
import type { LabelSummaryEntry } from '../../document/label-summary.js';
import { expandZip, type ZipMember, type ZipSkipped } from '../readers/zip/zip.js';
import { textTooLarge } from '../readers/limits.js';
import { ingestOwns, overQuotaReason, processOwns } from '../../domain/ingestion.js';
import { renditionKeyOf, structureKeyOf } from '../../store/blobs/keys.js';
import { INGEST_JOB, PROCESS_JOB } from '../../model/jobs.js';

/** How often the pages a document's analysis has read are recorded while it goes on. */
const PROGRESS_EVERY_MS = 500;

export interface IngestPayload {
  documentId: string;
}

export interface ProcessPayload {
  documentId: string;
  /** When ingestion started (epoch ms), for the total duration recorded at Ready. */
  startedAt: number;
}

/** Read models kept in memory between the two jobs of a document, up to this many bytes of PDF. */
const HANDOFF_BYTES = 256 * 1024 * 1024;

/** Creates the documents of a ZIP upload's members and settles the ZIP (the document service does). */
export type ZipMembersHook = (doc: DocumentRecord, members: ZipMember[], skipped: ZipSkipped[]) => Promise<void>;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The `ingest` job of one document: New → Ingesting (bytes read and verified) → the format reader in
 * a worker thread → rendition and page rows stored → Ingested (page count) → quota check (OverQuota:
 * kept, not processed, not counted) → the `process` job queued (Processing → Ready, `processJob`).
 * An IngestError ends it in Error with its reason and no retry; any other failure is retried by the
 * queue, and after the last attempt the document goes to Error. Every step is safe to run again after
 * a crash.
 */
export class IngestPipeline implements JobHandler<IngestPayload> {
  /** The queues it serves: its own `run`, and `processJob`'s. */
  static readonly queue = INGEST_JOB;
  static readonly processQueue = PROCESS_JOB;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly pool: WorkerPool,
    private readonly logger: Logger,
    private readonly options: {
      ocrPageTimeoutMs: number;
      createZipMembers?: ZipMembersHook;
      /**
       * Inside the transaction that makes a document Ready: it joins the docset it resembles most when
       * the upload named several, its words count in its docset's statistics, its property values get
       * extracted; `labels` (the found labels the analysing thread summarised) are recorded.
       */
      onReady?: (s: Repos, doc: DocumentRecord, features: ClassificationFeatures, labels: LabelSummaryEntry[] | undefined) => Promise<void>;
      /** Queues the `process` job in the transaction that settles the quota (absent: processed inline). */
      enqueueProcess?: (s: Repos, workspaceId: string, payload: ProcessPayload) => Promise<void>;
    },
  ) {}

  /** Models read by `ingest`, waiting for `process` in this process (else it reads the document again). */
  private readonly handoff = new Map<string, DocumentModel>();
  private handoffBytes = 0;

  private keep(documentId: string, model: DocumentModel) {
    this.handoff.set(documentId, model);
    this.handoffBytes += model.pdf.byteLength;
    for (const [id, m] of this.handoff) {
      if (this.handoffBytes <= HANDOFF_BYTES) break;
      this.handoff.delete(id);
      this.handoffBytes -= m.pdf.byteLength;
    }
  }

  private take(documentId: string): DocumentModel | undefined {
    const m = this.handoff.get(documentId);
    if (m) {
      this.handoff.delete(documentId);
      this.handoffBytes -= m.pdf.byteLength;
    }
    return m;
  }

  /** The `process` job's handler. */
  readonly processJob: JobHandler<ProcessPayload> = {
    run: async (job, signal) => {
      const doc = await this.store.documents.get(job.workspaceId, job.payload.documentId);
      if (!doc || !processOwns(doc.status)) return;
      const log = this.logger.child({ document: doc.id, job: job.id, attempt: job.attempt });
      try {
        const progress = { stage: 'processing', pagesDone: 0, pagesTotal: doc.pageCount ?? null };
        // Only one `process` job exists per document (queued with Ingested); a document already
        // Processing is this job's, run again after a crash or a released lease.
        if (doc.status === 'Ingested') await this.store.ingest.transition(doc.workspaceId, doc.id, 'Ingested', 'Processing', progress, Date.now());
        const model = this.take(doc.id) ?? (await this.pool.read(await this.verifiedBytes(doc), doc.format, signal));
        await this.process(doc, model, doc.processing ?? { format: model.format, pagination: model.pagination }, job.payload.startedAt, signal, log);
      } catch (err) {
        if (!(err instanceof IngestError)) throw err;
        ingestMetrics.documents.inc({ stage: 'process', outcome: 'error' });
        log.info({ title: err.title, detail: err.detail }, 'document cannot be processed');
        await this.store.ingest.setError(doc.workspaceId, doc.id, err.title, err.detail, Date.now());
      }
    },
    onFinalFailure: (job, error) => this.onFinalFailure(job, error, 'process'),
  };

  private async verifiedBytes(doc: DocumentRecord): Promise<Buffer> {
    const bytes = await readAll(await this.blobs.read(doc.blobKey));
    if (bytes.length !== doc.size || createHash('sha256').update(bytes).digest('hex') !== doc.sha256) {
      throw new IngestError('Stored content is damaged', 'The stored bytes no longer match the upload (size or SHA-256 differ).');
    }
    return bytes;
  }

  async run(job: Job<IngestPayload>, signal: AbortSignal): Promise<void> {
    const doc = await this.store.documents.get(job.workspaceId, job.payload.documentId);
    // Deleted meanwhile, already done, or Ingested/Processing and so its `process` job's.
    if (!doc || !ingestOwns(doc.status, this.options.enqueueProcess !== undefined)) return;
    const log = this.logger.child({ document: doc.id, job: job.id, attempt: job.attempt });
    try {
      await this.ingest(doc, signal, log);
    } catch (err) {
      if (!(err instanceof IngestError)) throw err; // retried by the queue
      ingestMetrics.documents.inc({ stage: 'ingest', outcome: 'error' });
      log.info({ title: err.title, detail: err.detail }, 'document cannot be ingested');
      await this.store.ingest.setError(doc.workspaceId, doc.id, err.title, err.detail, Date.now());
    }
  }

  async onFinalFailure(job: Job<IngestPayload>, error: unknown, stage: 'ingest' | 'process' = 'ingest'): Promise<void> {
    ingestMetrics.documents.inc({ stage, outcome: 'failed' });
    const detail = error instanceof Error ? error.message : String(error);
    await this.store.ingest.setError(job.workspaceId, job.payload.documentId, 'Processing failed', `Processing failed after ${job.attempt} attempts: ${detail}`, Date.now());
  }

  private async progress(doc: DocumentRecord, status: 'Ingesting' | 'Processing' | null, p: DocumentProgress): Promise<boolean> {
    if (status) return this.store.ingest.setStatus(doc.workspaceId, doc.id, status, p, Date.now());
    await this.store.ingest.setProgress(doc.workspaceId, doc.id, p);
    return true;
  }

  private async ingest(doc: DocumentRecord, signal: AbortSignal, log: Logger): Promise<void> {
    const started = Date.now();
    if (!(await this.progress(doc, 'Ingesting', { stage: 'reading', pagesDone: 0, pagesTotal: null }))) return;
    // Known from the upload: refused before its bytes are read.
    const tooLarge = textTooLarge(doc.format, doc.size);
    if (tooLarge) throw tooLarge;

    const bytes = await this.verifiedBytes(doc);

    if (doc.format === 'zip') {
      if (!this.options.createZipMembers) throw new IngestError('Unsupported file type', 'ZIP archives cannot be expanded by this worker.');
      await this.progress(doc, null, { stage: 'expanding', pagesDone: 0, pagesTotal: null });
      const { members, skipped } = await expandZip(bytes);
      if (members.length === 0) {
        const why = skipped.length ? ` Skipped: ${skipped.slice(0, 5).map((k) => `${k.name} (${k.reason})`).join('; ')}` : '';
        throw new IngestError('No documents in ZIP', `The archive holds no .pdf, .docx, .doc, .txt or .html file.${why}`);
      }
      await this.options.createZipMembers(doc, members, skipped);
      log.info({ members: members.length, skipped: skipped.length, durationMs: Date.now() - started }, 'ZIP expanded');
      return;
    }

    await this.progress(doc, null, { stage: 'extracting', pagesDone: 0, pagesTotal: null });
    const model = await this.pool.read(bytes, doc.format, signal);
    const pagesTotal = model.pages.length;
    if (pagesTotal === 0) throw new IngestError('No pages', 'The document has no pages.');
    await this.progress(doc, null, { stage: 'storing', pagesDone: 0, pagesTotal });

    // The rendition is staged first and committed inside the transaction that records it.
    let staged: Awaited<ReturnType<BlobStore['stage']>> | null = null;
    if (!model.pdfIsOriginal) staged = await this.blobs.stage(Readable.from([Buffer.from(model.pdf)]), { maxBytes: Number.MAX_SAFE_INTEGER });
    const renditionKey = staged ? renditionKeyOf(doc) : null;
    const processing: ProcessingDetails = { pagination: model.pagination, format: model.format, durationMs: Date.now() - started };
    // One transaction records Ingested (pages, rendition) and settles the quota under the workspace
    // lock (concurrent documents cannot both take the last pages); it queues the `process` job, so an
    // Ingested document always has exactly one.
    let committed = false;
    let outcome: 'gone' | 'over' | 'ok';
    try {
      outcome = await this.store.tx(async (s) => {
        await s.ingest.lockWorkspace(doc.workspaceId);
        const ok = await s.ingest.setIngested(doc.workspaceId, doc.id, {
          pageCount: pagesTotal,
          renditionBlobKey: renditionKey,
          processing,
          progress: { stage: 'stored', pagesDone: pagesTotal, pagesTotal },
          now: Date.now(),
        });
        if (!ok) return 'gone'; // deleted meanwhile
        await s.ingest.replacePages(doc.id, model.pages.map((p) => ({ number: p.number, width: p.width, height: p.height })));
        const w = await s.workspaces.get(doc.workspaceId);
        const reason = await overQuotaReason(w, pagesTotal, () => s.ingest.pagesUsedExcept(doc.workspaceId, doc.id));
        const now = Date.now();
        if (reason) await s.ingest.setOverQuota(doc.workspaceId, doc.id, reason, now);
        else if (this.options.enqueueProcess) await this.options.enqueueProcess(s, doc.workspaceId, { documentId: doc.id, startedAt: started });
        else await s.ingest.setStatus(doc.workspaceId, doc.id, 'Processing', { stage: 'processing', pagesDone: 0, pagesTotal }, now);
        if (staged && renditionKey) {
          await this.blobs.commit(staged.tempKey, renditionKey);
          committed = true;
        }
        if (reason) log.info({ reason }, 'document is over quota');
        return reason ? 'over' : 'ok';
      });
    } catch (err) {
      if (committed && renditionKey) await this.blobs.delete(renditionKey).catch(() => undefined);
      throw err;
    } finally {
      if (staged && !committed) await this.blobs.discard(staged.tempKey).catch(() => undefined);
    }
    if (outcome === 'over') ingestMetrics.documents.inc({ stage: 'ingest', outcome: 'over-quota' });
    if (outcome !== 'ok') return;
    ingestMetrics.documents.inc({ stage: 'ingest', outcome: 'ok' });
    ingestMetrics.seconds.observe({ stage: 'ingest' }, (Date.now() - started) / 1000);
    ingestMetrics.renditions.inc({ pagination: model.pagination });
    if (this.options.enqueueProcess) {
      this.keep(doc.id, model);
      return;
    }
    await this.process(doc, model, processing, started, signal, log);
  }

  /** `Processing` → `Ready`: the structure model (OCR, layout, entities), stored, and the DGML event. */
  private async process(doc: DocumentRecord, model: DocumentModel, processing: ProcessingDetails, started: number, signal: AbortSignal, log: Logger) {
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
        const current = await s.documents.get(doc.workspaceId, doc.id);
        if (!current) return false; // deleted meanwhile
        const analysis = { ...timings, ocrPages: stored.ocrPages, storeMs: performance.now() - storeStarted };
        const now = Date.now();
        await s.ingest.setReady(doc.workspaceId, doc.id, { structureBlobKey: key, processing: { ...processing, durationMs: now - started, analysis }, now });
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
    } catch (err) {
      if (committed) await this.blobs.delete(key).catch(() => undefined);
      throw err;
    } finally {
      if (!committed) await this.blobs.discard(staged.tempKey).catch(() => undefined);
    }
    log.info({ pages: model.pages.length, pagination: model.pagination, ocrPages: stored.ocrPages.length, durationMs: Date.now() - started }, 'document ready');
  }
}
