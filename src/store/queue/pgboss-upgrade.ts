import type { JobInsert, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Repos, Store } from '../db/index.js';

/** Quire's advisory-lock namespace (see store/db/cluster-lock.ts); key 10 serialises the pg-boss 10 upgrade. */
const LOCK_NAMESPACE = 72731;
const UPGRADE_LOCK_KEY = 10;
/** pg-boss 10's schema version (pg-boss 11 rewrote the schema as version 25, and 12 migrates from 25 on). */
const PGBOSS_10_SCHEMA_VERSION = 24;

/** A pg-boss 10 job of Quire's that had not finished (v10 `job` table, read once at the upgrade). */
interface V10Job {
  id: string;
  name: string;
  priority: number;
  data: Record<string, unknown> | null;
  state: 'created' | 'retry' | 'active';
  retry_limit: number;
  retry_count: number;
  start_after: Date;
  output: { message?: string; attempt?: number; value?: { message?: string } } | null;
}

/** What the queue needs to re-create a job of Quire's under pg-boss 12. */
export interface UpgradeTarget {
  /** Creates the queue `name` (and its dead-letter queue) if missing; `name` may be a dead-letter queue's. */
  ensureBossQueue(name: string): Promise<void>;
  /** The options a job of `name` is sent with today (retries, expiry, heartbeat, dead letter). */
  jobOptions(name: string): Omit<JobInsert, 'id' | 'data' | 'startAfter' | 'retryLimit'>;
  deadLetterOf(name: string): string | null;
}

const retiredSchema = (schema: string) => `${schema}_v10`;

// The catalogs are read with queries (a snapshot per statement), not to_regclass/to_regnamespace,
// whose cache may not have seen yet the rename another process just committed.
const HAS_VERSION_TABLE = `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'version') AS present`;
const HAS_SCHEMA = 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1) AS present';

async function schemaVersion(db: Repos['raw'], schema: string): Promise<number | null> {
  const { rows } = await db.executeSql(HAS_VERSION_TABLE, [schema]);
  if (rows[0]?.present !== true) return null;
  const { rows: v } = await db.executeSql(`SELECT max(version)::int AS version FROM ${schema}.version`, []);
  return v[0]?.version ?? null;
}

/**
 * Step 1 of the upgrade from pg-boss 10, before pg-boss 12 starts. pg-boss 12's migrator only starts
 * from pg-boss 11's schema (version 25, a rewrite that pg-boss 11 itself does not migrate into: its
 * release notes say to move jobs by hand), so a schema pg-boss 10 made is set aside under
 * `{schema}_v10`, where pg-boss 12 then installs a fresh schema in its place. One process does it
 * (advisory lock); the others find the schema gone or new.
 */
export async function setAsidePgBoss10(store: Store, schema: string, logger?: Logger): Promise<void> {
  const found = await schemaVersion(store.raw, schema);
  if (found === null || found > PGBOSS_10_SCHEMA_VERSION) return;
  await store.tx(async (s) => {
    await s.raw.executeSql('SELECT pg_advisory_xact_lock($1::int, $2::int)', [LOCK_NAMESPACE, UPGRADE_LOCK_KEY]);
    const version = await schemaVersion(s.raw, schema); // again: another process may have done it meanwhile
    if (version === null || version > PGBOSS_10_SCHEMA_VERSION) return;
    if (version < PGBOSS_10_SCHEMA_VERSION) throw new Error(`the pg-boss schema "${schema}" is at version ${version}, older than pg-boss 10's (${PGBOSS_10_SCHEMA_VERSION}): start Quire's previous release on it first`);
    const { rows: taken } = await s.raw.executeSql(HAS_SCHEMA, [retiredSchema(schema)]);
    if (taken[0]?.present === true) throw new Error(`cannot upgrade the pg-boss 10 schema "${schema}": a schema "${retiredSchema(schema)}" already exists`);
    await s.raw.executeSql(`ALTER SCHEMA ${schema} RENAME TO ${retiredSchema(schema)}`, []);
    logger?.warn({ schema, retired: retiredSchema(schema) }, 'job queue: upgrading from pg-boss 10; its schema is set aside, its unfinished jobs move to pg-boss 12');
  });
}

/**
 * Step 2, once pg-boss 12 runs: the unfinished jobs of the set-aside pg-boss 10 schema (queued,
 * waiting for a retry, running when their process stopped, and dead letters whose onFinalFailure has
 * not run) are inserted through pg-boss 12's `insert` with their ids, payloads, due times and the
 * attempts they have left, and the old schema is dropped, all in one transaction: either every job
 * moved or nothing changed (and the next start tries again). Attempts already made are carried in
 * the job's data (`attemptsBefore`), since a new job's retry count starts at 0. A job that was
 * running its last attempt when its process stopped fails for good, as it would have under pg-boss
 * 10 (its lease expiring): it goes straight to the dead-letter queue. Returns how many jobs moved.
 */
export async function moveJobsFromPgBoss10(store: Store, boss: PgBoss, schema: string, target: UpgradeTarget, logger?: Logger): Promise<number> {
  const old = retiredSchema(schema);
  if ((await store.raw.executeSql(HAS_SCHEMA, [old])).rows[0]?.present !== true) return 0;
  // Queues first, outside the transaction: pg-boss creates them on its own connections. Another process may move
  // the jobs and drop the schema between the check above and this read: then there is nothing left to move.
  let names: unknown[];
  try {
    ({ rows: names } = await store.raw.executeSql(`SELECT DISTINCT name FROM ${old}.job WHERE state < 'completed'`, []));
  } catch (err) {
    if ((err as { code?: string }).code === '42P01' || (err as { code?: string }).code === '3F000') return 0;
    throw err;
  }
  for (const { name } of names as { name: string }[]) await target.ensureBossQueue(name);
  return store.tx(async (s) => {
    await s.raw.executeSql('SELECT pg_advisory_xact_lock($1::int, $2::int)', [LOCK_NAMESPACE, UPGRADE_LOCK_KEY]);
    const { rows: present } = await s.raw.executeSql(HAS_SCHEMA, [old]);
    if (present[0]?.present !== true) return 0; // another process moved them meanwhile
    // The only read of pg-boss 10's tables: its schema is frozen (pg-boss 10 is gone), so it is read once, here.
    const { rows } = await s.raw.executeSql(
      `SELECT id, name, priority, data, state::text AS state, retry_limit, retry_count, start_after, output
         FROM ${old}.job WHERE state < 'completed' ORDER BY created_on, id`,
      [],
    );
    const byQueue = new Map<string, JobInsert[]>();
    // Each job in its workspace's group, as pgboss-queue.ts sends them: workspaces take turns.
    const add = (name: string, job: JobInsert) => {
      const workspaceId = (job.data as { workspaceId?: unknown } | undefined)?.workspaceId;
      const grouped = typeof workspaceId === 'string' && workspaceId ? { ...job, group: { id: workspaceId } } : job;
      byQueue.set(name, [...(byQueue.get(name) ?? []), grouped]);
    };
    for (const j of rows as V10Job[]) {
      const data = j.data ?? {};
      const deadLetter = target.deadLetterOf(j.name);
      if (deadLetter === null) {
        // A dead letter whose onFinalFailure is pending: its failure as pg-boss 10 recorded it.
        const failure = j.output?.message ? { message: j.output.message, attempt: j.output.attempt } : j.output?.value?.message ? { timedOut: true } : undefined;
        add(j.name, { id: j.id, priority: j.priority, data: { ...data, ...(failure ? { failure } : {}) }, ...target.jobOptions(j.name), retryLimit: j.retry_limit, startAfter: j.start_after });
        continue;
      }
      // pg-boss 10 counted retry_count up when it fetched a job in `retry`: a job in `retry` or `active` has made retry_count + 1 attempts.
      const made = j.state === 'created' ? j.retry_count : j.retry_count + 1;
      const left = j.retry_limit + 1 - made;
      const attemptsBefore = ((data as { attemptsBefore?: number }).attemptsBefore ?? 0) + made;
      if (left <= 0) {
        add(deadLetter, { id: j.id, priority: j.priority, data: { ...data, attemptsBefore, failure: { timedOut: true, attempt: attemptsBefore } }, ...target.jobOptions(deadLetter) });
        continue;
      }
      const startAfter = j.state === 'active' ? new Date() : j.start_after;
      add(j.name, { id: j.id, priority: j.priority, data: { ...data, attemptsBefore }, ...target.jobOptions(j.name), retryLimit: left - 1, startAfter });
    }
    for (const [name, jobs] of byQueue) await boss.insert(name, jobs, { db: s.raw });
    await s.raw.executeSql(`DROP SCHEMA ${old} CASCADE`, []);
    logger?.warn({ moved: rows.length, queues: [...byQueue.keys()] }, 'job queue: the unfinished jobs of pg-boss 10 were moved to pg-boss 12; its schema is dropped');
    return rows.length;
  });
}
