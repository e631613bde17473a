/**
 * The webhook dispatcher against a real store and job queue (SQLite with the table queue, PostgreSQL
 * with pg-boss when its binaries exist) and a real receiver: a webhook whose `scheduled` mark outlived
 * its delivery job (the job is gone: its process died with it, the queue lost it) gets a new job and
 * its deliveries go; one whose job is still queued is left alone (never two jobs for one webhook).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig, type Config } from '../../src/runtime/config.js';
import { Store, type Repos } from '../../src/store/db/index.js';
import { TableQueue } from '../../src/store/queue/table-queue.js';
import { PgBossQueue } from '../../src/store/queue/pgboss-queue.js';
import type { Queue } from '../../src/store/queue/queue.js';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { newId } from '../../src/model/ids.js';
import { WEBHOOK_JOB } from '../../src/model/jobs.js';
import type { WebhookRecord } from '../../src/model/records.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch.js';

const workspaceId = 'ws-dispatcher';

function hookAt(url: string): WebhookRecord {
  return { id: newId(), workspaceId, target: 'Documents', targetId: null, url, events: [], secret: null, createdAt: Date.now(), disabledAt: null, disabledReason: null, failingSince: null };
}

/** Inserts a due delivery and sets the webhook's `scheduled` mark in one transaction (as the sweep would have it, but with no job), then `andThen` in it. */
async function addMarkedDelivery(store: Store, h: WebhookRecord, andThen: (s: Repos) => Promise<unknown> = async () => {}): Promise<string> {
  const eventId = newId();
  const now = Date.now();
  await store.tx(async (s) => {
    await s.webhooks.insertDeliveries([
      { id: newId(), webhookId: h.id, workspaceId, eventId, eventType: 'Documents.Create', body: JSON.stringify({ id: eventId, type: 'Documents.Create' }), createdAt: now, dueAt: now },
    ]);
    assert.equal(await s.webhooks.markDue(h.id), true);
    await andThen(s);
  });
  return eventId;
}

const livePayloadsFor = async (queue: Queue, webhookId: string) =>
  (await queue.livePayloads!(WEBHOOK_JOB)).filter((p) => (p as { webhookId?: string }).webhookId === webhookId).length;

function dispatcherSuite(label: string, setup: () => Promise<{ database: Config['database']; queue: (s: Store) => Queue; cleanup: () => Promise<void> }>) {
  describe(`webhook dispatcher (${label})`, () => {
    let store: Store;
    let queue: Queue;
    let dispatcher: WebhookDispatcher;
    let cleanup: () => Promise<void> = async () => {};
    const rx = new WebhookReceiver();

    before(async () => {
      await rx.listen();
      const s = await setup();
      cleanup = s.cleanup;
      store = await Store.open(s.database);
      queue = s.queue(store);
      const config = loadConfig({
        QUIRE_DATA_DIR: scratchDir('quire-dispatcher-'),
        QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        QUIRE_WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms,200ms',
        QUIRE_WEBHOOK_TIMEOUT_MS: '300',
      });
      dispatcher = new WebhookDispatcher(store, queue, config);
      await dispatcher.start();
    });

    after(async () => {
      await dispatcher?.stop();
      dispatcher?.close();
      await queue?.stop(1000);
      await rx.close();
      await store?.close();
      await cleanup();
    });

    test('a scheduled mark left by a delivery job that is gone is recovered: the delivery goes', async () => {
      const h = hookAt(rx.expect('/orphaned', null));
      await store.webhooks.insert(h);
      // What a job that vanished mid-flight leaves behind: the mark set, no job in the queue.
      const eventId = await addMarkedDelivery(store, h);
      assert.equal(await livePayloadsFor(queue, h.id), 0);
      await rx.waitFor('the delivery of the orphaned webhook', () => rx.unique('/orphaned').some((r) => r.id === eventId), 15_000);
      // Recorded just after the receiver answered.
      const deadline = Date.now() + 5000;
      let state: string | undefined;
      while ((state = (await store.webhooks.listDeliveries(h.id, { limit: 10 })).items[0]?.state) !== 'delivered' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(state, 'delivered');
    });

    test('a webhook whose job is still queued gets no second job', async () => {
      const h = hookAt(rx.expect('/queued', null));
      await store.webhooks.insert(h);
      // A live job that cannot run yet (as one waiting for a free slot): the mark is not stale.
      const eventId = await addMarkedDelivery(store, h, (s) => queue.enqueue(WEBHOOK_JOB, { webhookId: h.id }, { workspaceId, runAt: Date.now() + 60_000 }, s));
      await new Promise((r) => setTimeout(r, 2500)); // several sweeps past the stall grace (300 ms + 2 × 200 ms)
      assert.equal(await livePayloadsFor(queue, h.id), 1, 'exactly one job for the webhook');
      assert.equal(rx.unique('/queued').some((r) => r.id === eventId), false, 'nothing sent before its job runs');
    });
  });
}

dispatcherSuite('SQLite', async () => {
  const dir = scratchDir('quire-dispatcher-db-');
  return {
    database: { kind: 'sqlite', file: path.join(dir, 'quire.db') },
    queue: (s) => new TableQueue(s, { pollMs: 20, retryBaseMs: 200, leaseMs: 5_000 }),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

if (findPgBin()) {
  dispatcherSuite('PostgreSQL', async () => {
    const cluster: PgCluster = await startPgCluster();
    const url = await cluster.createDatabase('quire_dispatcher');
    return {
      database: { kind: 'postgres', url },
      queue: (s) => new PgBossQueue(s, { connectionString: url, pollMs: 20, retryBaseMs: 1000, leaseMs: 5_000 }),
      cleanup: async () => cluster.stop(),
    };
  });
} else {
  describe('webhook dispatcher (PostgreSQL)', () => {
    test('PostgreSQL scenario', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
