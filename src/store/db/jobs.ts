import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobsTable } from './schema.js';

export type JobState = 'queued' | 'active' | 'completed' | 'failed';

export interface JobRow {
  id: string;
  queue: string;
  workspaceId: string;
  payload: unknown;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  leaseUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
}

function toJob(r: Selectable<JobsTable>): JobRow {
  return {
    id: r.id,
    queue: r.queue,
    workspaceId: r.workspace_id,
    payload: JSON.parse(r.payload),
    state: r.state as JobState,
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    runAt: Number(r.run_at),
    leaseUntil: r.lease_until === null ? null : Number(r.lease_until),
    lockedBy: r.locked_by,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

/**
 * The jobs table of the table-backed queue. Every state change is a conditional UPDATE that names the
 * state it expects (and, for a held job, the claim token in `locked_by`), so two processes can never
 * both move one job: the loser's UPDATE matches 0 rows.
 */
export class JobsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(j: { id: string; queue: string; workspaceId: string; payload: unknown; maxAttempts: number; runAt: number; now: number }): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({
        id: j.id,
        queue: j.queue,
        workspace_id: j.workspaceId,
        payload: JSON.stringify(j.payload),
        state: 'queued',
        attempts: 0,
        max_attempts: j.maxAttempts,
        run_at: j.runAt,
        created_at: j.now,
        updated_at: j.now,
      })
      .execute();
  }

  async get(id: string): Promise<JobRow | undefined> {
    const r = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toJob(r);
  }

  /**
   * Up to `limit` claimable jobs of the queues, oldest due first: due queued ones, or active ones whose
   * lease expired; none of the workspaces `exceptWorkspaces` (those served this round, queue/rounds.ts).
   */
  async candidates(queues: string[], now: number, limit: number, exceptWorkspaces: string[] = []): Promise<JobRow[]> {
    let query = this.db.selectFrom('jobs').selectAll().where('queue', 'in', queues);
    if (exceptWorkspaces.length) query = query.where('workspace_id', 'not in', exceptWorkspaces);
    const rows = await query
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('state', '=', 'active'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toJob);
  }

  /**
   * Claims one candidate: succeeds only if the job is still in the state the candidate was read in
   * (same attempts, still due or still expired). True when this caller now holds it.
   */
  async claim(c: JobRow, token: string, now: number, leaseUntil: number): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ state: 'active', attempts: sql`attempts + 1`, lease_until: leaseUntil, locked_by: token, updated_at: now })
      .where('id', '=', c.id)
      .where('attempts', '=', c.attempts)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('state', '=', 'active'), eb('lease_until', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  private held(id: string, token: string) {
    return this.db.updateTable('jobs').where('id', '=', id).where('state', '=', 'active').where('locked_by', '=', token);
  }

  async renew(id: string, token: string, leaseUntil: number, now: number): Promise<boolean> {
    const r = await this.held(id, token).set({ lease_until: leaseUntil, updated_at: now }).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async complete(id: string, token: string, now: number): Promise<boolean> {
    const r = await this.held(id, token)
      .set({ state: 'completed', lease_until: null, locked_by: null, updated_at: now, completed_at: now })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Back to the queue, due at `runAt` (a retry after a failure). */
  async retry(id: string, token: string, runAt: number, error: string, now: number): Promise<boolean> {
    const r = await this.held(id, token)
      .set({ state: 'queued', run_at: runAt, lease_until: null, locked_by: null, last_error: error, updated_at: now })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async fail(id: string, token: string, error: string, now: number): Promise<boolean> {
    const r = await this.held(id, token)
      .set({ state: 'failed', lease_until: null, locked_by: null, last_error: error, updated_at: now, completed_at: now })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Payloads of the queued and active jobs of a queue. */
  async livePayloads(queue: string): Promise<unknown[]> {
    const rows = await this.db.selectFrom('jobs').select('payload').where('queue', '=', queue).where('state', 'in', ['queued', 'active']).execute();
    return rows.map((r) => JSON.parse(r.payload) as unknown);
  }

  /** Per queue with live jobs: how many are due, not due yet, and held, and when the longest-waiting due one came due (read-only, for metrics). */
  async stats(now: number): Promise<{ queue: string; waiting: number; delayed: number; running: number; oldestDueAt: number | null }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select([
        'queue',
        sql<string | number>`sum(case when state = 'queued' and run_at <= ${now} then 1 else 0 end)`.as('waiting'),
        sql<string | number>`sum(case when state = 'queued' and run_at > ${now} then 1 else 0 end)`.as('delayed'),
        sql<string | number>`sum(case when state = 'active' then 1 else 0 end)`.as('running'),
        sql<string | number | null>`min(case when state = 'queued' and run_at <= ${now} then run_at end)`.as('oldest_due_at'),
      ])
      .where('state', 'in', ['queued', 'active'])
      .groupBy('queue')
      .execute();
    return rows.map((r) => ({
      queue: r.queue,
      waiting: Number(r.waiting),
      delayed: Number(r.delayed),
      running: Number(r.running),
      oldestDueAt: r.oldest_due_at === null ? null : Number(r.oldest_due_at),
    }));
  }

  /** Active jobs and their claim tokens (to find those held by processes known to be dead). */
  async activeLocks(queues: string[]): Promise<{ id: string; lockedBy: string }[]> {
    const rows = await this.db.selectFrom('jobs').select(['id', 'locked_by']).where('queue', 'in', queues).where('state', '=', 'active').execute();
    return rows.filter((r) => r.locked_by !== null).map((r) => ({ id: r.id, lockedBy: r.locked_by! }));
  }

  /** Ends the lease of a job still held with `token` now: the next poll claims it again. */
  async expireLease(id: string, token: string, now: number): Promise<boolean> {
    const r = await this.held(id, token).set({ lease_until: 0, updated_at: now }).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Deletes completed jobs finished before `before`; failed ones stay for inspection. */
  async purgeCompleted(before: number): Promise<number> {
    const r = await this.db.deleteFrom('jobs').where('state', '=', 'completed').where('completed_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Gives a held job back untouched (a graceful stop): due now, and this attempt does not count. */
  async release(id: string, token: string, now: number): Promise<boolean> {
    const r = await this.held(id, token)
      .set({ state: 'queued', run_at: now, attempts: sql`attempts - 1`, lease_until: null, locked_by: null, updated_at: now })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
