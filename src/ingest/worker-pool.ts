import { Worker } from 'node:worker_threads';
import { IngestError, type DocumentModel } from './model.js';
import { threadEntry } from './thread-entry.js';
import type { ReadReply, ReadRequest } from './read-worker.js';

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

/**
 * Reads documents in worker threads, `size` at once (the others wait their turn). Each document gets
 * a fresh thread with a heap limit and a time budget: a document that runs out of either ends as an
 * IngestError for that document and the thread is discarded; the service itself is never at risk.
 */
export class WorkerPool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  private readonly threads = new Set<Worker>();

  constructor(private readonly opts: WorkerPoolOptions) {}

  private async acquire(): Promise<void> {
    if (this.active < this.opts.size) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  async read(bytes: Buffer, ext: string, signal?: AbortSignal): Promise<DocumentModel> {
    await this.acquire();
    try {
      return await this.run(bytes, ext, signal);
    } finally {
      this.release();
    }
  }

  private run(bytes: Buffer, ext: string, signal?: AbortSignal): Promise<DocumentModel> {
    if (this.closed) return Promise.reject(new ReaderCrashedError('the reader pool is closed'));
    // A copy the thread owns (the caller's buffer may be a slice of a shared pool).
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const request: ReadRequest = { bytes: copy, ext };
    return new Promise<DocumentModel>((resolve, reject) => {
      const entry = threadEntry(this.opts.entry ?? 'read-worker');
      const worker = new Worker(entry.file, {
        eval: entry.eval,
        workerData: request,
        transferList: [copy.buffer],
        resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb },
        stdout: false,
        stderr: false,
      });
      this.threads.add(worker);
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.threads.delete(worker);
        void worker.terminate();
        fn();
      };
      const timer = setTimeout(() => {
        finish(() =>
          reject(new IngestError('Processing time limit exceeded', `Reading the document took longer than ${Math.round(this.opts.timeoutMs / 1000)} s.`)),
        );
      }, this.opts.timeoutMs);
      const onAbort = () => finish(() => reject(signal!.reason ?? new Error('aborted')));
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (reply: ReadReply) => {
        finish(() => {
          if (reply.ok) resolve(reply.model);
          else if (reply.ingestError) reject(new IngestError(reply.ingestError.title, reply.ingestError.detail));
          else reject(new Error(reply.message));
        });
      });
      worker.once('error', (err: Error & { code?: string }) => {
        finish(() => {
          if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
            reject(new IngestError('Processing ran out of memory', `Reading the document needed more than ${this.opts.memoryMb} MB.`));
          } else {
            reject(new ReaderCrashedError(`the reading thread failed: ${err.message}`));
          }
        });
      });
      worker.once('exit', (code) => finish(() => reject(new ReaderCrashedError(`the reading thread exited (code ${code}) without an answer`))));
    });
  }

  /** Stops every thread now (their documents' jobs are retried or re-leased). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.threads].map((w) => w.terminate()));
  }
}
