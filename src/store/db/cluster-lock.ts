import type { Store } from './index.js';

/**
 * Periodic duties that every API or worker process ticks, but that must run in one of them at a
 * time across the cluster. Each has its own PostgreSQL advisory-lock key in Quire's namespace
 * (72731); key 1 is the webhook fan-out's (WebhooksRepo.tryFanOutLock).
 */
export const CLUSTER_DUTIES = {
  uploadSessionSweep: 2,
  stagedBlobSweep: 3,
  webhookRetrySweep: 4,
  eventRetention: 5,
  orphanBlobSweep: 6,
} as const;

export type ClusterDuty = keyof typeof CLUSTER_DUTIES;

const NAMESPACE = 72731;

export type LeaderRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `fn` unless another process is running the same duty right now, in which case it skips
 * (that process does the work). On PostgreSQL a transaction holds `pg_try_advisory_xact_lock` while
 * `fn` runs on other connections: the lock goes with the transaction, so an error or a dead process
 * releases it. SQLite is one machine and its duties are idempotent: `fn` just runs.
 */
export async function runAsLeader<T>(store: Store, duty: ClusterDuty, fn: () => Promise<T>): Promise<LeaderRun<T>> {
  if (store.dialect !== 'postgres') return { ran: true, value: await fn() };
  return store.tx(async (s): Promise<LeaderRun<T>> => {
    const { rows } = await s.raw.executeSql('SELECT pg_try_advisory_xact_lock($1::int, $2::int) AS locked', [NAMESPACE, CLUSTER_DUTIES[duty]]);
    if (rows[0]?.locked !== true) return { ran: false };
    return { ran: true, value: await fn() };
  });
}
