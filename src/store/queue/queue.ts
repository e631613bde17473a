import type { Repos } from '../db/index.js';

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
   * Stops claiming; waits up to `deadlineMs` for running jobs, then releases the leases of those
   * still running (they are picked up again at once by another worker or the next start).
   */
  stop(deadlineMs?: number): Promise<void>;
}
