import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Store } from '../../src/store/db/index.js';
import { KeptRows } from '../../src/store/db/kept-rows.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import type { DocumentRecord } from '../../src/model/records.js';
import type { Config } from '../../src/runtime/config.js';
import { onBothDatabases } from '../helpers/postgres.js';

// The point lookups (API key with its workspace, document by id) keep what they read between
// requests (src/store/db/point-reads*.ts). These tests write through another Store on the same
// database (what another process does), through this one, and inside transactions, and check that a
// kept value never outlives the change.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function doc(workspaceId: string, id: string): DocumentRecord {
  const now = Date.now();
  return {
    id, workspaceId, docsetId: null, docsetCandidates: [], name: `${id}.pdf`, format: 'pdf', contentType: 'application/pdf',
    size: 10, sha256: 'a'.repeat(64), blobKey: `blob-${id}`, status: 'Ready', pageCount: 1, isSample: false, error: null,
    createdAt: now, updatedAt: now, processedAt: now, progress: null, renditionBlobKey: null, structureBlobKey: null,
    classification: null, processing: null,
  } as DocumentRecord;
}

/** Polls `read` until `ok`; returns how long it took (fails after 2 s). */
async function within<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (ok(await read())) return performance.now() - t0;
    assert.ok(performance.now() - t0 < 2000, 'the change was not seen within 2 s');
    await sleep(1);
  }
}

function pointReadsSuite(name: string, database: () => Promise<Config['database']>, teardown?: () => Promise<void>) {
  describe(`point reads (${name})`, () => {
    let db: Config['database'];
    let a: Store; // this process
    let b: Store; // another process on the same database
    let workspaceId: string;
    let secret: string;

    before(async () => {
      db = await database();
      a = await Store.open(db);
      b = await Store.open(db, { migrate: false });
      const workspaces = new WorkspaceService(a);
      workspaceId = (await workspaces.ensureDefault()).id;
      secret = (await workspaces.createKey('default', ['admin'])).secret;
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await teardown?.();
    });

    test('a value is kept: the same frozen record comes back until something changes', async () => {
      await a.documents.insert(doc(workspaceId, 'pr-kept'));
      // On PostgreSQL the insert's own notification arrives a moment after its commit.
      await sleep(100);
      const first = await a.documents.get(workspaceId, 'pr-kept');
      const again = await a.documents.get(workspaceId, 'pr-kept');
      assert.ok(first && Object.isFrozen(first) && Object.isFrozen(first.docsetCandidates), 'frozen, nested values too');
      assert.equal(again, first, 'the second read is the kept value');
      assert.throws(() => (first.docsetCandidates as string[]).push('x'), TypeError);
    });

    test("this process's own writes are seen at once, in and out of transactions", async () => {
      await a.documents.insert(doc(workspaceId, 'pr-own'));
      assert.equal((await a.documents.get(workspaceId, 'pr-own'))?.name, 'pr-own.pdf');
      await a.documents.delete(workspaceId, 'pr-own');
      assert.equal(await a.documents.get(workspaceId, 'pr-own'), undefined, 'deleted without a transaction');

      await a.documents.insert(doc(workspaceId, 'pr-own-tx'));
      assert.ok(await a.documents.get(workspaceId, 'pr-own-tx'));
      await a.tx(async (s) => {
        await s.documents.delete(workspaceId, 'pr-own-tx');
        assert.equal(await s.documents.get(workspaceId, 'pr-own-tx'), undefined, 'the transaction sees its own delete');
        // Outside the transaction only committed rows count: the document is still there, and this
        // read may keep it; the commit must drop it.
        assert.ok(await a.documents.get(workspaceId, 'pr-own-tx'), 'uncommitted: still there for other readers');
      });
      assert.equal(await a.documents.get(workspaceId, 'pr-own-tx'), undefined, 'committed: gone at once');
    });

    test('a rolled-back transaction leaves the committed value', async () => {
      await a.documents.insert(doc(workspaceId, 'pr-rollback'));
      await assert.rejects(
        a.tx(async (s) => {
          await s.documents.delete(workspaceId, 'pr-rollback');
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.ok(await a.documents.get(workspaceId, 'pr-rollback'));
    });

    test("another process's commits are seen: a deleted document, a revoked key, a changed quota", async () => {
      await a.documents.insert(doc(workspaceId, 'pr-other'));
      assert.ok(await a.documents.get(workspaceId, 'pr-other'));
      assert.ok(await a.documents.get(workspaceId, 'pr-other'), 'kept');
      await b.documents.delete(workspaceId, 'pr-other');
      const docMs = await within(() => a.documents.get(workspaceId, 'pr-other'), (d) => d === undefined);

      const auth = new WorkspaceService(a);
      const principal = await auth.authenticate(secret);
      assert.ok(principal);
      const before = principal.workspace.pageQuotaMax;
      await b.workspaces.setQuota(workspaceId, { pageMax: before + 1 });
      const quotaMs = await within(() => auth.authenticate(secret), (p) => p?.workspace.pageQuotaMax === before + 1);
      await b.apiKeys.update(principal.key.id, { revokedAt: Date.now() });
      const revokeMs = await within(() => auth.authenticate(secret), (p) => p === null);
      // SQLite checks for other connections' commits every millisecond; PostgreSQL is told at commit.
      for (const ms of [docMs, quotaMs, revokeMs]) assert.ok(ms < 250, `seen after ${ms.toFixed(1)} ms`);
    });

    // PostgreSQL only: SQLite asks the database file itself (PRAGMA data_version), nothing to stop hearing.
    if (name === 'PostgreSQL') test('a listener that silently stops hearing leaves kept values their bounded life (QUIRE_READ_CACHE_TTL_MS)', async () => {
      const TTL_MS = 600;
      const c = await Store.open({ ...db, readCacheTtlMs: TTL_MS }, { migrate: false });
      const frozen: number[] = [];
      try {
        const created = await new WorkspaceService(a).createKey('default', ['admin']);
        const auth = new WorkspaceService(c);
        await sleep(100); // the key's own notification
        const principal = await auth.authenticate(created.secret);
        assert.ok(principal);
        // Every listening backend is frozen (SIGSTOP): its connection stays open, no error reaches
        // the listener, and no notification either (as a half-open connection or a pooler would do).
        const { rows } = await c.raw.executeSql(`SELECT pid FROM pg_stat_activity WHERE query ILIKE 'LISTEN %'`, []);
        assert.ok(rows.length >= 3, `listeners: ${rows.length}`);
        for (const { pid } of rows as { pid: number }[]) {
          process.kill(pid, 'SIGSTOP');
          frozen.push(pid);
        }
        const revokedAt = Date.now();
        await b.apiKeys.update(principal.key.id, { revokedAt });
        const committedAt = performance.now();
        assert.ok(await auth.authenticate(created.secret), 'the revocation was heard: the listener did not stop');
        await within(() => auth.authenticate(created.secret), (p) => p === null);
        const seenAfter = performance.now() - committedAt;
        assert.ok(seenAfter <= TTL_MS + 200, `revoked key answered for ${seenAfter.toFixed(0)} ms`);
      } finally {
        for (const pid of frozen) process.kill(pid, 'SIGCONT');
        await c.close();
      }
    });

    test('QUIRE_READ_CACHE_MB=0 keeps nothing', async () => {
      const none = await Store.open({ ...db, readCacheBytes: 0 }, { migrate: false });
      try {
        await none.documents.insert(doc(workspaceId, 'pr-none'));
        const x = await none.documents.get(workspaceId, 'pr-none');
        const y = await none.documents.get(workspaceId, 'pr-none');
        assert.ok(x && y);
        assert.notEqual(x, y, 'each read is a new record');
      } finally {
        await none.close();
      }
    });
  });
}

describe('kept rows', () => {
  test('stay within their byte budget and give recently used entries a second chance', () => {
    const kept = new KeptRows(64 * 1024);
    const row = { a: 'x'.repeat(100), b: 1 };
    kept.set('hot', row, { v: 'hot' });
    for (let i = 0; i < 2000; i++) {
      kept.set(`k${i}`, row, { v: i });
      assert.ok(kept.get('hot'), `the hot entry survived insert ${i}`);
    }
    assert.ok(kept.size < 2000 && kept.size > 50, `kept ${kept.size}`);
    assert.equal(kept.get('k0'), undefined, 'an entry never read again was evicted');
    assert.deepEqual(kept.get('k1999'), { v: 1999 });
    kept.set('huge', { a: 'x'.repeat(10_000) }, {});
    assert.equal(kept.get('huge'), undefined, 'a value over 1/16 of the budget is not kept');
    kept.clear();
    assert.equal(kept.size, 0);
  });
});

onBothDatabases('point reads', 'quire_point_reads', pointReadsSuite);
