/**
 * Issue 46, ZIP expansion, on SQLite and PostgreSQL:
 *  - idempotent: the expansion of one ZIP run twice at once (a lost lease) and again afterwards (a
 *    retried job) creates its members once;
 *  - over HTTP: an archive that expands more than 100:1 as a whole (many small members, none past the
 *    per-member check) ends in Error "Unsafe ZIP" with no member created; members whose names break
 *    the upload rules are skipped with the reason; members that would take the workspace past the bytes
 *    it may store end the ZIP in Error "Over storage limit" with no member created, and the ZIP kept.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { onBothDatabases } from '../helpers/postgres.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { client, until, type Client } from '../helpers/http.js';
import { makeZip } from '../helpers/zip.js';
import { scratchDir } from '../helpers/scratch.js';
import { Store } from '../../src/store/db/index.js';
import { openBlobStore } from '../../src/store/blobs/index.js';
import { DocumentService } from '../../src/domain/documents.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import { startIngesting } from '../../src/domain/ingestion.js';
import { expandZip } from '../../src/ingest/readers/zip/zip.js';
import { formatOfName } from '../../src/model/formats.js';
import { MAX_UPLOAD_BYTES } from '../../src/runtime/config.js';

/** Text that does not compress: members of a stored size. */
const randomText = (bytes: number) => Buffer.from(randomBytes(Math.ceil(bytes / 2)).toString('hex').slice(0, bytes));

async function settled(c: Client, id: string): Promise<{ status: string; error?: { title: string; detail: string }; processing?: unknown }> {
  return until(`document ${id} settled`, async () => {
    const d = (await c.get(`/documents/${id}`)).json;
    return d.status === 'Ready' || d.status === 'Error' ? d : undefined;
  }, 120_000);
}

onBothDatabases('zip expansion', 'quire_zip_expansion', (dialect, database, teardown) => {
  describe(`ZIP expansion: idempotent, bounded, names checked (${dialect})`, () => {
    let db: Awaited<ReturnType<typeof database>>;
    let q: Quire | undefined;
    before(async () => {
      db = await database();
    });
    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code ?? 0, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('run twice at once and once more: each member is created once', async () => {
      const store = await Store.open(db);
      const blobs = await openBlobStore({ kind: 'fs', root: scratchDir('zip-blobs-') });
      try {
        const ws = await new WorkspaceService(store).create('zip-idempotence');
        const documents = new DocumentService(store, blobs, MAX_UPLOAD_BYTES);
        const archive = makeZip(Array.from({ length: 12 }, (_, i) => ({ name: `m${i}.txt`, data: `member ${i}\n`, deflate: i % 2 === 0 })));
        const staged = await blobs.stage(Readable.from([archive]), { maxBytes: MAX_UPLOAD_BYTES });
        const parent = await documents.createFromStaged({ workspaceId: ws.id, name: 'a.zip', format: formatOfName('a.zip')!, docsetIds: [], metadata: [] }, staged);
        assert.ok(await startIngesting(store.ingest, parent, { stage: 'expanding', pagesDone: 0, pagesTotal: null }));
        const runOnce = async () => {
          const { members, skipped } = await expandZip(archive);
          await documents.createZipMembers({ ...parent, status: 'Ingesting' }, members, skipped);
        };
        await Promise.all([runOnce(), runOnce(), runOnce()]);
        await runOnce();
        const all = (await documents.list(ws.id, {}, { limit: 100 })).items.filter((d) => d.id !== parent.id);
        assert.deepEqual(all.map((d) => d.name).sort(), Array.from({ length: 12 }, (_, i) => `m${i}.txt`).sort());
        assert.equal((await documents.get(ws.id, parent.id)).status, 'Ready');
        for (const d of all) {
          const bytes = Buffer.concat(await (await blobs.read(d.blobKey)).toArray());
          assert.equal(bytes.toString(), `member ${d.name.slice(1, -4)}\n`);
        }
      } finally {
        blobs.close?.();
        await store.close();
      }
    });

    test('over HTTP: a whole-archive bomb is refused; bad names are skipped; members past the stored bytes leave the ZIP in Error and create nothing', async () => {
      q = await startQuire({
        ...(db.kind === 'postgres' ? { databaseUrl: db.url } : { dataDir: db.file.replace(/\/quire\.db$/, '') }),
        extraEnv: { QUIRE_WORKSPACE_MAX_STORED_MB: '2', QUIRE_WORKER_CONCURRENCY: '1' },
      });
      const c = client(q.api, q.key);

      const bomb = makeZip(Array.from({ length: 8 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.alloc(1024 * 1024, 0x61 + i), deflate: true })));
      const b = await c.upload({ bytes: bomb, name: 'bomb.zip' });
      assert.equal(b.status, 201, b.text);
      const bombDoc = await settled(c, b.json.id);
      assert.equal(bombDoc.status, 'Error');
      assert.equal(bombDoc.error?.title, 'Unsafe ZIP');
      assert.match(bombDoc.error!.detail, /expands more than 100:1/);

      const named = makeZip([
        { name: 'good.txt', data: 'a fine member\n' },
        { name: 'bad\u0007name.txt', data: 'bell\n' },
        { name: 'good.txt', data: 'again\n' },
        { name: '../escape.txt', data: 'out\n' },
      ]);
      const n = await c.upload({ bytes: named, name: 'named.zip' });
      assert.equal(n.status, 201, n.text);
      const namedDoc = await settled(c, n.json.id);
      assert.equal(namedDoc.status, 'Ready', JSON.stringify(namedDoc));
      const reasons = JSON.stringify(namedDoc.processing);
      assert.match(reasons, /control characters/);
      assert.match(reasons, /duplicate name/);
      assert.match(reasons, /escapes the archive/);

      const docsBefore = (await c.get('/documents?limit=100')).json.documents.length;
      const big = makeZip([0, 1, 2].map((i) => ({ name: `big${i}.txt`, data: randomText(400 * 1024) })));
      const g = await c.upload({ bytes: big, name: 'big.zip' });
      assert.equal(g.status, 201, g.text);
      const bigDoc = await settled(c, g.json.id);
      assert.equal(bigDoc.status, 'Error');
      assert.equal(bigDoc.error?.title, 'Over storage limit');
      const docsAfter = (await c.get('/documents?limit=100')).json.documents;
      assert.equal(docsAfter.length, docsBefore + 1, 'the ZIP is kept, no member was created');
      assert.ok(!docsAfter.some((d: { name: string }) => d.name.startsWith('big') && d.name.endsWith('.txt')));
    });
  });
});
