/**
 * `x-should-retry` on failures: the SDK repeats a 5xx (and a 409) unless told `x-should-retry: false`,
 * so a request that already changed state must say so, or the upload or create happens twice. The
 * real server (its routes, hooks, store and error handler) runs in this process on SQLite and on
 * PostgreSQL; a fault is put after (or before) a service's commit by wrapping that service, and on
 * PostgreSQL a COMMIT itself fails (a deferred trigger). Every answer is a Problem; the header is
 * `false` exactly when something was committed (or may have been), absent otherwise; reads never carry it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/runtime/config.js';
import { openServices, type Services } from '../../src/app/services.js';
import { buildServer } from '../../src/http/server.js';
import { Cursors } from '../../src/http/pagination.js';
import { serverSecret } from '../../src/domain/secrets.js';
import type { App } from '../../src/http/context.js';
import { assertJson, assertProblem, client, collectPages, type Client } from '../helpers/http.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { EventsRepo } from '../../src/store/db/events.js';
import { scratchDir } from '../helpers/scratch.js';
import { TEST_SECRET_KEY } from '../helpers/quire.js';

const KEY = 'should-retry-test-key-0123456789';

/** A fault of the database connection, as node and pg report one (answered 503 with retry-after). */
const lostConnection = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

onBothDatabases('x-should-retry after a change', 'quire_should_retry', (dialect, database, teardown) => {
  describe(`x-should-retry after a change (${dialect})`, () => {
    let config: Config;
    let services: Services;
    let app: App;
    let c: Client;
    /** What the next wrapped call does: fail after calling through (its commit done), before it, or nothing. */
    let fault: { when: 'after' | 'before'; error: () => Error } | null = null;

    /** Wraps `obj[name]` so that `fault` applies to it. */
    function faulty<T extends object, K extends keyof T>(obj: T, name: K): void {
      const original = (obj[name] as (...args: unknown[]) => Promise<unknown>).bind(obj);
      (obj as Record<K, unknown>)[name] = async (...args: unknown[]) => {
        const f = fault;
        if (f?.when === 'before') throw f.error();
        const result = await original(...args);
        if (f?.when === 'after') throw f.error();
        return result;
      };
    }

    before(async () => {
      const db = await database();
      const dataDir = scratchDir('quire-should-retry-');
      config = loadConfig({
        QUIRE_DATA_DIR: dataDir,
        QUIRE_BOOTSTRAP_KEY: KEY,
        QUIRE_LOG_LEVEL: 'silent',
        ...(db.kind === 'postgres' ? { DATABASE_URL: db.url, QUIRE_SECRET_KEY: TEST_SECRET_KEY } : {}),
      });
      const logger = pino({ level: 'silent' });
      services = await openServices(config, logger);
      faulty(services.documents, 'createFromStaged');
      faulty(services.webhooks, 'create');
      faulty(services.docsets, 'create');
      faulty(services.documents, 'get');
      app = await buildServer(
        {
          config,
          documents: services.documents,
          uploads: services.uploads,
          pages: services.pages,
          structure: services.structure,
          properties: services.properties,
          labels: services.labels,
          samples: services.samples,
          projects: services.projects,
          artifacts: services.artifacts,
          docsets: services.docsets,
          metadata: services.metadata,
          workspaces: services.workspaces,
          webhooks: services.webhooks,
          cursors: new Cursors(await serverSecret(services.store, 'cursor')),
          partitions: services.partitions,
          probes: { database: () => services.store.ping(), storage: () => services.blobs.ping(), queue: () => services.queue.ping() },
        },
        logger,
      );
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      c = client(`${address}/v1preview1`, KEY);
    });

    after(async () => {
      await app?.close();
      await services?.close();
      await teardown();
    });

    const named = async (name: string) => (await collectPages(c, `/documents?name=${encodeURIComponent(name)}`, 'documents')).items;

    test('an upload that committed and then failed: 500 with x-should-retry: false; the document is there (a repeat would make two)', async () => {
      fault = { when: 'after', error: () => new Error('failed after the commit') };
      const r = await c.upload({ bytes: 'committed', name: 'after-commit.txt' });
      fault = null;
      assertProblem(r, 500);
      assert.equal(r.headers.get('x-should-retry'), 'false');
      assert.equal((await named('after-commit.txt')).length, 1);
    });

    test('an outage after the commit: 503 with retry-after, and x-should-retry: false', async () => {
      fault = { when: 'after', error: lostConnection };
      const r = await c.upload({ bytes: 'committed', name: 'outage-after.txt' });
      fault = null;
      assertProblem(r, 503, /database/);
      assert.equal(r.headers.get('retry-after'), '5');
      assert.equal(r.headers.get('x-should-retry'), 'false');
      assert.equal((await named('outage-after.txt')).length, 1);
    });

    test('an outage before anything changed: 503 with retry-after and no x-should-retry (a repeat is safe); nothing stored', async () => {
      fault = { when: 'before', error: lostConnection };
      const r = await c.upload({ bytes: 'not committed', name: 'outage-before.txt' });
      fault = null;
      assertProblem(r, 503);
      assert.equal(r.headers.get('retry-after'), '5');
      assert.equal(r.headers.get('x-should-retry'), null);
      assert.deepEqual(await named('outage-before.txt'), []);
      // And the repeat the SDK then makes succeeds once.
      assertJson(await c.upload({ bytes: 'not committed', name: 'outage-before.txt' }), 201);
      assert.equal((await named('outage-before.txt')).length, 1);
    });

    test('a write outside a transaction (a webhook) counts as committed', async () => {
      fault = { when: 'after', error: () => new Error('failed after the insert') };
      const r = await c.post('/webhooks', { json: { target: 'Documents', url: 'https://receiver.example.com/hook' } });
      fault = null;
      assertProblem(r, 500);
      assert.equal(r.headers.get('x-should-retry'), 'false');
      assert.ok((await c.get('/webhooks')).json.webhooks.some((h: { webhookUrl: string }) => h.webhookUrl === 'https://receiver.example.com/hook'));
    });

    test('a failure inside a transaction (rolled back): no x-should-retry; a refusal (4xx) never carries it', async () => {
      fault = { when: 'before', error: () => new Error('failed before the commit') };
      const r = await c.post('/docsets', { json: { name: 'never-made' } });
      fault = null;
      assertProblem(r, 500);
      assert.equal(r.headers.get('x-should-retry'), null);
      assert.equal((await c.get('/docsets?name=never-made')).json.docsets.length, 0);
      const refused = await c.post('/docsets', { json: { name: '' } });
      assertProblem(refused, 400);
      assert.equal(refused.headers.get('x-should-retry'), null);
    });

    test('writes inside a transaction that then fails (rolled back): no x-should-retry, nothing kept', async () => {
      // The upload's transaction inserts the document, then its event: the event's insert runs and then fails.
      const insert = EventsRepo.prototype.insert;
      EventsRepo.prototype.insert = async function (this: EventsRepo, e) {
        await insert.call(this, e);
        throw new Error('failed after a write, before the commit');
      };
      let r;
      try {
        r = await c.upload({ bytes: 'rolled back', name: 'rolled-back.txt' });
      } finally {
        EventsRepo.prototype.insert = insert;
      }
      assertProblem(r, 500);
      assert.equal(r.headers.get('x-should-retry'), null);
      assert.deepEqual(await named('rolled-back.txt'), []);
    });

    test('a read that fails says nothing of retrying (a GET is safe to repeat)', async () => {
      const doc = (await c.upload({ bytes: 'read me', name: 'read.txt' })).json;
      fault = { when: 'before', error: () => new Error('failed reading') };
      const r = await c.get(`/documents/${doc.id}`);
      fault = null;
      assertProblem(r, 500);
      assert.equal(r.headers.get('x-should-retry'), null);
    });

    if (dialect === 'PostgreSQL') {
      test('a COMMIT that fails (the connection lost at commit): 503 with x-should-retry: false, since the change may have been kept', async () => {
        const db = config.database as { url: string };
        const admin = new pg.Client({ connectionString: db.url });
        await admin.connect();
        try {
          // A deferred constraint trigger runs at COMMIT: the statements succeed, the COMMIT fails.
          await admin.query(`
            create function fail_at_commit() returns trigger language plpgsql as $$
            begin raise exception 'connection lost at commit' using errcode = '08006'; end $$`);
          await admin.query(`
            create constraint trigger fail_at_commit after insert on docsets deferrable initially deferred
            for each row when (new.name = 'fails-at-commit') execute function fail_at_commit()`);
          const r = await c.post('/docsets', { json: { name: 'fails-at-commit' } });
          assertProblem(r, 503, /database/);
          assert.equal(r.headers.get('x-should-retry'), 'false');
          assert.equal((await c.get('/docsets?name=fails-at-commit')).json.docsets.length, 0);
          assertJson(await c.post('/docsets', { json: { name: 'commits-fine' } }), 201);
        } finally {
          await admin.query('drop trigger if exists fail_at_commit on docsets').catch(() => undefined);
          await admin.end();
        }
      });
    }
  });
});
