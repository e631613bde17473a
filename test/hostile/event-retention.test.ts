/**
 * Issue 46: events and webhook deliveries are purged after QUIRE_EVENT_RETENTION, on SQLite and
 * PostgreSQL.
 *  - a real server with a short retention: delivered deliveries (and their attempts) and fanned-out
 *    events disappear on their own; a delivery still pending (its receiver down) is kept, attempts too;
 *  - the purge itself, over thousands of rows in small batches: exactly the old, finished rows go.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { onBothDatabases } from '../helpers/postgres.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { client, until } from '../helpers/http.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';
import { purgeExpired } from '../../src/domain/retention.js';
import { idFloorAt } from '../../src/model/ids.js';

const RETENTION_MS = 3000;
const ENV = {
  QUIRE_EVENT_RETENTION: `${RETENTION_MS}ms`,
  QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  // One attempt now, the next in an hour: a failed first attempt leaves the delivery pending.
  QUIRE_WEBHOOK_RETRY_SCHEDULE: '0,1h',
  QUIRE_WORKER_CONCURRENCY: '1',
};

/** An id as `newId` would have made it at `ms`. */
const idAt = (ms: number) => idFloorAt(ms) + [...randomBytes(7)].map((b) => (b % 36).toString(36)).join('');

async function count(store: Store, sqlText: string): Promise<number> {
  return Number((await store.raw.executeSql(sqlText)).rows[0].n);
}

onBothDatabases('event retention', 'quire_event_retention', (dialect, database, teardown) => {
  describe(`old events and finished deliveries are purged (${dialect})`, () => {
    let q: Quire | undefined;
    const rx = new WebhookReceiver();
    let config: ReturnType<typeof loadConfig>['database'];
    before(async () => {
      await rx.listen();
      const db = await database();
      config = db;
      q = await startQuire({ ...(db.kind === 'postgres' ? { databaseUrl: db.url } : { dataDir: db.file.replace(/\/quire\.db$/, '') }), extraEnv: ENV });
    });
    after(async () => {
      const code = await q?.stop();
      await rx.close();
      await teardown();
      assert.equal(code ?? 0, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('a running server deletes delivered deliveries and fanned-out events once old, and keeps pending ones', async () => {
      const c = client(q!.api, q!.key);
      const ok = (await c.post('/webhooks', { json: { target: 'Documents', events: ['Documents.Create'], url: rx.expect('/ok', null) } })).json;
      const down = (await c.post('/webhooks', { json: { target: 'Documents', events: ['Documents.Create'], url: rx.expect('/down', null, 'fail') } })).json;
      assert.ok(ok.id && down.id);
      const up = await c.upload({ bytes: 'retention\n', name: 'retention.txt' });
      assert.equal(up.status, 201, up.text);
      await until('both receivers called', async () => (rx.accepted.some((r) => r.path === '/ok') && (rx.hits.get('/down') ?? 0) > 0 ? true : undefined), 60_000);
      const pendingBefore = (await c.get(`/webhooks/${down.id}/deliveries`)).json.deliveries;
      assert.equal(pendingBefore.length, 1);
      assert.equal(pendingBefore[0].state, 'pending');

      await until(
        'the delivered delivery purged',
        async () => ((await c.get(`/webhooks/${ok.id}/deliveries`)).json.deliveries.length === 0 ? true : undefined),
        30_000,
        250,
      );
      const pending = (await c.get(`/webhooks/${down.id}/deliveries`)).json.deliveries;
      assert.equal(pending.length, 1, 'a pending delivery is kept, however old');
      assert.equal(pending[0].id, pendingBefore[0].id);
      assert.ok(pending[0].attemptLog.length >= 1, 'with its attempts');

      const store = await Store.open(config, { migrate: false });
      try {
        const floor = idFloorAt(Date.now() - RETENTION_MS - 2000);
        await until('old events purged', async () => ((await count(store, `select count(*) as n from events where webhooks_done = 1 and id < '${floor}'`)) === 0 ? true : undefined), 30_000, 250);
        assert.equal(await count(store, `select count(*) as n from webhook_attempts where webhook_id = '${ok.id}'`), 0, 'the purged deliveries took their attempts with them');
      } finally {
        await store.close();
      }
    });

    test('the purge: thousands of rows in small batches; only old, finished rows go', async () => {
      assert.equal(await q!.stop(), 0);
      q = undefined;
      const store = await Store.open(config, { migrate: false });
      try {
        await store.raw.executeSql('delete from events');
        await store.raw.executeSql('delete from webhook_attempts');
        await store.raw.executeSql('delete from webhook_deliveries');
        const now = Date.now();
        const old = now - 10 * 60_000;
        const young = now - 1000;
        const event = (id: string) => ({ id, workspaceId: 'w', type: 'Documents.Create', payload: {}, createdAt: now });
        const oldDone = Array.from({ length: 1234 }, (_, i) => idAt(old + i));
        const oldPending = Array.from({ length: 10 }, (_, i) => idAt(old + 5000 + i));
        const youngDone = Array.from({ length: 10 }, (_, i) => idAt(young + i));
        await store.tx(async (s) => {
          for (const id of [...oldDone, ...oldPending, ...youngDone]) await s.events.insert(event(id));
        });
        for (let i = 0; i < oldDone.length; i += 200) await store.webhooks.markDispatched(oldDone.slice(i, i + 200));
        await store.webhooks.markDispatched(youngDone);

        const delivery = (id: string) => ({ id, webhookId: 'h', workspaceId: 'w', eventId: `e${id}`, eventType: 'Documents.Create', body: '{}', createdAt: now, dueAt: now });
        const oldDelivered = Array.from({ length: 260 }, (_, i) => idAt(old + i));
        const oldFailed = Array.from({ length: 5 }, (_, i) => idAt(old + 1000 + i));
        const oldStillPending = Array.from({ length: 5 }, (_, i) => idAt(old + 2000 + i));
        const youngDelivered = Array.from({ length: 5 }, (_, i) => idAt(young + i));
        await store.webhooks.insertDeliveries([...oldDelivered, ...oldFailed, ...oldStillPending, ...youngDelivered].map(delivery));
        const outcome = (deliveryId: string, state: 'delivered' | 'failed' | 'pending') => ({
          deliveryId,
          attempt: 1,
          attemptedAt: now,
          statusCode: state === 'delivered' ? 200 : 500,
          durationMs: 1,
          error: state === 'delivered' ? null : 'HTTP 500',
          state,
          nextAttemptAt: state === 'pending' ? now + 3600_000 : null,
        });
        await store.webhooks.recordDelivered('h', [...oldDelivered, ...youngDelivered].map((id) => outcome(id, 'delivered')));
        for (const id of oldFailed) await store.webhooks.recordAttempt('h', outcome(id, 'failed'));
        for (const id of oldStillPending) await store.webhooks.recordAttempt('h', outcome(id, 'pending'));

        const purged = await purgeExpired(store, 60_000, now, 100);
        assert.deepEqual(purged, { events: 1234, deliveries: 265 });
        const left = (await store.raw.executeSql('select id from events order by id')).rows.map((r: { id: string }) => r.id);
        assert.deepEqual(left, [...oldPending, ...youngDone].sort());
        const leftDeliveries = (await store.raw.executeSql('select id from webhook_deliveries order by id')).rows.map((r: { id: string }) => r.id);
        assert.deepEqual(leftDeliveries, [...oldStillPending, ...youngDelivered].sort());
        assert.equal(await count(store, 'select count(*) as n from webhook_attempts'), 10, 'attempts of the kept deliveries only');
        assert.deepEqual(await purgeExpired(store, 60_000, now, 100), { events: 0, deliveries: 0 }, 'a second run finds nothing');
      } finally {
        await store.close();
      }
    });
  });
});
