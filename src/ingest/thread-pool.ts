import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { IngestError, type DocumentModel } from '../document/pages.js';
import { moduleBeside, threadEntry } from '../runtime/thread-entry.js';
import type { AnalyzeTimings } from './pipeline.js';
import type { PdfEngine } from './readers/pdf/pdf.js';
import type { ClassificationFeatures } from '../document/classification.js';
import type { LabelSummaryEntry } from '../document/label-summary.js';
import { reclaimOcrSlots, sharedCounter, type OcrSlots } from './stages/ocr/slots.js';
import type { StoredStructure, ThreadData, ThreadNotice, ThreadReply, ThreadRequest, ThreadResult, ThreadStop } from './read-thread.js';
import { OfficeHeld } from './readers/office/office-orphans.js';
import { compiledPdfiumModule, type PdfiumCompile } from './readers/pdf/pdfium.js';

type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface ThreadPoolOptions {
  /** Threads of each kind at once: `size` reading and `size` analysing (default: CPU cores). */
  size: number;
  /** Per-document time budget. */
  timeoutMs: number;
  /** Per-document heap budget (resourceLimits.maxOldGenerationSizeMb). */
  memoryMb: number;
  /** Nice value of analysing threads (default 10; 0 keeps the process's priority). */
  analysisNice?: number;
  /** What reads PDFs in the threads (default PDFium). */
  pdfEngine?: PdfEngine;
  /** How PDFium's WebAssembly, which the threads share, is compiled (default lazy; see PdfiumCompile). */
  pdfiumCompile?: PdfiumCompile;
  /** A thread the pool starts ahead of documents (warm()) first analyses a made-up contract this long, ms (default 0: none; src/ingest/warm-up.ts). */
  warmUpMs?: number;
  /** OCR engine processes at once, over all analysing threads (default: CPU cores). */
  ocrConcurrency?: number;
  /** The languages scanned pages are read in, tesseract's `eng+deu` form (default `eng`). */
  ocrLanguages?: string;
  /** A reading thread's resident LibreOffice stops after this many ms idle (default 0: none, one per conversion). */
  officeIdleMs?: number;
  /** Word files are refused rather than converted by a LibreOffice with network access (default false). */
  officeRequireIsolation?: boolean;
  /** The folder LibreOffice's working folders go under (default: the system's temporary directory). */
  officeRoot?: string;
  /** The thread's entry module (tests only; default: read-thread next to this module). */
  entry?: URL;
  /** A thread is replaced after serving this many requests (default 1,000; tests only). */
  recycleAfter?: number;
}

/** Told how many of a document's pages its analysis has read (scanned pages are the slow ones). */
export type ProgressListener = (pagesDone: number, pagesTotal: number) => void;

/** A read that failed for a reason of the process (not of the document): worth retrying. */
export class ReaderCrashedError extends Error {}

/**
 * A thread is replaced after this many documents, or sooner when it asks to be (its heap is crowded
 * after a document: `heapCrowded`), so nothing documents leave behind accumulates. Not sooner than
 * that: a replacement starts cold, and a thread's code keeps getting faster over its first hundred
 * or so documents (V8 optimises it as it runs). Replacing threads every 50 documents cost a busy
 * server about 18 % more CPU per batch, in spikes at each replacement (bench/README.md).
 */
const RECYCLE_AFTER = 1_000;

/** How long a thread asked to end its child processes has before it is terminated (it needs a few ms). */
const STOP_GRACE_MS = 2_000;

type LaneName = 'read' | 'analyze';

interface Lane {
  active: number;
  readonly waiting: (() => void)[];
  idle: Worker[];
}

/**
 * Reads and analyses documents in threads (node:worker_threads; entry: read-thread.ts). Threads are
 * kept between documents (pdf.js and the readers load once) and each request has a heap limit and a
 * time budget: a document that runs out of either ends as an IngestError for that document and its
 * thread is discarded, as is a thread that crashed; the service itself is never at risk.
 *
 * Reading (page count and sizes: what makes a document `Ingested`) and analysing (OCR, layout: the
 * slow `Processing` stage) have separate lanes of `size` threads each, and analysing threads run at a
 * lower CPU priority. So a batch of uploads all reach `Ingested` at full speed while earlier documents
 * are being analysed, and the HTTP event loop and database work of this process are never starved by
 * OCR: the kernel gives the analyses whatever CPU is left.
 */
export class ThreadPool {
  private readonly lanes: Record<LaneName, Lane> = {
    read: { active: 0, waiting: [], idle: [] },
    analyze: { active: 0, waiting: [], idle: [] },
  };
  private closed = false;
  /** warm() was called: threads are kept started ahead, recycled ones replaced at once. */
  private warmed = false;
  private readonly threads = new Set<Worker>();
  private readonly served = new WeakMap<Worker, number>();
  /** Child processes each thread has running, as it last told (ThreadNotice). */
  private readonly children = new WeakMap<Worker, number>();
  /** The ending of the LibreOffices of threads that exited (`OfficeHeld.end`), awaited by close(). */
  private readonly endingOffices = new Set<Promise<void>>();
  private nextId = 1;
  /** Free OCR slots, shared with every analysing thread. */
  private readonly ocrFree: Int32Array;

  constructor(private readonly opts: ThreadPoolOptions) {
    this.ocrFree = sharedCounter(opts.ocrConcurrency ?? Math.max(1, os.availableParallelism()));
  }

  private async acquire(lane: Lane): Promise<void> {
    if (lane.active < this.opts.size) {
      lane.active++;
      return;
    }
    // The releasing side counts the slot for us before waking us (see `release`).
    await new Promise<void>((resolve) => lane.waiting.push(resolve));
  }

  private release(lane: Lane) {
    const next = lane.waiting.shift();
    if (next) next();
    else lane.active--;
  }

  /** Threads alive (reading and analysing, busy and idle). */
  get threadCount(): number {
    return this.threads.size;
  }

  /**
   * Starts the reading and analysing threads now, so that the first uploads after start-up do not
   * wait for a thread to load PDFium, pdf.js and the readers (a few hundred ms each). They wait idle,
   * not keeping the process up.
   */
  warm(): void {
    this.warmed = true;
    for (const name of ['read', 'analyze'] as const) {
      const lane = this.lanes[name];
      while (!this.closed && lane.idle.length + lane.active < this.opts.size) {
        const thread = this.spawn(name, true);
        thread.unref();
        lane.idle.push(thread);
      }
    }
  }

  async read(bytes: Buffer, ext: string, signal?: AbortSignal): Promise<DocumentModel> {
    // A copy the thread owns (the caller's buffer may be a slice of a shared pool).
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const result = await this.queued({ op: 'read', bytes: copy, ext, pdfEngine: this.opts.pdfEngine ?? 'pdfium', officeIdleMs: this.opts.officeIdleMs ?? 0, officeRequireIsolation: this.opts.officeRequireIsolation ?? false }, [copy.buffer], signal);
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
    onProgress?: ProgressListener,
  ): Promise<{ stored: StoredStructure; timings: AnalyzeTimings; features: ClassificationFeatures; labels?: LabelSummaryEntry[] }> {
    const timeoutMs = this.opts.timeoutMs + model.pages.length * ocrPageTimeoutMs;
    const ocrSlots: OcrSlots = { size: this.opts.ocrConcurrency ?? Math.max(1, os.availableParallelism()), free: this.ocrFree, held: sharedCounter(0) };
    try {
      const result = await this.queued({ op: 'analyze', model, ocrBudgetMs: ocrPageTimeoutMs, ocrLanguages: this.opts.ocrLanguages ?? 'eng', ocrSlots, pdfEngine: this.opts.pdfEngine ?? 'pdfium' }, [], signal, timeoutMs, onProgress);
      if (result.op !== 'analyze') throw new ReaderCrashedError('the reading thread answered another request');
      return result;
    } finally {
      // Nothing when the thread answered; the slots of one that was terminated mid-OCR otherwise.
      reclaimOcrSlots(ocrSlots);
    }
  }

  private async queued(request: Request, transfer: ArrayBuffer[], signal?: AbortSignal, timeoutMs = this.opts.timeoutMs, onProgress?: ProgressListener): Promise<ThreadResult> {
    const name: LaneName = request.op === 'read' ? 'read' : 'analyze';
    const lane = this.lanes[name];
    await this.acquire(lane);
    try {
      return await this.run(name, request, transfer, timeoutMs, signal, onProgress);
    } finally {
      this.release(lane);
    }
  }

  /** A thread of the lane with pdf.js and the readers already loaded, or a new one. */
  private take(name: LaneName): Worker {
    const lane = this.lanes[name];
    const idle = lane.idle.pop();
    if (idle) {
      idle.ref();
      return idle;
    }
    return this.spawn(name);
  }

  /** A new thread of the lane; one started `ahead` of documents to analyse warms up first (ThreadData.warmUpMs). */
  private spawn(name: LaneName, ahead = false): Worker {
    const lane = this.lanes[name];
    const nice = name === 'analyze' ? (this.opts.analysisNice ?? 10) : 0;
    const warmUpMs = ahead && name === 'analyze' ? (this.opts.warmUpMs ?? 0) : 0;
    const entry = threadEntry(this.opts.entry ?? moduleBeside(import.meta.url, 'read-thread'), { nice });
    const thread = new Worker(entry.file, {
      eval: entry.eval,
      workerData: { pdfiumModule: compiledPdfiumModule(this.opts.pdfiumCompile ?? 'lazy'), ...(this.opts.officeRoot ? { officeRoot: this.opts.officeRoot } : {}), ...(warmUpMs > 0 ? { warmUpMs } : {}) } satisfies ThreadData,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb },
      stdout: false,
      stderr: false,
    });
    this.threads.add(thread);
    // An idle thread has no request listening for its failure; without a listener an 'error' would
    // throw in this process. The thread's exit then removes it from the pool.
    thread.on('error', () => {});
    // What the thread's LibreOffices are doing (read-thread.ts): LibreOffice runs in processes, which
    // outlive a thread stopped at its time limit or crashed, with their folders and pipes. A thread's
    // messages all arrive before its 'exit'.
    const offices = new OfficeHeld();
    thread.on('message', (message: ThreadReply | ThreadNotice) => {
      if ('office' in message) offices.note(message.office);
      else if ('children' in message) this.children.set(thread, message.children);
    });
    thread.once('exit', () => {
      this.threads.delete(thread);
      lane.idle = lane.idle.filter((w) => w !== thread);
      if (offices.size > 0) {
        const ending = offices.end().catch(() => {});
        this.endingOffices.add(ending);
        void ending.finally(() => this.endingOffices.delete(ending));
      }
    });
    return thread;
  }

  /**
   * A thread that answered goes back to its lane's idle set, until it has served RECYCLE_AFTER
   * requests or asks to retire; one that failed is discarded.
   */
  private giveBack(name: LaneName, thread: Worker, outcome: 'answered' | 'retire' | 'failed') {
    const served = (this.served.get(thread) ?? 0) + 1;
    this.served.set(thread, served);
    if (outcome === 'answered' && !this.closed && served < (this.opts.recycleAfter ?? RECYCLE_AFTER)) {
      thread.unref();
      this.lanes[name].idle.push(thread);
      return;
    }
    void this.stop(thread);
    if (outcome !== 'failed' && this.warmed && !this.closed) {
      // Its replacement loads now, while idle, not when the next document is already waiting for it.
      const fresh = this.spawn(name, true);
      fresh.unref();
      this.lanes[name].idle.push(fresh);
    }
  }

  /**
   * Ends a thread. One with child processes running (a LibreOffice, a tesseract) is first asked to
   * end them, so that its own event loop reaps them: terminated outright, it would leave each one a
   * zombie of this process (child-processes.ts). It is terminated all the same after STOP_GRACE_MS
   * (a thread busy computing does not read the request).
   */
  private async stop(thread: Worker): Promise<void> {
    if (this.threads.has(thread) && (this.children.get(thread) ?? 0) > 0) {
      const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
      thread.postMessage({ op: 'stop' } satisfies ThreadStop);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(timer);
    }
    await thread.terminate();
  }

  private run(name: LaneName, request: Request, transfer: ArrayBuffer[], timeoutMs: number, signal?: AbortSignal, onProgress?: ProgressListener): Promise<ThreadResult> {
    if (this.closed) return Promise.reject(new ReaderCrashedError('the reader pool is closed'));
    const id = this.nextId++;
    const thread = this.take(name);
    const doing = request.op === 'read' ? 'Reading' : 'Analysing';
    return new Promise<ThreadResult>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: 'answered' | 'retire' | 'failed', fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        this.giveBack(name, thread, outcome);
        fn();
      };
      const timer = setTimeout(() => {
        finish('failed', () =>
          reject(new IngestError('Processing time limit exceeded', `${doing} the document took longer than ${Math.round(timeoutMs / 1000)} s.`)),
        );
      }, timeoutMs);
      const onAbort = () => finish('failed', () => reject(signal!.reason ?? new Error('aborted')));
      signal?.addEventListener('abort', onAbort, { once: true });
      const onMessage = (reply: ThreadReply | ThreadNotice) => {
        if ('office' in reply || 'children' in reply || reply.id !== id) return;
        if ('progress' in reply) {
          if (!settled) onProgress?.(reply.progress.pagesDone, reply.progress.pagesTotal);
          return;
        }
        finish(reply.ok && reply.retire ? 'retire' : 'answered', () => {
          if (reply.ok) resolve(reply.result);
          else if (reply.ingestError) reject(new IngestError(reply.ingestError.title, reply.ingestError.detail));
          else reject(new Error(reply.message));
        });
      };
      const onError = (err: Error & { code?: string }) => {
        finish('failed', () => {
          if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
            reject(new IngestError('Processing ran out of memory', `${doing} the document needed more than ${this.opts.memoryMb} MB.`));
          } else {
            reject(new ReaderCrashedError(`the reading thread failed: ${err.message}`));
          }
        });
      };
      const onExit = (code: number) => finish('failed', () => reject(new ReaderCrashedError(`the reading thread exited (code ${code}) without an answer`)));
      thread.on('message', onMessage);
      thread.once('error', onError);
      thread.once('exit', onExit);
      thread.postMessage({ id, ...request } as ThreadRequest, transfer);
    });
  }

  /** Stops every thread now (their documents' jobs are retried or re-leased), and the LibreOffices they ran. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.threads].map((w) => this.stop(w)));
    await Promise.all([...this.endingOffices]);
  }
}
