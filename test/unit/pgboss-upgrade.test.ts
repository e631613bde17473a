/**
 * The upgrade from pg-boss 10 in place: a database whose jobs were written by pg-boss 10 the way
 * Quire's previous release wrote them (the real pg-boss 10.4.2, installed as the dev dependency
 * `pg-boss-10`: its schema, queues with dead-letter queues, and jobs queued, deferred, waiting for a
 * retry, held by a process that died, and dead letters pending) is opened by two queues of this
 * release on pg-boss 12 at once. Every unfinished job runs once, with its id, payload and the attempt
 * it is at; what had failed for good runs onFinalFailure once; pg-boss 10's schema is gone.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import PgBoss10 from 'pg-boss-10';
import { Store } from '../../src/store/db/index.js';
import { bossQueueName, PgBossQueue } from '../../src/store/queue/pgboss-queue.js';
import type { Job } from '../../src/store/queue/queue.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { untilTruthy } from '../helpers/http.js';


const workspaceId = 'ws-upgrade';
const QUEUE = 'ingest';

/** The jobs the previous release left behind, by what became of them under pg-boss 10. */
interface Left {
  queued: string;
  deferred: { id: string; runAt: number };
  retrying: string;
  heldByDeadProcess: string;
  diedOnLastAttempt: string;
  deadLetter: string;
  completed: string;
}

/** Writes jobs with pg-boss 10 as Quire's previous release did (its PgBossQueue's options and job data). */
async function leaveJobsWithPgBoss10(url: string): Promise<Left> {
  const boss = new PgBoss10({ connectionString: url, schema: 'pgboss', max: 2, supervise: false, schedule: false, retentionDays: 3650, archiveCompletedAfterSeconds: 24 * 3600, deleteAfterDays: 7 });
  await boss.start();
  const name = bossQueueName(QUEUE);
  const deadLetter = `${name}__dead`;
  const lease = 300;
  await boss.createQueue(deadLetter, { name: deadLetter });
  await boss.createQueue(name, { name, deadLetter, retryLimit: 2, retryDelay: 1, retryBackoff: true, expireInSeconds: lease });
  const send = async (payload: object, retryLimit = 2, startAfter?: Date) => {
    const jobId = randomUUID();
    const sent = await boss.send(name, { jobId, workspaceId, payload }, { id: jobId, retryLimit, retryDelay: 1, retryBackoff: true, expireInSeconds: lease, deadLetter, ...(startAfter ? { startAfter } : {}) });
    assert.equal(sent, jobId);
    return jobId;
  };
  /** Fetches the one job due, tagged with a claim token as the previous release did. */
  const fetchOne = async (token: string) => {
    const [job] = await boss.fetch<{ jobId: string }>(name);
    assert.ok(job);
    await boss.getDb().executeSql(`UPDATE pgboss.job SET output = jsonb_build_object('lockedBy', $2::text) WHERE id = $1`, [job.id, token]);
    return job.id;
  };
  const gone = `${os.hostname()}:4194305:deadbeef:x`; // pid beyond pid_max: never alive

  // Each is due alone when it is fetched: fetched in creation order.
  const retrying = await send({ n: 'retrying' });
  assert.equal(await fetchOne(gone), retrying);
  await boss.fail(name, retrying, { message: 'first attempt failed', attempt: 1 });
  const heldByDeadProcess = await send({ n: 'held' });
  assert.equal(await fetchOne(gone), heldByDeadProcess);
  const diedOnLastAttempt = await send({ n: 'poison' }, 0);
  assert.equal(await fetchOne(gone), diedOnLastAttempt);
  const failed = await send({ n: 'dead' }, 0);
  assert.equal(await fetchOne(gone), failed);
  await boss.fail(name, failed, { message: 'boom', attempt: 1 });
  const completed = await send({ n: 'completed' });
  assert.equal(await fetchOne(gone), completed);
  await boss.complete(name, completed);
  const queued = await send({ n: 'queued' });
  const runAt = Date.now() + 3000;
  const deferred = await send({ n: 'deferred' }, 2, new Date(runAt));

  const states = new Map((await boss.getDb().executeSql(`SELECT id, state, name FROM pgboss.job`, [])).rows.map((r: any) => [r.id, `${r.name}:${r.state}`]));
  assert.equal(states.get(retrying), `${name}:retry`);
  assert.equal(states.get(heldByDeadProcess), `${name}:active`);
  assert.equal(states.get(diedOnLastAttempt), `${name}:active`);
  assert.equal(states.get(failed), `${name}:failed`);
  assert.equal(states.get(completed), `${name}:completed`);
  assert.equal(states.get(queued), `${name}:created`);
  const { rows: dead } = await boss.getDb().executeSql(`SELECT data->>'jobId' AS "jobId", state FROM pgboss.job WHERE name = $1`, [deadLetter]);
  assert.deepEqual(dead, [{ jobId: failed, state: 'created' }], 'pg-boss 10 copied the failed job to the dead-letter queue');
  const { rows: version } = await boss.getDb().executeSql('SELECT version FROM pgboss.version', []);
  assert.equal(version[0].version, 24);
  await boss.stop({ graceful: false, wait: true });
  return { queued, deferred: { id: deferred, runAt }, retrying, heldByDeadProcess, diedOnLastAttempt, deadLetter: failed, completed };
}

if (!findPgBin()) {
  describe('pg-boss 10 to 12 upgrade (PostgreSQL)', () => {
    test('upgrade', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
} else {
  describe('pg-boss 10 to 12 upgrade (PostgreSQL)', () => {
    let cluster: PgCluster;
    let url: string;
    const stores: Store[] = [];
    const queues: PgBossQueue[] = [];

    before(async () => {
      cluster = await startPgCluster();
      url = await cluster.createDatabase('quire_pgboss_upgrade');
    });
    after(async () => {
      for (const q of queues) await q.stop(1000);
      for (const s of stores) await s.close();
      cluster?.stop();
    });

    test('a database of the previous release upgrades in place: every unfinished job runs once, dead letters run onFinalFailure once', async () => {
      const left = await leaveJobsWithPgBoss10(url);
      const runs: (Job & { at: number })[] = [];
      const finals: { job: Job; err: Error }[] = [];
      // Two processes start on the old database at once, as a cluster's do.
      for (let i = 0; i < 2; i++) {
        const store = await Store.open({ kind: 'postgres', url });
        stores.push(store);
        const q = new PgBossQueue(store, { connectionString: url, pollMs: 20, retryBaseMs: 1000, leaseMs: 2000 });
        queues.push(q);
      }
      const recovered = await Promise.all(queues.map((q) => q.recoverLocal([QUEUE])));
      for (const q of queues) {
        q.work(QUEUE, {
          run: async (job) => void runs.push({ ...job, at: Date.now() }),
          onFinalFailure: async (job, err) => void finals.push({ job, err: err as Error }),
        }, { concurrency: 2 });
      }
      const expected = [left.queued, left.deferred.id, left.retrying, left.heldByDeadProcess];
      await untilTruthy('the unfinished jobs to run and the failed ones to finish', async () => expected.every((id) => runs.some((r) => r.id === id)) && finals.length === 2, 30_000);
      // Nothing was moved twice: held jobs moved as due, not failed again by recoverLocal.
      assert.deepEqual(recovered, [0, 0]);
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(runs.map((r) => r.id).sort(), [...expected].sort(), 'each unfinished job ran exactly once; nothing else ran');
      const run = (id: string) => runs.find((r) => r.id === id)!;
      assert.deepEqual(run(left.queued).payload, { n: 'queued' });
      assert.equal(run(left.queued).workspaceId, workspaceId);
      const { rows: grouped } = await stores[0]!.raw.executeSql('SELECT group_id FROM pgboss.job WHERE id = $1::uuid', [left.queued]);
      assert.equal(grouped[0]?.group_id, workspaceId, "moved into its workspace's group, so that workspaces take turns");
      assert.equal(run(left.queued).attempt, 1);
      assert.equal(run(left.queued).maxAttempts, 3);
      assert.ok(run(left.deferred.id).at >= left.deferred.runAt, 'the deferred job kept its time');
      assert.deepEqual([run(left.retrying).attempt, run(left.retrying).maxAttempts], [2, 3], 'the job waiting for its retry is at its second attempt');
      assert.deepEqual([run(left.heldByDeadProcess).attempt, run(left.heldByDeadProcess).maxAttempts], [2, 3], 'the interrupted attempt counts');

      assert.deepEqual(finals.map((f) => f.job.id).sort(), [left.diedOnLastAttempt, left.deadLetter].sort());
      const final = (id: string) => finals.find((f) => f.job.id === id)!;
      assert.equal(final(left.deadLetter).err.message, 'boom');
      assert.deepEqual(final(left.deadLetter).job.payload, { n: 'dead' });
      assert.match(final(left.diedOnLastAttempt).err.message, /stopped during its last attempt/);
      assert.deepEqual(final(left.diedOnLastAttempt).job.payload, { n: 'poison' });

      const s = stores[0]!;
      assert.equal((await s.raw.executeSql(`SELECT to_regnamespace('pgboss_v10') AS old`, [])).rows[0].old, null, "pg-boss 10's schema is dropped");
      const { rows: version } = await s.raw.executeSql('SELECT version FROM pgboss.version', []);
      assert.ok(version[0].version >= 46, `pg-boss 12 schema version ${version[0].version}`);
      const { rows: moved } = await s.raw.executeSql(`SELECT id::text, state::text FROM pgboss.job WHERE name = 'q_ingest'`, []);
      assert.ok(moved.every((r: { state: string }) => r.state === 'completed'), JSON.stringify(moved));
      assert.ok(!moved.some((r: { id: string }) => r.id === left.completed), 'finished jobs of pg-boss 10 are not moved');

      // And the upgraded queue takes new work.
      const id = await queues[0]!.enqueue(QUEUE, { n: 'new' }, { workspaceId });
      await untilTruthy('the new job', async () => runs.some((r) => r.id === id), 10_000);
    });
  });
}
