/**
 * Issue 46: webhook secrets are sealed at rest (AES-256-GCM under QUIRE_SECRET_KEY, the key's id
 * stored with the ciphertext), on SQLite and PostgreSQL, with a real server and a receiver verifying
 * signatures with the `standardwebhooks` package:
 *  - the database holds no secret in plain text, and deliveries are still signed with the secret;
 *  - a secret stored plain (a row from before sealing) keeps signing and is sealed at the next start;
 *  - rotation: a server given only a new key refuses to start, naming the key it lacks; with the old
 *    key in QUIRE_SECRET_KEY_OLD it signs as before; `quire secrets rotate` re-seals every secret, after
 *    which the new key alone is enough;
 *  - without a key: SQLite generates one into the data directory (0600); PostgreSQL refuses to start.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { onBothDatabases } from '../helpers/postgres.js';
import { startQuire, TEST_SECRET_KEY, type Quire } from '../helpers/quire.js';
import { client, until } from '../helpers/http.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { loadConfig } from '../../src/runtime/config.js';
import { keyIdOf } from '../../src/runtime/secret-box.js';
import { Store } from '../../src/store/db/index.js';

const ENV = { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', QUIRE_WEBHOOK_RETRY_SCHEDULE: '0,200ms,300ms', QUIRE_WORKER_CONCURRENCY: '1' };
const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;
const newKey = () => randomBytes(32).toString('base64');
const keyId = (b64: string) => keyIdOf(Buffer.from(b64, 'base64'));

interface Row {
  id: string;
  secret: string | null;
  secret_key_id: string | null;
}

/** The webhooks table as stored, read with a store that has no key. */
async function storedRows(env: NodeJS.ProcessEnv): Promise<Row[]> {
  const store = await Store.open(loadConfig(env).database, { migrate: false });
  try {
    return (await store.raw.executeSql('select id, secret, secret_key_id from webhooks order by id')).rows as Row[];
  } finally {
    await store.close();
  }
}

/** Writes a webhook row as a server before migration 0016 did: the secret in plain text, no key id. */
async function insertPlainRow(env: NodeJS.ProcessEnv, workspaceId: string, id: string, url: string, secret: string): Promise<void> {
  const store = await Store.open(loadConfig(env).database, { migrate: false });
  try {
    const p = (i: number) => (store.dialect === 'postgres' ? `$${i}` : '?');
    await store.raw.executeSql(
      `insert into webhooks (id, workspace_id, target, target_id, url, events, secret, secret_key_id, created_at, scheduled, gen) values (${[1, 2, 3, 4, 5, 6, 7].map(p).join(', ')}, null, ${p(8)}, 0, 0)`,
      [id, workspaceId, 'Documents', null, url, JSON.stringify(['Documents.Create']), secret, Date.now() - 60_000],
    );
  } finally {
    await store.close();
  }
}

onBothDatabases('webhook secrets at rest', 'quire_webhook_secrets', (dialect, database, teardown) => {
  describe(`webhook secrets are sealed at rest and rotate (${dialect})`, () => {
    let q: Quire | undefined;
    const rx = new WebhookReceiver();
    let dbEnv: Record<string, string>;
    let dataDir: string;
    let key: string;
    before(async () => {
      await rx.listen();
      const db = await database();
      dbEnv = db.kind === 'postgres' ? { DATABASE_URL: db.url } : {};
      dataDir = db.kind === 'sqlite' ? path.dirname(db.file) : '';
    });
    after(async () => {
      const code = await q?.stop();
      await rx.close();
      await teardown();
      assert.equal(code ?? 0, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    const start = async (extra: Record<string, string>, bootstrapKey?: string) =>
      startQuire({ ...(dataDir ? { dataDir } : {}), extraEnv: { ...ENV, ...dbEnv, ...(bootstrapKey ? { QUIRE_BOOTSTRAP_KEY: bootstrapKey } : {}), ...extra } });

    /** Uploads one text file and waits until `path` has received one more signed delivery. */
    async function deliveredTo(paths: string[]): Promise<void> {
      const before = new Map(paths.map((p) => [p, rx.accepted.filter((r) => r.path === p).length]));
      const c = client(q!.api, q!.key);
      const up = await c.upload({ bytes: `hello ${Math.random()}\n`, name: 'x.txt' });
      assert.equal(up.status, 201, up.text);
      await until('deliveries', async () => (paths.every((p) => rx.accepted.filter((r) => r.path === p).length > before.get(p)!) ? true : undefined), 60_000);
      assert.deepEqual(rx.invalid, [], 'every signature verifies');
    }

    test('the database holds sealed secrets only; deliveries are signed with the secret', async () => {
      if (dialect === 'SQLite') {
        q = await start({});
        const file = path.join(dataDir, 'secret.key');
        assert.ok(fs.existsSync(file), 'a key is generated into the data directory');
        assert.equal(fs.statSync(file).mode & 0o777, 0o600);
        key = fs.readFileSync(file, 'utf8').trim();
      } else {
        key = TEST_SECRET_KEY;
        q = await start({});
      }
      const c = client(q.api, q.key);
      const secret = whsec();
      const raw = 'a raw secret, ünïcode too';
      for (const [p, s] of [['/sealed', secret], ['/sealed-raw', raw]] as const) {
        const r = await c.post('/webhooks', { json: { target: 'Documents', events: ['Documents.Create'], url: rx.expect(p, s), secret: s } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.json.hasSecret, true);
        assert.ok(!('secret' in r.json));
      }
      const unsigned = await c.post('/webhooks', { json: { target: 'Documents', events: ['Documents.Create'], url: rx.expect('/plain', null) } });
      assert.equal(unsigned.status, 201, unsigned.text);

      const rows = await storedRows(q.env);
      assert.equal(rows.length, 3);
      for (const r of rows.filter((x) => x.secret !== null)) {
        assert.equal(r.secret_key_id, keyId(key));
        assert.ok(!r.secret!.includes(secret) && !r.secret!.includes(secret.slice(6)) && !r.secret!.includes('ünïcode'), 'no plain secret in the row');
      }
      assert.deepEqual(rows.filter((x) => x.secret === null).map((x) => x.secret_key_id), [null]);
      await deliveredTo(['/sealed', '/sealed-raw', '/plain']);
      assert.equal(rx.accepted.find((r) => r.path === '/plain')!.signature, undefined);
    });

    test('a secret stored in plain text keeps signing and is sealed at the next start', async () => {
      const bootstrap = q!.key;
      const workspaceId = (await client(q!.api, q!.key).get('/workspace')).json.id;
      assert.equal(await q!.stop(), 0);
      const legacy = whsec();
      await insertPlainRow({ ...q!.env }, workspaceId, 'legacyhook000000000000000', rx.expect('/legacy', legacy), legacy);
      q = await start(dialect === 'SQLite' ? {} : { QUIRE_SECRET_KEY: key }, bootstrap);
      const row = (await storedRows(q.env)).find((r) => r.id === 'legacyhook000000000000000')!;
      assert.equal(row.secret_key_id, keyId(key), 'sealed at start');
      assert.notEqual(row.secret, legacy);
      await deliveredTo(['/legacy', '/sealed']);
    });

    test('rotation: a new key alone refuses to start; with the old one it signs; `secrets rotate` re-seals; then the new key alone works', async () => {
      const bootstrap = q!.key;
      assert.equal(await q!.stop(), 0);
      q = undefined;
      const next = newKey();
      await assert.rejects(start({ QUIRE_SECRET_KEY: next }, bootstrap), (err: Error) => {
        assert.match(err.message, new RegExp(`key id ${keyId(key)}`));
        assert.match(err.message, /QUIRE_SECRET_KEY_OLD/);
        return true;
      });
      q = await start({ QUIRE_SECRET_KEY: next, QUIRE_SECRET_KEY_OLD: `${newKey()},${key}` }, bootstrap);
      await deliveredTo(['/sealed', '/legacy']);
      // A webhook made now is sealed with the new key, the older ones keep theirs until rotated.
      const late = whsec();
      assert.equal((await client(q.api, q.key).post('/webhooks', { json: { target: 'Documents', events: ['Documents.Create'], url: rx.expect('/late', late), secret: late } })).status, 201);
      const ids = (await storedRows(q.env)).map((r) => r.secret_key_id).filter(Boolean);
      assert.ok(ids.includes(keyId(key)) && ids.includes(keyId(next)));

      const rotated = await q.cli(['secrets', 'rotate']);
      assert.equal(rotated.code, 0, rotated.stderr);
      assert.match(rotated.stdout, /sealed 3 webhook secrets again/);
      assert.match(rotated.stdout, /no secret needs QUIRE_SECRET_KEY_OLD/);
      const after = await storedRows(q.env);
      for (const r of after.filter((x) => x.secret !== null)) assert.equal(r.secret_key_id, keyId(next));
      assert.equal((await q.cli(['secrets', 'rotate'])).stdout.match(/sealed (\d+)/)![1], '0', 'a second run has nothing to do');

      assert.equal(await q.stop(), 0);
      q = await start({ QUIRE_SECRET_KEY: next }, bootstrap);
      await deliveredTo(['/sealed', '/sealed-raw', '/legacy', '/late']);
    });

    if (dialect === 'PostgreSQL') {
      test('PostgreSQL without a key refuses to start, saying what to set', async () => {
        const bootstrap = q!.key;
        assert.equal(await q!.stop(), 0);
        q = undefined;
        await assert.rejects(start({ QUIRE_SECRET_KEY: '' }, bootstrap), /QUIRE_SECRET_KEY is required with PostgreSQL/);
      });
    }
  });
});
