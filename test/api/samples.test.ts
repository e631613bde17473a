/**
 * Samples over real HTTP against a real server with its workers: the catalogue (list, pages, get),
 * creating a sample (its docset and documents flagged `isSample`, hidden from lists unless
 * `samples=true`, stored as the generated files), its status from InProgress to Ready, its suggested
 * properties on the docset, and the errors. On SQLite, and on PostgreSQL when its binaries are installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startQuire, type Quire } from '../helpers/quire.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { assertJson, assertProblem, client, collectPages, type Client, until } from '../helpers/http.js';
import { SAMPLE_CATALOG, findSampleSet, renderSampleDocument } from '../../src/samples/index.js';

const ids = (items: { id: string }[]) => items.map((i) => i.id);

function samplesSuite(label: string, start: () => Promise<Quire>, teardown: () => Promise<void> = async () => {}) {
  describe(`samples (${label})`, () => {
    let q: Quire;
    let c: Client;
    let readOnly: Client;
    let other: Client;

    before(async () => {
      q = await start();
      c = client(q.api, q.key);
      const key = async (workspace: string, scopes: string) => {
        const r = await q.cli(['keys', 'create', '--workspace', workspace, '--scopes', scopes]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout.trim();
      };
      readOnly = client(q.api, await key('default', 'read:documents'));
      assert.equal((await q.cli(['workspaces', 'create', 'other'])).code, 0);
      other = client(q.api, await key('other', 'admin'));
    });

    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('the catalogue: every entry with its documents and suggested properties, paged by limit, filtered by name', async () => {
      const r = await readOnly.get('/sample-catalog');
      assertJson(r);
      assert.equal(r.json.next, null);
      assert.deepEqual(ids(r.json.samples), SAMPLE_CATALOG.map((s) => s.id));
      for (const entry of r.json.samples) {
        const set = findSampleSet(entry.id)!;
        assert.deepEqual(entry, {
          id: set.id,
          name: set.name,
          description: set.description,
          version: set.version,
          documentCount: set.generate().length,
          suggestedProperties: set.suggestedProperties.map((label) => ({ label })),
          createdAt: set.createdAt,
          updatedAt: set.updatedAt,
          url: `${q.api}/sample-catalog/${set.id}`,
        });
        // The catalogue item's fields the API names (issue 42): a version and when it shipped and last changed.
        assert.match(entry.version, /^\d+$/);
        assert.ok(Date.parse(entry.createdAt) <= Date.parse(entry.updatedAt));
        assert.ok(entry.documentCount >= 6 && entry.suggestedProperties.length >= 3);
        const one = await c.get(`/sample-catalog/${entry.id}`);
        assertJson(one);
        assert.deepEqual(one.json, entry);
      }

      const paged = await collectPages(c, '/sample-catalog?limit=1', 'samples');
      assert.deepEqual(ids(paged.items), ids(r.json.samples));
      assert.equal(paged.urls.length, r.json.samples.length, 'one page per entry');
      for (const url of paged.urls.slice(1)) assert.ok(url.startsWith(`${q.api}/sample-catalog?`) && url.includes('cursor=') && url.includes('limit=1'));

      const byName = await c.get(`/sample-catalog?name=${encodeURIComponent('Mutual NDAs')}`);
      assert.deepEqual(ids(byName.json.samples), ['nda']);
      assert.deepEqual((await c.get('/sample-catalog?name=nothing')).json, { samples: [], next: null });

      assertProblem(await c.get('/sample-catalog/nope'), 404, /nope/);
      assertProblem(await c.get('/sample-catalog/not.an.id'), 400);
      assertProblem(await c.get('/sample-catalog?limit=0'), 400);
      assertProblem(await c.get('/sample-catalog', { key: null }), 401);
    });

    test('creating a sample: a sample docset of generated documents, hidden unless samples=true, InProgress then Ready', async () => {
      const set = findSampleSet('invoices')!;
      const generated = set.generate();
      const created = await c.post('/samples', { json: { id: 'invoices' } });
      assertJson(created, 201);
      assert.equal(created.json.samples.length, 1);
      const sample = created.json.samples[0];
      assert.equal(sample.status, 'InProgress', 'its documents were just queued');
      assert.equal(sample.name, set.name);
      assert.equal(sample.documentCount, generated.length);
      assert.deepEqual(sample.catalog, { id: 'invoices', url: `${q.api}/sample-catalog/invoices` });
      assert.equal(sample.url, `${q.api}/samples/${sample.id}`);
      assert.equal(sample.docset.url, `${q.api}/docsets/${sample.docset.id}`);
      assert.deepEqual(sample.suggestedProperties, set.suggestedProperties.map((label) => ({ label })));

      // The docset and its documents are samples: listed only with samples=true.
      const docset = await c.get(`/docsets/${sample.docset.id}`);
      assertJson(docset);
      assert.equal(docset.json.isSample, true);
      assert.equal(docset.json.name, set.name);
      assert.equal(docset.json.documentCount, generated.length);
      assert.ok(!ids((await c.get('/docsets')).json.docsets).includes(sample.docset.id));
      assert.ok(ids((await c.get('/docsets?samples=true')).json.docsets).includes(sample.docset.id));
      assert.deepEqual((await c.get('/documents')).json.documents, []);
      const docs = (await c.get('/documents?samples=true')).json.documents;
      assert.deepEqual(docs.map((d: { name: string }) => d.name).sort(), generated.map((d) => d.fileName).sort());
      for (const d of docs) {
        assert.equal(d.isSample, true);
        assert.equal(d.docset.id, sample.docset.id);
      }
      const inDocset = await c.get(`/docsets/${sample.docset.id}/documents?samples=true`);
      assert.deepEqual(ids(inDocset.json.documents).sort(), ids(docs).sort());

      // Each document is the generated file, byte for byte.
      for (const d of docs) {
        const content = await c.get(`/documents/${d.id}/content`);
        assert.equal(content.status, 200);
        assert.ok(content.buffer.equals(renderSampleDocument(generated.find((g) => g.fileName === d.name)!)), d.name);
      }

      // The suggested properties are the docset's properties.
      const props = await c.get(`/docsets/${sample.docset.id}/properties`);
      assertJson(props);
      assert.deepEqual(props.json.properties.map((p: { label: string }) => p.label).sort(), [...set.suggestedProperties].sort());

      const ready = await until('the sample Ready', async () => {
        const r = await c.get(`/samples/${sample.id}`);
        assertJson(r);
        assert.notEqual(r.json.status, 'Error', JSON.stringify(r.json));
        return r.json.status === 'Ready' ? r.json : undefined;
      });
      assert.deepEqual({ ...ready, status: undefined, updatedAt: undefined }, { ...sample, status: undefined, updatedAt: undefined });
      for (const d of (await c.get('/documents?samples=true')).json.documents) assert.equal(d.status, 'Ready', d.name);

      assert.deepEqual(ids((await c.get('/samples?status=Ready')).json.samples), [sample.id]);
      assert.deepEqual((await c.get('/samples?status=InProgress')).json.samples, []);
      assert.deepEqual((await c.get('/samples?status=Error')).json.samples, []);
      assertProblem(await other.get(`/samples/${sample.id}`), 404);
      assert.deepEqual((await other.get('/samples')).json.samples, []);
    });

    test('a second sample gets a free docset name; the sample list pages and filters', async () => {
      const taken = await c.post('/docsets', { json: { name: 'Mutual NDAs' } });
      assertJson(taken, 201);
      const r = await c.post('/samples', { json: { id: 'nda', extra: 'ignored' } });
      assertJson(r, 201);
      const nda = r.json.samples[0];
      assert.equal(nda.name, 'Mutual NDAs (2)');
      assert.equal((await c.get(`/docsets/${nda.docset.id}`)).json.name, 'Mutual NDAs (2)');

      const all = await c.get('/samples');
      assertJson(all);
      assert.equal(all.json.samples.length, 2);
      assert.equal(all.json.next, null);
      const paged = await collectPages(c, '/samples?limit=1', 'samples');
      assert.deepEqual(ids(paged.items), ids(all.json.samples));
      assert.deepEqual(ids((await c.get(`/samples?name=${encodeURIComponent('Mutual NDAs (2)')}`)).json.samples), [nda.id]);
      // Page 2 keeps the filters of its cursor (none) whatever else the request says.
      const page1 = await c.get('/samples?limit=1');
      const page2 = await c.get(`${page1.json.next}&status=Error&name=nothing`);
      assertJson(page2);
      assert.deepEqual(ids(page2.json.samples), [ids(all.json.samples)[1]]);
    });

    test('OpenAPI: every sample operation with its scope', async () => {
      const spec = (await (await fetch(`${q.origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-scope': string }>> };
      const scopes = Object.fromEntries(
        Object.entries(spec.paths)
          .filter(([path]) => /\/(sample-catalog|samples)/.test(path))
          .flatMap(([path, ops]) => Object.entries(ops).map(([method, o]) => [`${method.toUpperCase()} ${path}`, o['x-scope']])),
      );
      assert.deepEqual(scopes, {
        'GET /v1preview1/sample-catalog': 'read:documents',
        'GET /v1preview1/sample-catalog/{id}': 'read:documents',
        'GET /v1preview1/samples': 'read:documents',
        'POST /v1preview1/samples': 'write:documents',
        'GET /v1preview1/samples/{id}': 'read:documents',
      });
    });

    test('errors: unknown catalogue id 404, bad bodies 400, read-only keys 403, unknown sample 404', async () => {
      assertProblem(await c.post('/samples', { json: { id: 'nope' } }), 404, /nope/);
      assertProblem(await c.post('/samples', { json: {} }), 400);
      assertProblem(await c.post('/samples', { json: { id: { catalog: 'nda' } } }), 400);
      assertProblem(await c.post('/samples', { json: { id: 5 } }), 400, /must be string/);
      assertProblem(await c.post('/samples', { json: { id: 'bad id!' } }), 400);
      assertProblem(await c.post('/samples', { body: '{', headers: { 'content-type': 'application/json' } }), 400);
      assertProblem(await c.post('/samples', { body: '', headers: { 'content-type': 'application/json' } }), 400);
      assertProblem(await readOnly.post('/samples', { json: { id: 'nda' } }), 403);
      assertProblem(await c.get('/samples/nosuchsample'), 404);
      assertProblem(await c.get('/samples?status=Bogus'), 400);
      assertProblem(await c.get('/samples?cursor=forged.cursor'), 400);
      assertJson(await readOnly.get('/samples'));
    });
  });
}

samplesSuite('SQLite', () => startQuire());
if (findPgBin()) {
  let cluster: PgCluster | undefined;
  samplesSuite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return startQuire({ databaseUrl: await cluster.createDatabase('quire_samples') });
    },
    async () => cluster?.stop(),
  );
} else {
  describe('samples (PostgreSQL)', () => {
    test('PostgreSQL suite', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
