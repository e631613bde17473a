import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Repos, Store } from '../db/index.js';
import { ClaimTokens } from './claim-token.js';
import type { EnqueueOptions, Job, JobHandler, Queue } from './queue.js';
import { DEFAULT_QUEUE_OPTIONS, errorMessage, JobRunner, type Claim, type QueueOptions, type Worker } from './runner.js';

/** Where pg-boss keeps its jobs. */
interface Connection {
  /** The PostgreSQL database of the store (pg-boss keeps its jobs in its own schema there). */
  connectionString: string;
  /** pg-boss's schema; `pgboss` unless a test wants its own. */
  schema?: string;
}

/** What a pg-boss job of ours carries: the Job fields pg-boss has no column for. */
interface JobData {
  jobId: string;
  workspaceId: string;
  payload: unknown;
}

/** A fetched job, with the pg-boss queue that holds it. */
interface BossClaim extends Claim {
  name: string;
}

/**
 * pg-boss queue names are `\w{1,50}` not starting with a digit: ours are encoded one-to-one
 * (every character but a letter or digit becomes `_xx`, its hex code), so `t-a` and `t_a` differ.
 */
export function bossQueueName(queue: string): string {
  const name = `q_${queue.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}`;
  if (name.length > 44) throw new Error(`queue name too long for pg-boss: ${queue}`);
  return name;
}

const deadLetterName = (name: string) => `${name}__dead`;

/** Quire's advisory-lock namespace (see store/db/cluster-lock.ts); key 10 serialises queue creation. */
const QUEUE_LOCK_NAMESPACE = 72731;
const QUEUE_LOCK_KEY = 10;

/** The options object pg-boss 10's `create_queue(name, options json)` reads (as `boss.createQueue` builds it). */
function queueData(o: PgBoss.Queue): Record<string, unknown> {
  return {
    policy: o.policy ?? 'standard',
    retryLimit: o.retryLimit,
    retryDelay: o.retryDelay,
    retryBackoff: o.retryBackoff,
    expireInSeconds: o.expireInSeconds,
    retentionMinutes: o.retentionMinutes,
    deadLetter: o.deadLetter,
  };
}

/**
 * The durable queue on PostgreSQL: pg-boss 10 (its own schema, created on first use). Jobs are sent
 * with pg-boss's `db` option through the caller's transaction (`Repos.raw`), so a job exists iff the
 * transaction that created it committed. Retries are pg-boss's (`retryLimit` = max attempts - 1,
 * `retryDelay` in whole seconds, `retryBackoff`); a job that failed for good (its handler threw on
 * the last attempt, or its process died during it and pg-boss expired it) is copied by pg-boss to a
 * dead-letter queue, whose worker runs `onFinalFailure` exactly once per job.
 *
 * Jobs are fetched with `boss.fetch` (not `boss.work`, whose handler is failed, not aborted, once
 * `expireInSeconds` pass, and which hands out batches that complete or fail together) so that each
 * job is completed or failed on its own, at most `concurrency` run at once, and `wake()` fetches at
 * once. A fetched job is tagged with a claim token (`host:pid:instance:uuid`, in pg-boss's `output`
 * column, in the fetching transaction); while it runs its lease is renewed (`started_on`, which
 * pg-boss's expiry reads), and its completion or failure is recorded only while that token still
 * holds it. Those three statements are the only SQL here against pg-boss's tables (schema of
 * pg-boss 10, pinned in package.json).
 */
export class PgBossQueue implements Queue {
  private readonly opts: QueueOptions;
  private readonly boss: PgBoss;
  private readonly schema: string;
  private readonly tokens = new ClaimTokens();
  private readonly runner: JobRunner<BossClaim>;
  private readonly created = new Map<string, Promise<void>>();
  private starting: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    opts: Partial<QueueOptions> & Connection,
    private readonly logger?: Logger,
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts };
    this.schema = opts.schema ?? 'pgboss';
    if (!/^[a-z_][a-z0-9_]*$/.test(this.schema)) throw new Error(`invalid pg-boss schema name: ${this.schema}`);
    const leaseSeconds = this.leaseSeconds();
    this.boss = new PgBoss({
      connectionString: opts.connectionString,
      schema: this.schema,
      max: 4,
      application_name: 'quire-pgboss',
      // Maintenance expires jobs whose lease ran out (their process died): look at least twice a lease.
      supervise: true,
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(leaseSeconds / 2))),
      schedule: false,
      // Queued jobs wait for a worker however long it takes; finished ones are archived after a day,
      // and archived ones deleted after 7 days.
      retentionDays: 3650,
      archiveCompletedAfterSeconds: 24 * 3600,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (err) => this.logger?.error({ err }, 'job queue (pg-boss): error'));
    this.runner = new JobRunner<BossClaim>(
      {
        claimBatch: Infinity,
        claim: (queue, n) => this.claim(queue, n),
        renew: async ({ name, job, token }) => {
          const { rows } = await this.store.raw.executeSql(
            `UPDATE ${this.schema}.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lockedBy' = $3 RETURNING 1`,
            [name, job.id, token],
          );
          return rows.length > 0;
        },
        complete: async (claim) => void (await this.settle(claim, 'complete')),
        // pg-boss schedules the retry: its own back-off, with jitter, from `retryDelay`.
        retry: async (claim, err) => void (await this.settle(claim, 'fail', err)),
        // pg-boss moves the job to the dead-letter queue, whose pass runs onFinalFailure.
        fail: async (claim, err) => {
          await this.settle(claim, 'fail', err);
          return false;
        },
        release: (claim) => this.release(claim),
        sweep: (worker) => this.finalize(worker),
      },
      this.opts,
      'job queue (pg-boss)',
      logger,
    );
  }

  private leaseSeconds(): number {
    return Math.max(1, Math.ceil(this.opts.leaseMs / 1000));
  }

  private retryDelaySeconds(): number {
    return Math.max(1, Math.ceil(this.opts.retryBaseMs / 1000));
  }

  /** pg-boss is started (its schema exists) and its job table answers. */
  async ping(): Promise<void> {
    await this.ready();
    await this.boss.getDb().executeSql(`SELECT 1 FROM ${this.schema}.job LIMIT 1`, []);
  }

  private ready(): Promise<void> {
    this.starting ??= this.boss.start().then(() => undefined);
    return this.starting;
  }

  /** Creates the queue and its dead-letter queue once per process (idempotent across processes). */
  private ensureQueue(queue: string): Promise<void> {
    let p = this.created.get(queue);
    if (!p) {
      const name = bossQueueName(queue);
      const deadLetter = deadLetterName(name);
      p = (async () => {
        await this.ready();
        await this.createQueue(deadLetter, { name: deadLetter });
        await this.createQueue(name, {
          name,
          deadLetter,
          retryLimit: this.opts.maxAttempts - 1,
          retryDelay: this.retryDelaySeconds(),
          retryBackoff: true,
          expireInSeconds: this.leaseSeconds(),
        });
      })();
      p.catch(() => this.created.delete(queue));
      this.created.set(queue, p);
    }
    return p;
  }

  /**
   * `boss.createQueue` is idempotent but not safe against itself: two processes creating queues at
   * once (APIs and workers starting together on a fresh database) deadlock (each inserts its queue
   * row, then adds a foreign key to the queue table, which waits for the other's insert). So queues
   * are created one at a time across the cluster: under an advisory lock held by the transaction
   * that calls pg-boss's `create_queue`. A failure that still slips through leaves nothing behind,
   * so it is retried.
   */
  private async createQueue(name: string, options: PgBoss.Queue): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(name)) return;
      try {
        await this.store.tx(async (s) => {
          await s.raw.executeSql('SELECT pg_advisory_xact_lock($1::int, $2::int)', [QUEUE_LOCK_NAMESPACE, QUEUE_LOCK_KEY]);
          await s.raw.executeSql(`SELECT ${this.schema}.create_queue($1, $2::json)`, [name, JSON.stringify(queueData(options))]);
        });
        return;
      } catch (err) {
        const code = (err as { code?: string }).code;
        // 40P01 deadlock, 40001 serialization failure, 23505 unique violation, 42P07 table exists.
        if (attempt >= 8 || !['40P01', '40001', '23505', '42P07'].includes(code ?? '')) throw err;
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 100 * attempt));
      }
    }
  }

  async enqueue(queue: string, payload: unknown, opts: EnqueueOptions, repos?: Repos): Promise<string> {
    await this.ensureQueue(queue);
    const jobId = randomUUID();
    const data: JobData = { jobId, workspaceId: opts.workspaceId, payload };
    const maxAttempts = Math.max(1, opts.maxAttempts ?? this.opts.maxAttempts);
    const name = bossQueueName(queue);
    const sent = await this.boss.send(name, data as object, {
      id: jobId,
      retryLimit: maxAttempts - 1,
      retryDelay: this.retryDelaySeconds(),
      retryBackoff: true,
      expireInSeconds: this.leaseSeconds(),
      deadLetter: deadLetterName(name),
      ...(opts.runAt !== undefined ? { startAfter: new Date(opts.runAt) } : {}),
      ...(repos ? { db: repos.raw } : {}),
    });
    if (sent !== jobId) throw new Error(`pg-boss did not create job ${jobId} (${String(sent)})`);
    this.runner.wakeAfterEnqueue(repos !== undefined);
    return jobId;
  }

  wake(): void {
    this.runner.wake();
  }

  work<P>(queue: string, handler: JobHandler<P>, opts: { concurrency?: number } = {}): void {
    const created = this.ensureQueue(queue); // throws at once on a name pg-boss cannot take
    this.runner.add(queue, handler, opts);
    created.then(
      () => this.runner.wake(),
      (err) => {
        this.logger?.error({ err, queue }, 'job queue (pg-boss): could not create the queue');
        this.runner.schedule(this.opts.pollMs);
      },
    );
  }

  /** Fetches up to `n` due jobs and tags them with a claim token, in one transaction. */
  private async claim(queue: string, n: number): Promise<BossClaim[]> {
    await this.ensureQueue(queue);
    const name = bossQueueName(queue);
    const token = this.tokens.next();
    return this.store.tx(async (s) => {
      const jobs = await this.boss.fetch<JobData>(name, { batchSize: n, includeMetadata: true, db: s.raw });
      if (jobs.length === 0) return [];
      await s.raw.executeSql(
        `UPDATE ${this.schema}.job SET output = jsonb_build_object('lockedBy', $3::text) WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
        [name, jobs.map((j) => j.id), token],
      );
      return jobs.map((j) => ({
        name,
        token,
        job: {
          id: j.data.jobId ?? j.id,
          queue,
          workspaceId: j.data.workspaceId,
          payload: j.data.payload,
          attempt: j.retryCount + 1,
          maxAttempts: j.retryLimit + 1,
        },
      }));
    });
  }

  /** Completes or fails the job through pg-boss, only while its claim token still holds it. */
  private async settle({ name, job, token }: BossClaim, how: 'complete' | 'fail', err?: unknown): Promise<boolean> {
    return this.store.tx(async (s) => {
      const { rows } = await s.raw.executeSql(
        `SELECT 1 FROM ${this.schema}.job WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lockedBy' = $3 FOR UPDATE`,
        [name, job.id, token],
      );
      if (rows.length === 0) {
        this.logger?.warn({ job: job.id }, 'job queue: the job is no longer held by this worker; its outcome is not recorded');
        return false;
      }
      if (how === 'complete') await this.boss.complete(name, job.id, {}, { db: s.raw });
      else await this.boss.fail(name, job.id, { message: errorMessage(err), attempt: job.attempt }, { db: s.raw });
      return true;
    });
  }

  /** Runs `onFinalFailure` for the jobs pg-boss moved to the dead-letter queue, each once. */
  private async finalize(w: Worker): Promise<void> {
    const deadLetter = deadLetterName(bossQueueName(w.queue));
    try {
      while (!this.runner.isStopped) {
        const [dead] = await this.boss.fetch<JobData>(deadLetter, { batchSize: 1, includeMetadata: true });
        if (!dead) break;
        const output = (dead.output ?? {}) as { message?: string; attempt?: number; value?: { message?: string } };
        const maxAttempts = dead.retryLimit + 1;
        const timedOut = !output.message && output.value?.message;
        const error = new Error(
          timedOut ? `the process running it stopped during its last attempt (its lease of ${this.leaseSeconds()} s expired)` : (output.message ?? 'failed'),
        );
        const job: Job = {
          id: dead.data.jobId,
          queue: w.queue,
          workspaceId: dead.data.workspaceId,
          payload: dead.data.payload,
          attempt: output.attempt ?? maxAttempts,
          maxAttempts,
        };
        try {
          await w.handler.onFinalFailure?.(job, error);
          await this.boss.complete(deadLetter, dead.id);
        } catch (err) {
          this.logger?.error({ err, job: job.id }, 'job queue: onFinalFailure failed; it runs again');
          await this.boss.fail(deadLetter, dead.id, { message: errorMessage(err) });
        }
      }
    } catch (err) {
      this.logger?.error({ err }, 'job queue (pg-boss): final-failure handling failed');
    }
  }

  /**
   * At start-up: jobs still held by an earlier process on this host that is gone are expired now
   * (pg-boss then retries them at once, or fails them if that was their last attempt) instead of
   * when their lease runs out. Returns how many. Processes on other hosts wait for the lease.
   */
  async recoverLocal(queues: string[]): Promise<number> {
    await Promise.all(queues.map((q) => this.ensureQueue(q)));
    const names = queues.map(bossQueueName);
    const { rows } = await this.store.raw.executeSql(
      `SELECT name, id, output->>'lockedBy' AS locked_by FROM ${this.schema}.job WHERE name = ANY($1::text[]) AND state = 'active' AND output ? 'lockedBy'`,
      [names],
    );
    const expired: string[] = [];
    for (const { name, id, locked_by: lockedBy } of rows as { name: string; id: string; locked_by: string }[]) {
      if (!this.tokens.isFromGoneLocalProcess(lockedBy)) continue;
      const { rows: hit } = await this.store.raw.executeSql(
        `UPDATE ${this.schema}.job SET started_on = now() - expire_in - interval '1 second' WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lockedBy' = $3 RETURNING id`,
        [name, id, lockedBy],
      );
      if (hit.length) expired.push(id);
    }
    if (expired.length === 0) return 0;
    await this.boss.expire();
    await this.store.raw.executeSql(
      `UPDATE ${this.schema}.job SET start_after = now() WHERE name = ANY($1::text[]) AND id = ANY($2::uuid[]) AND state = 'retry'`,
      [names, expired],
    );
    this.wake();
    return expired.length;
  }

  /** Jobs not finished (created, retry, active), in the queue or in its dead-letter queue (onFinalFailure pending). */
  async livePayloads(queue: string): Promise<unknown[]> {
    await this.ensureQueue(queue);
    const name = bossQueueName(queue);
    const { rows } = await this.store.raw.executeSql(
      `SELECT data->'payload' AS payload FROM ${this.schema}.job WHERE name = ANY($1::text[]) AND state < 'completed'`,
      [[name, deadLetterName(name)]],
    );
    return rows.map((r: { payload: unknown }) => r.payload);
  }

  /**
   * Stops fetching; waits up to `deadlineMs` for running jobs (and dead-letter passes), then aborts
   * those still running and hands their jobs back as they were before this attempt (no attempt is
   * spent), due at once. Then stops pg-boss, once.
   */
  async stop(deadlineMs = 30_000): Promise<void> {
    if (this.runner.isStopped) return;
    await this.runner.stop(deadlineMs);
    if (this.starting) {
      await this.starting.catch(() => undefined);
      // Nothing of ours runs inside pg-boss's own workers: its graceful stop has nothing to wait for.
      await this.boss.stop({ graceful: true, timeout: Math.max(1000, Math.min(deadlineMs, 5000)), wait: true });
    }
  }

  private async release({ name, job, token }: BossClaim): Promise<void> {
    await this.store.raw.executeSql(
      `UPDATE ${this.schema}.job SET
         state = (CASE WHEN retry_count = 0 THEN 'created' ELSE 'retry' END)::${this.schema}.job_state,
         started_on = CASE WHEN retry_count = 0 THEN NULL ELSE started_on END,
         retry_count = GREATEST(retry_count - 1, 0),
         start_after = now(),
         output = NULL
       WHERE name = $1 AND id = $2 AND state = 'active' AND output->>'lockedBy' = $3`,
      [name, job.id, token],
    );
  }
}
