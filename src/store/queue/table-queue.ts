import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Repos, Store } from '../db/index.js';
import type { JobRow } from '../db/jobs.js';
import { newId } from '../../domain/ids.js';
import type { EnqueueOptions, Job, JobHandler, Queue } from './queue.js';

export interface TableQueueOptions {
  /** How long a claim holds a job; renewed every third of it while the handler runs. */
  leaseMs: number;
  /** How often idle workers look for due jobs. */
  pollMs: number;
  /** Retry n waits `retryBaseMs * 2^(n-1)`. */
  retryBaseMs: number;
  maxAttempts: number;
}

export const DEFAULT_QUEUE_OPTIONS: TableQueueOptions = { leaseMs: 5 * 60_000, pollMs: 200, retryBaseMs: 5_000, maxAttempts: 3 };

interface Running {
  job: JobRow;
  token: string;
  abort: AbortController;
  done: Promise<void>;
}

interface Worker {
  queue: string;
  handler: JobHandler<unknown>;
  concurrency: number;
}

const PURGE_EVERY_MS = 10 * 60_000;
const KEEP_COMPLETED_MS = 7 * 24 * 3600_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 4000);

/**
 * The durable queue of the embedded mode: a `jobs` table, on SQLite and PostgreSQL alike. A claim is
 * a conditional UPDATE that only matches the state the candidate was read in, retried on the next
 * candidate when another worker won; a held job carries a unique claim token and a lease that the
 * holder renews, so a job whose process died is claimed again once its lease expires.
 */
export class TableQueue implements Queue {
  private readonly opts: TableQueueOptions;
  private readonly workers: Worker[] = [];
  private readonly running = new Map<string, Running>();
  /** Claim tokens are `host:pid:instance:uuid`, so a restarted process can tell its dead predecessor's. */
  private readonly instance = randomUUID().slice(0, 8);
  private readonly workerName = `${os.hostname()}:${process.pid}:${this.instance}`;
  private lastPurge = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: Store,
    opts: Partial<TableQueueOptions> = {},
    private readonly logger?: Logger,
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts };
  }

  async enqueue(queue: string, payload: unknown, opts: EnqueueOptions, repos?: Repos): Promise<string> {
    const id = newId();
    const now = Date.now();
    await (repos ?? this.store).jobs.insert({
      id,
      queue,
      workspaceId: opts.workspaceId,
      payload,
      maxAttempts: opts.maxAttempts ?? this.opts.maxAttempts,
      runAt: opts.runAt ?? now,
      now,
    });
    // Inside a transaction the row is not visible yet: the wake-up looks a moment later, the poll anyway.
    if (repos) setTimeout(() => this.wake(), 20).unref();
    else this.wake();
    return id;
  }

  wake(): void {
    if (this.workers.length === 0 || this.stopped) return;
    this.schedule(0);
  }

  work<P>(queue: string, handler: JobHandler<P>, opts: { concurrency?: number } = {}): void {
    this.workers.push({ queue, handler: handler as JobHandler<unknown>, concurrency: Math.max(1, opts.concurrency ?? 1) });
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.polling) {
      if (ms === 0) this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
  }

  private activeFor(queue: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.job.queue === queue) n++;
    return n;
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    this.polling = true;
    this.again = false;
    try {
      if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = Date.now();
        const purged = await this.store.jobs.purgeCompleted(Date.now() - KEEP_COMPLETED_MS);
        if (purged) this.logger?.debug({ purged }, 'job queue: removed old completed jobs');
      }
      for (const w of this.workers) {
        let free = w.concurrency - this.activeFor(w.queue);
        while (free > 0 && !this.stopped) {
          const claimed = await this.claimOne(w.queue);
          if (!claimed) break;
          this.start(w, claimed.job, claimed.token);
          free--;
        }
      }
    } catch (err) {
      this.logger?.error({ err }, 'job queue: polling failed');
    } finally {
      this.polling = false;
      this.schedule(this.again ? 0 : this.opts.pollMs);
    }
  }

  /** Claims the oldest due job of `queue`; a lost race moves on to the next candidate. */
  private async claimOne(queue: string): Promise<{ job: JobRow; token: string } | null> {
    const now = Date.now();
    const candidates = await this.store.jobs.candidates([queue], now, 10);
    for (const c of candidates) {
      if (this.running.has(c.id)) continue;
      const token = `${this.workerName}:${randomUUID()}`;
      if (await this.store.jobs.claim(c, token, now, now + this.opts.leaseMs)) {
        return { job: { ...c, attempts: c.attempts + 1, state: 'active', lockedBy: token }, token };
      }
    }
    return null;
  }

  private start(w: Worker, row: JobRow, token: string) {
    const abort = new AbortController();
    const job: Job = { id: row.id, queue: row.queue, workspaceId: row.workspaceId, payload: row.payload, attempt: row.attempts, maxAttempts: row.maxAttempts };
    if (row.attempts > row.maxAttempts) {
      // Its last attempt was claimed and never finished (the process died each time, possibly because
      // of this very job): it fails now instead of running again.
      const done = this.failed(w, { ...job, attempt: row.maxAttempts }, token, new Error(`the process running it stopped during all ${row.maxAttempts} attempts`))
        .catch((err) => this.logger?.error({ err, job: row.id }, 'job queue: could not record the outcome of a job'))
        .finally(() => {
          this.running.delete(row.id);
          this.schedule(0);
        });
      this.running.set(row.id, { job: row, token, abort, done });
      return;
    }
    const renew = setInterval(() => {
      const now = Date.now();
      this.store.jobs
        .renew(row.id, token, now + this.opts.leaseMs, now)
        .then((held) => {
          if (!held) {
            this.logger?.warn({ job: row.id }, 'job queue: lease lost; the job runs elsewhere');
            abort.abort(new Error('lease lost'));
          }
        })
        .catch((err) => this.logger?.warn({ err, job: row.id }, 'job queue: lease renewal failed'));
    }, Math.max(50, Math.floor(this.opts.leaseMs / 3)));
    renew.unref();
    const done = (async () => {
      try {
        await w.handler.run(job, abort.signal);
        if (abort.signal.aborted && this.stopped) return; // released by stop()
        await this.store.jobs.complete(row.id, token, Date.now());
      } catch (err) {
        if (this.stopped && abort.signal.aborted) return;
        await this.failed(w, job, token, err);
      }
    })()
      .catch((err) => this.logger?.error({ err, job: row.id }, 'job queue: could not record the outcome of a job'))
      .finally(() => {
        clearInterval(renew);
        this.running.delete(row.id);
        this.schedule(0);
      });
    this.running.set(row.id, { job: row, token, abort, done });
  }

  private async failed(w: Worker, job: Job, token: string, err: unknown) {
    const now = Date.now();
    if (job.attempt < job.maxAttempts) {
      const delay = this.opts.retryBaseMs * 2 ** (job.attempt - 1);
      this.logger?.warn({ job: job.id, queue: job.queue, attempt: job.attempt, retryInMs: delay, err: message(err) }, 'job failed; retrying');
      await this.store.jobs.retry(job.id, token, now + delay, message(err), now);
      return;
    }
    this.logger?.error({ job: job.id, queue: job.queue, attempt: job.attempt, err: message(err) }, 'job failed for good');
    // Only the holder of the claim records the final failure and runs its consequences.
    if (await this.store.jobs.fail(job.id, token, message(err), now)) await w.handler.onFinalFailure?.(job, err);
  }

  /**
   * At start-up: jobs still held by an earlier process on this host that is gone (its pid is not
   * alive, or it is this pid from an earlier life, as in a restarted container) are claimable at once
   * instead of after their lease. Returns how many. Processes on other hosts wait for the lease.
   */
  async recoverLocal(queues: string[]): Promise<number> {
    let n = 0;
    for (const { id, lockedBy } of await this.store.jobs.activeLocks(queues)) {
      const [host, pidText, instance] = lockedBy.split(':');
      const pid = Number(pidText);
      if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) continue;
      const dead = pid === process.pid ? instance !== this.instance : !isAlive(pid);
      if (dead && (await this.store.jobs.expireLease(id, lockedBy, Date.now()))) n++;
    }
    if (n) this.wake();
    return n;
  }

  async stop(deadlineMs = 30_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const all = [...this.running.values()];
    if (all.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), deadlineMs)));
    const outcome = await Promise.race([Promise.all(all.map((r) => r.done)).then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'done') return;
    for (const r of this.running.values()) {
      r.abort.abort(new Error('worker stopping'));
      await this.store.jobs.release(r.job.id, r.token, Date.now()).catch(() => undefined);
    }
  }
}
