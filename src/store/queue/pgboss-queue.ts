import { randomUUID } from 'node:crypto';
import { PgBoss, type JobInsert, type JobWithMetadata } from 'pg-boss';
import type { Logger } from 'pino';
import type { Repos, Store } from '../db/index.js';
import { ClaimTokens } from './claim-token.js';
import { moveJobsFromPgBoss10, setAsidePgBoss10 } from './pgboss-upgrade.js';
import type { QueueStats } from '../../runtime/metrics.js';
import { statsOfQueues, type EnqueueOptions, type Job, type JobHandler, type Queue } from './queue.js';
import { DEFAULT_QUEUE_OPTIONS, errorMessage, JobRunner, type Claim, type QueueOptions, type Worker } from './runner.js';
import { WorkspaceRounds } from './rounds.js';

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
  /** Attempts made before the job was moved from pg-boss 10 (pgboss-upgrade.ts); absent otherwise. */
  attemptsBefore?: number;
  /** On a dead letter moved from pg-boss 10: how its job failed. */
  failure?: { message?: string; attempt?: number; timedOut?: boolean };
}

/** What our `fail` stores as a failed attempt's output (a dead letter's `sourceOutput`). */
interface FailureOutput {
  message?: string;
  attempt?: number;
  /** pg-boss's own expiry: `{ value: { message: 'job heartbeat timeout' } }`. */
  value?: { message?: string };
}

/** A fetched job: the pg-boss queue that holds it and the attempt pg-boss fences its settles to. */
interface BossClaim extends Claim {
  name: string;
  attempt: { id: string; retryCount: number };
}

/** pg-boss's answer to complete/fail/touch (typed as an empty CommandResponse). */
const affected = (response: unknown) => Number((response as { affected?: number } | undefined)?.affected ?? 0);

/**
 * pg-boss queue names are `\w{1,50}` not starting with a digit: ours are encoded one-to-one
 * (every character but a letter or digit becomes `_xx`, its hex code), so `t-a` and `t_a` differ.
 */
export function bossQueueName(queue: string): string {
  const name = `q_${queue.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}`;
  if (name.length > 44) throw new Error(`queue name too long for pg-boss: ${queue}`);
  return name;
}

/** The queue a pg-boss queue name encodes (bossQueueName's inverse); null for a dead-letter queue or a name not ours. */
export function queueOfBossName(name: string): string | null {
  if (!name.startsWith('q_') || name.endsWith(DEAD_SUFFIX)) return null;
  return name.slice(2).replace(/_([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const DEAD_SUFFIX = '__dead';
const deadLetterName = (name: string) => `${name}${DEAD_SUFFIX}`;

/** pg-boss refuses an expiry beyond a day: a job still running after that is failed (its attempt spent). */
const MAX_RUN_SECONDS = 24 * 3600;
/** Queued jobs wait for a worker however long it takes (pg-boss deletes jobs queued longer). */
const QUEUED_FOR_SECONDS = 10 * 365 * 24 * 3600;
/** Finished jobs are deleted after a week, as the table queue's are. */
const KEEP_FINISHED_SECONDS = 7 * 24 * 3600;
/** pg-boss's smallest heartbeat interval. */
const MIN_HEARTBEAT_SECONDS = 10;

/**
 * The durable queue on PostgreSQL: pg-boss 12 (its own schema, created or migrated by pg-boss on
 * start; a schema of pg-boss 10 is upgraded by pgboss-upgrade.ts), through its public API. Jobs are
 * sent with pg-boss's `db` option through the caller's transaction (`Repos.raw`), so a job exists
 * iff the transaction that created it committed. Retries are pg-boss's (`retryLimit` = max attempts
 * - 1, `retryDelay` in whole seconds, `retryBackoff`); a job that failed for good (its handler threw
 * on the last attempt, or its process died during it and pg-boss expired it) is copied by pg-boss to
 * a dead-letter queue, whose worker runs `onFinalFailure` exactly once per job.
 *
 * The lease is pg-boss's heartbeat (`heartbeatSeconds`, at least 10 s): `touch` renews it while the
 * handler runs, and pg-boss's supervisor fails (retries) a job whose heartbeat stopped. `fetch`,
 * `touch`, `complete` and `fail` are given the fetched attempt (`{ id, retryCount }`), which pg-boss
 * fences them to: a worker whose lease lapsed and whose job was fetched again records nothing.
 *
 * Jobs are fetched with `boss.fetch` (not `boss.work`, which fails a job when the process stops and
 * hands out batches that settle together) so that each job is completed or failed on its own, at
 * most `concurrency` run at once, `wake()` fetches at once, and `stop()` hands a running job back
 * without spending its attempt. Workspaces take turns (rounds.ts) through pg-boss's groups: a job's
 * group is its workspace, and a fetch leaves out the workspaces served this round (`ignoreGroups`). pg-boss does not record which process fetched a job, so a claim row
 * (`{schema}_claims`, Quire's, written in the fetching transaction) says which one holds it, for
 * `recoverLocal`. Raw SQL against pg-boss's own tables is left in two places, each saying why:
 * `release` (stop) and `livePayloads`.
 */
export class PgBossQueue implements Queue {
  private readonly opts: QueueOptions;
  private readonly boss: PgBoss;
  private readonly schema: string;
  private readonly claims: string;
  private readonly tokens = new ClaimTokens();
  private readonly runner: JobRunner<BossClaim>;
  private readonly created = new Map<string, Promise<void>>();
  private starting: Promise<void> | undefined;
  private bossStarted = false;
  private readonly worked = new Set<string>();
  private readonly rounds = new WorkspaceRounds();

  constructor(
    private readonly store: Store,
    opts: Partial<QueueOptions> & Connection,
    private readonly logger?: Logger,
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts };
    this.schema = opts.schema ?? 'pgboss';
    if (!/^[a-z_][a-z0-9_]*$/.test(this.schema)) throw new Error(`invalid pg-boss schema name: ${this.schema}`);
    this.claims = `${this.schema}_claims`;
    // The supervisor fails jobs whose heartbeat stopped (their process died): look three times a lease,
    // so a dead worker's job is retried at most a third of a lease (plus the retry delay) after it expired.
    const superviseSeconds = Math.max(1, Math.min(60, Math.floor(this.heartbeatSeconds() / 3)));
    this.boss = new PgBoss({
      connectionString: opts.connectionString,
      schema: this.schema,
      max: 4,
      application_name: 'quire-pgboss',
      supervise: true,
      superviseIntervalSeconds: superviseSeconds,
      monitorIntervalSeconds: superviseSeconds,
      schedule: false,
    });
    this.boss.on('error', (err) => this.logger?.error({ err }, 'job queue (pg-boss): error'));
    this.runner = new JobRunner<BossClaim>(
      {
        // One job per fetch: each is taken in its workspace's turn (rounds.ts).
        claimBatch: 1,
        claim: async (queue) => {
          const claimed = await this.rounds.take(queue, (exceptWorkspaces) => this.claim(queue, exceptWorkspaces));
          return claimed ? [claimed] : [];
        },
        renew: async ({ name, attempt }) => affected(await this.boss.touch(name, attempt)) > 0,
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
      // The runner renews every third of this.
      { ...this.opts, leaseMs: this.heartbeatSeconds() * 1000 },
      'job queue (pg-boss)',
      logger,
    );
  }

  private heartbeatSeconds(): number {
    return Math.max(MIN_HEARTBEAT_SECONDS, Math.ceil(this.opts.leaseMs / 1000));
  }

  private retryDelaySeconds(): number {
    return Math.max(1, Math.ceil(this.opts.retryBaseMs / 1000));
  }

  /** pg-boss is started (its schema exists) and answers. */
  async ping(): Promise<void> {
    await this.ready();
    if ((await this.boss.schemaVersion()) === null) throw new Error('pg-boss schema missing');
  }

  /** Starts pg-boss once: a pg-boss 10 schema is set aside first, and its jobs moved after. */
  private ready(): Promise<void> {
    this.starting ??= (async () => {
      await setAsidePgBoss10(this.store, this.schema, this.logger);
      await this.boss.start();
      this.bossStarted = true;
      await this.createClaimsTable();
      await moveJobsFromPgBoss10(this.store, this.boss, this.schema, {
        ensureBossQueue: (name) => this.ensureBossQueue(name.endsWith(DEAD_SUFFIX) ? name.slice(0, -DEAD_SUFFIX.length) : name),
        jobOptions: (name) => (name.endsWith(DEAD_SUFFIX) ? this.deadLetterOptions() : this.jobOptions(name)),
        deadLetterOf: (name) => (name.endsWith(DEAD_SUFFIX) ? null : deadLetterName(name)),
      }, this.logger);
    })();
    // A failed start (the database unreachable a moment) is tried again by the next call.
    this.starting.catch(() => (this.starting = undefined));
    return this.starting;
  }

  /** Quire's own table of who holds which job (pg-boss has no column for it); one process creates it. */
  private async createClaimsTable(): Promise<void> {
    await this.store.tx(async (s) => {
      await s.raw.executeSql('SELECT pg_advisory_xact_lock($1::int, $2::int)', [72731, 11]);
      await s.raw.executeSql(
        `CREATE TABLE IF NOT EXISTS ${this.claims} (
           job_id uuid PRIMARY KEY,
           name text NOT NULL,
           retry_count int NOT NULL,
           holder text NOT NULL,
           claimed_at timestamptz NOT NULL DEFAULT now()
         )`,
        [],
      );
    });
  }

  /** The options every job of the queue `name` is sent with. */
  private jobOptions(name: string): Omit<JobInsert, 'id' | 'data' | 'startAfter' | 'retryLimit'> {
    return {
      retryDelay: this.retryDelaySeconds(),
      retryBackoff: true,
      heartbeatSeconds: this.heartbeatSeconds(),
      expireInSeconds: MAX_RUN_SECONDS,
      deadLetter: deadLetterName(name),
    };
  }

  /** Dead letters run `onFinalFailure` (short, not renewed): expired after a lease, retried with back-off. */
  private deadLetterOptions(): Omit<JobInsert, 'id' | 'data' | 'startAfter' | 'retryLimit'> {
    return { retryDelay: this.retryDelaySeconds(), retryBackoff: true, expireInSeconds: this.heartbeatSeconds() };
  }

  /** Starts pg-boss, then creates the queue and its dead-letter queue once per process. */
  private async ensureQueue(queue: string): Promise<void> {
    const name = bossQueueName(queue);
    await this.ready();
    await this.ensureBossQueue(name);
  }

  /** Once pg-boss runs: creates the pg-boss queue `name` and its dead-letter queue once per process (pg-boss's createQueue is idempotent and locked). */
  private ensureBossQueue(name: string): Promise<void> {
    let p = this.created.get(name);
    if (!p) {
      const deadLetter = deadLetterName(name);
      p = (async () => {
        const common = { retentionSeconds: QUEUED_FOR_SECONDS, deleteAfterSeconds: KEEP_FINISHED_SECONDS };
        await this.boss.createQueue(deadLetter, { ...common, ...this.deadLetterOptions() });
        await this.boss.createQueue(name, { ...common, ...this.jobOptions(name), retryLimit: this.opts.maxAttempts - 1 });
      })();
      p.catch(() => this.created.delete(name));
      this.created.set(name, p);
    }
    return p;
  }

  async enqueue(queue: string, payload: unknown, opts: EnqueueOptions, repos?: Repos): Promise<string> {
    await this.ensureQueue(queue);
    const jobId = randomUUID();
    const data: JobData = { jobId, workspaceId: opts.workspaceId, payload };
    const maxAttempts = Math.max(1, opts.maxAttempts ?? this.opts.maxAttempts);
    const name = bossQueueName(queue);
    const sent = await this.boss.send(name, data as object, {
      id: jobId,
      ...this.jobOptions(name),
      // Fetches take workspaces in turn by leaving out those served this round (claim).
      ...(opts.workspaceId ? { group: { id: opts.workspaceId } } : {}),
      retryLimit: maxAttempts - 1,
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
    bossQueueName(queue); // throws at once on a name pg-boss cannot take
    this.worked.add(queue);
    const created = this.ensureQueue(queue);
    this.runner.add(queue, handler, opts);
    created.then(
      () => this.runner.wake(),
      (err) => {
        this.logger?.error({ err, queue }, 'job queue (pg-boss): could not create the queue');
        this.runner.schedule(this.opts.pollMs);
      },
    );
  }

  /**
   * Fetches the oldest due job of a workspace not in `exceptWorkspaces` (pg-boss's `ignoreGroups`: jobs
   * are sent with their workspace as their `group`) and records this process as its holder, in one
   * transaction. A job sent before groups were set (no group) is never left out.
   */
  private async claim(queue: string, exceptWorkspaces: string[]): Promise<(BossClaim & { workspaceId: string }) | null> {
    await this.ensureQueue(queue);
    const name = bossQueueName(queue);
    const token = this.tokens.next();
    return this.store.tx(async (s) => {
      const [j] = await this.boss.fetch<JobData>(name, { batchSize: 1, includeMetadata: true, db: s.raw, ...(exceptWorkspaces.length ? { ignoreGroups: exceptWorkspaces } : {}) });
      if (!j) return null;
      await s.raw.executeSql(
        `INSERT INTO ${this.claims} (job_id, name, retry_count, holder) VALUES ($1, $2, $3, $4)
           ON CONFLICT (job_id) DO UPDATE SET name = excluded.name, retry_count = excluded.retry_count, holder = excluded.holder, claimed_at = now()`,
        [j.id, name, j.retryCount, token],
      );
      const job = this.toJob(queue, j);
      return { name, token, attempt: { id: j.id, retryCount: j.retryCount }, job, workspaceId: job.workspaceId };
    });
  }

  private toJob(queue: string, j: JobWithMetadata<JobData>): Job {
    const before = j.data.attemptsBefore ?? 0;
    return {
      id: j.data.jobId ?? j.id,
      queue,
      workspaceId: j.data.workspaceId,
      payload: j.data.payload,
      attempt: before + j.retryCount + 1,
      maxAttempts: before + j.retryLimit + 1,
    };
  }

  /** Completes or fails the fetched attempt through pg-boss (which records nothing once the attempt lapsed). */
  private async settle({ name, job, attempt }: BossClaim, how: 'complete' | 'fail', err?: unknown): Promise<boolean> {
    return this.store.tx(async (s) => {
      const response =
        how === 'complete'
          ? await this.boss.complete(name, attempt, {}, { db: s.raw })
          : await this.boss.fail(name, attempt, { message: errorMessage(err), attempt: job.attempt } satisfies FailureOutput, { db: s.raw });
      await this.dropClaim(s.raw, attempt);
      if (affected(response) === 0) {
        this.logger?.warn({ job: job.id }, 'job queue: the job is no longer held by this worker; its outcome is not recorded');
        return false;
      }
      return true;
    });
  }

  private async dropClaim(db: Repos['raw'], attempt: BossClaim['attempt']): Promise<void> {
    await db.executeSql(`DELETE FROM ${this.claims} WHERE job_id = $1 AND retry_count = $2`, [attempt.id, attempt.retryCount]);
  }

  /** Runs `onFinalFailure` for the jobs pg-boss moved to the dead-letter queue, each once. */
  private async finalize(w: Worker): Promise<void> {
    const deadLetter = deadLetterName(bossQueueName(w.queue));
    try {
      while (!this.runner.isStopped) {
        const [dead] = await this.boss.fetch<JobData>(deadLetter, { batchSize: 1, includeMetadata: true });
        if (!dead) break;
        const output = (dead.sourceOutput ?? {}) as FailureOutput;
        const moved = dead.data.failure;
        const before = dead.data.attemptsBefore ?? 0;
        const maxAttempts = before + (dead.sourceRetryCount ?? 0) + 1;
        const timedOut = moved ? moved.timedOut === true : !output.message && !!output.value?.message;
        const error = new Error(
          timedOut ? `the process running it stopped during its last attempt (its lease of ${this.heartbeatSeconds()} s expired)` : (moved?.message ?? output.message ?? 'failed'),
        );
        const job: Job = {
          id: dead.data.jobId,
          queue: w.queue,
          workspaceId: dead.data.workspaceId,
          payload: dead.data.payload,
          attempt: moved?.attempt ?? output.attempt ?? maxAttempts,
          maxAttempts: moved ? (moved.attempt ?? before) : maxAttempts,
        };
        const attempt = { id: dead.id, retryCount: dead.retryCount };
        try {
          await w.handler.onFinalFailure?.(job, error);
          await this.boss.complete(deadLetter, attempt);
        } catch (err) {
          this.logger?.error({ err, job: job.id }, 'job queue: onFinalFailure failed; it runs again');
          await this.boss.fail(deadLetter, attempt, { message: errorMessage(err) });
        }
      }
    } catch (err) {
      this.logger?.error({ err }, 'job queue (pg-boss): final-failure handling failed');
    }
  }

  /**
   * At start-up: the attempts still held by an earlier process on this host that is gone are failed
   * now through pg-boss (which retries them after their retry delay, or dead-letters them if that was
   * their last attempt) instead of when their heartbeat runs out. Returns how many. Processes on other
   * hosts wait for the heartbeat.
   */
  async recoverLocal(queues: string[]): Promise<number> {
    await Promise.all(queues.map((q) => this.ensureQueue(q)));
    // Claims outlive no attempt: pg-boss fails any job active for longer than MAX_RUN_SECONDS.
    await this.store.raw.executeSql(`DELETE FROM ${this.claims} WHERE claimed_at < now() - make_interval(secs => $1)`, [MAX_RUN_SECONDS + 3600]);
    const { rows } = await this.store.raw.executeSql(`SELECT job_id, name, retry_count, holder FROM ${this.claims} WHERE name = ANY($1::text[])`, [queues.map(bossQueueName)]);
    let n = 0;
    for (const { job_id: id, name, retry_count: retryCount, holder } of rows as { job_id: string; name: string; retry_count: number; holder: string }[]) {
      if (!this.tokens.isFromGoneLocalProcess(holder)) continue;
      const attempt = { id, retryCount };
      const response = await this.boss.fail(name, attempt, { message: 'the process running it stopped (recovered at start-up)' } satisfies FailureOutput);
      await this.dropClaim(this.store.raw, attempt);
      if (affected(response) > 0) n++;
    }
    if (n) this.wake();
    return n;
  }

  /**
   * Jobs not finished (created, retry, active), in the queue or in its dead-letter queue (onFinalFailure pending).
   * Raw SQL, read-only: pg-boss's `findJobs` filters on `queued` (created or retry) only, so it would
   * leave out running jobs or page through a week of finished ones.
   */
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
   * Read-only raw SQL, as livePayloads: pg-boss's getQueueStats counts queued, active and deferred
   * jobs (refreshed by its monitor) but not how long the oldest has waited. Ages use the database's clock.
   */
  async stats(): Promise<QueueStats[]> {
    await this.ready();
    const { rows } = await this.store.raw.executeSql(
      `SELECT name,
              count(*) FILTER (WHERE state < 'active' AND start_after <= now()) AS waiting,
              count(*) FILTER (WHERE state < 'active' AND start_after > now()) AS delayed,
              count(*) FILTER (WHERE state = 'active') AS running,
              extract(epoch FROM now() - min(start_after) FILTER (WHERE state < 'active' AND start_after <= now())) * 1000 AS waited_ms
         FROM ${this.schema}.job WHERE state < 'completed' GROUP BY name`,
      [],
    );
    const now = Date.now();
    const found = [];
    for (const r of rows as { name: string; waiting: string; delayed: string; running: string; waited_ms: string | null }[]) {
      const queue = queueOfBossName(r.name);
      if (queue === null) continue;
      found.push({ queue, waiting: Number(r.waiting), delayed: Number(r.delayed), running: Number(r.running), oldestDueAt: r.waited_ms === null ? null : now - Number(r.waited_ms) });
    }
    return statsOfQueues(this.worked, found, now);
  }

  /**
   * Stops fetching; waits up to `deadlineMs` for running jobs (and dead-letter passes), then aborts
   * those still running and hands their jobs back as they were before this attempt (no attempt is
   * spent), due at once. Then stops pg-boss, once.
   */
  async stop(deadlineMs = 30_000): Promise<void> {
    if (this.runner.isStopped) return;
    await this.runner.stop(deadlineMs);
    await this.starting?.catch(() => undefined);
    // Nothing of ours runs inside pg-boss's own workers: its graceful stop has nothing to wait for.
    if (this.bossStarted) await this.boss.stop({ graceful: true, timeout: Math.max(1000, Math.min(deadlineMs, 5000)) });
  }

  /**
   * Raw SQL: pg-boss's public API has no call that gives a running job back unspent. `fail` spends the
   * attempt and waits the retry delay; `cancel` then `resume` leaves `started_on` set, so the next
   * fetch counts a retry; `restore` (which does this) is internal to pg-boss's manager. So the row is
   * put back as it was before this fetch (pg-boss 12's `fetch` counts `retry_count` up when
   * `started_on` is set), fenced to this attempt like pg-boss's own settles.
   */
  private async release({ name, attempt }: BossClaim): Promise<void> {
    await this.store.tx(async (s) => {
      await s.raw.executeSql(
        `UPDATE ${this.schema}.job SET
           state = (CASE WHEN retry_count = 0 THEN 'created' ELSE 'retry' END)::${this.schema}.job_state,
           started_on = CASE WHEN retry_count = 0 THEN NULL ELSE started_on END,
           retry_count = GREATEST(retry_count - 1, 0),
           heartbeat_on = NULL,
           start_after = now()
         WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3`,
        [name, attempt.id, attempt.retryCount],
      );
      await this.dropClaim(s.raw, attempt);
    });
  }
}
