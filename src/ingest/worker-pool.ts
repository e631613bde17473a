import { Worker } from 'node:worker_threads';
import { IngestError, type DocumentModel } from './model.js';
import { threadEntry } from './thread-entry.js';
import type { AnalyzeTimings } from './analyze.js';
import type { StructureModel } from './structure.js';
import type { ClassificationFeatures } from './stages/classify.js';
import type { ThreadReply, ThreadRequest, ThreadResult } from './read-worker.js';

type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface WorkerPoolOptions {
  /** Threads reading at once (default: CPU cores). */
  size: number;
  /** Per-document time budget. */
  timeoutMs: number;
  /** Per-document heap budget (resourceLimits.maxOldGenerationSizeMb). */
  memoryMb: number;
  /** The thread's entry module (tests only; default: read-worker next to this module). */
  entry?: URL;
}

/** A read that failed for a reason of the process (not of the document): worth retrying. */
export class ReaderCrashedError extends Error {}

/** A thread is replaced after this many documents, so nothing one document leaves behind accumulates. */
const RECYCLE_AFTER = 50;

/**
 * Reads documents in worker threads, `size` at once (the others wait their turn). Threads are kept
 * between documents (pdf.js and the readers load once) and each read has a heap limit and a time
 * budget: a document that runs out of either ends as an IngestError for that document and its thread
 * is discarded, as is a thread that crashed; the service itself is never at risk.
 */
export class WorkerPool {
  private active = 0;
  private activeReads = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly waitingUrgent: (() => void)[] = [];
  private closed = false;
  private readonly threads = new Set<Worker>();
  private idle: Worker[] = [];
  private readonly served = new WeakMap<Worker, number>();
  private nextId = 1;

  constructor(private readonly opts: WorkerPoolOptions) {}

  /**
   * A thread slot. Reads go before analyses, and one read may run beside `size` busy threads: reading
   * is quick (page count and sizes) and makes a document `Ingested`, so a batch of uploads is not held
   * behind the slow stage (OCR, layout) of the first ones.
   */
  private canRun(urgent: boolean): boolean {
    return this.active < this.opts.size || (urgent && this.activeReads === 0);
  }

  private async acquire(urgent: boolean): Promise<void> {
    if (this.canRun(urgent) && (urgent || this.waitingUrgent.length === 0)) return this.take1(urgent);
    // The releasing side counts the slot for us before waking us (see `release`).
    await new Promise<void>((resolve) => (urgent ? this.waitingUrgent : this.waiting).push(resolve));
  }

  private take1(urgent: boolean) {
    this.active++;
    if (urgent) this.activeReads++;
  }

  private release(urgent: boolean) {
    this.active--;
    if (urgent) this.activeReads--;
    for (;;) {
      if (this.waitingUrgent.length && this.canRun(true)) {
        this.take1(true);
        this.waitingUrgent.shift()!();
      } else if (this.waiting.length && this.canRun(false)) {
        this.take1(false);
        this.waiting.shift()!();
      } else return;
    }
  }

  async read(bytes: Buffer, ext: string, signal?: AbortSignal): Promise<DocumentModel> {
    // A copy the thread owns (the caller's buffer may be a slice of a shared pool).
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const result = await this.queued({ op: 'read', bytes: copy, ext }, [copy.buffer], signal);
    if (result.op !== 'read') throw new ReaderCrashedError('the reading thread answered another request');
    return result.model;
  }

  /**
   * The `Processing` stage (OCR, layout, entities) of a read document, in a thread. Its time budget
   * is the reading budget plus `ocrPageTimeoutMs` per page (any page may need OCR).
   */
  async analyze(
    model: DocumentModel,
    ocrPageTimeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ structure: StructureModel; timings: AnalyzeTimings; features: ClassificationFeatures }> {
    const timeoutMs = this.opts.timeoutMs + model.pages.length * ocrPageTimeoutMs;
    const result = await this.queued({ op: 'analyze', model, ocrBudgetMs: ocrPageTimeoutMs }, [], signal, timeoutMs);
    if (result.op !== 'analyze') throw new ReaderCrashedError('the reading thread answered another request');
    return result;
  }

  private async queued(request: Request, transfer: ArrayBuffer[], signal?: AbortSignal, timeoutMs = this.opts.timeoutMs): Promise<ThreadResult> {
    const urgent = request.op === 'read';
    await this.acquire(urgent);
    try {
      return await this.run(request, transfer, timeoutMs, signal);
    } finally {
      this.release(urgent);
    }
  }

  /** A thread with pdf.js and the readers already loaded, or a new one. */
  private take(): Worker {
    const idle = this.idle.pop();
    if (idle) {
      idle.ref();
      return idle;
    }
    const entry = threadEntry(this.opts.entry ?? 'read-worker');
    const worker = new Worker(entry.file, {
      eval: entry.eval,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb },
      stdout: false,
      stderr: false,
    });
    this.threads.add(worker);
    worker.once('exit', () => {
      this.threads.delete(worker);
      this.idle = this.idle.filter((w) => w !== worker);
    });
    return worker;
  }

  /** A thread that answered goes back to the idle set (until it has read RECYCLE_AFTER documents). */
  private giveBack(worker: Worker, reusable: boolean) {
    const served = (this.served.get(worker) ?? 0) + 1;
    this.served.set(worker, served);
    if (reusable && !this.closed && served < RECYCLE_AFTER) {
      worker.unref();
      this.idle.push(worker);
    } else {
      void worker.terminate();
    }
  }

  private run(request: Request, transfer: ArrayBuffer[], timeoutMs: number, signal?: AbortSignal): Promise<ThreadResult> {
    if (this.closed) return Promise.reject(new ReaderCrashedError('the reader pool is closed'));
    const id = this.nextId++;
    const worker = this.take();
    const doing = request.op === 'read' ? 'Reading' : 'Analysing';
    return new Promise<ThreadResult>((resolve, reject) => {
      let settled = false;
      const finish = (reusable: boolean, fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.giveBack(worker, reusable);
        fn();
      };
      const timer = setTimeout(() => {
        finish(false, () =>
          reject(new IngestError('Processing time limit exceeded', `${doing} the document took longer than ${Math.round(timeoutMs / 1000)} s.`)),
        );
      }, timeoutMs);
      const onAbort = () => finish(false, () => reject(signal!.reason ?? new Error('aborted')));
      signal?.addEventListener('abort', onAbort, { once: true });
      const onMessage = (reply: ThreadReply) => {
        if (reply.id !== id) return;
        finish(true, () => {
          if (reply.ok) resolve(reply.result);
          else if (reply.ingestError) reject(new IngestError(reply.ingestError.title, reply.ingestError.detail));
          else reject(new Error(reply.message));
        });
      };
      const onError = (err: Error & { code?: string }) => {
        finish(false, () => {
          if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
            reject(new IngestError('Processing ran out of memory', `${doing} the document needed more than ${this.opts.memoryMb} MB.`));
          } else {
            reject(new ReaderCrashedError(`the reading thread failed: ${err.message}`));
          }
        });
      };
      const onExit = (code: number) => finish(false, () => reject(new ReaderCrashedError(`the reading thread exited (code ${code}) without an answer`)));
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ id, ...request } as ThreadRequest, transfer);
    });
  }

  /** Stops every thread now (their documents' jobs are retried or re-leased). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.threads].map((w) => w.terminate()));
  }
}
