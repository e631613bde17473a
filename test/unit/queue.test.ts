import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Store } from '../../src/store/db/index.js';
import { TableQueue } from '../../src/store/queue/table-queue.js';
import { PgBossQueue } from '../../src/store/queue/pgboss-queue.js';
import type { Job, Queue } from '../../src/store/queue/queue.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import type { Config } from '../../src/runtime/config.js';
import { scratchDir } from '../helpers/scratch.js';
import { untilTruthy } from '../helpers/http.js';


/**
 * Workspace A enqueues 200 jobs, then workspace B one; then a worker (two jobs at once) runs them all.
 * Returns the jobs in the order they started.
 */
async function floodThenOne(q: Queue, queue: string): Promise<Job<{ i: number }>[]> {
  for (let i = 0; i < 200; i++) await q.enqueue(queue, { i }, { workspaceId: 'ws-flood' });
  await q.enqueue(queue, { i: 0 }, { workspaceId: 'ws-single' });
  const started: Job<{ i: number }>[] = [];
  q.work<{ i: number }>(queue, { run: async (job) => void started.push(job) }, { concurrency: 2 });
  await untilTruthy('all 201 jobs ran', async () => started.length >= 201, 60_000);
  return started;
}

/** B's job runs among the first few; A's jobs all run, once each, first-in first-out. */
function assertFair(started: Job<{ i: number }>[]) {
  const single = started.findIndex((j) => j.workspaceId === 'ws-single');
  assert.ok(single >= 0 && single < 4, `the single job of workspace B started ${single + 1}th, after ${single} of A's 200`);
  assert.equal(new Set(started.map((j) => j.id)).size, 201);
  const flood = started.filter((j) => j.workspaceId === 'ws-flood').map((j) => j.payload.i);
  assert.deepEqual(flood, Array.from({ length: 200 }, (_, i) => i), "A's jobs in the order A enqueued them");
}

/** A run of a job by one of two workers: when it started and ended, and why it was aborted, if it was. */
interface Run {
  worker: string;
  start: number;
  end: number;
  aborted?: string;
}

/**
 * A handler that records its runs; on `slow` it works until its signal aborts it (at most 60 s), as a
 * long ingestion does, and throws the abort's reason.
 */
function recordingHandler(runs: Run[], worker: string, slow: boolean) {
  return {
    run: async (_job: Job, signal: AbortSignal) => {
      const r: Run = { worker, start: Date.now(), end: 0 };
      runs.push(r);
      if (slow) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 60_000);
          signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
      }
      r.end = Date.now();
      if (signal.aborted) {
        r.aborted = (signal.reason as Error).message;
        throw signal.reason;
      }
    },
  };
}

/** Every method of `target` named in `names` fails from now on, as when its database stops answering. */
function cutOff(target: object, names: string[]): void {
  for (const name of names) (target as Record<string, unknown>)[name] = async () => Promise.reject(new Error('connection terminated unexpectedly'));
}

/** The lease-loss outcome both queues must give: the first worker stopped before the second began. */
function assertTakenOverAfterAbort(runs: Run[], leaseMs: number): void {
  assert.equal(runs.length, 2, JSON.stringify(runs));
  const [first, second] = runs as [Run, Run];
  assert.equal(first.worker, 'cut-off');
  assert.match(first.aborted ?? '', /lease lost/, 'the job whose lease could not be renewed was not aborted');
  assert.ok(first.end - first.start < leaseMs, `aborted ${first.end - first.start} ms after it started, past its lease of ${leaseMs} ms`);
  assert.equal(second.worker, 'healthy');
  assert.ok(second.start >= first.end, `ran on both workers at once (${second.start - first.end} ms)`);
  assert.equal(second.aborted, undefined);
}

function queueSuite(label: string, database: () => Promise<Config['database']>, cleanup: () => Promise<void> = async () => {}) {
  describe(`table queue (${label})`, () => {
    let db: Config['database'];
    let store: Store;
    let workspaceId: string;
    const queues: TableQueue[] = [];
    const open = async () => {
      const s = await Store.open(db);
      return s;
    };
    const make = (s: Store, opts: ConstructorParameters<typeof TableQueue>[1] = {}) => {
      const q = new TableQueue(s, { pollMs: 20, retryBaseMs: 50, leaseMs: 2_000, ...opts });
      queues.push(q);
      return q;
    };

    before(async () => {
      db = await database();
      store = await open();
      workspaceId = 'ws-queue';
    });
    after(async () => {
      for (const q of queues) await q.stop(1000);
      await store.close();
      await cleanup();
    });

    test('enqueue, claim, complete', async () => {
      const q = make(store);
      const seen: Job[] = [];
      q.work('t-simple', { run: async (job) => void seen.push(job) });
      const id = await q.enqueue('t-simple', { hello: 'world' }, { workspaceId });
      const row = await untilTruthy('completion', async () => {
        const j = await store.jobs.get(id);
        return j?.state === 'completed' && j;
      });
      assert.equal(row.attempts, 1);
      assert.ok(row.completedAt);
      assert.equal(seen.length, 1);
      assert.deepEqual(seen[0]!.payload, { hello: 'world' });
      assert.equal(seen[0]!.attempt, 1);
      await q.stop();
    });

    test('a job enqueued in a rolled-back transaction does not exist', async () => {
      const q = make(store);
      let id = '';
      await assert.rejects(
        store.tx(async (s) => {
          id = await q.enqueue('t-tx', {}, { workspaceId }, s);
          throw new Error('rollback');
        }),
      );
      assert.equal(await store.jobs.get(id), undefined);
      await store.tx(async (s) => {
        id = await q.enqueue('t-tx', {}, { workspaceId }, s);
      });
      assert.equal((await store.jobs.get(id))?.state, 'queued');
    });

    test('a failing job is retried with exponential back-off, then fails and runs onFinalFailure once', async () => {
      const q = make(store, { retryBaseMs: 100, maxAttempts: 3 });
      const runs: number[] = [];
      const finals: unknown[] = [];
      q.work('t-fail', {
        run: async () => {
          runs.push(Date.now());
          throw new Error(`boom ${runs.length}`);
        },
        onFinalFailure: async (_job, err) => void finals.push(err),
      });
      const id = await q.enqueue('t-fail', {}, { workspaceId });
      const row = await untilTruthy('final failure', async () => {
        const j = await store.jobs.get(id);
        return j?.state === 'failed' && finals.length === 1 && j;
      });
      assert.equal(runs.length, 3);
      assert.equal(row.attempts, 3);
      assert.equal(row.lastError, 'boom 3');
      assert.ok(runs[1]! - runs[0]! >= 100, `first retry after ${runs[1]! - runs[0]!} ms`);
      assert.ok(runs[2]! - runs[1]! >= 200, `second retry after ${runs[2]! - runs[1]!} ms`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(runs.length, 3, 'no run after the final failure');
      assert.equal(finals.length, 1);
      await q.stop();
    });

    test('a job whose worker died is claimed again once its lease expires', async () => {
      // A "dead" process claimed the job with a short lease and never came back.
      const dead = make(store, { leaseMs: 300 });
      const id = await dead.enqueue('t-lease', { n: 1 }, { workspaceId });
      const [candidate] = await store.jobs.candidates(['t-lease'], Date.now(), 1);
      const claimedAt = Date.now();
      assert.ok(await store.jobs.claim(candidate!, 'dead-worker', claimedAt, claimedAt + 300));
      const q = make(store);
      let ranAt = 0;
      q.work('t-lease', { run: async () => void (ranAt = Date.now()) });
      const row = await untilTruthy('re-claim', async () => {
        const j = await store.jobs.get(id);
        return j?.state === 'completed' && j;
      });
      assert.ok(ranAt - claimedAt >= 300, `re-claimed after ${ranAt - claimedAt} ms, before the lease expired`);
      assert.equal(row.attempts, 2);
      // The dead holder's late completion is refused.
      assert.equal(await store.jobs.complete(id, 'dead-worker', Date.now()), false);
      await q.stop();
    });

    test('a job claimed by a process that died on this host is claimable at once after recoverLocal()', async () => {
      const id = await make(store).enqueue('t-recover', {}, { workspaceId });
      const [candidate] = await store.jobs.candidates(['t-recover'], Date.now(), 1);
      // pid 2^22+1 exceeds Linux's pid_max: never alive.
      const token = `${os.hostname()}:4194305:deadbeef:x`;
      assert.ok(await store.jobs.claim(candidate!, token, Date.now(), Date.now() + 3600_000));
      const q = make(store);
      assert.equal(await q.recoverLocal(['t-recover']), 1);
      q.work('t-recover', { run: async () => {} });
      const row = await untilTruthy('recovered run', async () => {
        const j = await store.jobs.get(id);
        return j?.state === 'completed' && j;
      });
      assert.equal(row.attempts, 2);
      await q.stop();
    });

    test('a job whose process died during its last attempt fails instead of running again', async () => {
      const q0 = make(store, { maxAttempts: 1 });
      const id = await q0.enqueue('t-poison', {}, { workspaceId, maxAttempts: 1 });
      const [candidate] = await store.jobs.candidates(['t-poison'], Date.now(), 1);
      assert.ok(await store.jobs.claim(candidate!, 'dead', Date.now(), Date.now() + 100));
      const q = make(store);
      let ran = 0;
      const finals: unknown[] = [];
      q.work('t-poison', { run: async () => void ran++, onFinalFailure: async (_j, e) => void finals.push(e) });
      const row = await untilTruthy('failure', async () => {
        const j = await store.jobs.get(id);
        return j?.state === 'failed' && finals.length === 1 && j;
      });
      assert.equal(ran, 0);
      assert.match(row.lastError ?? '', /stopped during all 1 attempts/);
      await q.stop();
    });

    test('two workers on separate connections never both run or complete one job', async () => {
      const s2 = await open();
      try {
        const a = make(store);
        const b = make(s2);
        const runs = new Map<string, number>();
        const handler = {
          run: async (job: Job) => {
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
            await new Promise((r) => setTimeout(r, 5));
          },
        };
        a.work('t-race', handler, { concurrency: 3 });
        b.work('t-race', handler, { concurrency: 3 });
        const ids: string[] = [];
        for (let i = 0; i < 40; i++) ids.push(await (i % 2 ? a : b).enqueue('t-race', { i }, { workspaceId }));
        await untilTruthy('all completed', async () => {
          for (const id of ids) if ((await store.jobs.get(id))?.state !== 'completed') return false;
          return true;
        }, 30_000);
        for (const id of ids) {
          assert.equal(runs.get(id), 1, `job ${id} ran ${runs.get(id)} times`);
          assert.equal((await store.jobs.get(id))!.attempts, 1);
        }
        await a.stop();
        await b.stop();
      } finally {
        await s2.close();
      }
    });

    test("one workspace's 200 queued jobs do not hold back another's single job (taken in turn)", async () => {
      const q = make(store);
      assertFair(await floodThenOne(q, 't-fair'));
      await q.stop();
    });

    test('a job whose lease renewals fail is aborted before its lease runs out, then runs on another worker', async () => {
      const s1 = await open();
      try {
        const runs: Run[] = [];
        const cut = make(s1, { leaseMs: 900 });
        cut.work('t-renew-fails', recordingHandler(runs, 'cut-off', true));
        const id = await cut.enqueue('t-renew-fails', {}, { workspaceId });
        await untilTruthy('the job to start', async () => runs.length > 0);
        // This worker's database stops answering: renewals, and the retry it records after the abort.
        cutOff(s1.jobs, ['renew', 'retry', 'complete', 'fail', 'release', 'candidates', 'claim']);
        const healthy = make(store, { leaseMs: 900 });
        healthy.work('t-renew-fails', recordingHandler(runs, 'healthy', false));
        await untilTruthy('completion', async () => (await store.jobs.get(id))?.state === 'completed');
        assertTakenOverAfterAbort(runs, 900);
        await healthy.stop();
      } finally {
        await s1.close();
      }
    });

    test('stop() waits for a running job within the deadline, else releases its lease', async () => {
      const q = make(store);
      let release!: () => void;
      const started = new Promise<void>((r) => (release = r));
      q.work('t-stop', { run: () => (release(), new Promise((r) => setTimeout(r, 5_000))) });
      const id = await q.enqueue('t-stop', {}, { workspaceId });
      await started;
      await q.stop(100);
      const row = await store.jobs.get(id);
      assert.equal(row?.state, 'queued');
      assert.equal(row?.attempts, 0);
      assert.equal(row?.lockedBy, null);
    });
  });
}

queueSuite('SQLite', async () => ({ kind: 'sqlite', file: path.join(scratchDir('quire-queue-'), 'quire.db') }));

if (findPgBin()) {
  let cluster: PgCluster | undefined;
  queueSuite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return { kind: 'postgres', url: await cluster.createDatabase('quire_queue') };
    },
    async () => cluster?.stop(),
  );
  pgBossSuite();
} else {
  describe('table queue (PostgreSQL)', () => {
    test('PostgreSQL queue', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
  describe('pg-boss queue (PostgreSQL)', () => {
    test('pg-boss queue', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}

/** The same semantics on pg-boss (PostgreSQL only); lease internals are the table queue's own. */
function pgBossSuite() {
  describe('pg-boss queue (PostgreSQL)', () => {
    let cluster: PgCluster;
    let url: string;
    let store: Store;
    const workspaceId = 'ws-queue';
    const queues: PgBossQueue[] = [];
    const make = (s: Store, opts: Partial<ConstructorParameters<typeof PgBossQueue>[1]> = {}) => {
      const q = new PgBossQueue(s, { connectionString: url, pollMs: 20, retryBaseMs: 1000, leaseMs: 2_000, ...opts });
      queues.push(q);
      return q;
    };
    const bossJob = async (id: string) =>
      (await store.raw.executeSql('SELECT state, retry_count, output, started_on FROM pgboss.job WHERE id = $1::uuid', [id])).rows[0] as
        | { state: string; retry_count: number; output: any; started_on: Date | null }
        | undefined;
    /** What a process that fetched the job and died leaves behind: the job active with a fresh heartbeat, and its claim row. */
    const claimAsDead = async (id: string, token: string) => {
      const { rows } = await store.raw.executeSql(
        `UPDATE pgboss.job SET state = 'active', started_on = now(), heartbeat_on = now() WHERE id = $1::uuid AND state = 'created' RETURNING name, retry_count`,
        [id],
      );
      assert.equal(rows.length, 1);
      await store.raw.executeSql('INSERT INTO pgboss_claims (job_id, name, retry_count, holder) VALUES ($1, $2, $3, $4)', [id, rows[0].name, rows[0].retry_count, token]);
    };

    before(async () => {
      cluster = await startPgCluster();
      url = await cluster.createDatabase('quire_pgboss');
      store = await Store.open({ kind: 'postgres', url });
    });
    after(async () => {
      for (const q of queues) await q.stop(1000);
      await store.close();
      cluster?.stop();
    });

    test('enqueue, run, complete', async () => {
      const q = make(store);
      const seen: Job[] = [];
      q.work('t-simple', { run: async (job) => void seen.push(job) });
      const id = await q.enqueue('t-simple', { hello: 'world' }, { workspaceId });
      await untilTruthy('completion', async () => (await bossJob(id))?.state === 'completed');
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.id, id);
      assert.equal(seen[0]!.workspaceId, workspaceId);
      assert.deepEqual(seen[0]!.payload, { hello: 'world' });
      assert.equal(seen[0]!.attempt, 1);
      assert.equal(seen[0]!.maxAttempts, 3);
      await q.stop();
    });

    test('four processes creating the same queues at once on a fresh database all succeed (no deadlock)', async () => {
      // Each PgBossQueue has its own pg-boss and pool, as separate processes do; the schema is new, so
      // every queue is created by whichever gets there first while the others race it.
      const racers = [0, 1, 2, 3].map(() => make(store, { schema: 'pgboss_race' }));
      const names = ['ingest', 'process', 'extract', 'publish', 'webhook', 'fanout', 'ops', 'samples'];
      const order = (i: number) => names.map((_, k) => names[(k + i * 3) % names.length]!);
      const sent = await Promise.all(racers.map((q, i) => Promise.all(order(i).map((n) => q.enqueue(n, { i }, { workspaceId })))));
      assert.equal(sent.flat().length, racers.length * names.length);
      const { rows } = await store.raw.executeSql('SELECT count(*)::int AS n FROM pgboss_race.job', []);
      assert.equal(rows[0]!.n, racers.length * names.length);
      for (const q of racers) await q.stop();
    });

    test('a job with runAt does not run before then', async () => {
      const q = make(store);
      let ranAt = 0;
      q.work('t-later', { run: async () => void (ranAt = Date.now()) });
      const runAt = Date.now() + 1500;
      const id = await q.enqueue('t-later', {}, { workspaceId, runAt });
      await untilTruthy('completion', async () => (await bossJob(id))?.state === 'completed');
      assert.ok(ranAt >= runAt, `ran ${runAt - ranAt} ms early`);
      await q.stop();
    });

    test('a job enqueued in a rolled-back transaction does not exist', async () => {
      const q = make(store);
      let id = '';
      await assert.rejects(
        store.tx(async (s) => {
          id = await q.enqueue('t-tx', {}, { workspaceId }, s);
          assert.equal((await s.raw.executeSql('SELECT 1 FROM pgboss.job WHERE id = $1::uuid', [id])).rows.length, 1, 'visible inside the transaction');
          throw new Error('rollback');
        }),
      );
      assert.ok(id);
      assert.equal(await bossJob(id), undefined);
      await store.tx(async (s) => {
        id = await q.enqueue('t-tx', {}, { workspaceId }, s);
      });
      assert.equal((await bossJob(id))?.state, 'created');
      await q.stop();
    });

    test('a failing job is retried with back-off, then fails and runs onFinalFailure once', async () => {
      const q = make(store, { retryBaseMs: 1000, maxAttempts: 3 });
      const runs: { at: number; attempt: number }[] = [];
      const finals: { job: Job; err: unknown }[] = [];
      q.work('t-fail', {
        run: async (job) => {
          runs.push({ at: Date.now(), attempt: job.attempt });
          throw new Error(`boom ${runs.length}`);
        },
        onFinalFailure: async (job, err) => void finals.push({ job, err }),
      });
      const id = await q.enqueue('t-fail', { n: 1 }, { workspaceId });
      await untilTruthy('final failure', async () => (await bossJob(id))?.state === 'failed' && finals.length === 1, 30_000);
      assert.deepEqual(runs.map((r) => r.attempt), [1, 2, 3]);
      assert.ok(runs[1]!.at - runs[0]!.at >= 1000, `first retry after ${runs[1]!.at - runs[0]!.at} ms`);
      assert.ok(runs[2]!.at - runs[1]!.at >= 2000, `second retry after ${runs[2]!.at - runs[1]!.at} ms`);
      assert.equal(finals[0]!.job.id, id);
      assert.equal(finals[0]!.job.attempt, 3);
      assert.equal(finals[0]!.job.workspaceId, workspaceId);
      assert.deepEqual(finals[0]!.job.payload, { n: 1 });
      assert.equal((finals[0]!.err as Error).message, 'boom 3');
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(runs.length, 3, 'no run after the final failure');
      assert.equal(finals.length, 1);
      await q.stop();
    });

    test('two queue instances on separate connections run each job exactly once', async () => {
      const s2 = await Store.open({ kind: 'postgres', url });
      try {
        const a = make(store);
        const b = make(s2);
        const runs = new Map<string, number>();
        const handler = {
          run: async (job: Job) => {
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
            await new Promise((r) => setTimeout(r, 5));
          },
        };
        a.work('t-race', handler, { concurrency: 3 });
        b.work('t-race', handler, { concurrency: 3 });
        const ids: string[] = [];
        for (let i = 0; i < 40; i++) ids.push(await (i % 2 ? a : b).enqueue('t-race', { i }, { workspaceId }));
        await untilTruthy('all completed', async () => {
          for (const id of ids) if ((await bossJob(id))?.state !== 'completed') return false;
          return true;
        }, 30_000);
        for (const id of ids) {
          assert.equal(runs.get(id), 1, `job ${id} ran ${runs.get(id)} times`);
          assert.equal((await bossJob(id))!.retry_count, 0);
        }
        await a.stop();
        await b.stop();
      } finally {
        await s2.close();
      }
    });

    test('a job whose heartbeats fail is aborted before its lease runs out, then runs on another worker', async () => {
      const s1 = await Store.open({ kind: 'postgres', url });
      try {
        const runs: Run[] = [];
        const cut = make(s1, { leaseMs: 1000 });
        cut.work('t-renew-fails', recordingHandler(runs, 'cut-off', true));
        const id = await cut.enqueue('t-renew-fails', {}, { workspaceId });
        await untilTruthy('the job to start', async () => runs.length > 0);
        // This worker's pg-boss stops answering: heartbeats, settles, fetches.
        cutOff((cut as unknown as { boss: object }).boss, ['touch', 'complete', 'fail', 'fetch']);
        const healthy = make(store, { leaseMs: 1000 });
        healthy.work('t-renew-fails', recordingHandler(runs, 'healthy', false));
        // pg-boss's shortest heartbeat is 10 s: the lease of 1 s is 10 s here.
        await untilTruthy('completion', async () => (await bossJob(id))?.state === 'completed', 40_000);
        assertTakenOverAfterAbort(runs, 10_000);
        await healthy.stop();
      } finally {
        await s1.close();
      }
    });

    test('a job whose process died is run again once its lease expires', async () => {
      const enq = make(store, { leaseMs: 1000 });
      const id = await enq.enqueue('t-lease', {}, { workspaceId });
      await claimAsDead(id, 'elsewhere:1:dead:x');
      const claimedAt = Date.now();
      const q = make(store, { leaseMs: 1000 });
      const seen: Job[] = [];
      q.work('t-lease', { run: async (job) => void seen.push(job) });
      // pg-boss's shortest heartbeat is 10 s: the lease of 1 s is 10 s here.
      await untilTruthy('re-run', async () => (await bossJob(id))?.state === 'completed', 40_000);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.attempt, 2);
      assert.ok(Date.now() - claimedAt >= 1000);
      await q.stop();
    });

    test('a job held by a process that died on this host runs at once after recoverLocal()', async () => {
      const q = make(store, { leaseMs: 3_600_000 });
      const id = await q.enqueue('t-recover', {}, { workspaceId });
      // pid 2^22+1 exceeds Linux's pid_max: never alive.
      await claimAsDead(id, `${os.hostname()}:4194305:deadbeef:x`);
      assert.equal(await q.recoverLocal(['t-recover']), 1);
      const seen: Job[] = [];
      q.work('t-recover', { run: async (job) => void seen.push(job) });
      await untilTruthy('recovered run', async () => (await bossJob(id))?.state === 'completed', 5_000);
      assert.equal(seen[0]!.attempt, 2);
      await q.stop();
    });

    test('a job whose process died during its last attempt fails (onFinalFailure once) instead of running again', async () => {
      const q = make(store, { leaseMs: 1000 });
      const id = await q.enqueue('t-poison', {}, { workspaceId, maxAttempts: 1 });
      await claimAsDead(id, 'elsewhere:1:dead:x');
      let ran = 0;
      const finals: { job: Job; err: unknown }[] = [];
      q.work('t-poison', { run: async () => void ran++, onFinalFailure: async (job, err) => void finals.push({ job, err }) });
      await untilTruthy('failure', async () => (await bossJob(id))?.state === 'failed' && finals.length === 1, 40_000);
      assert.equal(ran, 0);
      assert.equal(finals[0]!.job.id, id);
      assert.match((finals[0]!.err as Error).message, /stopped during its last attempt/);
      await q.stop();
    });

    test("one workspace's 200 queued jobs do not hold back another's single job (taken in turn)", async () => {
      const q = make(store);
      assertFair(await floodThenOne(q, 't-fair'));
      await q.stop();
    });

    test('stop() waits for a running job within the deadline, else hands it back unspent', async () => {
      const q = make(store);
      let release!: () => void;
      const started = new Promise<void>((r) => (release = r));
      let aborted = false;
      q.work('t-stop', { run: (_job, signal) => (release(), signal.addEventListener('abort', () => (aborted = true)), new Promise((r) => setTimeout(r, 5_000))) });
      const id = await q.enqueue('t-stop', {}, { workspaceId });
      await started;
      await q.stop(100);
      assert.ok(aborted);
      const row = await bossJob(id);
      assert.equal(row?.state, 'created');
      assert.equal(row?.retry_count, 0);
      assert.equal(row?.started_on, null);
      // Another worker runs it at once, as its first attempt.
      const next = make(store);
      const seen: Job[] = [];
      next.work('t-stop', { run: async (job) => void seen.push(job) });
      await untilTruthy('re-run', async () => (await bossJob(id))?.state === 'completed', 5_000);
      assert.equal(seen[0]!.attempt, 1);
      await next.stop();
    });
  });
}
