import type { Logger } from 'pino';
import type { Repos, Store } from '../db/index.js';
import { newId } from '../../model/ids.js';
import { ClaimTokens } from './claim-token.js';
import type { QueueStats } from '../../runtime/metrics.js';
import { statsOfQueues, type EnqueueOptions, type Job, type JobHandler, type Queue } from './queue.js';
import { DEFAULT_QUEUE_OPTIONS, errorMessage, JobRunner, type Claim, type QueueOptions } from './runner.js';
import { WorkspaceRounds } from './rounds.js';

const PURGE_EVERY_MS = 10 * 60_000;
const KEEP_COMPLETED_MS = 7 * 24 * 3600_000;

/**
 * The durable queue of the embedded mode: a `jobs` table, on SQLite and PostgreSQL alike. A claim is
 * a conditional UPDATE that only matches the state the candidate was read in, retried on the next
 * candidate when another worker won; a held job carries a unique claim token and a lease that the
 * holder renews, so a job whose process died is claimed again once its lease expires.
 */
export class TableQueue implements Queue {
  private readonly opts: QueueOptions;
  private readonly tokens = new ClaimTokens();
  private readonly runner: JobRunner<Claim>;
  private lastPurge = Date.now();
  private readonly worked = new Set<string>();
  private readonly rounds = new WorkspaceRounds();

  async ping(): Promise<void> {
    await this.store.jobs.get('readiness-probe');
  }

  constructor(
    private readonly store: Store,
    opts: Partial<QueueOptions> = {},
    logger?: Logger,
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts };
    const { jobs } = store;
    this.runner = new JobRunner(
      {
        // One conditional UPDATE claims one job: each starts as soon as it is held.
        claimBatch: 1,
        claim: async (queue, _n, isRunning) => {
          const claimed = await this.claimOne(queue, isRunning);
          return claimed ? [claimed] : [];
        },
        renew: ({ job, token }) => {
          const now = Date.now();
          return jobs.renew(job.id, token, now + this.opts.leaseMs, now);
        },
        complete: async ({ job, token }) => void (await jobs.complete(job.id, token, Date.now())),
        retryDelayMs: (job) => this.retryDelayMs(job),
        retry: async ({ job, token }, err) => {
          const now = Date.now();
          await jobs.retry(job.id, token, now + this.retryDelayMs(job), errorMessage(err), now);
        },
        // Only the holder of the claim records the final failure and runs its consequences.
        fail: ({ job, token }, err) => jobs.fail(job.id, token, errorMessage(err), Date.now()),
        release: async ({ job, token }) => void (await jobs.release(job.id, token, Date.now())),
        beforePoll: async () => {
          if (Date.now() - this.lastPurge <= PURGE_EVERY_MS) return;
          this.lastPurge = Date.now();
          const purged = await jobs.purgeCompleted(Date.now() - KEEP_COMPLETED_MS);
          if (purged) logger?.debug({ purged }, 'job queue: removed old completed jobs');
        },
      },
      this.opts,
      'job queue',
      logger,
    );
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
    this.runner.wakeAfterEnqueue(repos !== undefined);
    return id;
  }

  wake(): void {
    this.runner.wake();
  }

  work<P>(queue: string, handler: JobHandler<P>, opts: { concurrency?: number } = {}): void {
    this.worked.add(queue);
    this.runner.add(queue, handler, opts);
    this.runner.wake();
  }

  async stats(): Promise<QueueStats[]> {
    const now = Date.now();
    return statsOfQueues(this.worked, await this.store.jobs.stats(now), now);
  }

  private retryDelayMs(job: Job): number {
    return this.opts.retryBaseMs * 2 ** (job.attempt - 1);
  }

  /** Claims the oldest due job of `queue` of the next workspace in turn (rounds.ts); a lost race moves on to the next candidate. */
  private async claimOne(queue: string, isRunning: (jobId: string) => boolean): Promise<Claim | null> {
    const claimed = await this.rounds.take(queue, async (exceptWorkspaces) => {
      const now = Date.now();
      const candidates = await this.store.jobs.candidates([queue], now, 10, exceptWorkspaces);
      for (const c of candidates) {
        if (isRunning(c.id)) continue;
        const token = this.tokens.next();
        if (await this.store.jobs.claim(c, token, now, now + this.opts.leaseMs)) {
          // The claim counted this attempt; one beyond maxAttempts is failed by the runner without running.
          const job: Job = { id: c.id, queue: c.queue, workspaceId: c.workspaceId, payload: c.payload, attempt: c.attempts + 1, maxAttempts: c.maxAttempts };
          return { job, token, workspaceId: c.workspaceId };
        }
      }
      return null;
    });
    return claimed && { job: claimed.job, token: claimed.token };
  }

  /**
   * At start-up: jobs still held by an earlier process on this host that is gone (its pid is not
   * alive, or it is this pid from an earlier life, as in a restarted container) are claimable at once
   * instead of after their lease. Returns how many. Processes on other hosts wait for the lease.
   */
  async recoverLocal(queues: string[]): Promise<number> {
    let n = 0;
    for (const { id, lockedBy } of await this.store.jobs.activeLocks(queues)) {
      if (this.tokens.isFromGoneLocalProcess(lockedBy) && (await this.store.jobs.expireLease(id, lockedBy, Date.now()))) n++;
    }
    if (n) this.wake();
    return n;
  }

  livePayloads(queue: string): Promise<unknown[]> {
    return this.store.jobs.livePayloads(queue);
  }

  async stop(deadlineMs = 30_000): Promise<void> {
    await this.runner.stop(deadlineMs);
  }
}
