/**
 * `/ops` coverage beyond test/api/ops.test.ts, over real HTTP against a real server:
 *  - every operation of the served `/ops/openapi.json` × every scope: 403 Problem exactly when the
 *    scope of the REST route it mirrors (that route's `x-scope` in `/openapi.json`) is not granted;
 *  - UploadDocument sent with chunked transfer-encoding (no Content-Length) whose base64 decodes past
 *    300 MB: 413 Problem, no document row, no staged or committed blob;
 *  - the filters the REST lists share with the operations, on documents that reached Ready with
 *    different page counts, a project's artifacts and a sample docset: the same items, in key order;
 *  - continuation: every range handed out (first page or later) holds unreturned items.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SCOPES, hasScope, type Scope } from '../../src/model/scopes.js';
import { partitionKeyOf } from '../../src/model/partition.js';
import { partitionedPage, WHOLE_KEY_SPACE, type Continuation, type PartitionFetch } from '../../src/domain/listings.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, collectPages, until, type Client } from '../helpers/http.js';
import { FAKE_ID } from '../helpers/api-fixtures.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { ALLOWED_EXTENSIONS } from '../../src/model/formats.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;
type Item = { id: string; [k: string]: unknown };
interface Next {
  token: string;
  range: { min: string; max: string };
}

/** The REST route each operation mirrors (`{}` for any path parameter). */
const MIRRORS: Record<string, string> = {
  SearchDocuments: 'GET /v1preview1/documents',
  GetDocument: 'GET /v1preview1/documents/{}',
  UploadDocument: 'POST /v1preview1/documents/content',
  ListDocsets: 'GET /v1preview1/docsets',
  GetDocset: 'GET /v1preview1/docsets/{}',
  DeleteDocset: 'DELETE /v1preview1/docsets/{}',
  ListDocsetDocuments: 'GET /v1preview1/docsets/{}/documents',
  AddDocumentToDocset: 'PUT /v1preview1/docsets/{}/documents/{}',
  RemoveDocumentFromDocset: 'DELETE /v1preview1/docsets/{}/documents/{}',
  ListProjects: 'GET /v1preview1/projects',
  GetProject: 'GET /v1preview1/projects/{}',
  ListArtifacts: 'GET /v1preview1/projects/{}/artifacts/{}',
  DownloadArtifact: 'GET /v1preview1/projects/{}/artifacts/{}/{}/content',
};

/** A PDF with one page per entry of `pages`, each holding its text (Helvetica, no OCR needed). */
function textPdf(pages: string[]): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  pages.forEach((text, i) => {
    const pageObj = 4 + 2 * i;
    kids.push(`${pageObj} 0 R`);
    const lines = text.split('\n').map((l, j) => `BT /F1 12 Tf 72 ${720 - 16 * j} Td (${l.replace(/[()\\]/g, '')}) Tj ET`);
    const stream = lines.join('\n');
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObj + 1} 0 R >>`);
    objects.push(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  });
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  return makePdf(objects);
}

function opsClient(q: Quire, key: string) {
  const c = client(`${q.origin}/ops`, key);
  return (operation: string, body: unknown) => c.post(`/${operation}`, { json: body });
}
type Ops = ReturnType<typeof opsClient>;

/** (partition key, id): the order of a partitioned page. */
const keyOrder = (a: Item, b: Item) => partitionKeyOf(a.id) - partitionKeyOf(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Follows every token of a listing depth first; asserts each page read through a token is not
 * empty (a range is handed out only while it holds unreturned items) and lies inside its range.
 */
async function followAll(ops: Ops, operation: string, body: Record<string, unknown>, itemsKey: string) {
  const items: Item[] = [];
  const tokensFollowed: Next[] = [];
  const read = async (cursor: Next | null): Promise<Next[]> => {
    const r = await ops(operation, cursor ? { ...body, cursor: cursor.token } : body);
    assertJson(r);
    const got = r.json[itemsKey] as Item[];
    if (cursor) {
      tokensFollowed.push(cursor);
      assert.ok(got.length > 0, `${operation}: the range ${cursor.range.min}-${cursor.range.max} was handed out but its page is empty`);
      for (const it of got) {
        const k = partitionKeyOf(it.id);
        assert.ok(k >= parseInt(cursor.range.min, 16) && k <= parseInt(cursor.range.max, 16));
      }
    }
    items.push(...got);
    return r.json.next;
  };
  const first = await read(null);
  const stack = [...first];
  let guard = 0;
  while (stack.length) {
    assert.ok(guard++ < 2000);
    stack.push(...(await read(stack.pop()!)));
  }
  return { items, first, tokensFollowed };
}

/** What may change between two reads of a document still being processed elsewhere. */
const stable = (it: Item) => {
  const { status: _s, progress: _p, processing: _q, pageCount: _c, processedAt: _a, updatedAt: _u, ...rest } = it as Json;
  return rest;
};

describe('/ops coverage (SQLite, with workers)', () => {
  let q: Quire;
  let c: Client;
  let ops: Ops;

  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_PROJECT_DEBOUNCE_MS: '200' } });
    c = client(q.api, q.key);
    ops = opsClient(q, q.key);
  });

  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('every operation of /ops/openapi.json × every scope: 403 Problem exactly when the mirrored REST route\'s scope is not granted', async () => {
    const opsDoc = (await (await fetch(`${q.origin}/ops/openapi.json`)).json()) as Json;
    const restDoc = (await (await fetch(`${q.origin}/openapi.json`)).json()) as Json;
    const served = Object.values(opsDoc.paths as Record<string, Json>).map((p) => p.post.operationId as string);
    assert.equal(served.length, 13, `13 operations are served: ${served.join(', ')}`);
    assert.deepEqual([...served].sort(), Object.keys(MIRRORS).sort(), 'every served operation has its mirrored REST route here');

    const restScope = new Map<string, Scope | 'any'>();
    for (const [p, methods] of Object.entries(restDoc.paths as Record<string, Json>)) {
      for (const [m, o] of Object.entries(methods as Record<string, Json>)) restScope.set(`${m.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`, o['x-scope']);
    }
    const needed = new Map<string, Scope>();
    for (const id of served) {
      const s = restScope.get(MIRRORS[id]!);
      assert.ok(s && s !== 'any', `${id}: the REST route ${MIRRORS[id]} and its x-scope`);
      needed.set(id, s as Scope);
      const op = Object.values(opsDoc.paths as Record<string, Json>).find((p) => p.post.operationId === id).post;
      assert.match(op.description, new RegExp(`Scope: \`${s}\``), `${id} documents the scope of ${MIRRORS[id]}`);
    }

    // Keys of every scope in a workspace of their own: nothing here touches the other tests' data.
    assert.equal((await q.cli(['workspaces', 'create', 'scopes'])).code, 0);
    const keys = new Map<Scope, string>();
    for (const s of SCOPES) {
      const r = await q.cli(['keys', 'create', '--workspace', 'scopes', '--scopes', s]);
      assert.equal(r.code, 0, r.stderr);
      keys.set(s, r.stdout.trim());
    }
    const admin = client(q.api, keys.get('admin')!);
    const ds = await admin.post('/docsets', { json: { name: 'scoped' } });
    assertJson(ds, 201);
    // Real ids where a read can succeed; unknown ids where a write would change something (404).
    const bodies: Record<string, Json> = {
      SearchDocuments: {},
      GetDocument: { id: FAKE_ID },
      UploadDocument: { fileName: 'x.txt', base64Content: Buffer.from('x\n').toString('base64'), docsetIds: FAKE_ID },
      ListDocsets: {},
      GetDocset: { id: ds.json.id },
      DeleteDocset: { id: FAKE_ID },
      ListDocsetDocuments: { id: ds.json.id },
      AddDocumentToDocset: { docsetId: FAKE_ID, documentId: FAKE_ID },
      RemoveDocumentFromDocset: { docsetId: FAKE_ID, documentId: FAKE_ID },
      ListProjects: {},
      GetProject: { id: FAKE_ID },
      ListArtifacts: { projectId: FAKE_ID },
      DownloadArtifact: { projectId: FAKE_ID, artifactId: FAKE_ID },
    };
    const succeeds = new Set(['SearchDocuments', 'ListDocsets', 'GetDocset', 'ListDocsetDocuments', 'ListProjects']);
    const wrong: string[] = [];
    let checked = 0;
    for (const id of served) {
      for (const [scope, key] of keys) {
        const r = await opsClient(q, key)(id, bodies[id]);
        checked++;
        const granted = hasScope([scope], needed.get(id)!);
        const what = `${id} with ${scope} (mirrors ${MIRRORS[id]}: ${needed.get(id)})`;
        const problem = /^application\/problem\+json/.test(r.headers.get('content-type') ?? '') && r.json?.status === r.status;
        if (!granted && (r.status !== 403 || !problem)) wrong.push(`${what}: ${r.status} ${r.text.slice(0, 100)}, expected a 403 Problem`);
        if (granted) {
          if (r.status === 401 || r.status === 403 || r.status >= 500) wrong.push(`${what}: ${r.status}, expected to be let through`);
          else if (succeeds.has(id) && r.status !== 200) wrong.push(`${what}: ${r.status}, expected 200`);
          else if (!succeeds.has(id) && (r.status < 400 || !problem)) wrong.push(`${what}: ${r.status}, expected a 4xx Problem (unknown ids)`);
        }
      }
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${checked} wrong`);
    assert.equal(checked, 13 * SCOPES.length);
  });

  describe('filters equal the REST lists', () => {
    const PAGES = [1, 2, 3, 4, 5];
    let docset: string;
    const docs = new Map<string, { id: string; pages: number; size: number }>();
    let broken: string;
    let loose: string;

    before(async () => {
      const ds = await c.post('/docsets', { json: { name: 'paged' } });
      assertJson(ds, 201);
      docset = ds.json.id;
      for (const n of PAGES) {
        const pdf = textPdf(Array.from({ length: n }, (_, i) => `Agreement ${n} page ${i + 1}\nParty: Example Corp ${n}\nThe term is ${n} years.`));
        const up = await c.upload({ bytes: pdf, name: `paged-${n}.pdf` }, { 'docset.id': docset });
        assertJson(up, 201);
        docs.set(up.json.id, { id: up.json.id, pages: n, size: pdf.length });
      }
      const b = await c.upload({ bytes: 'this is not a PDF at all', name: 'broken.pdf' }, { 'docset.id': docset });
      assertJson(b, 201);
      broken = b.json.id;
      const l = await c.upload({ bytes: textPdf(['Loose one', 'Loose two', 'Loose three']), name: 'loose.pdf' });
      assertJson(l, 201);
      loose = l.json.id;
      for (const id of [...docs.keys(), broken, loose]) {
        await until(`${id} settled`, async () => {
          const s = (await c.get(`/documents/${id}`)).json;
          return ['Ready', 'Error', 'OverQuota'].includes(s.status) ? s : undefined;
        }, 300_000);
      }
      for (const d of docs.values()) {
        const j = (await c.get(`/documents/${d.id}`)).json;
        assert.equal(j.status, 'Ready', JSON.stringify(j.error));
        assert.equal(j.pageCount, d.pages);
      }
      assert.equal((await c.get(`/documents/${broken}`)).json.status, 'Error');
      assert.equal((await c.get(`/documents/${loose}`)).json.pageCount, 3);
    });

    /**
     * The operation's single page (limit 100) and the REST list: the same items, the operation in
     * (partition key, id) order (its documented order), REST in id order.
     */
    async function compare(operation: string, body: Json, restPath: string, itemsKey: string, opts: { strip?: boolean } = {}) {
      const o = await ops(operation, { ...body, limit: 100 });
      assertJson(o);
      assert.deepEqual(o.json.next, [], `${operation} ${JSON.stringify(body)}: one page`);
      const r = await collectPages(c, `${restPath}${restPath.includes('?') ? '&' : '?'}limit=100`, itemsKey);
      const restItems = r.items as Item[];
      const ids = restItems.map((i) => i.id);
      assert.deepEqual(ids, [...ids].sort(), 'REST lists in id order');
      const opsItems = o.json[itemsKey] as Item[];
      const expected = [...restItems].sort(keyOrder);
      assert.deepEqual(opsItems.map((i) => i.id), expected.map((i) => i.id), `${operation} ${JSON.stringify(body)} vs ${restPath}: ids and order`);
      const norm = opts.strip ? stable : (x: Item) => x;
      assert.deepEqual(opsItems.map(norm), expected.map(norm), `${operation} ${JSON.stringify(body)} vs ${restPath}: items`);
      return opsItems.map((i) => i.id).sort();
    }

    const idsWhere = (f: (d: { pages: number; size: number }) => boolean) => [...docs.values()].filter(f).map((d) => d.id).sort();

    test('SearchDocuments status, minPages, maxPages', async () => {
      assert.deepEqual(await compare('SearchDocuments', { status: 'Error' }, '/documents?status=Error', 'documents'), [broken]);
      const ready = await compare('SearchDocuments', { status: 'Ready' }, '/documents?status=Ready', 'documents');
      assert.ok([...docs.keys(), loose].every((id) => ready.includes(id)) && !ready.includes(broken));
      assert.deepEqual(await compare('SearchDocuments', { minPages: 3 }, '/documents?minPages=3', 'documents'), [...idsWhere((d) => d.pages >= 3), loose].sort());
      assert.deepEqual(await compare('SearchDocuments', { maxPages: 2 }, '/documents?maxPages=2', 'documents'), idsWhere((d) => d.pages <= 2));
      assert.deepEqual(
        await compare('SearchDocuments', { minPages: 2, maxPages: 4, status: 'Ready' }, '/documents?minPages=2&maxPages=4&status=Ready', 'documents'),
        [...idsWhere((d) => d.pages >= 2 && d.pages <= 4), loose].sort(),
      );
      assert.deepEqual(await compare('SearchDocuments', { minPages: 6 }, '/documents?minPages=6', 'documents'), []);
    });

    test('ListDocsetDocuments status, minPages/maxPages, minSize/maxSize', async () => {
      const p = `/docsets/${docset}/documents`;
      assert.deepEqual(await compare('ListDocsetDocuments', { id: docset, status: 'Error' }, `${p}?status=Error`, 'documents'), [broken]);
      assert.deepEqual(await compare('ListDocsetDocuments', { id: docset, status: 'Ready' }, `${p}?status=Ready`, 'documents'), idsWhere(() => true));
      assert.deepEqual(await compare('ListDocsetDocuments', { id: docset, minPages: 2, maxPages: 4 }, `${p}?minPages=2&maxPages=4`, 'documents'), idsWhere((d) => d.pages >= 2 && d.pages <= 4));
      const sizes = [...docs.values()].map((d) => d.size).sort((a, b) => a - b);
      const [lo, hi] = [sizes[1]!, sizes[3]!];
      assert.deepEqual(
        await compare('ListDocsetDocuments', { id: docset, minSize: lo, maxSize: hi }, `${p}?minSize=${lo}&maxSize=${hi}`, 'documents'),
        idsWhere((d) => d.size >= lo && d.size <= hi),
      );
      assert.equal(idsWhere((d) => d.size >= lo && d.size <= hi).length, 3);
      // minSize alone: the broken document (24 bytes) is below every bound.
      assert.deepEqual(await compare('ListDocsetDocuments', { id: docset, minSize: lo }, `${p}?minSize=${lo}`, 'documents'), idsWhere((d) => d.size >= lo));
    });

    test('ListProjects name; ListArtifacts documentId, minSize, maxSize', async () => {
      const make = async (name: string) => {
        const r = await c.post('/projects', { json: { name, type: 'TabularReport', 'docset.id': docset, items: [{ label: 'Party' }] } });
        assertJson(r, 201);
        return r.json.id as string;
      };
      const pid = await make('paged report');
      const other = await make('paged report two');
      assert.deepEqual(await compare('ListProjects', { name: 'paged report' }, `/projects?name=${encodeURIComponent('paged report')}`, 'projects'), [pid]);
      assert.deepEqual(await compare('ListProjects', { name: 'paged report two' }, `/projects?name=${encodeURIComponent('paged report two')}`, 'projects'), [other]);
      assert.deepEqual(await compare('ListProjects', { name: 'no such report' }, '/projects?name=no%20such%20report', 'projects'), []);

      const version = await until('version 1', async () => {
        // "0" until the first version is published.
        const v = (await c.get(`/projects/${pid}`)).json.artifacts.version;
        return v !== '0' ? String(v) : undefined;
      }, 300_000);
      const all = (await collectPages(c, `/projects/${pid}/artifacts/${version}?limit=100`, 'artifacts')).items as Json[];
      const perDoc = all.filter((a) => a.document);
      assert.ok(perDoc.length >= 2, `per-document artifacts: ${all.map((a) => a.name).join(', ')}`);
      const a = `/projects/${pid}/artifacts/${version}`;
      for (const docId of new Set(perDoc.map((x) => x.document.id as string))) {
        const got = await compare('ListArtifacts', { projectId: pid, version, documentId: docId }, `${a}?document.id=${docId}`, 'artifacts');
        assert.deepEqual(got, all.filter((x) => x.document?.id === docId).map((x) => x.id).sort());
        assert.ok(got.length > 0 && got.length < all.length);
      }
      const sizes = [...new Set(all.map((x) => x.size as number))].sort((x, y) => x - y);
      assert.ok(sizes.length >= 3, `artifact sizes ${sizes.join(', ')}`);
      const [lo, hi] = [sizes[1]!, sizes[sizes.length - 2]!];
      const within = (f: (s: number) => boolean) => all.filter((x) => f(x.size)).map((x) => x.id).sort();
      assert.deepEqual(await compare('ListArtifacts', { projectId: pid, version, minSize: lo }, `${a}?minSize=${lo}`, 'artifacts'), within((s) => s >= lo));
      assert.deepEqual(await compare('ListArtifacts', { projectId: pid, version, maxSize: hi }, `${a}?maxSize=${hi}`, 'artifacts'), within((s) => s <= hi));
      const both = within((s) => s >= lo && s <= hi);
      assert.deepEqual(await compare('ListArtifacts', { projectId: pid, version, minSize: lo, maxSize: hi }, `${a}?minSize=${lo}&maxSize=${hi}`, 'artifacts'), both);
      assert.ok(within((s) => s >= lo).length < all.length && within((s) => s <= hi).length < all.length, 'the bounds leave something out');
    });

    test('samples: SearchDocuments and ListDocsets hide them unless samples=true, as REST', async () => {
      const catalog = await c.get('/sample-catalog');
      assertJson(catalog);
      const made = await c.post('/samples', { json: { id: catalog.json.samples[0].id } });
      assertJson(made, 201);
      const withSamples = await collectPages(c, '/docsets?samples=true&limit=100', 'docsets');
      const sampleDocset = (withSamples.items as Json[]).find((d) => d.isSample);
      assert.ok(sampleDocset, 'a sample docset');
      // Sample documents are processed meanwhile: their status may move between two reads.
      const shown = await compare('SearchDocuments', { samples: true }, '/documents?samples=true', 'documents', { strip: true });
      const hidden = await compare('SearchDocuments', { samples: false }, '/documents?samples=false', 'documents', { strip: true });
      const sampleDocs = (await collectPages(c, `/docsets/${sampleDocset.id}/documents?limit=100`, 'documents')).items.map((d) => d.id);
      assert.ok(sampleDocs.length >= 6);
      assert.ok(sampleDocs.every((id) => shown.includes(id) && !hidden.includes(id)));
      assert.deepEqual(hidden, shown.filter((id) => !sampleDocs.includes(id)));
      assert.deepEqual(await compare('SearchDocuments', {}, '/documents', 'documents', { strip: true }), hidden, 'absent = false');
      const dsShown = await compare('ListDocsets', { samples: true }, '/docsets?samples=true', 'docsets', { strip: true });
      const dsHidden = await compare('ListDocsets', {}, '/docsets', 'docsets', { strip: true });
      assert.ok(dsShown.includes(sampleDocset.id) && !dsHidden.includes(sampleDocset.id));
      assert.deepEqual(dsHidden, dsShown.filter((id) => id !== sampleDocset.id));
      // A sample docset's own list shows its documents, in both interfaces.
      assert.deepEqual(
        await compare('ListDocsetDocuments', { id: sampleDocset.id }, `/docsets/${sampleDocset.id}/documents`, 'documents', { strip: true }),
        [...sampleDocs].sort(),
      );
    });

    test('continuation over these documents: every range handed out holds unreturned items', async () => {
      for (const limit of [1, 2, 3]) {
        const all = (await collectPages(c, '/documents?samples=true&limit=100', 'documents')).items.map((d) => d.id).sort();
        const { items, first, tokensFollowed } = await followAll(ops, 'SearchDocuments', { samples: true, limit }, 'documents');
        assert.deepEqual(items.map((i) => i.id).sort(), all);
        assert.ok(first.length >= 2, `limit ${limit}: the first page fans out (${first.length})`);
        assert.ok(tokensFollowed.length >= Math.ceil(all.length / limit) - 1);
      }
      const inDocset = await followAll(ops, 'ListDocsetDocuments', { id: docset, limit: 1 }, 'documents');
      assert.equal(inDocset.items.length, docs.size + 1);
    });
  });
});

/** 768 KiB of bytes is exactly 1 MiB of base64 without padding: 400 of them are 300 MiB decoded. */
const RAW_PIECE = (() => {
  const raw = Buffer.alloc(3 << 18);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return raw;
})();

/**
 * POSTs UploadDocument with chunked transfer-encoding (no Content-Length): `huge.pdf` and `pieces`
 * MiB of base64, written with backpressure until the server answers.
 */
function sendChunked(q: Quire, pieces: number): Promise<{ status: number; type: string; body: string; sentPieces: number }> {
  const piece = Buffer.from(RAW_PIECE.toString('base64'));
  const url = new URL(`${q.origin}/ops/UploadDocument`);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { authorization: `Bearer ${q.key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (r) => {
      answered = true;
      let body = '';
      r.on('data', (d) => (body += d));
      r.on('end', () => resolve({ status: r.statusCode!, type: String(r.headers['content-type']), body, sentPieces: sent }));
      r.on('error', reject);
    });
    // Once the server has answered and closed, further writes may fail: that is expected.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && sent < pieces) {
        sent++;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered && sent === pieces) req.end('"}');
    };
    assert.equal(req.getHeader('content-length'), undefined);
    req.write('{"fileName":"huge.pdf","base64Content":"');
    pump();
  });
}

describe('UploadDocument: decoded size past 300 MB, chunked transfer-encoding', () => {
  let q: Quire;
  before(async () => {
    q = await startQuire({ args: ['serve', '--no-worker'] });
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  const filesUnder = (dir: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];

  test('no Content-Length, base64 of 300.75 MiB: 413 Problem, no document, nothing staged or stored', async () => {
    const c = client(q.api, q.key);
    const blobs = path.join(q.dataDir, 'blobs');
    const blobsBefore = filesUnder(blobs).filter((f) => !f.includes(`${path.sep}.staging${path.sep}`)).sort();
    const countBefore = (await collectPages(c, '/documents?samples=true&limit=100', 'documents')).items.length;

    const started = Date.now();
    const res = await sendChunked(q, 401);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(res.status, 413, res.body);
    assert.match(res.type, /^application\/problem\+json/);
    const problem = JSON.parse(res.body);
    assert.equal(problem.status, 413);
    assert.match(problem.detail, /300 MB/);
    // The body itself is under the body limit (~432 MB): it is the decoded size that was refused,
    // once more than 300 MiB had been decoded (about 400 pieces of 1 MiB had to be sent).
    assert.ok(res.sentPieces >= 300, `refused after ${res.sentPieces} MiB of base64`);
    console.log(`# 413 after ${res.sentPieces} MiB of base64 in ${seconds.toFixed(1)} s`);

    const staging = path.join(blobs, '.staging');
    await until('staged bytes removed', async () => (filesUnder(staging).length === 0 ? true : undefined), 20_000);
    assert.deepEqual(filesUnder(blobs).filter((f) => !f.includes(`${path.sep}.staging${path.sep}`)).sort(), blobsBefore, 'no blob committed');
    const after = (await collectPages(c, '/documents?samples=true&limit=100', 'documents')).items as Json[];
    assert.equal(after.length, countBefore, 'no document row');
    assert.ok(!after.some((d) => d.name === 'huge.pdf'));
    // The server is fine afterwards.
    assertJson(await c.get('/documents'));
    assertProblem(await c.get('/documents/zzzzzzzzzzzz'), 404);
  });

  test('UploadDocument takes the extensions REST takes and refuses (415) those REST refuses', async () => {
    const c = client(q.api, q.key);
    const ops = opsClient(q, q.key);
    const names = [...ALLOWED_EXTENSIONS, '.htm', '.PDF'].map((e) => `file${e}`).concat(['file.exe', 'file.png', 'file.xlsx', 'file.pdf.exe', 'noextension.']);
    const bytes = Buffer.from('%PDF-1.4 not really a pdf, nobody reads it here (no worker)\n');
    for (const name of names) {
      const viaRest = await c.upload({ bytes, name });
      const viaOps = await ops('UploadDocument', { fileName: name, base64Content: bytes.toString('base64') });
      if (viaRest.status === 201) {
        assertJson(viaOps);
        assert.equal(viaOps.json.documents[0].name, name);
        assert.equal(viaOps.json.documents[0].size, bytes.length);
      } else {
        assert.equal(viaOps.status, viaRest.status, `${name}: REST ${viaRest.status}, ops ${viaOps.status}`);
        assert.equal(viaOps.json.status, viaRest.json.status);
        assert.equal(viaOps.json.title, viaRest.json.title);
      }
      if (ALLOWED_EXTENSIONS.some((e) => name.toLowerCase().endsWith(e)) && !name.endsWith('.exe')) assert.equal(viaRest.status, 201, `${name} is allowed`);
      if (/\.(exe|png|xlsx)$/.test(name)) assertProblem(viaOps, 415);
    }
  });

  test('the boundary: exactly 300 MiB decoded (same chunked body, one MiB of base64 less) is accepted', async () => {
    const c = client(q.api, q.key);
    const res = await sendChunked(q, 400);
    assert.equal(res.status, 200, res.body);
    const doc = JSON.parse(res.body).documents[0];
    assert.equal(doc.size, 300 * 1024 * 1024);
    assert.equal(doc.name, 'huge.pdf');
    assert.equal((await c.del(`/documents/${doc.id}`)).status, 204);
  });
});

/** An in-memory listing over ids, as a repository's listPartitioned reads it. */
function memoryFetch(ids: string[]): PartitionFetch<string> {
  const sorted = ids.map((id) => ({ id, pkey: partitionKeyOf(id) })).sort((a, b) => a.pkey - b.pkey || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return async ({ range, after, limit }) => {
    const rows = sorted.filter((r) => r.pkey >= range.min && r.pkey <= range.max && (!after || r.pkey > after.pkey || (r.pkey === after.pkey && r.id > after.id)));
    const items = rows.slice(0, limit);
    return { items: items.map((r) => r.id), nextAfter: rows.length > limit ? items[items.length - 1]! : null };
  };
}

test('partitionedPage: no continuation (first page or later, split or not) is ever an empty range', async () => {
  let continuations = 0;
  for (const count of [1, 2, 3, 5, 8, 13, 40, 250, 1000]) {
    for (const limit of [1, 2, 3, 7, 30, 100]) {
      const fetch = memoryFetch(Array.from({ length: count }, (_, i) => `doc${i}-${count}`));
      let pending: Continuation[] = [{ range: WHOLE_KEY_SPACE }];
      while (pending.length) {
        const next: Continuation[] = [];
        for (const c of pending) {
          const page = await partitionedPage(fetch, { ...c, limit });
          for (const n of page.next) {
            continuations++;
            const probe = await fetch({ range: n.range, after: n.after, limit: 1 });
            assert.equal(probe.items.length, 1, `${count}/${limit}: range ${n.range.min}-${n.range.max} handed out empty`);
          }
          next.push(...page.next);
        }
        pending = next;
      }
    }
  }
  assert.ok(continuations > 500, `${continuations} continuations checked`);
});
