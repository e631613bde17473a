import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Repos, Store } from '../../store/db/index.js';
import type { BlobStore } from '../../store/blobs/blob-store.js';
import type { Job, JobHandler } from '../../store/queue/queue.js';
import type { DocumentProgress, DocumentRecord, ProcessingDetails } from '../../model/records.js';
import { ingestMetrics } from '../../runtime/metrics.js';
import { IngestError } from '../../document/pages.js';
import type { ThreadPool } from '../thread-pool.js';
import { expandZip, type ZipMember, type ZipSkipped } from '../readers/zip/zip.js';
import { textTooLarge } from '../readers/limits.js';
import { cannotIngest, failedAfterAttempts, IllegalTransitionError, ingestOwns, overQuotaReason, recordIngested, recordOverQuota, startIngesting } from '../../domain/ingestion.js';
import { renditionKeyOf } from '../../store/blobs/keys.js';
import { INGEST_JOB } from '../../model/jobs.js';
import { verifiedBytes, verifiedSource, type Handoff } from './handoff.js';
import type { ProcessPayload } from './process.js';

export interface IngestPayload {
  documentId: string;
}

/** Creates the documents of a ZIP upload's members and settles the ZIP (the document service does). */
export type ZipMembersHook = (doc: DocumentRecord, members: ZipMember[], skipped: ZipSkipped[]) => Promise<void>;

/**
 * The `ingest` job of one document: New → Ingesting (bytes read and verified) → the format reader in
 * a reading thread → rendition and page rows stored → Ingested (page count) → quota check (OverQuota:
 * kept, not processed, not counted) → the `process` job queued (Processing → Ready, jobs/process.ts),
 * its model kept in the hand-off for it.
 * An IngestError ends it in Error with its reason and no retry; any other failure is retried by the
 * queue, and after the last attempt the document goes to Error. Every step is safe to run again after
 * a crash.
 */
export class IngestJob implements JobHandler<IngestPayload> {
  static readonly queue = INGEST_JOB;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly pool: ThreadPool,
    private readonly handoff: Handoff,
    private readonly logger: Logger,
    private readonly options: {
      createZipMembers?: ZipMembersHook;
      /** Queues the `process` job in the transaction that settles the quota. */
      enqueueProcess: (s: Repos, workspaceId: string, payload: ProcessPayload) => Promise<void>;
    },
  ) {}

  async run(job: Job<IngestPayload>, signal: AbortSignal): Promise<void> {
    const doc = await this.store.documents.get(job.workspaceId, job.payload.documentId);
    // Deleted meanwhile, already done, or Ingested/Processing and so its `process` job's.
    if (!doc || !ingestOwns(doc.status)) return;
    const log = this.logger.child({ document: doc.id, job: job.id, attempt: job.attempt });
    try {
      await this.ingest(doc, signal, log);
    } catch (err) {
      if (err instanceof IllegalTransitionError) {
        // Another run of this job (its lease lost, or run again after a crash) moved the document on
        // first: this one records nothing, and is not a failure (a last attempt must not end it in Error).
        log.warn({ err: err.message }, 'the document was moved on by another run of its job; this run stops');
        return;
      }
      if (!(err instanceof IngestError)) throw err; // retried by the queue
      ingestMetrics.documents.inc({ stage: 'ingest', outcome: 'error' });
      log.info({ title: err.title, detail: err.detail }, 'document cannot be ingested');
      await cannotIngest(this.store.ingest, doc, err);
    }
  }

  async onFinalFailure(job: Job<IngestPayload>, error: unknown): Promise<void> {
    ingestMetrics.documents.inc({ stage: 'ingest', outcome: 'failed' });
    await failedAfterAttempts(this.store.ingest, job.workspaceId, job.payload.documentId, job.attempt, error);
  }

  private async progress(doc: DocumentRecord, p: DocumentProgress): Promise<void> {
    await this.store.ingest.setProgress(doc.workspaceId, doc.id, p);
  }

  private async ingest(doc: DocumentRecord, signal: AbortSignal, log: Logger): Promise<void> {
    const started = Date.now();
    if (!(await startIngesting(this.store.ingest, doc, { stage: 'reading', pagesDone: 0, pagesTotal: null }))) return; // deleted meanwhile
    // Known from the upload: refused before its bytes are read.
    const tooLarge = textTooLarge(doc.format, doc.size);
    if (tooLarge) throw tooLarge;

    if (doc.format === 'zip') return this.expand(doc, started, log);

    const bytes = await verifiedBytes(this.blobs, doc);
    await this.progress(doc, { stage: 'extracting', pagesDone: 0, pagesTotal: null });
    const model = await this.pool.read(bytes, doc.format, signal);
    const pagesTotal = model.pages.length;
    if (pagesTotal === 0) throw new IngestError('No pages', 'The document has no pages.');
    await this.progress(doc, { stage: 'storing', pagesDone: 0, pagesTotal });

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
        const ok = await recordIngested(s.ingest, doc, {
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
        if (reason) await recordOverQuota(s.ingest, doc, reason, now);
        else await this.options.enqueueProcess(s, doc.workspaceId, { documentId: doc.id, startedAt: started });
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
    this.handoff.keep(doc.id, model);
  }

  /** A ZIP upload: its members become documents (read from storage a range at a time), the ZIP ends Ready. */
  private async expand(doc: DocumentRecord, started: number, log: Logger): Promise<void> {
    if (!this.options.createZipMembers) throw new IngestError('Unsupported file type', 'ZIP archives cannot be expanded by this worker.');
    const archive = await verifiedSource(this.blobs, doc);
    await this.progress(doc, { stage: 'expanding', pagesDone: 0, pagesTotal: null });
    const { members, skipped, close } = await expandZip(archive);
    try {
      if (members.length === 0) {
        const why = skipped.length ? ` Skipped: ${skipped.slice(0, 5).map((k) => `${k.name} (${k.reason})`).join('; ')}` : '';
        throw new IngestError('No documents in ZIP', `The archive holds no .pdf, .docx, .doc, .txt or .html file.${why}`);
      }
      await this.options.createZipMembers(doc, members, skipped);
    } finally {
      close();
    }
    log.info({ members: members.length, skipped: skipped.length, durationMs: Date.now() - started }, 'ZIP expanded');
  }
}
