/**
 * The API suite: real HTTP against a real server process and a real database. It is defined once
 * and run against SQLite (sqlite.test.ts) and PostgreSQL (postgres.test.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, type Quire } from '../helpers/quire.js';
import { committedFiles, stagedFiles } from '../helpers/blob-files.js';
import { assertJson, assertProblem, client, collectPages, multipartBody, rawMultipartUpload, type Client } from '../helpers/http.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';

const PDFS = [
  'reference-dgml/Jane Doe NDA.pdf',
  'reference-dgml/20071204X01896.pdf',
  'kgrag/sec-10-q/2023 Q1 AAPL.pdf',
  'pdf/A - Package Proposal.pdf',
].map((p) => path.join(CORPUS, p));
const DOCX = path.join(CORPUS, 'office/NDA simple layout.docx');

/** Opens the server's own database from the test process, to set up states no route reaches yet. */
async function withStore<T>(q: Quire, fn: (db: Store) => Promise<T>): Promise<T> {
  const store = await Store.open(loadConfig(q.env).database);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** What the suite checks in the blob store: stored blobs, and staged ones (uploads in progress). */
export interface BlobInspector {
  documentBlobs(): Promise<string[]>;
  stagedBlobs(): Promise<string[]>;
}

/** The default: files under the data directory. */
export function fileBlobs(q: Quire): BlobInspector {
  return { stagedBlobs: async () => stagedFiles(q.dataDir), documentBlobs: async () => committedFiles(q.dataDir) };
}

export function apiSuite(
  label: string,
  start: () => Promise<Quire>,
  teardown: () => Promise<void> = async () => {},
  inspectBlobs: (q: Quire) => BlobInspector = fileBlobs,
) {
  describe(`API (${label})`, () => {
    let q: Quire;
    let c: Client;
    /** A key and client of a second workspace, made through the CLI. */
    let other: Client;
    let readOnly: Client;
    let writeOnly: Client;
    let webhooksOnly: Client;

    before(async () => {
      q = await start();
      c = client(q.api, q.key);
      const ws = await q.cli(['workspaces', 'create', 'other']);
      assert.equal(ws.code, 0, ws.stderr);
      const mk = async (workspace: string, scopes: string) => {
        const r = await q.cli(['keys', 'create', '--workspace', workspace, '--scopes', scopes]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout.trim();
      };
      other = client(q.api, await mk('other', 'admin'));
      readOnly = client(q.api, await mk('default', 'read:documents'));
      writeOnly = client(q.api, await mk('default', 'write:documents'));
      webhooksOnly = client(q.api, await mk('default', 'read:webhooks,write:webhooks'));
    });

    after(async () => {
      const code = await q?.stop();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
      await teardown();
    });

    describe('service endpoints', () => {
      test('GET /healthz answers 200 without a key', async () => {
        const r = await fetch(`${q.origin}/healthz`);
        assert.equal(r.status, 200);
      });

      test('GET /readyz probes the database, storage and queue', async () => {
        const r = await fetch(`${q.origin}/readyz`);
        assert.equal(r.status, 200);
        assert.deepEqual(await r.json(), { status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });
      });

      test('GET /openapi.json is OpenAPI 3.1 with scope and errors on every operation', async () => {
        const r = await fetch(`${q.origin}/openapi.json`);
        assert.equal(r.status, 200);
        const doc = (await r.json()) as any;
        assert.equal(doc.openapi, '3.1.0');
        const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, methods]) =>
          Object.entries(methods).map(([m, o]) => ({ p, m, o })),
        );
        const v1 = ops.filter((x) => x.p.startsWith('/v1preview1'));
        assert.ok(v1.length >= 16, `only ${v1.length} operations documented`);
        for (const { p, m, o } of v1) {
          assert.match(o.description ?? '', /Scope: `[a-z:]+`|Any valid API key/, `${m} ${p} does not document its scope`);
          assert.ok(o.responses['401'], `${m} ${p} does not document 401`);
          assert.deepEqual(o.security, [{ bearerAuth: [] }]);
        }
        assert.ok(doc.paths['/v1preview1/documents'].get.parameters.some((x: any) => x.name === 'docset[id]'));
        // Client generators name their methods after operationIds: each REST operation has its own, camelCase from a verb.
        const ids = ops.filter((x) => x.o.summary).map(({ p, m, o }) => [`${m} ${p}`, o.operationId] as const);
        for (const [where, id] of ids) assert.match(id ?? '', /^(list|get|create|upload|download|delete|remove|add|update|patch|replace|merge|rename|relabel|set|revoke|start|finalize|publish|retry|test)[A-Z][A-Za-z]+$/, `${where}: operationId ${id}`);
        assert.equal(new Set(ids.map(([, id]) => id)).size, ids.length, 'operationIds are unique');
        for (const [where, want] of [['get /v1preview1/documents', 'listDocuments'], ['post /v1preview1/documents/content', 'uploadDocument'], ['get /v1preview1/documents/{id}/dgml', 'getDocumentDgml']]) {
          assert.equal(ids.find(([w]) => w === where)?.[1], want);
        }
        assert.equal(doc.info.version, JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
      });

      test('GET /docs serves the reference from this server, no CDN', async () => {
        const r = await fetch(`${q.origin}/docs/`, { redirect: 'follow' });
        assert.equal(r.status, 200);
        const html = await r.text();
        assert.match(html, /swagger/i);
        assert.doesNotMatch(html, /<script[^>]+src="https?:\/\//);
        assert.doesNotMatch(html, /<link[^>]+href="https?:\/\//);
      });

      test('GET /metrics has request counts and latencies by route and status', async () => {
        await c.get('/workspace');
        const text = await (await fetch(`${q.origin}/metrics`)).text();
        assert.match(text, /quire_http_requests_total\{method="GET",route="\/v1preview1\/workspace",status="200"\} \d+/);
        assert.match(text, /quire_http_request_duration_seconds_bucket\{[^}]*route="\/v1preview1\/workspace"/);
      });

      test('unknown routes answer a 404 Problem', async () => {
        assertProblem(await c.get('/nothing-here'), 404);
      });
    });

    describe('auth and scopes', () => {
      test('no key: 401 Problem with WWW-Authenticate', async () => {
        const r = await c.get('/documents', { key: null });
        assertProblem(r, 401);
        assert.match(r.headers.get('www-authenticate') ?? '', /Bearer/);
      });

      test('unknown key: 401', async () => {
        assertProblem(await c.get('/documents', { key: 'qk_not-a-real-key-at-all' }), 401);
        assertProblem(await c.get('/documents', { headers: { authorization: 'Basic abc' }, key: null }), 401);
      });

      test('a key without the scope: 403; with it: 2xx', async () => {
        assertJson(await readOnly.get('/documents'));
        assertProblem(await readOnly.post('/docsets', { json: { name: 'nope' } }), 403, /write:documents/);
        assertProblem(await writeOnly.get('/documents'), 403, /read:documents/);
        assertProblem(await webhooksOnly.get('/docsets'), 403);
        assertProblem(await webhooksOnly.upload({ bytes: 'x', name: 'a.txt' }), 403);
        // Any valid key reads its own workspace.
        assertJson(await webhooksOnly.get('/workspace'));
        const created = await writeOnly.post('/docsets', { json: { name: 'made by write-only key' } });
        assertJson(created, 201);
      });

      test('scope matrix: every route x every scope gives exactly 403 or passes auth', async () => {
        const scopes = ['read:documents', 'write:documents', 'read:projects', 'write:projects', 'read:webhooks', 'write:webhooks', 'admin'];
        const keys = await Promise.all(
          scopes.map(async (s) => {
            const r = await q.cli(['keys', 'create', '--workspace', 'default', '--scopes', s, '--name', `matrix-${s}`]);
            assert.equal(r.code, 0, r.stderr);
            return client(q.api, r.stdout.trim());
          }),
        );
        // Every operation of the OpenAPI document, with unknown ids: a request that passes auth answers
        // 404 (or 400 for a bad body), never 401/403. The scope each needs is the one it documents.
        const spec = (await (await fetch(`${q.origin}/openapi.json`)).json()) as {
          paths: Record<string, Record<string, { 'x-scope'?: string | null }>>;
        };
        const routes: [string, string, string | null, object?][] = [];
        for (const [path, methods] of Object.entries(spec.paths)) {
          if (!path.startsWith('/v1preview1/')) continue;
          for (const [method, operation] of Object.entries(methods)) {
            const scope = operation['x-scope'];
            if (scope === undefined) continue;
            const url = path.slice('/v1preview1'.length).replace(/\{(\w+)\}/g, (_, name: string) => (/number/i.test(name) ? '1' : `none-${name}`));
            const needed = scope === 'any' ? null : scope;
            routes.push([method.toUpperCase(), url, needed, ['post', 'put', 'patch'].includes(method) ? {} : undefined]);
          }
        }
        assert.ok(routes.length >= 20, `only ${routes.length} operations found in the OpenAPI document`);
        for (const [method, url, needed, json] of routes) {
          for (const [i, scope] of scopes.entries()) {
            const r = await keys[i]!.req(method, url, json ? { json } : {});
            const allowed = needed === null || scope === 'admin' || scope === needed;
            if (allowed) assert.ok(r.status !== 401 && r.status !== 403, `${scope} ${method} ${url} -> ${r.status}`);
            else assertProblem(r, 403);
          }
        }
      });

      test('a revoked key fails at once', async () => {
        const made = await q.cli(['keys', 'create', '--workspace', 'default', '--scopes', 'read:documents', '--name', 'short-lived']);
        const secret = made.stdout.trim();
        assertJson(await c.get('/documents', { key: secret }));
        const list = await q.cli(['keys', 'list', '--workspace', 'default']);
        const line = list.stdout.split('\n').find((l) => l.includes('short-lived'));
        assert.ok(line, list.stdout);
        assert.ok(!list.stdout.includes(secret), 'keys list must never show a secret');
        const id = line.trim().split(/\s+/)[0]!;
        const revoked = await q.cli(['keys', 'revoke', id]);
        assert.equal(revoked.code, 0, revoked.stderr);
        assertProblem(await c.get('/documents', { key: secret }), 401);
      });

      test('keys are stored only as hashes', async () => {
        await withStore(q, async () => {
          const dbFile = path.join(q.dataDir, 'quire.db');
          if (fs.existsSync(dbFile) && !q.env.DATABASE_URL) {
            const raw = fs.readFileSync(dbFile);
            assert.equal(raw.includes(Buffer.from(q.key)), false);
          }
        });
      });
    });

    describe('workspace', () => {
      test('GET /workspace has identity, expiry and true quota counts', async () => {
        const r = await c.get('/workspace');
        assertJson(r);
        const w = r.json;
        assert.equal(w.name, 'default');
        assert.equal(w.type, 'Trial');
        assert.ok(!Number.isNaN(Date.parse(w.createdAt)));
        assert.equal(w.expired, false);
        assert.equal(typeof w.quota.page.max, 'number');
        assert.equal(typeof w.quota.page.maxPerDocument, 'number');
        assert.equal(w.quota.page.used, 0);
        // bootstrap + read-only + write-only + webhooks keys, the revoked one not counted
        const keys = await q.cli(['keys', 'list', '--workspace', 'default']);
        const active = keys.stdout.split('\n').slice(1).filter((l) => l.trim() && l.trim().split(/\s{2,}/).length === 6).length;
        assert.equal(w.quota.user.used, active);
        const o = await other.get('/workspace');
        assert.equal(o.json.name, 'other');
        assert.notEqual(o.json.id, w.id);
      });
    });

    describe('workspace API keys (REST)', () => {
      test('an admin key lists, creates (secret shown once) and revokes keys; other keys get 403', async () => {
        const listed = await c.get('/workspace/keys');
        assertJson(listed);
        assert.ok(listed.json.keys.some((k: { name: string }) => k.name === 'bootstrap'), listed.text);
        assert.ok(!listed.text.includes(q.key), 'a list never shows a secret');
        for (const k of listed.json.keys) assert.equal(k.secret, undefined);

        const made = await c.post('/workspace/keys', { json: { name: 'reporting', scopes: ['read:documents', 'read:documents'] } });
        assertJson(made, 201);
        const key = made.json;
        assert.match(key.secret, /^qk_[\w-]{32}$/);
        assert.equal(key.prefix, key.secret.slice(0, 7));
        assert.deepEqual(key.scopes, ['read:documents']);
        assert.equal(key.revokedAt, null);
        assert.equal(key.url, `${q.api}/workspace/keys/${key.id}`);
        assertJson(await c.get('/documents', { key: key.secret }));
        assertProblem(await c.post('/docsets', { json: { name: 'not-with-read' }, key: key.secret }), 403);
        const again = await c.get('/workspace/keys?limit=100');
        assert.ok(again.json.keys.some((k: { id: string }) => k.id === key.id));
        assert.ok(!again.text.includes(key.secret));

        // Only admin keys manage keys; another workspace's admin cannot see or revoke this one.
        assertProblem(await readOnly.get('/workspace/keys'), 403);
        assertProblem(await writeOnly.post('/workspace/keys', { json: { name: 'x', scopes: ['admin'] } }), 403);
        assertProblem(await c.get('/workspace/keys', { key: key.secret }), 403);
        assert.ok(!(await other.get('/workspace/keys?limit=100')).json.keys.some((k: { id: string }) => k.id === key.id));
        assertProblem(await other.del(`/workspace/keys/${key.id}`), 404);
        assertJson(await c.get('/documents', { key: key.secret }));

        for (const body of [{ name: 'x', scopes: [] }, { name: 'x', scopes: ['root'] }, { scopes: ['admin'] }, { name: '', scopes: ['admin'] }, { name: 'x', scopes: ['admin'], extra: 1 }]) {
          assertProblem(await c.post('/workspace/keys', { json: body }), 400);
        }
        assertProblem(await c.del('/workspace/keys/nosuchkey'), 404);

        assert.equal((await c.del(`/workspace/keys/${key.id}`)).status, 204);
        assertProblem(await c.get('/documents', { key: key.secret }), 401);
        assert.ok(!(await c.get('/workspace/keys?limit=100')).json.keys.some((k: { id: string }) => k.id === key.id), 'revoked keys are left out by default');
        const withRevoked = await c.get('/workspace/keys?revoked=true&limit=100');
        const gone = withRevoked.json.keys.find((k: { id: string }) => k.id === key.id);
        assert.ok(gone && !Number.isNaN(Date.parse(gone.revokedAt)), withRevoked.text);
        assert.equal((await c.del(`/workspace/keys/${key.id}`)).status, 204, 'revoking again changes nothing');
      });

      test("keys page by cursor, and the workspace's user quota caps active keys (409)", async () => {
        const made: string[] = [];
        for (let i = 0; i < 3; i++) made.push((await other.post('/workspace/keys', { json: { name: `paged-${i}`, scopes: ['read:documents'] } })).json.id);
        const pages = await collectPages(other, '/workspace/keys?limit=2', 'keys');
        const ids = pages.items.map((k) => k.id as string);
        assert.equal(new Set(ids).size, ids.length, 'each key once');
        for (const id of made) assert.ok(ids.includes(id));
        const used = (await other.get('/workspace')).json.quota.user.used;
        const set = await q.cli(['workspaces', 'set-quota', 'other', '--users', String(used)]);
        assert.equal(set.code, 0, set.stderr);
        const refused = await other.post('/workspace/keys', { json: { name: 'one-too-many', scopes: ['read:documents'] } });
        assertProblem(refused, 409, /maximum of \d+ active API keys/);
        assert.equal((await other.del(`/workspace/keys/${made[0]}`)).status, 204);
        assertJson(await other.post('/workspace/keys', { json: { name: 'fits-again', scopes: ['read:documents'] } }), 201);
        await q.cli(['workspaces', 'set-quota', 'other', '--users', '100']);
      });
    });

    describe('documents: upload and content', () => {
      test('corpus files round-trip byte for byte', async () => {
        for (const file of [...PDFS, DOCX]) {
          const up = await c.upload({ path: file });
          assertJson(up, 201);
          const d = up.json;
          // The SDK reads one Document from this call; the list envelope rides along.
          for (const f of ['id', 'name', 'status', 'createdAt', 'size', 'url', 'downloadUrl']) assert.ok(d[f] !== undefined, `missing ${f}`);
          assert.equal(d.status, 'New');
          assert.equal(d.name, path.basename(file));
          assert.equal(d.size, fs.statSync(file).size);
          assert.deepEqual(d.documents.map((x: any) => x.id), [d.id]);
          assert.deepEqual(d.errors, []);
          assert.equal(d.url, `${q.api}/documents/${d.id}`);
          const content = await c.get(d.downloadUrl, { headers: { accept: 'application/json' } });
          assert.equal(content.status, 200);
          assert.ok(content.buffer.equals(fs.readFileSync(file)), `${file} bytes differ`);
          assert.equal(content.headers.get('content-type'), path.extname(file) === '.pdf' ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
          assert.equal(dispositionName(content.headers.get('content-disposition')), path.basename(file));
          assert.match(content.headers.get('etag') ?? '', /^"[0-9a-f]{64}"$/);
          await c.del(`/documents/${d.id}`);
        }
      });

      test('Range, If-None-Match and HEAD on content', async () => {
        const file = PDFS[0]!;
        const bytes = fs.readFileSync(file);
        const d = (await c.upload({ path: file })).json;
        const part = await c.get(`/documents/${d.id}/content`, { headers: { range: 'bytes=100-199' } });
        assert.equal(part.status, 206);
        assert.equal(part.headers.get('content-range'), `bytes 100-199/${bytes.length}`);
        assert.ok(part.buffer.equals(bytes.subarray(100, 200)));
        const tail = await c.get(`/documents/${d.id}/content`, { headers: { range: 'bytes=-10' } });
        assert.ok(tail.buffer.equals(bytes.subarray(bytes.length - 10)));
        const open = await c.get(`/documents/${d.id}/content`, { headers: { range: `bytes=${bytes.length - 5}-` } });
        assert.ok(open.buffer.equals(bytes.subarray(bytes.length - 5)));
        const bad = await c.get(`/documents/${d.id}/content`, { headers: { range: `bytes=${bytes.length}-` } });
        assertProblem(bad, 416);
        assert.equal(bad.headers.get('content-range'), `bytes */${bytes.length}`);
        const etag = part.headers.get('etag')!;
        const notModified = await c.get(`/documents/${d.id}/content`, { headers: { 'if-none-match': etag } });
        assert.equal(notModified.status, 304);
        const head = await c.req('HEAD', `/documents/${d.id}/content`);
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('content-length'), String(bytes.length));
        assertProblem(await c.get(`/documents/unknown0000/content`), 404);
      });

      test('download routes ignore query parameters they do not know (clients add their own)', async () => {
        const bytes = fs.readFileSync(PDFS[0]!);
        const d = (await c.upload({ path: PDFS[0]! })).json;
        for (const qs of ['foo=1', 'download=true&x-client=loader', 'format=original&zzz=1', 'dl=1&dl=2', 'a%5Bb%5D=1']) {
          const r = await c.get(`/documents/${d.id}/content?${qs}`);
          assert.equal(r.status, 200, `?${qs}: ${r.text.slice(0, 200)}`);
          assert.ok(r.buffer.equals(bytes), `?${qs}: the exact bytes`);
        }
        assert.equal((await c.req('HEAD', `/documents/${d.id}/content?foo=1`)).status, 200);
        // A known parameter is still checked; an unknown one beside it changes nothing.
        assertProblem(await c.get(`/documents/${d.id}/content?format=pdf&foo=1`), 400, /format/);
        // Not processed yet (no workers here): the answer is the "not yet" 409, not a 400 for the extra parameter.
        const text = await c.get(`/documents/${d.id}/content?format=text&foo=1`);
        assertProblem(text, 409);
        assertProblem(await c.get(`/documents/${d.id}/pages/1/content?dpi=72&foo=1`), 409);
        assertProblem(await c.get(`/docsets/nosuchdocset/documents/${d.id}/dgml?foo=1`), 404);
      });

      test('a non-ASCII name comes back in Content-Disposition', async () => {
        const d = (await c.upload({ bytes: 'Grüße', name: 'Vertrag – Grüße.txt' })).json;
        assert.equal(d.name, 'Vertrag – Grüße.txt');
        const r = await c.get(`/documents/${d.id}/content`);
        assert.equal(dispositionName(r.headers.get('content-disposition')), 'Vertrag – Grüße.txt');
        assert.equal(r.text, 'Grüße');
      });

      test('a nameless part ("upload") is typed by its bytes', async () => {
        const r = await c.upload({ bytes: fs.readFileSync(PDFS[0]!), name: 'upload' });
        assertJson(r, 201);
        assert.equal(r.json.name, 'upload');
        assert.equal(r.json.contentType, 'application/pdf');
        const junk = await c.upload({ bytes: Buffer.from([0, 1, 2, 3, 0, 0, 0, 0xff]), name: 'upload' });
        assertProblem(junk, 415);
      });

      test('metadata and docset given at upload', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'upload-target' } })).json;
        const r = await c.upload({ path: DOCX }, { 'docset.id': ds.id, metadata: JSON.stringify({ metadata: [{ key: 'client', value: 'Acme <&> "Co"' }] }) });
        assertJson(r, 201);
        assert.equal(r.json.docset.id, ds.id);
        assert.equal(r.json.docset.url, `${q.api}/docsets/${ds.id}`);
        assert.equal(r.json.docset.dgmlUrl, `${q.api}/docsets/${ds.id}/documents/${r.json.id}/dgml`);
        const md = await c.get(`/documents/${r.json.id}/metadata`);
        assert.deepEqual(md.json.metadata, [{ key: 'client', value: 'Acme <&> "Co"' }]);
        assert.equal((await c.get(`/docsets/${ds.id}`)).json.documentCount, 1);
      });

      test('a metadata part sent as application/json means what the same bytes untyped mean (uploads and upload sessions)', async () => {
        const entries = [{ key: 'client', value: 'Acme' }, { key: 'region', value: 'EU "west"' }];
        const json = JSON.stringify({ metadata: entries });
        const file = { name: 'file', filename: 'typed.txt', value: 'typed metadata' };
        for (const type of ['application/json', 'application/json; charset=utf-8', undefined]) {
          const form = multipartBody([{ name: 'metadata', value: json, ...(type ? { type } : {}) }, file]);
          const r = await c.post('/documents/content', form);
          assertJson(r, 201);
          assert.deepEqual((await c.get(`/documents/${r.json.id}/metadata`)).json.metadata, entries, `typed ${type ?? '(none)'}`);
        }
        // Not JSON although typed as JSON: a 400 Problem, nothing stored.
        const before = (await collectPages(c, '/documents?limit=100&name=typed-bad.txt', 'documents')).items.length;
        const bad = await c.post('/documents/content', multipartBody([{ name: 'metadata', value: '{"metadata": [', type: 'application/json' }, { ...file, filename: 'typed-bad.txt' }]));
        assertProblem(bad, 400, /not valid JSON/);
        assertProblem(await c.post('/documents/content', multipartBody([{ name: 'metadata', value: '{"metadata": 5}', type: 'application/json' }, { ...file, filename: 'typed-bad.txt' }])), 400, /metadata/);
        for (const depth of [5000, 20000]) {
          const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
          assertProblem(await c.post('/documents/content', multipartBody([{ name: 'metadata', value: deep, type: 'application/json' }, { ...file, filename: 'typed-bad.txt' }])), 400);
        }
        assert.equal((await collectPages(c, '/documents?limit=100&name=typed-bad.txt', 'documents')).items.length, before);

        // A chunked upload session created with a typed metadata part: the finalized document has it.
        const bytes = Buffer.from('session with typed metadata');
        const made = await c.post(
          '/documents/uploads/session',
          multipartBody([
            { name: 'fileName', value: 'typed-session.txt' },
            { name: 'fileSize', value: String(bytes.length) },
            { name: 'metadata', value: json, type: 'application/json' },
          ]),
        );
        assertJson(made, 201);
        const chunk = new FormData();
        chunk.append('byteOffset', '0');
        chunk.append('file', new Blob([bytes]), 'chunk');
        assertJson(await c.post(`/documents/uploads/session/${made.json.sessionId}/chunk`, { body: chunk }));
        const fin = await c.post(`/documents/uploads/session/${made.json.sessionId}/finalize`);
        assertJson(fin, 201);
        assert.deepEqual((await c.get(`/documents/${fin.json.id}/metadata`)).json.metadata, entries);
        const badSession = await c.post(
          '/documents/uploads/session',
          multipartBody([
            { name: 'fileName', value: 'typed-session.txt' },
            { name: 'fileSize', value: '3' },
            { name: 'metadata', value: '{not json', type: 'application/json' },
          ]),
        );
        assertProblem(badSession, 400, /not valid JSON/);
      });

      test('docset.id listing several ids keeps them as candidates', async () => {
        const a = (await c.post('/docsets', { json: { name: 'cand-a' } })).json;
        const b = (await c.post('/docsets', { json: { name: 'cand-b' } })).json;
        const r = await c.upload({ path: PDFS[0]! }, { 'docset.id': `${a.id}|${b.id}` });
        assertJson(r, 201);
        assert.equal(r.json.docset, undefined);
        assert.deepEqual(r.json.docsetCandidates, [a.id, b.id]);
        assertProblem(await c.upload({ path: PDFS[0]! }, { 'docset.id': `${a.id}|nosuchdocset` }), 404);
      });

      test('bad uploads get a clear 4xx and store nothing', async () => {
        const before = (await collectPages(c, '/documents?limit=100', 'documents')).items.length;
        const blobsBefore = (await inspectBlobs(q).documentBlobs()).length;
        assertProblem(await c.upload({ path: PDFS[0]! }, { 'docset.id': 'nosuchdocset' }), 404, /nosuchdocset/);
        assertProblem(await c.upload({ path: PDFS[0]! }, { 'docset.id': 'bad\u0000id' }), 404);
        assertProblem(await c.upload({ bytes: 'x', name: 'n.txt' }, { metadata: JSON.stringify({ metadata: [{ key: 'k', value: 'a\u0000b' }] }) }), 400, /NUL/);
        assertProblem(await c.upload({ bytes: 'MZ...', name: 'tool.exe' }), 415, /\.pdf/);
        assertProblem(await c.upload({ bytes: 'hello', name: 'notes.txt' }, { metadata: '{not json' }), 400, /JSON/);
        assertProblem(await c.upload({ bytes: 'hello', name: 'notes.txt' }, { metadata: JSON.stringify({ metadata: [{ key: 'bad key', value: 'x' }] }) }), 400);
        const eleven = Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
        assertProblem(await c.upload({ bytes: 'hello', name: 'notes.txt' }, { metadata: JSON.stringify({ metadata: eleven }) }), 400, /10/);
        assertProblem(await c.upload({ bytes: '', name: 'empty.txt' }), 400, /empty/);
        assertProblem(await c.upload({ bytes: 'hello', name: 'notes.txt' }, {}, { fileField: 'document' }), 400, /file/);
        assertProblem(await c.post('/documents/content', { json: { file: 'x' } }), 415);
        // The file must be the last part.
        const form = new FormData();
        form.append('file', new Blob(['hello']), 'a.txt');
        form.append('docset.id', 'x');
        assertProblem(await c.post('/documents/content', { body: form }), 400, /last/);
        const formNoFile = new FormData();
        formNoFile.append('metadata', '{"metadata":[]}');
        assertProblem(await c.post('/documents/content', { body: formNoFile }), 400, /file/);
        const afterList = (await collectPages(c, '/documents?limit=100', 'documents')).items.length;
        assert.equal(afterList, before);
        assert.equal((await inspectBlobs(q).documentBlobs()).length, blobsBefore);
        assert.deepEqual(await inspectBlobs(q).stagedBlobs(), []);
      });

      test('a form refused before its body ends is answered, not cut off (8 MB still coming)', async () => {
        const session = (await c.post('/documents/uploads/session', { json: { fileName: 'refused.txt', fileSize: 10 } })).json;
        const routes = ['/documents/content', `/documents/uploads/session/${session.sessionId}/chunk`, '/projects/nosuchproject/artifacts/latest/content'];
        const form = (fields: number) => {
          const f = new FormData();
          for (let i = 0; i < fields; i++) f.append(`f${i}`, 'v');
          f.append('file', new Blob([Buffer.alloc(8 * 1024 * 1024, 97)]), 'refused.txt');
          return f;
        };
        for (const route of routes) {
          for (let i = 0; i < 5; i++) {
            // A client still writing when the server answers and closes sees EPIPE instead of the answer.
            assertProblem(await c.post(route, { body: form(50) }), 413, /more than 20 text fields/);
            assertProblem(await c.post(route, { body: form(1), key: 'qk_not-a-key' }), 401);
          }
        }
        assert.deepEqual(await inspectBlobs(q).stagedBlobs(), []);
      });

      test('over 300 MB: 413, declared or streamed, nothing kept', async () => {
        // Declared too large: refused before the body is read.
        const declared = await rawMultipartUpload(`${q.api}/documents/content`, q.key, { declaredLength: 400 * 1024 * 1024, sendBytes: 1024 });
        assert.equal(declared.status, 413);
        assert.equal(JSON.parse(declared.body).status, 413);
        // Streamed without a length (chunked): refused once 300 MB have passed.
        const streamed = await rawMultipartUpload(`${q.api}/documents/content`, q.key, { sendBytes: 300 * 1024 * 1024 + 4096 });
        assert.equal(streamed.status, 413, streamed.body);
        assert.deepEqual(await inspectBlobs(q).stagedBlobs(), []);
      });

      test('an aborted upload leaves no document and no blob', async () => {
        const before = (await collectPages(c, '/documents?limit=100', 'documents')).items.length;
        const blobsBefore = (await inspectBlobs(q).documentBlobs()).length;
        await rawMultipartUpload(`${q.api}/documents/content`, q.key, { sendBytes: 5 * 1024 * 1024, abortAfter: 2 * 1024 * 1024 });
        await new Promise((r) => setTimeout(r, 300));
        assert.equal((await collectPages(c, '/documents?limit=100', 'documents')).items.length, before);
        assert.equal((await inspectBlobs(q).documentBlobs()).length, blobsBefore);
        assert.deepEqual(await inspectBlobs(q).stagedBlobs(), []);
      });

      test('DELETE removes the document, its blob and its docset place', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'delete-me-docset' } })).json;
        const d = (await c.upload({ path: PDFS[1]! }, { 'docset.id': ds.id })).json;
        const blobsBefore = (await inspectBlobs(q).documentBlobs()).length;
        const del = await c.del(`/documents/${d.id}`, { headers: { 'content-type': 'application/json' } });
        assert.equal(del.status, 204);
        assert.equal((await inspectBlobs(q).documentBlobs()).length, blobsBefore - 1);
        assertProblem(await c.get(`/documents/${d.id}`), 404);
        assertProblem(await c.del(`/documents/${d.id}`), 404);
        assert.equal((await c.get(`/docsets/${ds.id}`)).json.documentCount, 0);
      });
    });

    describe('fields the API names', () => {
      const ops = (operation: string, body: unknown) => c.post(`${q.origin}/ops/${operation}`, { json: body });

      test('every Document response carries its metadata: upload, get, lists, docset lists, finalize, ops', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'metadata-everywhere' } })).json;
        const entries = [{ key: 'matter', value: 'M-42' }, { key: 'owner', value: 'Légal <&>' }];
        const up = await c.upload({ bytes: 'with metadata', name: 'md-everywhere.txt' }, { 'docset.id': ds.id, metadata: JSON.stringify({ metadata: entries }) });
        assertJson(up, 201);
        assert.deepEqual(up.json.metadata, entries);
        assert.deepEqual(up.json.documents[0].metadata, entries);
        const bare = (await c.upload({ bytes: 'without metadata', name: 'md-none.txt' }, { 'docset.id': ds.id })).json;
        assert.deepEqual(bare.metadata, []);
        const id = up.json.id;
        assert.deepEqual((await c.get(`/documents/${id}`)).json.metadata, entries);
        const listed = (await c.get(`/documents?docset.id=${ds.id}`)).json.documents;
        assert.deepEqual(listed.map((d: any) => d.metadata), [entries, []]);
        assert.deepEqual((await c.get(`/docsets/${ds.id}/documents`)).json.documents.map((d: any) => d.metadata), [entries, []]);
        assert.deepEqual((await c.get(`/docsets/${ds.id}/documents/${id}`)).json.metadata, entries);
        assert.deepEqual((await c.get(`/documents?metadata.matter=M-42`)).json.documents.map((d: any) => [d.id, d.metadata]), [[id, entries]]);
        // A write shows at once in the document itself (kept reads are dropped on writes).
        const merged = await c.post(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'stage', value: 'review' }] } });
        assertJson(merged);
        assert.deepEqual((await c.get(`/documents/${id}`)).json.metadata, [...entries, { key: 'stage', value: 'review' }]);
        assertJson(await c.put(`/documents/${id}/metadata`, { json: { metadata: entries } }));
        assert.deepEqual((await c.get(`/documents/${id}`)).json.metadata, entries);
        assertJson(await c.put(`/documents/${bare.id}/metadata`, { json: { metadata: [] } }));
        assert.deepEqual((await c.get(`/documents/${bare.id}`)).json.metadata, []);

        // The operation-style interface returns the same Document JSON.
        const got = await ops('GetDocument', { id });
        assertJson(got);
        assert.deepEqual(got.json.metadata, entries);
        const searched = await ops('SearchDocuments', { metadata: [{ key: 'matter', value: 'M-42' }] });
        assertJson(searched);
        assert.deepEqual(searched.json.documents.map((d: any) => [d.id, d.metadata]), [[id, entries]]);
        const inDocset = await ops('ListDocsetDocuments', { id: ds.id });
        assert.deepEqual(inDocset.json.documents.map((d: any) => d.metadata).sort((a: any[], b: any[]) => a.length - b.length), [[], entries]);
        const uploaded = await ops('UploadDocument', { fileName: 'md-ops.txt', base64Content: Buffer.from('via ops').toString('base64') });
        assertJson(uploaded);
        assert.deepEqual(uploaded.json.documents[0].metadata, []);

        // A finalized upload session's Document.
        const bytes = Buffer.from('finalized with metadata');
        const session = await c.post('/documents/uploads/session', { json: { fileName: 'md-session.txt', fileSize: bytes.length, metadata: { metadata: entries } } });
        assertJson(session, 201);
        const chunk = new FormData();
        chunk.append('byteOffset', '0');
        chunk.append('file', new Blob([bytes]), 'chunk');
        assertJson(await c.post(`/documents/uploads/session/${session.json.sessionId}/chunk`, { body: chunk }));
        const fin = await c.post(`/documents/uploads/session/${session.json.sessionId}/finalize`);
        assertJson(fin, 201);
        assert.deepEqual(fin.json.metadata, entries);
        assert.deepEqual((await c.post(`/documents/uploads/session/${session.json.sessionId}/finalize`)).json.metadata, entries, 'finalizing again');
      });

      test('sample catalogue entries carry version, createdAt, updatedAt; samples description and version', async () => {
        const { SAMPLE_CATALOG } = await import('../../src/samples/index.js');
        const catalog = await c.get('/sample-catalog');
        assertJson(catalog);
        assert.deepEqual(
          catalog.json.samples.map((e: any) => [e.id, e.version, e.createdAt, e.updatedAt]),
          SAMPLE_CATALOG.map((set) => [set.id, '1', '2026-11-22T03:58:32.000Z', '2026-11-22T03:58:32.000Z']),
        );
        const nda = await c.get('/sample-catalog/nda');
        assertJson(nda);
        assert.equal(nda.json.version, '1');
        assert.equal(nda.json.createdAt, '2026-11-22T03:58:32.000Z');
        const made = await c.post('/samples', { json: { id: 'nda' } });
        assertJson(made, 201);
        const sample = made.json.samples[0];
        assert.equal(sample.description, SAMPLE_CATALOG.find((set) => set.id === 'nda')!.description);
        assert.equal(sample.version, '1');
        const again = await c.get(`/samples/${sample.id}`);
        assert.equal(again.json.description, sample.description);
        assert.equal(again.json.version, '1');
        const listed = (await c.get('/samples')).json.samples.find((x: any) => x.id === sample.id);
        assert.deepEqual([listed.description, listed.version], [sample.description, '1']);
      });

      test('webhooks: url is the webhook itself, webhookUrl its receiver; any non-empty secret up to 1024 characters, never returned, signs as given', async () => {
        const rx = new WebhookReceiver();
        await rx.listen();
        try {
          const secret = 's3cr3t-bars';
          const receiver = rx.expect('/short-secret', secret);
          const made = await c.post('/webhooks', { json: { target: 'Documents', url: receiver, secret } });
          assertJson(made, 201);
          const h = made.json;
          assert.equal(h.url, `${q.api}/webhooks/${h.id}`);
          assert.equal(h.webhookUrl, receiver);
          assert.equal(h.hasSecret, true);
          assert.ok(!made.text.includes(secret) && !('secret' in h), 'the secret is never returned');
          const got = await c.get(h.url);
          assertJson(got);
          assert.deepEqual([got.json.url, got.json.webhookUrl], [h.url, receiver]);
          assert.ok(!got.text.includes(secret));
          const listed = (await c.get('/webhooks?target=Documents')).json.webhooks.find((x: any) => x.id === h.id);
          assert.deepEqual([listed.url, listed.webhookUrl], [h.url, receiver]);
          // The ping is signed with the short secret's UTF-8 bytes (verified by the standardwebhooks package).
          const ping = await c.post(`/webhooks/${h.id}/test`);
          assertJson(ping);
          assert.equal(ping.json.delivered, true, ping.text);
          assert.equal(rx.accepted.filter((r) => r.path === '/short-secret').length, 1);
          assert.deepEqual(rx.invalid, []);

          for (const ok of ['x', 'a b', '\u00e9'.repeat(1024), 'y'.repeat(1024), `whsec_${Buffer.from('short').toString('base64')}`]) {
            const r = await c.post('/webhooks', { json: { target: 'Documents', url: rx.url('/any'), secret: ok } });
            assertJson(r, 201);
            assert.equal(r.json.hasSecret, true);
            assert.ok(!('secret' in r.json));
            if (ok.length > 3) assert.ok(!r.text.includes(ok), 'the secret is never returned');
          }
          for (const bad of ['', 'y'.repeat(1025), 'whsec_not*base64*at*all', 'whsec_']) {
            assertProblem(await c.post('/webhooks', { json: { target: 'Documents', url: rx.url('/any'), secret: bad } }), 400, /secret|whsec_/);
          }
          assertProblem(await c.post('/webhooks', { json: { target: 'Documents', url: rx.url('/any'), secret: 7 } }), 400);
          const none = await c.post('/webhooks', { json: { target: 'Documents', url: rx.url('/none') } });
          assertJson(none, 201);
          assert.equal(none.json.hasSecret, false);
          assert.equal(none.json.webhookUrl, rx.url('/none'));
        } finally {
          await rx.close();
        }
      });

      test('every Page carries document {id, url, downloadUrl}; so does the page list', async () => {
        const d = (await c.upload({ bytes: 'paged', name: 'paged.txt' })).json;
        // No workers here: the test records what ingestion would (two pages).
        await withStore(q, async (store) => {
          const db = (store as any).db;
          await db.updateTable('documents').set({ status: 'Ingested', page_count: 2 }).where('id', '=', d.id).execute();
          await db.insertInto('document_pages').values([1, 2].map((n) => ({ document_id: d.id, number: n, width: 2550, height: 3300 }))).execute();
        });
        const ref = { id: d.id, url: `${q.api}/documents/${d.id}`, downloadUrl: `${q.api}/documents/${d.id}/content` };
        const list = await c.get(`/documents/${d.id}/pages`);
        assertJson(list);
        assert.deepEqual(list.json.document, ref);
        assert.deepEqual(list.json.pages.map((p: any) => [p.number, p.document]), [[1, ref], [2, ref]]);
        const one = await c.get(`/documents/${d.id}/pages/2`);
        assertJson(one);
        assert.deepEqual(one.json, { number: 2, width: 2550, height: 3300, url: `${q.api}/documents/${d.id}/pages/2`, downloadUrl: `${q.api}/documents/${d.id}/pages/2/content`, document: ref });
      });
    });

    describe('a new project: version 0 takes uploads', () => {
      const ops = (operation: string, body: unknown) => c.post(`${q.origin}/ops/${operation}`, { json: body });
      const uploadArtifact = (projectId: string, version: string, name: string, bytes: Buffer | string, fields: Record<string, string> = {}) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        form.append('file', new Blob([bytes]), name);
        return c.post(`/projects/${projectId}/artifacts/${version}/content`, { body: form });
      };

      test('a project has artifacts.version "0" from the start; uploads into latest (or "0") land there, listed, read, downloaded, deleted; REST and ops', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'new-project-uploads' } })).json;
        const doc = (await c.upload({ bytes: 'a reference', name: 'ref.txt' }, { 'docset.id': ds.id })).json;
        // No workers here: the project stays at version 0 (nothing is ever published).
        const made = await c.post('/projects', { json: { name: 'fresh', type: 'TabularReport', docset: { id: ds.id }, items: [{ label: 'Party' }] } });
        assertJson(made, 201);
        const p = made.json;
        assert.deepEqual(p.artifacts, { url: `${q.api}/projects/${p.id}/artifacts/latest`, version: '0' });
        assert.equal((await c.get(`/projects/${p.id}`)).json.artifacts.version, '0');
        assert.equal((await c.get(`/projects?docset.id=${ds.id}`)).json.projects[0].artifacts.version, '0');
        assert.deepEqual((await c.get(`/projects/${p.id}/artifacts/latest`)).json, { artifacts: [], next: null });

        const bytes = Buffer.from(JSON.stringify({ reviewed: true, by: 'Zoë' }));
        const up = await uploadArtifact(p.id, 'latest', 'review.json', bytes, { 'document.id': doc.id });
        assertJson(up, 201);
        const a = up.json;
        const url = `${q.api}/projects/${p.id}/artifacts/0/${a.id}`;
        assert.deepEqual(
          { ...a, createdAt: undefined, updatedAt: undefined },
          {
            id: a.id,
            name: 'review.json',
            version: '0',
            size: bytes.length,
            contentType: 'application/json',
            isReadOnly: false,
            document: { id: doc.id, url: `${q.api}/documents/${doc.id}` },
            project: { id: p.id, url: `${q.api}/projects/${p.id}` },
            createdAt: undefined,
            updatedAt: undefined,
            url,
            downloadUrl: `${url}/content`,
          },
        );
        assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
        // By the version's name too.
        const csv = await uploadArtifact(p.id, '0', 'notes.csv', 'a,b\n1,2\n');
        assertJson(csv, 201);
        assert.equal(csv.json.version, '0');
        assert.equal(csv.json.document, null);

        const ids = (r: { json: { artifacts: { id: string }[] } }) => r.json.artifacts.map((x) => x.id).sort();
        const both = [a.id, csv.json.id].sort();
        for (const path of ['artifacts/latest', 'artifacts/0', 'artifacts?version=latest', 'artifacts?version=0', 'artifacts']) {
          const r = await c.get(`/projects/${p.id}/${path}`);
          assertJson(r);
          assert.deepEqual(ids(r), both, path);
        }
        for (const f of ['document.id', 'document%5Bid%5D']) assert.deepEqual(ids(await c.get(`/projects/${p.id}/artifacts/latest?${f}=${doc.id}`)), [a.id], f);
        assert.deepEqual(ids(await c.get(`/projects/${p.id}/artifacts/latest?isReadOnly=false`)), both);
        assert.deepEqual(ids(await c.get(`/projects/${p.id}/artifacts/latest?isReadOnly=true`)), []);
        const paged = await collectPages(c, `/projects/${p.id}/artifacts/latest?limit=1`, 'artifacts');
        assert.deepEqual(paged.items.map((x) => x.id).sort(), both);
        assert.ok(paged.urls.slice(1).every((u) => u.startsWith(`${q.api}/projects/${p.id}/artifacts/latest?`)));

        const got = await c.get(`/projects/${p.id}/artifacts/latest/${a.id}`);
        assertJson(got);
        assert.deepEqual(got.json, a);
        assert.deepEqual((await c.get(a.url)).json, a);
        for (const u of [a.downloadUrl, `${q.api}/projects/${p.id}/artifacts/latest/${a.id}/content`, `${a.downloadUrl}?foo=1`]) {
          const dl = await c.get(u, { headers: { accept: 'application/octet-stream' } });
          assert.equal(dl.status, 200, u);
          assert.ok(dl.buffer.equals(bytes), `${u}: the exact bytes`);
          assert.match(dl.headers.get('content-type') ?? '', /^application\/json/);
        }

        // The operation-style interface on the same new project.
        const listed = await ops('ListArtifacts', { projectId: p.id });
        assertJson(listed);
        assert.deepEqual(listed.json.artifacts.map((x: any) => x.id).sort(), both);
        assert.deepEqual(listed.json.artifacts.find((x: any) => x.id === a.id), a);
        assert.deepEqual((await ops('ListArtifacts', { projectId: p.id, documentId: doc.id })).json.artifacts.map((x: any) => x.id), [a.id]);
        assert.deepEqual((await ops('ListArtifacts', { projectId: p.id, version: '0', isReadOnly: true })).json.artifacts, []);
        const viaOps = await ops('DownloadArtifact', { projectId: p.id, artifactId: a.id });
        assertJson(viaOps);
        assert.ok(Buffer.from(viaOps.json, 'base64').equals(bytes));
        assert.ok(Buffer.from((await ops('DownloadArtifact', { projectId: p.id, version: '0', artifactId: a.id })).json, 'base64').equals(bytes));
        assert.equal((await ops('GetProject', { id: p.id })).json.artifacts.version, '0');

        // Replace by name, delete: an upload stays deletable.
        const replaced = await uploadArtifact(p.id, 'latest', 'notes.csv', 'a,b\n3,4\n');
        assert.equal(replaced.json.id, csv.json.id);
        assert.equal((await c.get(`${csv.json.url}/content`)).text, 'a,b\n3,4\n');
        assert.equal((await c.del(csv.json.url, { headers: { 'content-type': 'application/json' } })).status, 204);
        assertProblem(await c.get(csv.json.url), 404);
        assert.deepEqual(ids(await c.get(`/projects/${p.id}/artifacts/latest`)), [a.id]);

        // Versions that do not exist, and other workspaces: 404.
        assertProblem(await c.get(`/projects/${p.id}/artifacts/1`), 404, /versions are 0 to 0/);
        assertProblem(await uploadArtifact(p.id, '1', 'x.json', '{}'), 404);
        for (const v of ['-1', '00', '01', 'abc', '1e3']) assertProblem(await c.get(`/projects/${p.id}/artifacts/${v}`), 404);
        assertProblem(await other.get(`/projects/${p.id}/artifacts/latest/${a.id}`), 404);
        assertProblem(await other.get(`/projects/${p.id}/artifacts/0`), 404);
        const form = new FormData();
        form.append('file', new Blob(['{}']), 'x.json');
        assertProblem(await other.post(`/projects/${p.id}/artifacts/latest/content`, { body: form }), 404);
      });
    });

    describe('documents: list, filters, pagination', () => {
      let ds: any;
      let ids: string[] = [];
      before(async () => {
        ds = (await c.post('/docsets', { json: { name: 'paging' } })).json;
        ids = [];
        for (let i = 0; i < 9; i++) {
          const r = await c.upload({ bytes: `document ${i}\n`.repeat(i + 1), name: `page-${i}.txt` }, { 'docset.id': ds.id });
          assertJson(r, 201);
          ids.push(r.json.id);
        }
        // Ingestion (a later issue) sets pages and status; here the test sets them in the database.
        await withStore(q, async (store) => {
          const db = (store as any).db;
          for (let i = 0; i < ids.length; i++) {
            await db.updateTable('documents').set({ page_count: i + 1, status: i % 2 ? 'Ready' : 'New' }).where('id', '=', ids[i]).execute();
          }
          await db.updateTable('documents').set({ is_sample: 1 }).where('id', '=', ids[8]).execute();
        });
      });

      test('limit 2 over 8 documents returns each exactly once, filters kept on later pages', async () => {
        for (const spelling of ['docset.id', 'docset[id]']) {
          const { items, urls } = await collectPages(c, `/documents?limit=2&${encodeURIComponent(spelling)}=${ds.id}`, 'documents');
          assert.deepEqual(items.map((d) => d.id), ids.slice(0, 8));
          assert.equal(urls.length, 4);
          for (const u of urls.slice(1)) {
            assert.ok(u.startsWith(`${q.api}/documents?`), `next is not absolute: ${u}`);
            assert.match(u, /cursor=/);
          }
        }
        const ready = await collectPages(c, `/documents?limit=2&status=Ready&docset.id=${ds.id}`, 'documents');
        assert.deepEqual(ready.items.map((d) => d.id), [ids[1], ids[3], ids[5], ids[7]]);
      });

      test('later pages ignore garbled copies of filters (as the SDK sends)', async () => {
        const garble = (next: string) => `${next}&docset=${encodeURIComponent("{'id': 'ds1'}")}&status=Error&limit=2`;
        const { items } = await collectPages(c, `/documents?limit=2&status=Ready&docset.id=${ds.id}`, 'documents', garble);
        assert.deepEqual(items.map((d) => d.id), [ids[1], ids[3], ids[5], ids[7]]);
      });

      test('every filter', async () => {
        const list = async (qs: string) => (await collectPages(c, `/documents?docset.id=${ds.id}&${qs}`, 'documents')).items.map((d) => d.id);
        assert.deepEqual(await list('name=page-3.txt'), [ids[3]]);
        assert.deepEqual(await list('prefix=page-'), ids.slice(0, 8));
        assert.deepEqual(await list('prefix=PAGE-'), []);
        assert.deepEqual(await list('prefix=page_'), []);
        assert.deepEqual(await list('minPages=3&maxPages=5'), [ids[2], ids[3], ids[4]]);
        assert.deepEqual(await list('status=Ready&minPages=4'), [ids[3], ids[5], ids[7]]);
        const sizes = (await collectPages(c, `/documents?docset.id=${ds.id}&samples=true`, 'documents')).items.map((d: any) => d.size);
        assert.deepEqual(await list(`minSize=${sizes[5]}`), ids.slice(5, 8));
        assert.deepEqual(await list(`maxSize=${sizes[1]}`), ids.slice(0, 2));
        assert.deepEqual(await list('samples=true'), ids);
        assert.deepEqual(await list('samples=false'), ids.slice(0, 8));
        assert.deepEqual(await list('status=Error'), []);
      });

      test('metadata filter', async () => {
        await c.put(`/documents/${ids[2]}/metadata`, { json: { metadata: [{ key: 'region', value: 'EU' }, { key: 'tier', value: 'gold' }] } });
        await c.put(`/documents/${ids[4]}/metadata`, { json: { metadata: [{ key: 'region', value: 'EU' }] } });
        const eu = await collectPages(c, `/documents?metadata.region=EU&limit=1`, 'documents');
        assert.deepEqual(eu.items.map((d) => d.id), [ids[2], ids[4]]);
        const gold = await collectPages(c, `/documents?metadata.region=EU&metadata.tier=gold`, 'documents');
        assert.deepEqual(gold.items.map((d) => d.id), [ids[2]]);
        assertProblem(await c.get('/documents?metadata.bad-key=x'), 400, /metadata/);
      });

      test('limit must be 1..100', async () => {
        for (const bad of ['0', '101', '-1', '1e9', 'abc', '2.5', '']) {
          assertProblem(await c.get(`/documents?limit=${bad}`), 400);
        }
        assertJson(await c.get('/documents?limit=100'));
        const dflt = await c.get('/documents');
        assertJson(dflt);
        assert.ok(dflt.json.documents.length <= 30);
      });

      test('other bad parameters: 400; unknown ones ignored', async () => {
        assertProblem(await c.get('/documents?status=Finished'), 400, /status/);
        assertProblem(await c.get('/documents?minPages=-1'), 400);
        assertProblem(await c.get('/documents?samples=maybe'), 400);
        assertJson(await c.get('/documents?whatever=1&docset=%7B%27id%27%3A+%27x%27%7D'));
        assertProblem(await c.get('/documents?minPages=3000000000'), 400);
        assertProblem(await c.get('/documents?maxSize=1e20'), 400);
        assertProblem(await c.get('/documents?name=a%00b'), 400, /NUL/);
        assertProblem(await c.get('/documents/' + 'x'.repeat(65)), 400);
        assertProblem(await c.get('/documents/bad$id'), 400);
        assertProblem(await c.post('/docsets', { json: { name: 'nul\u0000name' } }), 400, /NUL/);
        assertProblem(await c.post('/docsets', { json: { name: 'x'.repeat(256) } }), 400);
        assertProblem(await c.post('/docsets', { json: { name: 'big', documents: ['x'.repeat(2 * 1024 * 1024)] } }), 413, /1 MB/);
      });

      test('a changed cursor answers 400; a cursor of another list 400', async () => {
        const first = await c.get(`/documents?limit=2&docset.id=${ds.id}`);
        const next = new URL(first.json.next);
        const cursor = next.searchParams.get('cursor')!;
        const [payload, mac] = cursor.split('.');
        const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), a: '0' })).toString('base64url');
        assertProblem(await c.get(`/documents?cursor=${forged}.${mac}`), 400);
        assertProblem(await c.get(`/documents?cursor=garbage`), 400);
        assertProblem(await c.get(`/docsets?cursor=${encodeURIComponent(cursor)}`), 400);
      });

      test('the empty list still has its array and next: null', async () => {
        const r = await c.get('/documents?name=no-such-name');
        assertJson(r);
        assert.deepEqual(r.json, { documents: [], next: null });
      });
    });

    describe('metadata', () => {
      let id: string;
      before(async () => {
        id = (await c.upload({ bytes: 'metadata doc', name: 'md.txt' })).json.id;
      });

      test('GET, PUT replaces, POST merges', async () => {
        const empty = await c.get(`/documents/${id}/metadata`);
        assertJson(empty);
        assert.deepEqual(empty.json, { metadata: [], document: { id, url: `${q.api}/documents/${id}` } });
        const put = await c.put(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] } });
        assertJson(put);
        assert.deepEqual(put.json.metadata, [{ key: 'a', value: '1' }, { key: 'b', value: '2' }]);
        const post = await c.post(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'b', value: 'two' }, { key: 'c', value: '3' }] } });
        assert.deepEqual(post.json.metadata, [{ key: 'a', value: '1' }, { key: 'b', value: 'two' }, { key: 'c', value: '3' }]);
        const replaced = await c.put(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'z', value: '' }] } });
        assert.deepEqual(replaced.json.metadata, [{ key: 'z', value: '' }]);
        assert.deepEqual((await c.get(`/documents/${id}/metadata`)).json.metadata, [{ key: 'z', value: '' }]);
      });

      test('at most 10 entries per document in all: a merge past 10 is a 400 and changes nothing', async () => {
        const d = (await c.upload({ bytes: 'ten entries', name: 'ten.txt' })).json.id;
        const eight = Array.from({ length: 8 }, (_, i) => ({ key: `k${i}`, value: `v${i}` }));
        assertJson(await c.put(`/documents/${d}/metadata`, { json: { metadata: eight } }));
        // Overwriting existing keys and adding two: exactly 10.
        const ten = await c.post(`/documents/${d}/metadata`, { json: { metadata: [{ key: 'k0', value: 'changed' }, { key: 'k8', value: 'v8' }, { key: 'k9', value: 'v9' }] } });
        assertJson(ten);
        assert.equal(ten.json.metadata.length, 10);
        assert.deepEqual(ten.json.metadata[0], { key: 'k0', value: 'changed' });
        // One more new key: refused, and nothing of the request is kept (not even its overwrite).
        const refused = await c.post(`/documents/${d}/metadata`, { json: { metadata: [{ key: 'k1', value: 'lost' }, { key: 'eleventh', value: 'x' }] } });
        assertProblem(refused, 400, /at most 10 metadata entries: it has 10 and this merge adds 1 new key/);
        const kept = (await c.get(`/documents/${d}/metadata`)).json.metadata;
        assert.deepEqual(kept, ten.json.metadata);
        assert.deepEqual((await c.get(`/documents/${d}`)).json.metadata, ten.json.metadata);
        // Overwriting only (no new key) still works at 10.
        const same = await c.post(`/documents/${d}/metadata`, { json: { metadata: [{ key: 'k9', value: 'nine' }] } });
        assertJson(same);
        assert.deepEqual(same.json.metadata.at(-1), { key: 'k9', value: 'nine' });
        const eleven = Array.from({ length: 11 }, (_, i) => ({ key: `n${i}`, value: 'v' }));
        assertProblem(await c.put(`/documents/${d}/metadata`, { json: { metadata: eleven } }), 400);
        assertProblem(await c.upload({ bytes: 'x', name: 'eleven.txt' }, { metadata: JSON.stringify({ metadata: eleven }) }), 400, /at most 10/);
      });

      test('invalid writes: 400; unknown document: 404', async () => {
        const eleven = Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
        assertProblem(await c.put(`/documents/${id}/metadata`, { json: { metadata: eleven } }), 400);
        assertProblem(await c.put(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'has space', value: 'v' }] } }), 400);
        assertProblem(await c.put(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'x'.repeat(101), value: 'v' }] } }), 400);
        assertProblem(await c.post(`/documents/${id}/metadata`, { json: { metadata: [{ key: 'n', value: 5 }] } }), 400);
        assertProblem(await c.post(`/documents/${id}/metadata`, { json: { wrong: true } }), 400);
        assertProblem(await c.put(`/documents/${id}/metadata`, { body: '{"metadata": [', headers: { 'content-type': 'application/json' } }), 400, /JSON/);
        assertProblem(await c.get(`/documents/nosuchdoc/metadata`), 404);
        assertProblem(await c.put(`/documents/nosuchdoc/metadata`, { json: { metadata: [] } }), 404);
      });
    });

    describe('docsets', () => {
      test('create, get, duplicate name, bad bodies', async () => {
        const r = await c.post('/docsets', { json: { name: 'Leases' } });
        assertJson(r, 201);
        assert.equal(r.json.name, 'Leases');
        assert.equal(r.json.documentCount, 0);
        assert.equal(r.json.url, `${q.api}/docsets/${r.json.id}`);
        assertJson(await c.get(`/docsets/${r.json.id}`));
        const dup = await c.post('/docsets', { json: { name: 'Leases' } });
        assertProblem(dup, 409);
        assert.equal(dup.headers.get('x-should-retry'), 'false');
        assertProblem(await c.post('/docsets', { json: {} }), 400);
        assertProblem(await c.post('/docsets', { json: { name: '' } }), 400);
        assertProblem(await c.post('/docsets', { json: { name: 'x', documents: ['nosuchdoc'] } }), 404);
        assertProblem(await c.post('/docsets', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
        assertProblem(await c.get('/docsets/nosuchdocset'), 404);
      });

      test('create with documents moves them; counts stay true', async () => {
        const a = (await c.post('/docsets', { json: { name: 'move-from' } })).json;
        const d1 = (await c.upload({ bytes: 'one', name: 'one.txt' }, { 'docset.id': a.id })).json;
        const d2 = (await c.upload({ bytes: 'two', name: 'two.txt' }, { 'docset.id': a.id })).json;
        const d3 = (await c.upload({ bytes: 'three', name: 'three.txt' })).json;
        assert.equal((await c.get(`/docsets/${a.id}`)).json.documentCount, 2);
        const b = await c.post('/docsets', { json: { name: 'move-to', documents: [d1.id, { id: d3.id }] } });
        assertJson(b, 201);
        assert.equal(b.json.documentCount, 2);
        assert.equal((await c.get(`/docsets/${a.id}`)).json.documentCount, 1);
        assert.equal((await c.get(`/documents/${d1.id}`)).json.docset.id, b.json.id);
        assert.equal((await c.get(`/documents/${d2.id}`)).json.docset.id, a.id);
      });

      test('membership: PUT moves and answers 200 with the Docset; GET; DELETE', async () => {
        const a = (await c.post('/docsets', { json: { name: 'member-a' } })).json;
        const b = (await c.post('/docsets', { json: { name: 'member-b' } })).json;
        const d = (await c.upload({ bytes: 'member', name: 'member.txt' }, { 'docset.id': a.id })).json;
        await new Promise((r) => setTimeout(r, 5));
        // The SDK sends Content-Type: application/json with no body.
        const put = await c.put(`/docsets/${b.id}/documents/${d.id}`, { headers: { 'content-type': 'application/json' } });
        assertJson(put, 200);
        assert.equal(put.json.id, b.id);
        assert.equal(put.json.documentCount, 1);
        assert.ok(Date.parse(put.json.updatedAt) > Date.parse(b.updatedAt));
        const aNow = (await c.get(`/docsets/${a.id}`)).json;
        assert.equal(aNow.documentCount, 0);
        assert.ok(Date.parse(aNow.updatedAt) > Date.parse(a.updatedAt));
        // Idempotent.
        assert.equal((await c.put(`/docsets/${b.id}/documents/${d.id}`)).json.documentCount, 1);
        assertJson(await c.get(`/docsets/${b.id}/documents/${d.id}`));
        assertProblem(await c.get(`/docsets/${a.id}/documents/${d.id}`), 404);
        assertProblem(await c.put(`/docsets/${b.id}/documents/nosuchdoc`), 404);
        assertProblem(await c.put(`/docsets/nosuchdocset/documents/${d.id}`), 404);
        const del = await c.del(`/docsets/${b.id}/documents/${d.id}`, { headers: { 'content-type': 'application/json' } });
        assert.equal(del.status, 204);
        assert.equal((await c.get(`/docsets/${b.id}`)).json.documentCount, 0);
        assertJson(await c.get(`/documents/${d.id}`));
        assertProblem(await c.del(`/docsets/${b.id}/documents/${d.id}`), 404);
      });

      test('docset documents: filters and pagination', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'listing' } })).json;
        const ids: string[] = [];
        for (let i = 0; i < 7; i++) ids.push((await c.upload({ bytes: `x${i}`, name: `${i % 2 ? 'odd' : 'even'}-${i}.txt` }, { 'docset.id': ds.id })).json.id);
        const all = await collectPages(c, `/docsets/${ds.id}/documents?limit=2`, 'documents');
        assert.deepEqual(all.items.map((d) => d.id), ids);
        for (const u of all.urls.slice(1)) assert.ok(u.startsWith(`${q.api}/docsets/${ds.id}/documents?`));
        const odd = await collectPages(c, `/docsets/${ds.id}/documents?limit=2&prefix=odd-`, 'documents');
        assert.deepEqual(odd.items.map((d) => d.id), [ids[1], ids[3], ids[5]]);
        const noLimit = await collectPages(c, `/docsets/${ds.id}/documents`, 'documents');
        assert.equal(noLimit.items.length, 7);
        assertProblem(await c.get(`/docsets/nosuchdocset/documents`), 404);
        assertProblem(await c.get(`/docsets/${ds.id}/documents?status=Nope`), 400);
      });

      test('list filters and pagination', async () => {
        const made: string[] = [];
        for (let i = 0; i < 3; i++) made.push((await c.post('/docsets', { json: { name: `filterable-${i}` } })).json.id);
        await c.upload({ bytes: 'a', name: 'a.txt' }, { 'docset.id': made[1]! });
        await c.upload({ bytes: 'b', name: 'b.txt' }, { 'docset.id': made[1]! });
        await c.upload({ bytes: 'c', name: 'c.txt' }, { 'docset.id': made[2]! });
        const all = await collectPages(c, '/docsets?limit=2', 'docsets');
        const allIds = all.items.map((d) => d.id);
        assert.equal(new Set(allIds).size, allIds.length);
        for (const id of made) assert.ok(allIds.includes(id));
        assert.deepEqual((await collectPages(c, '/docsets?name=filterable-1', 'docsets')).items.map((d) => d.id), [made[1]]);
        const two = (await collectPages(c, '/docsets?minDocuments=2&maxDocuments=2&limit=1', 'docsets')).items.map((d) => d.id);
        assert.ok(two.includes(made[1]!) && !two.includes(made[2]!) && !two.includes(made[0]!));
        const empty = (await collectPages(c, '/docsets?maxDocuments=0', 'docsets')).items.map((d) => d.id);
        assert.ok(empty.includes(made[0]!) && !empty.includes(made[1]!));
        assertProblem(await c.get('/docsets?limit=0'), 400);
        assertProblem(await c.get('/docsets?minDocuments=x'), 400);
      });

      test('PATCH renames: documents stay, names stay unique, bad bodies 400', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'to-rename' } })).json;
        await c.upload({ bytes: 'stays', name: 'stays.txt' }, { 'docset.id': ds.id });
        const r = await c.patch(`/docsets/${ds.id}`, { json: { name: '  Renamed & <Co>  ' } });
        assertJson(r);
        assert.equal(r.json.name, 'Renamed & <Co>');
        assert.equal(r.json.documentCount, 1);
        assert.ok(Date.parse(r.json.updatedAt) >= Date.parse(ds.updatedAt));
        assert.equal((await c.get(`/docsets/${ds.id}`)).json.name, 'Renamed & <Co>');
        assert.deepEqual((await c.get(`/docsets?name=${encodeURIComponent('Renamed & <Co>')}`)).json.docsets.map((d: { id: string }) => d.id), [ds.id]);
        assert.equal((await c.get(`/docsets?name=to-rename`)).json.docsets.length, 0);
        assertJson(await c.post('/docsets', { json: { name: 'to-rename' } }), 201);
        assertJson(await c.patch(`/docsets/${ds.id}`, { json: { name: 'Renamed & <Co>' } }), 200);
        const taken = await c.patch(`/docsets/${ds.id}`, { json: { name: 'to-rename' } });
        assertProblem(taken, 409, /already exists/);
        assert.equal(taken.headers.get('x-should-retry'), 'false');
        for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(256) }, { name: 5 }, { name: 'x', documents: [] }]) {
          assertProblem(await c.patch(`/docsets/${ds.id}`, { json: body }), 400);
        }
        assertProblem(await c.patch('/docsets/nosuchdocset', { json: { name: 'y' } }), 404);
        assertProblem(await other.patch(`/docsets/${ds.id}`, { json: { name: 'stolen' } }), 404);
        assertProblem(await readOnly.patch(`/docsets/${ds.id}`, { json: { name: 'y' } }), 403);
        assert.equal((await c.get(`/docsets/${ds.id}`)).json.name, 'Renamed & <Co>');
      });

      test('DELETE keeps its documents, out of any docset', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'doomed' } })).json;
        const d = (await c.upload({ bytes: 'survivor', name: 'survivor.txt' }, { 'docset.id': ds.id })).json;
        const del = await c.del(`/docsets/${ds.id}`, { headers: { 'content-type': 'application/json' } });
        assert.equal(del.status, 204);
        assertProblem(await c.get(`/docsets/${ds.id}`), 404);
        const doc = await c.get(`/documents/${d.id}`);
        assertJson(doc);
        assert.equal(doc.json.docset, undefined);
        assertProblem(await c.del(`/docsets/${ds.id}`), 404);
      });
    });

    describe('workspace isolation', () => {
      test("another workspace's ids answer 404 on every route, and its lists stay apart", async () => {
        const ds = (await c.post('/docsets', { json: { name: 'private-docset' } })).json;
        const d = (await c.upload({ path: PDFS[0]! }, { 'docset.id': ds.id })).json;
        const mine = (await other.post('/docsets', { json: { name: 'private-docset' } })).json;
        assertJson(await other.get('/docsets/' + mine.id));
        assertProblem(await other.get(`/documents/${d.id}`), 404);
        assertProblem(await other.get(`/documents/${d.id}/content`), 404);
        assertProblem(await other.get(`/documents/${d.id}/metadata`), 404);
        assertProblem(await other.put(`/documents/${d.id}/metadata`, { json: { metadata: [] } }), 404);
        assertProblem(await other.post(`/documents/${d.id}/metadata`, { json: { metadata: [] } }), 404);
        assertProblem(await other.del(`/documents/${d.id}`), 404);
        assertProblem(await other.get(`/docsets/${ds.id}`), 404);
        assertProblem(await other.get(`/docsets/${ds.id}/documents`), 404);
        assertProblem(await other.get(`/docsets/${ds.id}/documents/${d.id}`), 404);
        assertProblem(await other.put(`/docsets/${mine.id}/documents/${d.id}`), 404);
        assertProblem(await other.put(`/docsets/${ds.id}/documents/${d.id}`), 404);
        assertProblem(await other.del(`/docsets/${ds.id}/documents/${d.id}`), 404);
        assertProblem(await other.del(`/docsets/${ds.id}`), 404);
        assertProblem(await other.upload({ bytes: 'x', name: 'x.txt' }, { 'docset.id': ds.id }), 404);
        assertProblem(await other.post('/docsets', { json: { name: 'steal', documents: [d.id] } }), 404);
        const theirs = await collectPages(other, '/documents', 'documents');
        assert.ok(!theirs.items.some((x) => x.id === d.id));
        assert.equal((await other.get(`/documents?docset.id=${ds.id}`)).json.documents.length, 0);
        // A cursor of this workspace is worthless there.
        const page = await c.get('/documents?limit=1');
        assertProblem(await other.get(page.json.next), 404);
        assert.equal((await c.get(`/documents/${d.id}`)).status, 200);
      });
    });

    describe('what real clients send', () => {
      test('empty JSON bodies are accepted on GET, DELETE and body-less PUT', async () => {
        const h = { 'content-type': 'application/json' };
        assertJson(await c.get('/documents', { headers: h }));
        assertJson(await c.get('/workspace', { headers: h }));
        const ds = (await c.post('/docsets', { json: { name: 'empty-bodies' } })).json;
        const d = (await c.upload({ bytes: 'e', name: 'e.txt' })).json;
        assertJson(await c.put(`/docsets/${ds.id}/documents/${d.id}`, { headers: h, body: '' }));
        assert.equal((await c.del(`/documents/${d.id}`, { headers: h, body: '' })).status, 204);
      });

      test('the loader and SDK flow: upload into a docset, list it without a limit, read each document', async () => {
        const ds = (await c.post('/docsets', { json: { name: 'loader-flow' } })).json;
        const uploaded: string[] = [];
        for (const f of PDFS) uploaded.push((await c.upload({ path: f }, { 'docset.id': ds.id })).json.id);
        const { items } = await collectPages(c, `/docsets/${ds.id}/documents`, 'documents');
        assert.deepEqual(items.map((d: any) => d.id), uploaded);
        for (const item of items as any[]) {
          assert.equal(typeof item.name, 'string');
          const doc = await c.get(item.url);
          assertJson(doc);
          assert.equal(doc.json.status, 'New');
          assert.equal(doc.json.docset.dgmlUrl, `${q.api}/docsets/${ds.id}/documents/${item.id}/dgml`);
          assert.ok(doc.json.downloadUrl.startsWith(q.api));
        }
        // The SDK lists with docset[id] and follows absolute next URLs.
        const sdk = await collectPages(c, `/documents?docset%5Bid%5D=${ds.id}&limit=1`, 'documents');
        assert.deepEqual(sdk.items.map((d: any) => d.id), uploaded);
      });
    });
  });
}

function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  const m = /filename=(?:"([^"]*)"|([^;\s]+))/.exec(header);
  return m?.[1] ?? m?.[2];
}

