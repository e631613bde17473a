/**
 * runAsLeader: a periodic duty ticked by several processes at once runs in one of them at a time.
 * On PostgreSQL (real cluster, one Store per simulated process: separate connection pools) concurrent
 * callers never overlap and the losers skip; the lock goes with an error; other duties are not held
 * up. On SQLite (one machine) the duty simply runs.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Store } from '../../src/store/db/index.js';
import { runAsLeader, type LeaderRun } from '../../src/store/db/cluster-lock.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A duty body that records how many copies of it run at once. */
function probe(holdMs: number) {
  const state = { running: 0, maxRunning: 0, runs: 0 };
  const fn = async () => {
    state.running++;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    state.runs++;
    try {
      await sleep(holdMs);
      return state.runs;
    } finally {
      state.running--;
    }
  };
  return { state, fn };
}

describe('runAsLeader (SQLite)', () => {
  let store: Store;
  let dir: string;
  before(async () => {
    dir = scratchDir('quire-leader-');
    store = await Store.open({ kind: 'sqlite', file: path.join(dir, 'quire.db') });
  });
  after(async () => {
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the duty runs and its value comes back', async () => {
    const { state, fn } = probe(10);
    assert.deepEqual(await runAsLeader(store, 'uploadSessionSweep', fn), { ran: true, value: 1 });
    assert.equal(state.runs, 1);
  });
});

if (findPgBin()) {
  describe('runAsLeader (PostgreSQL)', () => {
    let cluster: PgCluster;
    const stores: Store[] = [];
    before(async () => {
      cluster = await startPgCluster();
      const url = await cluster.createDatabase('quire_leader');
      // Each Store stands for one process: its own pool, so its own sessions.
      for (let i = 0; i < 4; i++) stores.push(await Store.open({ kind: 'postgres', url }, { migrate: i === 0 }));
    });
    after(async () => {
      for (const s of stores) await s.close();
      cluster?.stop();
    });

    test('two processes ticking at once: one runs the duty, the other skips', async () => {
      const { state, fn } = probe(300);
      const [a, b] = await Promise.all([runAsLeader(stores[0]!, 'uploadSessionSweep', fn), runAsLeader(stores[1]!, 'uploadSessionSweep', fn)]);
      assert.equal(state.runs, 1, 'exactly one of them ran it');
      assert.equal(state.maxRunning, 1);
      assert.deepEqual([a.ran, b.ran].sort(), [false, true]);
      const winner = (a.ran ? a : b) as Extract<LeaderRun<number>, { ran: true }>;
      assert.equal(winner.value, 1);
      // The lock went with the winner's transaction: the next tick runs.
      assert.equal((await runAsLeader(stores[1]!, 'uploadSessionSweep', fn)).ran, true);
      assert.equal(state.runs, 2);
    });

    test('many ticks from four processes never overlap, and some of them skip', async () => {
      const { state, fn } = probe(40);
      let skipped = 0;
      await Promise.all(
        stores.map(async (s, i) => {
          for (let k = 0; k < 15; k++) {
            await sleep((i * 7 + k * 3) % 11);
            if (!(await runAsLeader(s, 'webhookRetrySweep', fn)).ran) skipped++;
          }
        }),
      );
      assert.equal(state.maxRunning, 1, 'two copies of the duty ran at the same time');
      assert.ok(state.runs >= 1);
      assert.ok(skipped > 0, 'no tick was skipped: the callers never met');
      assert.equal(state.runs + skipped, 4 * 15);
    });

    test('a duty that throws releases the lock; another duty is never held up by it', async () => {
      await assert.rejects(
        runAsLeader(stores[0]!, 'stagedBlobSweep', async () => {
          throw new Error('sweep failed');
        }),
        /sweep failed/,
      );
      assert.equal((await runAsLeader(stores[1]!, 'stagedBlobSweep', async () => 'ok')).ran, true);

      let release!: () => void;
      const holding = runAsLeader(stores[0]!, 'stagedBlobSweep', () => new Promise<void>((r) => (release = r)));
      await sleep(100);
      assert.equal((await runAsLeader(stores[1]!, 'stagedBlobSweep', async () => 'ok')).ran, false, 'the same duty is held');
      assert.equal((await runAsLeader(stores[1]!, 'uploadSessionSweep', async () => 'ok')).ran, true, 'another duty runs meanwhile');
      release();
      assert.equal((await holding).ran, true);
    });

    test('the connection holding the lock drops mid-duty: that run fails, the process lives on, the lock is free', async () => {
      let release!: () => void;
      const holding = runAsLeader(stores[2]!, 'uploadSessionSweep', () => new Promise<void>((r) => (release = r)));
      await sleep(200);
      const { rows } = await stores[3]!.raw.executeSql(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 72731 AND objid = 2 AND granted`);
      assert.equal(rows.length, 1, 'one session holds the duty');
      // As a database restart or a network cut would: the session ends between two statements.
      await stores[3]!.raw.executeSql('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await sleep(200);
      release();
      await assert.rejects(holding);
      assert.equal((await runAsLeader(stores[3]!, 'uploadSessionSweep', async () => 1)).ran, true);
      assert.deepEqual((await stores[2]!.raw.executeSql('SELECT 1 AS one')).rows, [{ one: 1 }], 'the pool of the failed run still works');
    });
  });
} else {
  describe('runAsLeader (PostgreSQL)', () => {
    test('PostgreSQL scenario', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
