/**
 * DGML, text and Markdown are written once and kept (issue 46): a real server on SQLite and on
 * PostgreSQL makes a document Ready and writes its three files then, before any request; each GET
 * serves the kept bytes, equal to what the writers make of the stored structure (what every request
 * used to compute), with a strong ETag and 304 to If-None-Match. A property value set by hand, and a
 * docset renamed, change the DGML and its ETag; a document whose files were never kept (Ready before
 * this change) gets them at its first request; a deleted document's files go with it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, type Client, until } from '../helpers/http.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { Store } from '../../src/store/db/index.js';
import type { Config } from '../../src/runtime/config.js';
import type { StructureModel } from '../../src/document/structure.js';
import { renderDgml } from '../../src/document/writers/dgml.js';
import { renderMarkdown, renderText } from '../../src/document/writers/text.js';
import { QUIRE_VERSION } from '../../src/runtime/version.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');
const FORMATS = ['dgml', 'text', 'markdown'] as const;

onBothDatabases('structure files', 'quire_structure_files', (dialect, database, teardown) => {
  describe(`DGML, text and Markdown kept as blobs (${dialect})`, () => {
    let q: Quire;
    let c: Client;
    let store: Store;
    let docsetId: string;
    let docId: string;
    const blobsDir = () => path.join(q.dataDir, 'blobs');
    const url = (format: (typeof FORMATS)[number]) => (format === 'dgml' ? `/docsets/${docsetId}/documents/${docId}/dgml` : `/documents/${docId}/content?format=${format}`);
    const filesOnDisk = (id: string) => {
      const dir = path.join(blobsDir(), 'workspaces');
      const found: string[] = [];
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (p.includes(`/documents/${id}/files/`)) found.push(p);
        }
      };
      if (fs.existsSync(dir)) walk(dir);
      return found.sort();
    };
    /** The structure the server stored, and the names its DGML carries. */
    const storedStructure = async (): Promise<StructureModel> => {
      const doc = await store.documents.get((await c.get('/workspace')).json.id, docId);
      return JSON.parse(gunzipSync(fs.readFileSync(path.join(blobsDir(), doc!.structureBlobKey!))).toString('utf8')) as StructureModel;
    };

    before(async () => {
      const db = await database();
      q = await startQuire(db.kind === 'postgres' ? { databaseUrl: db.url } : {});
      c = client(q.api, q.key);
      const storeDb: Config['database'] = db.kind === 'postgres' ? db : { kind: 'sqlite', file: path.join(q.dataDir, 'quire.db') };
      store = await Store.open(storeDb, { migrate: false });
      const ds = await c.post('/docsets', { json: { name: 'NDAs' } });
      assertJson(ds, 201);
      docsetId = ds.json.id;
      const up = await c.upload({ path: NDA }, { 'docset.id': docsetId });
      assertJson(up, 201);
      docId = up.json.id;
      const doc = await until(`document ${docId} processed`, async () => {
        const d = (await c.get(`/documents/${docId}`)).json;
        return d.status === 'Ready' || d.status === 'Error' ? d : undefined;
      });
      assert.equal(doc.status, 'Ready', JSON.stringify(doc));
    });
    after(async () => {
      await store?.close();
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('the three files are written when the document becomes Ready, before any request', async () => {
      const rows = await until('three files kept', async () => {
        const found = await Promise.all(FORMATS.map((f) => store.structureFiles.get(docId, f)));
        return found.every(Boolean) ? found : undefined;
      }, 60_000);
      const onDisk = filesOnDisk(docId);
      assert.equal(onDisk.length, 3, onDisk.join('\n'));
      for (const row of rows) {
        const bytes = fs.readFileSync(path.join(blobsDir(), row!.blobKey));
        assert.equal(bytes.length, row!.size);
        assert.match(row!.sha256, /^[0-9a-f]{64}$/);
      }
    });

    test('each GET serves the kept bytes, equal to what the writers make of the stored structure', async () => {
      const ws = (await c.get('/workspace')).json;
      const expected = {
        // No property values yet: no label cells, as the DGML of a docset without properties always was.
        dgml: renderDgml(await storedStructure(), { workspace: ws.name, docsetName: 'NDAs', version: QUIRE_VERSION, labelCells: new Map() }),
        text: renderText(await storedStructure()),
        markdown: renderMarkdown(await storedStructure()),
      };
      for (const format of FORMATS) {
        const r = await c.get(url(format));
        assert.equal(r.status, 200, `${format}: ${r.text.slice(0, 300)}`);
        assert.ok(r.buffer.equals(Buffer.from(expected[format], 'utf8')), `${format}: the served bytes are the writers' output`);
        const row = await store.structureFiles.get(docId, format);
        assert.ok(r.buffer.equals(fs.readFileSync(path.join(blobsDir(), row!.blobKey))), `${format}: served from the kept blob`);
        assert.equal(r.headers.get('content-length'), String(row!.size));
        assert.equal(r.headers.get('etag'), `"${Buffer.from(row!.sha256, 'hex').toString('base64url').slice(0, 32)}"`);
      }
      assert.match((await c.get(url('dgml'))).headers.get('content-type')!, /^application\/xml/);
      assert.match((await c.get(url('markdown'))).headers.get('content-type')!, /^text\/markdown/);
      // Served from the kept blob, not written again: what the blob holds is what a request gets.
      const row = await store.structureFiles.get(docId, 'text');
      const kept = path.join(blobsDir(), row!.blobKey);
      const original = fs.readFileSync(kept);
      fs.writeFileSync(kept, Buffer.alloc(original.length, 'x'));
      try {
        assert.equal((await c.get(url('text'))).text, 'x'.repeat(original.length));
      } finally {
        fs.writeFileSync(kept, original);
      }
      // The same file under the docset-less route.
      const any = await c.get(`/documents/${docId}/dgml`);
      assert.ok(any.buffer.equals(Buffer.from(expected.dgml, 'utf8')));
    });

    test('a strong ETag: 304 to If-None-Match naming it (also in a list, or weak), 200 with the bytes otherwise', async () => {
      for (const format of FORMATS) {
        const first = await c.get(url(format));
        const etag = first.headers.get('etag')!;
        assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
        const again = await c.get(url(format));
        assert.equal(again.headers.get('etag'), etag, 'the same file, the same ETag');
        for (const inm of [etag, `"nope", ${etag}`, `W/${etag}`, '*']) {
          const r = await c.get(url(format), { headers: { 'if-none-match': inm } });
          assert.equal(r.status, 304, `${format} If-None-Match ${inm}`);
          assert.equal(r.buffer.length, 0);
          assert.equal(r.headers.get('etag'), etag);
        }
        const other = await c.get(url(format), { headers: { 'if-none-match': '"something-else"' } });
        assert.equal(other.status, 200);
        assert.ok(other.buffer.equals(first.buffer));
      }
    });

    test('a property value set by hand is tagged in the DGML at once, with a new ETag; text and Markdown stay', async () => {
      const before = await c.get(url('dgml'));
      const textBefore = await c.get(url('text'));
      assert.match(textBefore.text, /Jane Doe/, 'the NDA names Jane Doe');
      assert.doesNotMatch(before.text, /<docset:Recipient>/);
      const made = await c.post(`/docsets/${docsetId}/properties`, { json: { label: 'Recipient' } });
      assertJson(made, 201);
      assertJson(await c.put(`/docsets/${docsetId}/properties/${made.json.id}/documents/${docId}`, { json: { value: 'Jane Doe' } }));
      const after = await c.get(url('dgml'));
      assert.equal(after.status, 200);
      assert.match(after.text, /<docset:Recipient>\s*Jane Doe\s*<\/docset:Recipient>/);
      assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
      assert.equal((await c.get(url('dgml'), { headers: { 'if-none-match': before.headers.get('etag')! } })).status, 200, 'the old ETag no longer matches');
      const row = await store.structureFiles.get(docId, 'dgml');
      assert.ok(after.buffer.equals(fs.readFileSync(path.join(blobsDir(), row!.blobKey))), 'the new DGML is the kept one');
      const textAfter = await c.get(url('text'), { headers: { 'if-none-match': textBefore.headers.get('etag')! } });
      assert.equal(textAfter.status, 304, 'the text does not tag values');
      // The replaced DGML's blob is gone (the extraction the value queued may have written once more meanwhile).
      await until('one DGML blob', async () => (filesOnDisk(docId).filter((f) => /\/files\/dgml-/.test(f)).length === 1 ? true : undefined), 60_000);
      // The property deleted: the tag goes at the next request (no job in between).
      assert.equal((await c.del(`/docsets/${docsetId}/properties/${made.json.id}`)).status, 204);
      const gone = await c.get(url('dgml'));
      assert.doesNotMatch(gone.text, /<docset:Recipient>/);
      assert.ok(gone.buffer.equals(before.buffer), 'the DGML without the property is the one before it');
      assert.equal(gone.headers.get('etag'), before.headers.get('etag'));
    });

    test('a renamed docset is named in the DGML at the next request', async () => {
      const before = await c.get(url('dgml'));
      assert.match(before.text, /xmlns:docset="http:\/\/www\.docugami\.com\/2021\/dgml\/[^"]+\/NDAs"/);
      assertJson(await c.patch(`/docsets/${docsetId}`, { json: { name: 'Agreements' } }));
      const after = await c.get(url('dgml'));
      assert.match(after.text, /xmlns:docset="http:\/\/www\.docugami\.com\/2021\/dgml\/[^"]+\/Agreements"/);
      assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    });

    test('a document Ready before files were kept gets them at its first request, the same bytes', async () => {
      const served = Object.fromEntries(await Promise.all(FORMATS.map(async (f) => [f, (await c.get(url(f))).buffer] as const)));
      // A kept blob gone under its row (replaced by a concurrent write): written again.
      for (const f of filesOnDisk(docId)) fs.rmSync(f);
      for (const format of FORMATS) assert.ok((await c.get(url(format))).buffer.equals(served[format]!), `${format} written again`);
      // As a database migrated from before: no rows, no blobs.
      await store.raw.executeSql(`delete from structure_files where document_id = ${dialect === 'PostgreSQL' ? '$1' : '?'}`, [docId]);
      for (const f of filesOnDisk(docId)) fs.rmSync(f);
      for (const format of FORMATS) assert.equal(await store.structureFiles.get(docId, format), undefined);
      const rs = await Promise.all(FORMATS.flatMap((f) => [c.get(url(f)), c.get(url(f))]));
      FORMATS.forEach((f, i) => {
        for (const r of [rs[2 * i]!, rs[2 * i + 1]!]) {
          assert.equal(r.status, 200);
          assert.ok(r.buffer.equals(served[f]!), `${f}: the same bytes as before`);
        }
      });
      for (const format of FORMATS) assert.ok(await store.structureFiles.get(docId, format), `${format} kept again`);
      assert.equal(filesOnDisk(docId).length, 3);
    });

    test('a deleted document takes its files with it', async () => {
      assert.equal(filesOnDisk(docId).length, 3);
      assert.equal((await c.del(`/documents/${docId}`)).status, 204);
      assert.deepEqual(filesOnDisk(docId), []);
      for (const format of FORMATS) assert.equal(await store.structureFiles.get(docId, format), undefined);
      assert.equal((await c.get(`/documents/${docId}/dgml`)).status, 404);
    });
  });
});
