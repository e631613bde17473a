import type { Repos } from '../db/index.js';
import type { QueueStats } from '../../runtime/metrics.js';

/** A job as its handler sees it. */
export interface Job<P = unknown> {
  id: string;
  queue: string;
  workspaceId: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

export interface JobHandler<P = unknown> {
  /** Resolves: the job is completed. Throws: it is retried with back-off, up to its max attempts. */
  run(job: Job<P>, signal: AbortSignal): Promise<void>;
  /** After the last attempt failed (the job is then `failed`). */
  onFinalFailure?(job: Job<P>, error: unknown): Promise<void>;
}

export interface EnqueueOptions {
  workspaceId: string;
  /** Epoch ms; default now. */
  runAt?: number;
  maxAttempts?: number;
}

/**
 * Durable jobs. `enqueue` takes the repositories of an open transaction (`Store.tx`) so that a job
 * is created together with the row it is about, or not at all.
 */
export interface Queue {
  enqueue(queue: string, payload: unknown, opts: EnqueueOptions, repos?: Repos): Promise<string>;
  /** Throws when the queue's storage cannot be reached (readiness). */
  ping(): Promise<void>;
  /** Tells this process's workers to look for work now (after the enqueuing transaction committed). */
  wake(): void;
  /** Starts claiming jobs of `queue` for `handler`, at most `concurrency` at once. */
  work<P>(queue: string, handler: JobHandler<P>, opts?: { concurrency?: number }): void;
  /** Makes jobs held by dead processes of this host claimable now (start-up); returns how many. */
  recoverLocal?(queues: string[]): Promise<number>;
  /**
   * Payloads of the jobs of `queue` that may still run: queued, waiting for a retry, running, or
   * failed for good with their `onFinalFailure` not run yet.
   */
  livePayloads?(queue: string): Promise<unknown[]>;
  /**
   * Read-only, for metrics: per job kind (the queues this process works, and any other with live
   * jobs) how many jobs wait, are delayed and run, and how long the oldest due one has waited.
   */
  stats(): Promise<QueueStats[]>;
  /**
   * Stops claiming; waits up to `deadlineMs` for running jobs, then releases the leases of those
   * still running (they are picked up again at once by another worker or the next start).
   */
  stop(deadlineMs?: number): Promise<void>;
}

/** The stats of every queue in `known` (zero when it has no live jobs) and of every other queue `found` has. */
export function statsOfQueues(
  known: Iterable<string>,
  found: { queue: string; waiting: number; delayed: number; running: number; oldestDueAt: number | null }[],
  now: number,
): QueueStats[] {
  const byQueue = new Map<string, QueueStats>();
  for (const queue of known) byQueue.set(queue, { queue, waiting: 0, delayed: 0, running: 0, oldestWaitingSeconds: 0 });
  for (const f of found) {
    const oldestWaitingSeconds = f.oldestDueAt === null ? 0 : Math.max(0, (now - f.oldestDueAt) / 1000);
    byQueue.set(f.queue, { queue: f.queue, waiting: f.waiting, delayed: f.delayed, running: f.running, oldestWaitingSeconds });
  }
  return [...byQueue.values()].sort((a, b) => a.queue.localeCompare(b.queue));
}
