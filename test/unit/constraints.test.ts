/**
 * The one place the database's unique and foreign-key violations become Problems
 * (src/store/db/constraints.ts), on SQLite and PostgreSQL with the drivers' real errors: a
 * transaction that meets one throws a ConstraintViolationError saying what it means (409 or 404,
 * which the transport answers as the DomainError of that kind), not the driver's error (a 500).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Config } from '../../src/runtime/config.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { Store } from '../../src/store/db/index.js';
import { ConstraintViolationError } from '../../src/store/db/constraints.js';
import { onBothDatabases } from '../helpers/postgres.js';

const now = Date.now();
const workspace = { id: 'ws-constraints', name: 'constraints', type: 'Trial', createdAt: now, expiresAt: null, pageQuotaMax: 10, pageQuotaPerDocument: 10, userQuotaMax: 10 };
const docset = (id: string, name: string) => ({ id, workspaceId: workspace.id, name, isSample: false, documentCount: 0, createdAt: now, updatedAt: now });
const document = (id: string, docsetId: string | null): DocumentRecord => ({
  id,
  workspaceId: workspace.id,
  docsetId,
  docsetCandidates: [],
  name: `${id}.txt`,
  format: 'txt',
  contentType: 'text/plain',
  size: 1,
  sha256: '0'.repeat(64),
  blobKey: `k/${id}`,
  status: 'New',
  pageCount: null,
  isSample: false,
  error: null,
  createdAt: now,
  updatedAt: now,
  processedAt: null,
});

async function refusal(p: Promise<unknown>): Promise<ConstraintViolationError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ConstraintViolationError, `not a ConstraintViolationError: ${(err as Error)?.stack ?? String(err)}`);
    assert.ok(err.cause, 'the driver error is its cause');
    return err;
  }
  assert.fail('no error');
}

function suite(dialect: string, database: () => Promise<Config['database']>, teardown: () => Promise<void>) {
  describe(`constraint violations become Problems (${dialect})`, () => {
    let store: Store;
    before(async () => {
      store = await Store.open(await database());
      await store.workspaces.insert(workspace);
      await store.tx(async (s) => s.docsets.insert(docset('ds-1', 'taken')));
    });
    after(async () => {
      await store?.close();
      await teardown();
    });

    test('a docset name taken: 409 saying so', async () => {
      const e = await refusal(store.tx(async (s) => s.docsets.insert(docset('ds-2', 'taken'))));
      assert.equal(e.kind, 'conflict');
      assert.match(e.message, /A docset with this name already exists/);
    });

    test('a duplicate id: 409', async () => {
      const e = await refusal(store.tx(async (s) => s.docsets.insert(docset('ds-1', 'other'))));
      assert.equal(e.kind, 'conflict');
    });

    test('a row naming a docset that is gone: a Problem (PostgreSQL: 404 naming the docset)', async () => {
      const e = await refusal(store.tx(async (s) => s.documents.insert(document('doc-1', 'ds-gone'))));
      if (dialect === 'PostgreSQL') {
        assert.equal(e.kind, 'not-found');
        assert.match(e.message, /docset was deleted/);
      } else {
        assert.equal(e.kind, 'conflict');
      }
    });

    test('deleting a docset a document still names: 409 to retry', async () => {
      await store.tx(async (s) => s.documents.insert(document('doc-2', 'ds-1')));
      const e = await refusal(store.tx(async (s) => s.docsets.delete(workspace.id, 'ds-1')));
      assert.equal(e.kind, 'conflict');
      assert.equal(e.headers['retry-after'], '1');
      // Nothing of the failed transactions was kept.
      assert.ok(await store.docsets.get(workspace.id, 'ds-1'));
      assert.equal(await store.documents.get(workspace.id, 'doc-1'), undefined);
    });
  });
}

onBothDatabases('constraint violations', 'quire_constraints', suite);
