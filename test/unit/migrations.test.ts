/**
 * The migrations of issue 42 on data written before them, on SQLite and on PostgreSQL: 0012 copies
 * each document's metadata onto its row (in order), 0013 gives existing samples the catalogue version
 * they came from, 0014 rebuilds `artifacts` keyed (project_id, version, id) with every row kept. The
 * store then reads them as the API serves them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { migrateTo, migrateToLatest, openDb } from '../../src/store/db/connect.js';
import { Store } from '../../src/store/db/index.js';
import type { Config } from '../../src/runtime/config.js';
import { onBothDatabases } from '../helpers/postgres.js';

onBothDatabases('migrations 0012-0014 on existing data', 'quire_migrations', (dialect, database, teardown) => {
  describe(`migrations 0012-0014 on existing data (${dialect})`, () => {
    let config: Config['database'];
    const now = Date.now();

    before(async () => {
      config = await database();
      const { db, pointReads } = openDb(config);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const raw = db as any;
      try {
        await migrateTo(db, '0011_point_reads');
        await raw.insertInto('workspaces').values({ id: 'ws1', name: 'ws', type: 'Trial', created_at: now, page_quota_max: 1000, page_quota_per_document: 100, user_quota_max: 10 }).execute();
        const doc = (id: string) => ({
          id, workspace_id: 'ws1', name: `${id}.txt`, format: 'txt', content_type: 'text/plain', size: 1, sha256: 'x', blob_key: `k/${id}`, status: 'Ready', created_at: now, updated_at: now, pkey: 1,
        });
        await raw.insertInto('documents').values([doc('d1'), doc('d2'), doc('d3')]).execute();
        // d1: two entries written out of position order; d2: one with characters JSON escapes; d3: none.
        await raw
          .insertInto('document_metadata')
          .values([
            { document_id: 'd1', workspace_id: 'ws1', key: 'second', value: 'B', position: 1 },
            { document_id: 'd1', workspace_id: 'ws1', key: 'first', value: 'A', position: 0 },
            { document_id: 'd2', workspace_id: 'ws1', key: 'quote', value: 'say "hi" \\ é', position: 0 },
          ])
          .execute();
        await raw.insertInto('samples').values({ id: 's1', workspace_id: 'ws1', catalog_id: 'nda', name: 'Mutual NDAs', docset_id: 'ds1', suggested_properties: '[]', created_at: now, updated_at: now }).execute();
        const artifact = (id: string, version: number, readOnly: number) => ({
          id, workspace_id: 'ws1', project_id: 'p1', version, name: `${id}.json`, document_id: null, size: 2, content_type: 'application/json', sha256: 'y', blob_key: `projects/p1/${id}`, is_read_only: readOnly, pkey: 7, created_at: now, updated_at: now,
        });
        await raw.insertInto('artifacts').values([artifact('a1', 1, 1), artifact('a2', 1, 0), artifact('a3', 2, 1)]).execute();
        await migrateToLatest(db);
      } finally {
        await pointReads.close();
        await db.destroy();
      }
    });

    after(async () => {
      await teardown();
    });

    test('0012: each document row carries its metadata in order; none is []', async () => {
      const store = await Store.open(config, { migrate: false });
      try {
        assert.deepEqual((await store.documents.get('ws1', 'd1'))!.metadata, [{ key: 'first', value: 'A' }, { key: 'second', value: 'B' }]);
        assert.deepEqual((await store.documents.get('ws1', 'd2'))!.metadata, [{ key: 'quote', value: 'say "hi" \\ é' }]);
        assert.deepEqual((await store.documents.get('ws1', 'd3'))!.metadata, []);
        // The filter rows are as they were, and a write keeps both in step.
        assert.deepEqual(await store.metadata.get('d1'), [{ key: 'first', value: 'A' }, { key: 'second', value: 'B' }]);
        await store.tx((s) => s.metadata.replace('ws1', 'd3', [{ key: 'k', value: 'v' }]));
        assert.deepEqual((await store.documents.get('ws1', 'd3'))!.metadata, [{ key: 'k', value: 'v' }]);
      } finally {
        await store.close();
      }
    });

    test('0013: an existing sample came from version "1"', async () => {
      const store = await Store.open(config, { migrate: false });
      try {
        assert.equal((await store.samples.get('ws1', 's1'))!.catalogVersion, '1');
      } finally {
        await store.close();
      }
    });

    test('0014: every artifact row is kept; one id may be in several versions, never twice in one', async () => {
      const store = await Store.open(config, { migrate: false });
      try {
        assert.deepEqual((await store.artifacts.ofVersion('p1', 1)).map((a) => [a.id, a.isReadOnly]), [['a1', true], ['a2', false]]);
        assert.deepEqual((await store.artifacts.ofVersion('p1', 2)).map((a) => a.id), ['a3']);
        const carried = { ...(await store.artifacts.get('p1', 1, 'a2'))!, version: 2 };
        await store.artifacts.insertMany([carried]);
        assert.deepEqual((await store.artifacts.ofVersion('p1', 2)).map((a) => a.id), ['a2', 'a3']);
        await assert.rejects(store.artifacts.insertMany([carried]), 'the same id twice in one version');
        // Deleting it from one version leaves the other's row (and the shared blob in use).
        await store.artifacts.delete({ projectId: 'p1', version: 2, id: 'a2' });
        assert.ok(await store.artifacts.get('p1', 1, 'a2'));
        assert.equal(await store.artifacts.blobInUse('projects/p1/a2'), true);
      } finally {
        await store.close();
      }
    });
  });
});
