import type { Logger } from 'pino';
import type { Job, JobHandler } from './queue.js';
import { DEFAULT_JOB_LEASE_MS } from '../../runtime/config.js';

export interface QueueOptions {
  /** How long a claim holds a job; renewed every third of it while the handler runs. */
  leaseMs: number;
  /** How often idle workers look for due jobs. */
  pollMs: number;
  /** Retry n waits `retryBaseMs * 2^(n-1)`. */
  retryBaseMs: number;
  maxAttempts: number;
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = { leaseMs: DEFAULT_JOB_LEASE_MS, pollMs: 200, retryBaseMs: 5_000, maxAttempts: 3 };

/** A job this process holds: as its handler sees it, and the token its outcome is recorded with. */
export interface Claim {
  job: Job;
  token: string;
}

export interface Worker {
  queue: string;
  handler: JobHandler<unknown>;
  concurrency: number;
}

/**
 * Where a queue keeps its jobs. Every method that takes a claim acts only while its token still holds
 * the job, so a holder whose lease was lost cannot record anything.
 */
export interface JobBackend<C extends Claim> {
  /** The most jobs one `claim` call takes; a call that got all it asked for is followed by another while slots are free. */
  readonly claimBatch: number;
  /** Claims up to `n` due jobs of `queue`, never one of `isRunning`. */
  claim(queue: string, n: number, isRunning: (jobId: string) => boolean): Promise<C[]>;
  /** Extends the lease; false when the claim no longer holds the job. */
  renew(claim: C): Promise<boolean>;
  complete(claim: C): Promise<void>;
  /** The wait before the next attempt, when the backend sets it (logged); pg-boss applies its own. */
  retryDelayMs?(job: Job): number;
  /** A failed attempt that is not the last one: the job runs again later. */
  retry(claim: C, err: unknown): Promise<void>;
  /** The last attempt failed. Resolves true when the runner is to run `onFinalFailure` now. */
  fail(claim: C, err: unknown): Promise<boolean>;
  /** Hands back a job whose handler was aborted by `stop()`, due at once. */
  release(claim: C): Promise<void>;
  /** Housekeeping at the start of every poll. */
  beforePoll?(): Promise<void>;
  /** A pass over a worker's queue in the background after each poll, one at a time per worker; `stop()` waits for it. */
  sweep?(worker: Worker): Promise<void>;
}

interface Registered extends Worker {
  sweeping: Promise<void> | null;
}

interface Running<C extends Claim> {
  worker: Registered;
  claim: C;
  abort: AbortController;
  done: Promise<void>;
}

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 4000);

/**
 * The worker loop of the durable queues: polls the backend for due jobs (at once when woken), at most
 * `concurrency` per worker, runs each handler with an AbortSignal while renewing its lease (aborted
 * when the lease is lost), then records its completion, retry or final failure.
 */
export class JobRunner<C extends Claim> {
  private readonly workers: Registered[] = [];
  private readonly running = new Map<string, Running<C>>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly backend: JobBackend<C>,
    private readonly opts: Pick<QueueOptions, 'leaseMs' | 'pollMs'>,
    /** Names the queue in the log of a failed poll. */
    private readonly label: string,
    private readonly logger?: Logger,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Registers a worker; it claims from the next poll on. */
  add<P>(queue: string, handler: JobHandler<P>, opts: { concurrency?: number }): void {
    this.workers.push({ queue, handler: handler as JobHandler<unknown>, concurrency: Math.max(1, opts.concurrency ?? 1), sweeping: null });
  }

  wake(): void {
    if (this.workers.length === 0 || this.stopped) return;
    this.schedule(0);
  }

  /** After a job was enqueued, `inTransaction` or not. */
  wakeAfterEnqueue(inTransaction: boolean): void {
    // Inside a transaction the job is not visible yet: the wake-up looks a moment later, the poll anyway.
    if (inTransaction) setTimeout(() => this.wake(), 20).unref();
    else this.wake();
  }

  schedule(ms: number): void {
    if (this.stopped) return;
    if (this.polling) {
      if (ms === 0) this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
  }

  private activeFor(w: Registered): number {
    let n = 0;
    for (const r of this.running.values()) if (r.worker === w) n++;
    return n;
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    this.polling = true;
    this.again = false;
    try {
      await this.backend.beforePoll?.();
      for (const w of this.workers) {
        let free = w.concurrency - this.activeFor(w);
        while (free > 0 && !this.stopped) {
          const want = Math.min(free, this.backend.claimBatch);
          const claims = await this.backend.claim(w.queue, want, (id) => this.running.has(id));
          for (const c of claims) this.start(w, c);
          free -= claims.length;
          if (claims.length < want) break;
        }
        if (this.backend.sweep && !w.sweeping && !this.stopped) w.sweeping = this.backend.sweep(w).finally(() => (w.sweeping = null));
      }
    } catch (err) {
      this.logger?.error({ err }, `${this.label}: polling failed`);
    } finally {
      this.polling = false;
      this.schedule(this.again ? 0 : this.opts.pollMs);
    }
  }

  private start(w: Registered, claim: C) {
    const { job } = claim;
    const abort = new AbortController();
    const outcome =
      job.attempt > job.maxAttempts
        ? // Its last attempt was claimed and never finished (the process died each time, possibly because
          // of this very job): it fails now instead of running again. Only the table queue counts an
          // attempt when it is claimed; pg-boss fails such a job itself.
          this.failed(w, { ...claim, job: { ...job, attempt: job.maxAttempts } }, new Error(`the process running it stopped during all ${job.maxAttempts} attempts`))
        : this.run(w, claim, abort);
    const done = outcome
      .catch((err) => this.logger?.error({ err, job: job.id }, 'job queue: could not record the outcome of a job'))
      .finally(() => {
        this.running.delete(job.id);
        this.schedule(0);
      });
    this.running.set(job.id, { worker: w, claim, abort, done });
  }

  private async run(w: Registered, claim: C, abort: AbortController): Promise<void> {
    const { job } = claim;
    // A renewal answered after the outcome was recorded finds the job settled: not a lost lease.
    let settled = false;
    const every = Math.max(50, Math.floor(this.opts.leaseMs / 3));
    const lost = (reason: string) => {
      if (abort.signal.aborted || settled) return;
      this.logger?.warn({ job: job.id }, `job queue: lease lost (${reason}); the job runs elsewhere`);
      abort.abort(new Error(`lease lost: ${reason}`));
    };
    // Until when the lease is known to hold: from the claim (just before this), then from the start of
    // each renewal that succeeded. When renewals fail (the database unreachable) or hang, the job is
    // aborted half a renewal interval before that, so that it has stopped when another worker may
    // take the job over.
    let heldUntil = Date.now() + this.opts.leaseMs;
    let expiry: NodeJS.Timeout | undefined;
    const watchExpiry = () => {
      clearTimeout(expiry);
      if (settled) return;
      expiry = setTimeout(() => lost(`not renewed for ${Date.now() - heldUntil + this.opts.leaseMs} ms`), heldUntil - every / 2 - Date.now());
      expiry.unref();
    };
    watchExpiry();
    const renew = setInterval(() => {
      const asked = Date.now();
      this.backend
        .renew(claim)
        .then((held) => {
          if (!held) return lost('another worker holds it');
          heldUntil = Math.max(heldUntil, asked + this.opts.leaseMs);
          watchExpiry();
        })
        .catch((err) => this.logger?.warn({ err, job: job.id }, 'job queue: lease renewal failed'));
    }, every);
    renew.unref();
    try {
      await w.handler.run(job, abort.signal);
      if (abort.signal.aborted && this.stopped) return; // released by stop()
      settled = true;
      await this.backend.complete(claim);
    } catch (err) {
      if (this.stopped && abort.signal.aborted) return;
      settled = true;
      await this.failed(w, claim, err);
    } finally {
      clearInterval(renew);
      clearTimeout(expiry);
    }
  }

  private async failed(w: Registered, claim: C, err: unknown): Promise<void> {
    const { job } = claim;
    if (job.attempt < job.maxAttempts) {
      const retryInMs = this.backend.retryDelayMs?.(job);
      this.logger?.warn({ job: job.id, queue: job.queue, attempt: job.attempt, retryInMs, err: errorMessage(err) }, 'job failed; retrying');
      await this.backend.retry(claim, err);
      return;
    }
    this.logger?.error({ job: job.id, queue: job.queue, attempt: job.attempt, err: errorMessage(err) }, 'job failed for good');
    if (await this.backend.fail(claim, err)) await w.handler.onFinalFailure?.(job, err);
  }

  /**
   * Stops claiming; waits up to `deadlineMs` for running jobs (and background sweeps), then aborts the
   * jobs still running and releases them.
   */
  async stop(deadlineMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const sweeping = this.workers.map((w) => w.sweeping).filter((p) => p !== null);
    const pending = [...[...this.running.values()].map((r) => r.done), ...sweeping];
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), deadlineMs)));
    const outcome = await Promise.race([Promise.all(pending).then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'done') return;
    for (const r of this.running.values()) {
      r.abort.abort(new Error('worker stopping'));
      await this.backend.release(r.claim).catch((err) => this.logger?.warn({ err, job: r.claim.job.id }, 'job queue: could not hand a job back'));
    }
  }
}
