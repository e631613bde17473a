import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Store } from '../../src/store/db/index.js';
import { TableQueue } from '../../src/store/queue/table-queue.js';
import { bossQueueName, PgBossQueue, queueOfBossName } from '../../src/store/queue/pgboss-queue.js';
import type { Queue } from '../../src/store/queue/queue.js';
import { ingestRegistry, observeQueue, type QueueStats } from '../../src/runtime/metrics.js';
import type { Config } from '../../src/runtime/config.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { untilTruthy } from '../helpers/http.js';


const byName = (stats: QueueStats[], queue: string) => stats.find((s) => s.queue === queue);

test('pg-boss queue names decode back to the queue (and dead letters are not job kinds)', () => {
  for (const q of ['ingest', 'process', 't-a', 't_a', 'x.y/z']) assert.equal(queueOfBossName(bossQueueName(q)), q);
  assert.equal(queueOfBossName(`${bossQueueName('t-a')}__dead`), null);
  assert.equal(queueOfBossName('someone_elses'), null);
});

/** Per job kind: waiting (due), delayed (not due yet), running, and the oldest waiting one's age, read from the queue's storage. */
function statsSuite(title: string, database: () => Promise<Config['database']>, teardown: () => Promise<void>, make: (store: Store, db: Config['database']) => Queue) {
  describe(`queue stats: ${title}`, () => {
    let store: Store;
    let queue: Queue;
    before(async () => {
      const db = await database();
      store = await Store.open(db);
      queue = make(store, db);
    });
    after(async () => {
      await queue.stop(1000);
      await store.close();
      await teardown();
    });

    test('counts waiting, delayed and running jobs per kind, with the oldest waiting one\'s age; worked kinds without jobs read 0', async () => {
      const workspaceId = 'ws-stats';
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      queue.work('t-stats', { run: () => held }, { concurrency: 1 });
      queue.work('t-idle', { run: async () => {} });
      const enqueuedAt = Date.now();
      for (let i = 0; i < 3; i++) await queue.enqueue('t-stats', { i }, { workspaceId });
      await queue.enqueue('t-stats', { later: true }, { workspaceId, runAt: Date.now() + 3600_000 });
      // A kind no worker of this process takes is still seen through its jobs.
      await queue.enqueue('t-unworked', {}, { workspaceId });

      const running = await untilTruthy('one job running', async () => {
        const s = byName(await queue.stats(), 't-stats');
        return s?.running === 1 && s;
      });
      assert.equal(running.waiting, 2);
      assert.equal(running.delayed, 1);
      await new Promise((r) => setTimeout(r, 1200));
      const stats = await queue.stats();
      const s = byName(stats, 't-stats')!;
      assert.ok(s.oldestWaitingSeconds >= 1, `oldest waited ${s.oldestWaitingSeconds} s`);
      assert.ok(s.oldestWaitingSeconds <= (Date.now() - enqueuedAt) / 1000 + 2, `oldest waited ${s.oldestWaitingSeconds} s`);
      assert.deepEqual(byName(stats, 't-idle'), { queue: 't-idle', waiting: 0, delayed: 0, running: 0, oldestWaitingSeconds: 0 });
      assert.equal(byName(stats, 't-unworked')?.waiting, 1);

      // The gauges read the same at scrape time.
      observeQueue(() => queue.stats());
      const text = await ingestRegistry.metrics();
      assert.match(text, /^quire_queue_jobs\{queue="t-stats",state="waiting"\} 2$/m);
      assert.match(text, /^quire_queue_jobs\{queue="t-stats",state="delayed"\} 1$/m);
      assert.match(text, /^quire_queue_jobs\{queue="t-stats",state="running"\} 1$/m);
      assert.match(text, /^quire_queue_jobs\{queue="t-idle",state="waiting"\} 0$/m);
      const age = /^quire_queue_oldest_waiting_seconds\{queue="t-stats"\} (\S+)$/m.exec(text);
      assert.ok(age && Number(age[1]) >= 1, text);

      release();
      const done = await untilTruthy('the due jobs run', async () => {
        const d = byName(await queue.stats(), 't-stats');
        return d?.running === 0 && d.waiting === 0 && d;
      });
      assert.equal(done.delayed, 1);
      assert.equal(done.oldestWaitingSeconds, 0);
    });
  });
}

onBothDatabases('queue stats', 'quire_queue_stats', (dialect, database, teardown) => {
  if (dialect === 'SQLite') {
    statsSuite('table queue (SQLite)', database, teardown, (store) => new TableQueue(store, { pollMs: 20, leaseMs: 2000 }));
    return;
  }
  // One cluster and database for both PostgreSQL queues (the table queue's table and pg-boss's schema): the pg-boss suite tears it down.
  let opened: Promise<Config['database']> | undefined;
  const shared = () => (opened ??= database());
  statsSuite('table queue (PostgreSQL)', shared, async () => {}, (store) => new TableQueue(store, { pollMs: 20, leaseMs: 2000 }));
  statsSuite('pg-boss queue (PostgreSQL)', shared, teardown, (store, db) =>
    new PgBossQueue(store, { connectionString: db.kind === 'postgres' ? db.url : '', schema: 'pgboss_stats', pollMs: 20, leaseMs: 10_000 }),
  );
});
