/**
 * The operation-style interface (`POST /ops/{OperationId}`) over real HTTP against a real server:
 * every operation with valid and invalid bodies, the same results as the REST route it mirrors,
 * partitioned continuation over 250 documents followed sequentially and in parallel, streamed
 * base64 uploads, classification of `a|b` uploads, and the connector definition. The partition-key
 * migration is checked on SQLite and, when its binaries exist, PostgreSQL.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, collectPages, type Client, untilTruthy } from '../helpers/http.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { loadConfig, type Config } from '../../src/runtime/config.js';
import { Store, Repos } from '../../src/store/db/index.js';
import { migrateToLatest, openDb } from '../../src/store/db/connect.js';
import { openBlobStore } from '../../src/store/blobs/index.js';
import { DocumentService } from '../../src/domain/documents.js';
import { partitionKeyOf } from '../../src/model/partition.js';
import * as m0010 from '../../src/store/db/migrations/0010_partition_keys.js';
import { readStreamedObject } from '../../src/http/ops/json-stream.js';
import { base64JsonString, listOperation, type OpContext } from '../../src/http/ops/framework.js';
import { PartitionTokens } from '../../src/http/ops/tokens.js';
import { Cursors } from '../../src/http/pagination.js';
import { partitionedPage, WHOLE_KEY_SPACE, type Continuation, type PartitionFetch } from '../../src/domain/listings.js';
import Type from 'typebox';
import { DomainError } from '../../src/domain/errors.js';
import { PassThrough } from 'node:stream';
import { scratchDir } from '../helpers/scratch.js';

const NTSB = path.join(CORPUS, 'kgrag/ntsb-aviation-incident-accident-reports');
const NIH = path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols');
const pdfsOf = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().map((f) => path.join(dir, f));
const PROPOSAL = path.join(CORPUS, 'pdf/A - Package Proposal.pdf');

type Item = { id: string; [k: string]: unknown };
interface Next {
  token: string;
  range: { min: string; max: string };
}

async function settle(c: Client, id: string): Promise<any> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const r = await c.get(`/documents/${id}`);
    assertJson(r);
    if (['Ready', 'Error', 'OverQuota'].includes(r.json.status)) return r.json;
    if (Date.now() > deadline) throw new Error(`document ${id} did not settle: ${r.text}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

const byId = (a: Item, b: Item) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A client of `/ops` with the operation name as the path. */
function opsClient(q: Quire, key: string) {
  const c = client(`${q.origin}/ops`, key);
  return (operation: string, body: unknown, opts: { key?: string | null } = {}) => c.post(`/${operation}`, { json: body, ...opts });
}
type Ops = ReturnType<typeof opsClient>;

/**
 * Follows every continuation of a listing, sequentially (depth first) or in parallel (every token of
 * a page at once), checking each page's items lie in the range its token covered.
 */
async function followAll(ops: Ops, operation: string, body: Record<string, unknown>, itemsKey: string, mode: 'sequential' | 'parallel') {
  const items: Item[] = [];
  let calls = 0;
  /** Pages read through a token that split their range further. */
  let laterSplits = 0;
  const inRange = (its: Item[], range: Next['range'] | null) => {
    if (!range) return;
    for (const it of its) {
      const k = partitionKeyOf(it.id);
      assert.ok(k >= parseInt(range.min, 16) && k <= parseInt(range.max, 16), `${it.id} (key ${k}) outside ${range.min}-${range.max}`);
    }
  };
  const page = async (cursor: Next | null): Promise<Next[]> => {
    calls++;
    assert.ok(calls < 2000, 'continuation does not end');
    const r = await ops(operation, cursor ? { ...body, cursor: cursor.token } : body);
    assertJson(r);
    assert.ok(Array.isArray(r.json[itemsKey]), `${itemsKey} missing: ${r.text}`);
    assert.ok(Array.isArray(r.json.next));
    inRange(r.json[itemsKey], cursor?.range ?? null);
    // A range is handed out only while it holds unreturned items: a token's page is never empty.
    if (cursor) assert.ok(r.json[itemsKey].length > 0, `the range ${cursor.range.min}-${cursor.range.max} was handed out empty`);
    items.push(...r.json[itemsKey]);
    for (const n of r.json.next as Next[]) {
      assert.match(n.range.min, /^[0-9a-f]{4}$/);
      assert.match(n.range.max, /^[0-9a-f]{4}$/);
      assert.ok(n.range.min <= n.range.max);
      if (cursor) assert.ok(n.range.min >= cursor.range.min && n.range.max <= cursor.range.max, 'a continuation stays inside its range');
    }
    if (cursor && r.json.next.length > 1) laterSplits++;
    return r.json.next;
  };
  const first = await page(null);
  if (mode === 'sequential') {
    const stack = [...first];
    while (stack.length) stack.push(...(await page(stack.pop()!)));
  } else {
    const fan = async (next: Next[]): Promise<void> => {
      await Promise.all(next.map(async (n) => fan(await page(n))));
    };
    await fan(first);
  }
  return { items, calls, first, laterSplits };
}

/** Documents created straight through the domain service (no ingestion), for listings. */
async function seedDocuments(config: Config, workspaceName: string, docsetId: string, count: number) {
  const store = await Store.open(config.database);
  try {
    const ws = (await store.workspaces.getByName(workspaceName))!;
    const documents = new DocumentService(store, await openBlobStore(config.storage), config.maxUploadBytes);
    const made: { id: string; name: string; size: number; inDocset: boolean; tagged: boolean }[] = [];
    for (let i = 0; i < count; i++) {
      const name = `${i % 2 === 0 ? 'even' : 'odd'}-${String(i).padStart(3, '0')}.txt`;
      const inDocset = i % 5 === 0;
      const tagged = i % 3 === 0;
      const text = `document ${i} `.repeat(1 + (i % 7));
      const intent = await documents.prepareUpload(ws.id, {
        fileName: name,
        docsetSpec: inDocset ? docsetId : undefined,
        metadataJson: tagged ? JSON.stringify({ metadata: [{ key: 'batch', value: 'third' }] }) : undefined,
      });
      const staged = await documents.stageUpload(intent, Readable.from([Buffer.from(text)]));
      const doc = await documents.createFromStaged(intent, staged);
      made.push({ id: doc.id, name, size: doc.size, inDocset, tagged });
    }
    return made;
  } finally {
    await store.close();
  }
}

/** The continuation checks, on whichever database the server runs. */
function continuationSuite(label: string, start: () => Promise<Quire>, teardown: () => Promise<void> = async () => {}) {
  describe(`partitioned continuation (${label})`, () => {
    let q: Quire;
    let ops: Ops;
    let rest: Client;
    let defaultOps: Ops;
    let seeded: Awaited<ReturnType<typeof seedDocuments>>;
    let docsetId: string;

    before(async () => {
      q = await start();
      assert.equal((await q.cli(['workspaces', 'create', 'bulk'])).code, 0);
      const key = (await q.cli(['keys', 'create', '--workspace', 'bulk', '--scopes', 'admin'])).stdout.trim();
      ops = opsClient(q, key);
      rest = client(q.api, key);
      defaultOps = opsClient(q, q.key);
      const ds = await rest.post('/docsets', { json: { name: 'fifths' } });
      assertJson(ds, 201);
      docsetId = ds.json.id;
      seeded = await seedDocuments(loadConfig(q.env), 'bulk', docsetId, 250);
    });

    after(async () => {
      const code = await q?.stop();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
      await teardown();
    });

    test('250 documents, limit 7: every token followed sequentially and in parallel yields each document exactly once', async () => {
      const all = seeded.map((d) => d.id).sort();
      for (const mode of ['sequential', 'parallel'] as const) {
        const { items, calls, first, laterSplits } = await followAll(ops, 'SearchDocuments', { limit: 7 }, 'documents', mode);
        assert.ok(laterSplits > 0, `${mode}: large ranges are split further on later pages`);
        const ids = items.map((i) => i.id);
        assert.equal(new Set(ids).size, ids.length, `${mode}: a document came twice`);
        assert.deepEqual([...ids].sort(), all, `${mode}: not every document came`);
        assert.ok(first.length >= 2 && first.length <= 4, `the first page splits what remains into a few ranges (${first.length})`);
        assert.ok(calls >= Math.ceil(250 / 7), `${mode}: ${calls} calls`);
        // The first page's ranges are disjoint and ordered.
        for (let i = 1; i < first.length; i++) assert.ok(first[i - 1]!.range.max < first[i]!.range.min);
      }
    });

    test('filters are respected on every page and equal the REST list', async () => {
      const cases: { body: Record<string, unknown>; query: string; expect: (d: (typeof seeded)[number]) => boolean }[] = [
        { body: { prefix: 'even-' }, query: 'prefix=even-', expect: (d) => d.name.startsWith('even-') },
        { body: { docsetId }, query: `docset.id=${docsetId}`, expect: (d) => d.inDocset },
        { body: { metadata: [{ key: 'batch', value: 'third' }], prefix: 'odd-' }, query: 'metadata.batch=third&prefix=odd-', expect: (d) => d.tagged && d.name.startsWith('odd-') },
        { body: { minSize: 40, maxSize: 60 }, query: 'minSize=40&maxSize=60', expect: (d) => d.size >= 40 && d.size <= 60 },
        { body: { name: 'odd-007.txt' }, query: 'name=odd-007.txt', expect: (d) => d.name === 'odd-007.txt' },
      ];
      for (const { body, query, expect } of cases) {
        const { items } = await followAll(ops, 'SearchDocuments', { ...body, limit: 7 }, 'documents', 'parallel');
        const want = seeded.filter(expect).map((d) => d.id).sort();
        assert.ok(want.length > 0);
        assert.deepEqual(items.map((i) => i.id).sort(), want, JSON.stringify(body));
        const viaRest = await collectPages(rest, `/documents?limit=100&${query}`, 'documents');
        assert.deepEqual([...items].sort(byId), [...viaRest.items].sort(byId), `${JSON.stringify(body)}: differs from REST`);
      }
      const inDocset = await followAll(ops, 'ListDocsetDocuments', { id: docsetId, limit: 7, prefix: 'even-' }, 'documents', 'sequential');
      assert.deepEqual(
        inDocset.items.map((i) => i.id).sort(),
        seeded.filter((d) => d.inDocset && d.name.startsWith('even-')).map((d) => d.id).sort(),
      );
      const viaRest = await collectPages(rest, `/docsets/${docsetId}/documents?prefix=even-`, 'documents');
      assert.deepEqual([...inDocset.items].sort(byId), [...viaRest.items].sort(byId));
    });

    test('a token is tamper-evident and bound to its workspace, operation and filters', async () => {
      const first = await ops('SearchDocuments', { limit: 7, prefix: 'even-' });
      assertJson(first);
      const token: string = first.json.next[0].token;
      const [payload, mac] = token.split('.');
      const flipped = `${payload!.slice(0, -2)}${payload!.slice(-2, -1) === 'A' ? 'B' : 'A'}${payload!.slice(-1)}.${mac}`;
      assertProblem(await ops('SearchDocuments', { limit: 7, prefix: 'even-', cursor: flipped }), 400, /cursor/);
      assertProblem(await ops('SearchDocuments', { limit: 7, prefix: 'even-', cursor: `${payload}.${mac!.slice(0, -1)}${mac!.endsWith('x') ? 'y' : 'x'}` }), 400);
      assertProblem(await ops('SearchDocuments', { limit: 7, prefix: 'even-', cursor: 'garbage' }), 400, /cursor/);
      // Another workspace's token answers as an unknown id does in REST.
      assertProblem(await defaultOps('SearchDocuments', { limit: 7, prefix: 'even-', cursor: token }), 404);
      // Other filters, or another operation.
      assertProblem(await ops('SearchDocuments', { limit: 7, prefix: 'odd-', cursor: token }), 400, /other filters/);
      assertProblem(await ops('SearchDocuments', { limit: 7, cursor: token }), 400, /other filters/);
      assertProblem(await ops('ListDocsets', { cursor: token }), 400);
      // The same body with the token goes on; another limit is allowed.
      assertJson(await ops('SearchDocuments', { limit: 3, prefix: 'even-', cursor: token }));
    });
  });
}

describe('operations (SQLite)', () => {
  let q: Quire;
  let c: Client;
  let ops: Ops;
  let readOnly: Ops;
  let other: Ops;

  before(async () => {
    q = await startQuire({});
    c = client(q.api, q.key);
    ops = opsClient(q, q.key);
    const mk = async (workspace: string, scopes: string) => {
      const r = await q.cli(['keys', 'create', '--workspace', workspace, '--scopes', scopes]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim();
    };
    assert.equal((await q.cli(['workspaces', 'create', 'other'])).code, 0);
    readOnly = opsClient(q, await mk('default', 'read:documents'));
    other = opsClient(q, await mk('other', 'admin'));
  });

  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  const upload = (fileName: string, bytes: Buffer, docsetIds?: string) =>
    ops('UploadDocument', { fileName, base64Content: bytes.toString('base64'), ...(docsetIds !== undefined ? { docsetIds } : {}) });

  test('auth: no key 401, a key without the scope 403, as REST', async () => {
    assertProblem(await ops('SearchDocuments', {}, { key: null }), 401);
    assertProblem(await ops('GetDocument', { id: 'x' }, { key: 'qk_nonsense' }), 401);
    assertProblem(await readOnly('UploadDocument', { fileName: 'a.txt', base64Content: 'aGk=' }), 403);
    assertProblem(await readOnly('DeleteDocset', { id: 'x' }), 403);
    assertJson(await readOnly('SearchDocuments', {}));
    assertProblem(await ops('NoSuchOperation', {}), 404, /SearchDocuments/);
  });

  test('UploadDocument: the exact bytes, the same Document as REST, one docset assigned or none', async () => {
    const ds = await c.post('/docsets', { json: { name: 'uploads' } });
    const bytes = fs.readFileSync(PROPOSAL);
    const r = await upload('proposal.pdf', bytes, ds.json.id);
    assertJson(r);
    assert.deepEqual(r.json.next, []);
    assert.equal(r.json.documents.length, 1);
    const doc = r.json.documents[0];
    assert.equal(doc.name, 'proposal.pdf');
    assert.equal(doc.size, bytes.length);
    assert.equal(doc.docset.id, ds.json.id);
    const content = await c.get(`/documents/${doc.id}/content`);
    assert.ok(content.buffer.equals(bytes), 'decodes to the exact bytes');
    const viaRest = await c.get(`/documents/${doc.id}`);
    // What ingestion adds as it goes on (between the two reads it may have reached Ingested) aside.
    const settled = ({ status: _s, progress: _p, pageCount: _c, processing: _r, error: _e, ...rest }: Record<string, unknown>) => rest;
    assert.deepEqual(settled(doc), settled(viaRest.json));

    for (const docsetIds of [undefined, '']) {
      const none = await upload('note.txt', Buffer.from('no docset'), docsetIds);
      assertJson(none);
      assert.equal(none.json.documents[0].docset, undefined);
    }
  });

  test('UploadDocument reads JSON escapes, MIME line breaks, URL-safe base64 and any member order', async () => {
    const bytes = fs.readFileSync(pdfsOf(NTSB)[0]!);
    const b64 = bytes.toString('base64');
    const mime = b64.replace(/.{76}/g, '$&\r\n');
    // Escaped "/" and line breaks as JSON escapes, the content first, the name last.
    const body = `{"base64Content":"${mime.replace(/\//g, '\\/').replace(/\r\n/g, '\\r\\n')}","fileName":"late name.pdf"}`;
    const r = await c.post(`${q.origin}/ops/UploadDocument`, { body, headers: { 'content-type': 'application/json' } });
    assertJson(r);
    const id = r.json.documents[0].id;
    assert.equal(r.json.documents[0].name, 'late name.pdf');
    assert.ok((await c.get(`/documents/${id}/content`)).buffer.equals(bytes));
    const urlSafe = Buffer.from([0xfb, 0xff, 0xfe, 0x41, 0x42]);
    const u = await ops('UploadDocument', { fileName: 'u.txt', base64Content: urlSafe.toString('base64url') });
    assertJson(u);
    assert.ok((await c.get(`/documents/${u.json.documents[0].id}/content`)).buffer.equals(urlSafe));
  });

  test('UploadDocument refusals: invalid base64 400, other extension 415, unknown docset 404, empty 400, nothing left staged', async () => {
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: 'aGVs*bG8=' }), 400, /base64Content.*"\*"/);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: 'aGVsbG8=x' }), 400, /base64Content.*padding/);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: 'aGVsb' }), 400, /base64Content/);
    assertProblem(await ops('UploadDocument', { fileName: 'a.exe', base64Content: 'aGVsbG8=' }), 415);
    // The name after the content: refused once it is read.
    const late = await c.post(`${q.origin}/ops/UploadDocument`, { body: '{"base64Content":"aGVsbG8=","fileName":"x.exe"}', headers: { 'content-type': 'application/json' } });
    assertProblem(late, 415);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: 'aGVsbG8=', docsetIds: 'nosuchdocset' }), 404);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: '' }), 400, /empty/);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt' }), 400, /"base64Content" is required/);
    assertProblem(await ops('UploadDocument', { base64Content: 'aGk=' }), 400, /"fileName" is required/);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: 12 }), 400, /"base64Content" must be string/);
    assertProblem(await ops('UploadDocument', { fileName: 'a.txt', base64Content: 'aGk=', metadata: 'x' }), 400, /"metadata" is not a field/);
    assertProblem(await c.post(`${q.origin}/ops/UploadDocument`, { body: '{"fileName":"a.txt","base64Content":"aGk="', headers: { 'content-type': 'application/json' } }), 400, /not valid JSON/);
    assertProblem(await c.post(`${q.origin}/ops/UploadDocument`, { body: '[1]', headers: { 'content-type': 'application/json' } }), 400, /JSON object/);
    // The documents uploaded before are still being ingested, and their blobs pass through staging on the way in:
    // wait for it to empty. A refused upload's staged bytes would stay there for good.
    const staging = path.join(q.dataDir, 'blobs', '.staging');
    const staged = () => (fs.existsSync(staging) ? fs.readdirSync(staging) : []);
    await untilTruthy('staging empties', async () => staged().length === 0, 30_000).catch(() => undefined);
    assert.deepEqual(staged(), [], 'refused uploads leave no staged bytes');
  });

  test('UploadDocument: a body declared larger than 300 MB of base64 is refused 413 before it is read', async () => {
    const url = new URL(`${q.origin}/ops/UploadDocument`);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${q.key}`, 'content-type': 'application/json', 'content-length': String(450 * 1024 * 1024) } },
        (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => {
            req.destroy();
            resolve({ status: r.statusCode!, body });
          });
        },
      );
      req.on('error', reject);
      req.write('{"fileName":"big.pdf","base64Content":"');
    });
    assert.equal(res.status, 413);
    assert.match(JSON.parse(res.body).detail, /300 MB/);
  });

  test('UploadDocument with "a|b" joins the docset whose documents it resembles', async () => {
    const ntsb = pdfsOf(NTSB);
    const nih = pdfsOf(NIH);
    const a = await c.post('/docsets', { json: { name: 'Docset A' } });
    const b = await c.post('/docsets', { json: { name: 'Docset B' } });
    const taught: string[] = [];
    for (const f of ntsb.slice(0, 2)) taught.push((await c.upload({ path: f }, { 'docset.id': a.json.id })).json.id);
    for (const f of nih.slice(0, 2)) taught.push((await c.upload({ path: f }, { 'docset.id': b.json.id })).json.id);
    for (const id of taught) assert.equal((await settle(c, id)).status, 'Ready');
    const pair = `${b.json.id}|${a.json.id}`;
    const air = await upload('incident.pdf', fs.readFileSync(ntsb[3]!), pair);
    const trial = await upload('protocol.pdf', fs.readFileSync(nih[3]!), pair);
    assertJson(air);
    assertJson(trial);
    assert.deepEqual(air.json.documents[0].docsetCandidates, [b.json.id, a.json.id]);
    assert.equal(air.json.documents[0].docset, undefined, 'in no docset until classified');
    const airDoc = await settle(c, air.json.documents[0].id);
    const trialDoc = await settle(c, trial.json.documents[0].id);
    assert.equal(airDoc.docset?.id, a.json.id, JSON.stringify(airDoc.classification));
    assert.equal(trialDoc.docset?.id, b.json.id, JSON.stringify(trialDoc.classification));
  });

  test('GetDocument, GetDocset, ListDocsets and ListDocsetDocuments equal REST', async () => {
    const ds = await c.post('/docsets', { json: { name: 'compare' } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(`cmp-${i}.txt`, Buffer.from(`text ${i}`), ds.json.id)).json.documents[0].id);
    for (const id of ids) {
      const [o, r] = [await ops('GetDocument', { id }), await c.get(`/documents/${id}`)];
      assertJson(o);
      const strip = (j: any) => ({ ...j, status: undefined, progress: undefined, processing: undefined, pageCount: undefined, processedAt: undefined });
      assert.deepEqual(strip(o.json), strip(r.json));
    }
    const g = await ops('GetDocset', { id: ds.json.id });
    assertJson(g);
    assert.deepEqual(g.json, (await c.get(`/docsets/${ds.json.id}`)).json);
    const lists = await followAll(ops, 'ListDocsets', { limit: 2 }, 'docsets', 'sequential');
    const viaRest = await collectPages(c, '/docsets?limit=2', 'docsets');
    assert.deepEqual([...lists.items].sort(byId), [...viaRest.items].sort(byId));
    const min = await followAll(ops, 'ListDocsets', { minDocuments: 3, maxDocuments: 3 }, 'docsets', 'parallel');
    assert.deepEqual(min.items.map((d) => d.id).sort(), (await collectPages(c, '/docsets?minDocuments=3&maxDocuments=3', 'docsets')).items.map((d) => d.id).sort());
    assert.ok(min.items.some((d) => d.id === ds.json.id));
    const named = await ops('ListDocsets', { name: 'compare' });
    assert.deepEqual(named.json.docsets.map((d: Item) => d.id), [ds.json.id]);
    assert.deepEqual(named.json.next, []);
    const members = await followAll(ops, 'ListDocsetDocuments', { id: ds.json.id, limit: 1 }, 'documents', 'sequential');
    assert.deepEqual(members.items.map((d) => d.id).sort(), [...ids].sort());
  });

  test('AddDocumentToDocset moves, RemoveDocumentFromDocset keeps the document, DeleteDocset answers true and keeps documents', async () => {
    const one = await c.post('/docsets', { json: { name: 'one' } });
    const two = await c.post('/docsets', { json: { name: 'two' } });
    const doc = (await upload('moving.txt', Buffer.from('moving'), one.json.id)).json.documents[0];
    const add = await ops('AddDocumentToDocset', { docsetId: two.json.id, documentId: doc.id });
    assertJson(add);
    assert.deepEqual(add.json, (await c.get(`/docsets/${two.json.id}`)).json, 'the Docset, as REST PUT answers');
    assert.equal(add.json.documentCount, 1);
    assert.equal((await c.get(`/docsets/${one.json.id}`)).json.documentCount, 0, 'moved out of the other docset');
    assertJson(await ops('AddDocumentToDocset', { docsetId: two.json.id, documentId: doc.id }));
    const removed = await ops('RemoveDocumentFromDocset', { docsetId: two.json.id, documentId: doc.id });
    assertJson(removed);
    assert.deepEqual(removed.json, { docset: { id: two.json.id }, document: { id: doc.id }, removed: true });
    assert.equal((await c.get(`/documents/${doc.id}`)).json.docset, undefined);
    assertProblem(await ops('RemoveDocumentFromDocset', { docsetId: two.json.id, documentId: doc.id }), 404);

    assertJson(await ops('AddDocumentToDocset', { docsetId: two.json.id, documentId: doc.id }));
    const del = await ops('DeleteDocset', { id: two.json.id });
    assertJson(del);
    assert.equal(del.json, true);
    assert.equal(del.text, 'true');
    assertProblem(await c.get(`/docsets/${two.json.id}`), 404);
    const kept = await c.get(`/documents/${doc.id}`);
    assertJson(kept);
    assert.equal(kept.json.docset, undefined);
    assertProblem(await ops('DeleteDocset', { id: two.json.id }), 404);
  });

  test('invalid bodies name the field; unknown ids 404; another workspace sees nothing', async () => {
    const ds = await c.post('/docsets', { json: { name: 'invalid bodies' } });
    const doc = (await upload('inv.txt', Buffer.from('inv'))).json.documents[0];
    const cases: [string, unknown, number, RegExp][] = [
      ['SearchDocuments', { limit: 0 }, 400, /"limit" must be >= 1/],
      ['SearchDocuments', { limit: 101 }, 400, /"limit" must be <= 100/],
      ['SearchDocuments', { limit: '7' }, 400, /"limit" must be integer/],
      ['SearchDocuments', { status: 'Done' }, 400, /"status" must be one of "New"/],
      ['SearchDocuments', { minPages: -1 }, 400, /"minPages"/],
      ['SearchDocuments', { docsetId: 'bad id!' }, 400, /"docsetId"/],
      ['SearchDocuments', { metadata: [{ key: 'bad key', value: 'v' }] }, 400, /"metadata.0.key"/],
      ['SearchDocuments', { metadata: [{ key: 'k' }] }, 400, /"metadata.0.value" is required/],
      ['SearchDocuments', { metadata: [{ key: 'k', value: 'a' }, { key: 'k', value: 'b' }] }, 400, /"metadata.1.key".*twice/],
      ['SearchDocuments', { docsetID: 'x' }, 400, /"docsetID" is not a field of SearchDocuments/],
      ['SearchDocuments', [1], 400, /must be a JSON object/],
      ['GetDocument', {}, 400, /"id" is required/],
      ['GetDocument', { id: 5 }, 400, /"id" must be string/],
      ['GetDocument', { id: 'nosuchdocument' }, 404, /nosuchdocument/],
      ['ListDocsets', { minDocuments: 1.5 }, 400, /"minDocuments" must be integer/],
      ['ListDocsets', { samples: 'yes' }, 400, /"samples" must be boolean/],
      ['GetDocset', { id: '' }, 400, /"id"/],
      ['GetDocset', { id: 'nosuchdocset' }, 404, /nosuchdocset/],
      ['DeleteDocset', {}, 400, /"id" is required/],
      ['ListDocsetDocuments', {}, 400, /"id" is required/],
      ['ListDocsetDocuments', { id: 'nosuchdocset' }, 404, /nosuchdocset/],
      ['ListDocsetDocuments', { id: ds.json.id, name: 'x' }, 400, /"name" is not a field/],
      ['AddDocumentToDocset', { docsetId: ds.json.id }, 400, /"documentId" is required/],
      ['AddDocumentToDocset', { docsetId: ds.json.id, documentId: 'nosuchdocument' }, 404, /nosuchdocument/],
      ['AddDocumentToDocset', { docsetId: 'nosuchdocset', documentId: doc.id }, 404, /nosuchdocset/],
      ['RemoveDocumentFromDocset', { documentId: doc.id }, 400, /"docsetId" is required/],
      ['RemoveDocumentFromDocset', { docsetId: ds.json.id, documentId: doc.id }, 404, /in this workspace/],
    ];
    for (const [op, body, status, detail] of cases) assertProblem(await ops(op, body), status, detail);
    assertProblem(await c.post(`${q.origin}/ops/GetDocument`, { body: '{"id":', headers: { 'content-type': 'application/json' } }), 400, /not valid JSON/);
    // Null members count as absent (workflow tools send null for empty fields).
    assertJson(await ops('SearchDocuments', { name: null, limit: null, docsetId: ds.json.id }));
    // Another workspace: the same ids are unknown.
    assertProblem(await other('GetDocument', { id: doc.id }), 404);
    assertProblem(await other('GetDocset', { id: ds.json.id }), 404);
    assertProblem(await other('AddDocumentToDocset', { docsetId: ds.json.id, documentId: doc.id }), 404);
    const theirs = await other('SearchDocuments', {});
    assertJson(theirs);
    assert.deepEqual(theirs.json, { documents: [], next: [] });
  });

  test('ListProjects, GetProject, ListArtifacts and DownloadArtifact equal REST; the download decodes to the exact bytes', async () => {
    const ds = (await c.post('/docsets', { json: { name: 'ops projects' } })).json;
    const made = await c.post('/projects', { json: { name: 'ops report', type: 'TabularReport', 'docset.id': ds.id, items: [{ label: 'Party' }] } });
    assertJson(made, 201);
    const pid = made.json.id;
    const deadline = Date.now() + 120_000;
    while ((await c.get(`/projects/${pid}`)).json.artifacts.version !== '1') {
      assert.ok(Date.now() < deadline, 'version 1 was not published');
      await new Promise((r) => setTimeout(r, 200));
    }
    const form = new FormData();
    form.append('file', new Blob([Buffer.from([0, 1, 2, 250, 251, 252, 10, 13])]), 'binary.pdf');
    assertJson(await c.post(`/projects/${pid}/artifacts/latest/content`, { body: form }), 201);

    const g = await ops('GetProject', { id: pid });
    assertJson(g);
    assert.deepEqual(g.json, (await c.get(`/projects/${pid}`)).json);
    const listed = await followAll(ops, 'ListProjects', { docsetId: ds.id, limit: 1 }, 'projects', 'parallel');
    assert.deepEqual(listed.items, (await collectPages(c, `/projects?docset.id=${ds.id}`, 'projects')).items);
    const typed = await followAll(ops, 'ListProjects', { type: 'TabularReport' }, 'projects', 'sequential');
    assert.deepEqual(typed.items.map((p) => p.id).sort(), (await collectPages(c, '/projects?type=TabularReport', 'projects')).items.map((p) => p.id).sort());

    for (const body of [{ projectId: pid }, { projectId: pid, version: '1', limit: 1 }, { projectId: pid, isReadOnly: false }, { projectId: pid, name: 'report.csv' }]) {
      const viaOps = await followAll(ops, 'ListArtifacts', body, 'artifacts', 'parallel');
      const q = new URLSearchParams({ ...(body.isReadOnly !== undefined ? { isReadOnly: String(body.isReadOnly) } : {}), ...(body.name ? { name: body.name } : {}) });
      const viaRest = await collectPages(c, `/projects/${pid}/artifacts/${body.version ?? 'latest'}?${q}`, 'artifacts');
      assert.deepEqual([...viaOps.items].sort(byId), [...viaRest.items].sort(byId));
      assert.ok(viaRest.items.length > 0);
    }
    const all = (await collectPages(c, `/projects/${pid}/artifacts/latest`, 'artifacts')).items as any[];
    assert.deepEqual(all.map((a) => a.name).sort(), ['binary.pdf', 'report.csv', 'report.xlsx']);
    for (const a of all) {
      const d = await ops('DownloadArtifact', { projectId: pid, version: 'latest', artifactId: a.id });
      assertJson(d);
      assert.deepEqual(Buffer.from(d.json, 'base64'), (await c.get(`${a.url}/content`)).buffer, `${a.name} decodes to its bytes`);
    }

    assertProblem(await ops('GetProject', {}), 400, /id/);
    assertProblem(await ops('GetProject', { id: 'nosuch' }), 404);
    assertProblem(await ops('ListArtifacts', { projectId: pid, version: '99' }), 404);
    assertProblem(await ops('ListArtifacts', { version: 'latest' }), 400, /projectId/);
    assertProblem(await ops('DownloadArtifact', { projectId: pid, artifactId: 'nosuch' }), 404);
    assertProblem(await ops('ListProjects', { type: 'Bogus' }), 400, /type/);
    assertProblem(await readOnly('ListProjects', {}), 403);
    assertProblem(await other('GetProject', { id: pid }), 404);
  });

  test('GET /ops/openapi.json is a connector definition: every operation, described fields, x-ms-summary, byte content', async () => {
    const r = await fetch(`${q.origin}/ops/openapi.json`);
    assert.equal(r.status, 200);
    const doc = (await r.json()) as any;
    assert.equal(doc.swagger, '2.0');
    assert.equal(doc.basePath, '/ops');
    const expected = [
      'SearchDocuments',
      'GetDocument',
      'UploadDocument',
      'ListDocsets',
      'GetDocset',
      'DeleteDocset',
      'ListDocsetDocuments',
      'AddDocumentToDocset',
      'RemoveDocumentFromDocset',
      'ListProjects',
      'GetProject',
      'ListArtifacts',
      'DownloadArtifact',
    ];
    const walk = (s: any, where: string) => {
      for (const [name, p] of Object.entries((s?.properties ?? {}) as Record<string, any>)) {
        assert.ok(p['x-ms-summary'], `${where}.${name} has no x-ms-summary`);
        assert.ok(p.description, `${where}.${name} has no description`);
        walk(p, `${where}.${name}`);
        walk(p.items, `${where}.${name}[]`);
      }
    };
    const opsById = new Map<string, any>(Object.values(doc.paths as Record<string, any>).map((p) => [p.post.operationId, p.post]));
    for (const id of expected) {
      const op = opsById.get(id);
      assert.ok(op, `${id} missing`);
      assert.ok(op.summary && op.description, `${id} summary/description`);
      assert.match(op.description, /Scope: `[a-z:]+`/);
      for (const code of ['200', '400', '401', '403']) assert.ok(op.responses[code]?.description, `${id} ${code}`);
      const body = op.parameters.find((p: any) => p.in === 'body');
      walk(body.schema, `${id} body`);
      walk(op.responses['200'].schema, `${id} response`);
    }
    const uploadBody = opsById.get('UploadDocument').parameters[0].schema;
    assert.equal(uploadBody.properties.base64Content.format, 'byte');
    assert.match(uploadBody.properties.docsetIds.description, /\|/);
    assert.match(uploadBody.properties.docsetIds.description, /[Oo]ptional/);
    assert.deepEqual(uploadBody.required.sort(), ['base64Content', 'fileName']);
    assert.match(opsById.get('SearchDocuments').description, /[Pp]artitioned continuation/);
    assert.equal(opsById.get('DownloadArtifact').responses['200'].schema.format, 'byte');
    for (const def of ['Document', 'Docset', 'Problem']) {
      assert.ok(doc.definitions[def], `${def} definition`);
      walk(doc.definitions[def], def);
    }
    // Every $ref resolves inside the document; no JSON Schema the 2.0 importers reject.
    const text = JSON.stringify(doc);
    for (const m of text.matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) assert.ok(doc.definitions[m[1]!], `unresolved ${m[1]}`);
    assert.doesNotMatch(text, /"(anyOf|oneOf|const)":/);
    // The REST reference stays REST.
    const restDoc = (await (await fetch(`${q.origin}/openapi.json`)).json()) as any;
    assert.ok(!Object.keys(restDoc.paths).some((p) => p.startsWith('/ops')));
  });
});

continuationSuite('SQLite', () => startQuire({ args: ['serve', '--no-worker'] }));

test('streamed bodies: any chunking (even one byte at a time, inside escapes) decodes the same bytes and fields', async () => {
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
  const b64 = bytes.toString('base64').replace(/.{76}/g, '$&\r\n').replace(/\//g, '\\/').replace(/\r\n/g, '\\r\\n').replace(/\+/g, '\\u002b');
  const body = Buffer.from(`{ "fileName" : "n\\u00e9.pdf", "base64Content": "${b64}", "docsetIds": null, "extra": {"a": [1, "}"]} }`);
  for (const size of [1, 2, 3, 5, 64, 1 << 20]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < body.length; i += size) chunks.push(body.subarray(i, i + size));
    let got = Buffer.alloc(0);
    let before: Record<string, unknown> = {};
    let consumed: Promise<void> = Promise.resolve();
    const read = await readStreamedObject(Readable.from(chunks), {
      field: 'base64Content',
      maxBytes: 1 << 20,
      maxOtherChars: 1000,
      tooLarge: () => new DomainError('too-large', 'too large'),
      onStream: async (b) => {
        before = b;
        const sink = new PassThrough();
        consumed = (async () => {
          for await (const c of sink) got = Buffer.concat([got, c as Buffer]);
        })();
        return sink;
      },
    });
    await consumed;
    assert.ok(got.equals(bytes), `chunks of ${size}`);
    assert.deepEqual(before, { fileName: 'n\u00e9.pdf' });
    assert.deepEqual(read.fields, { fileName: 'n\u00e9.pdf', docsetIds: null, extra: { a: [1, '}'] } });
    assert.equal(read.streamed, true);
  }
  for (const bad of ['{"a":1,}', '{"a" 1}', '{"a":1} x', '{"a":tru}', '{"base64Content":"aGk=', '{"base64Content":"aGk=","base64Content":"aGk="}']) {
    await assert.rejects(
      readStreamedObject(Readable.from([Buffer.from(bad)]), {
        field: 'base64Content',
        maxBytes: 1000,
        maxOtherChars: 1000,
        tooLarge: () => new DomainError('too-large', 'too large'),
        onStream: async () => new PassThrough().resume().on('error', () => undefined),
      }),
      (err: unknown) => err instanceof DomainError && err.kind === 'invalid',
      bad,
    );
  }
});

test('base64JsonString encodes a stream of any chunking as one JSON string (DownloadArtifact)', async () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) % 256));
  for (const size of [1, 2, 4, 7, 1000]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    let out = '';
    for await (const c of base64JsonString(Readable.from(chunks))) out += c.toString();
    assert.ok(Buffer.from(JSON.parse(out) as string, 'base64').equals(bytes), `chunks of ${size}`);
  }
});

/** An in-memory listing over ids, as a repository's listPartitioned reads it. */
function memoryFetch(ids: string[], reads?: unknown[], tag?: unknown): PartitionFetch<string> {
  const sorted = ids.map((id) => ({ id, pkey: partitionKeyOf(id) })).sort((a, b) => a.pkey - b.pkey || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return async ({ range, after, limit }) => {
    reads?.push(tag);
    const rows = sorted.filter((r) => r.pkey >= range.min && r.pkey <= range.max && (!after || r.pkey > after.pkey || (r.pkey === after.pkey && r.id > after.id)));
    const items = rows.slice(0, limit);
    return { items: items.map((r) => r.id), nextAfter: rows.length > limit ? items[items.length - 1]! : null };
  };
}

test('partitionedPage: every item exactly once for any size and limit, ranges disjoint', async () => {
  for (const count of [0, 1, 2, 5, 64, 1000]) {
    const ids = Array.from({ length: count }, (_, i) => `item${i}`);
    for (const limit of [1, 2, 7, 100]) {
      const fetch = memoryFetch(ids);
      const seen: string[] = [];
      let pending: Continuation[] = [{ range: WHOLE_KEY_SPACE }];
      let pages = 0;
      while (pending.length) {
        const next: typeof pending = [];
        for (const c of pending) {
          const page = await partitionedPage(fetch, { ...c, limit });
          pages++;
          assert.ok(page.items.length <= limit);
          seen.push(...page.items);
          const sortedNext = [...page.next].sort((a, b) => a.range.min - b.range.min);
          for (let i = 1; i < sortedNext.length; i++) assert.ok(sortedNext[i - 1]!.range.max < sortedNext[i]!.range.min, 'ranges overlap');
          for (const n of page.next) assert.ok(n.range.min >= c.range.min && n.range.max <= c.range.max);
          next.push(...page.next);
        }
        pending = next;
      }
      assert.deepEqual([...seen].sort(), [...ids].sort(), `${count} items, limit ${limit}`);
      assert.ok(pages <= Math.max(1, Math.ceil(count / limit)) * 2 + 4, `${count}/${limit}: ${pages} pages`);
    }
  }
});

test('listOperation: pinned filters are read on every page while the body keeps its own', async () => {
  const ids = Array.from({ length: 40 }, (_, i) => `v${i}`);
  const reads: unknown[] = [];
  const op = listOperation<{ version?: string }, { version: string }, string>({
    id: 'ListThings',
    summary: 'List things',
    description: 'Things.',
    tag: 'Test',
    scope: 'read:documents',
    fields: { version: Type.String() },
    itemsKey: 'things',
    item: Type.String(),
    filter: (b) => ({ version: b.version ?? 'latest' }),
    pin: async (_ctx, f) => ({ version: f.version === 'latest' ? '3' : f.version }),
    source: (_ctx, f) => memoryFetch(ids, reads, f.version),
    toJson: (id) => id,
  });
  const ctx = { workspaceId: 'w1', base: '', tokens: new PartitionTokens(new Cursors(Buffer.alloc(32, 7))) } as unknown as OpContext;
  const seen: string[] = [];
  let pending: any[] = [await op.handler(ctx, { limit: 3 })];
  while (pending.length) {
    const page = pending.pop();
    seen.push(...page.things);
    for (const n of page.next) pending.push(await op.handler(ctx, { limit: 3, cursor: n.token }));
  }
  assert.deepEqual(seen.sort(), [...ids].sort());
  assert.ok(reads.length > 10 && reads.every((v) => v === '3'), 'every page read the pinned version');
  const first: any = await op.handler(ctx, { limit: 3 });
  await assert.rejects(op.handler(ctx, { limit: 3, version: '2', cursor: first.next[0].token }), /other filters/);
  await assert.rejects(op.handler({ ...ctx, workspaceId: 'w2' } as OpContext, { limit: 3, cursor: first.next[0].token }), /not found in this workspace/);
});

/** Migration 0010 on rows written before it: their keys are backfilled, new rows get theirs on insert. */
async function migrationCheck(database: Config['database']) {
  const { db, pointReads } = openDb(database);
  try {
    await migrateToLatest(db);
    const repos = new Repos(db);
    const workspaceId = 'ws-migration';
    const now = Date.now();
    await db
      .insertInto('workspaces')
      .values({ id: workspaceId, name: 'migration', type: 'Org', created_at: now, expires_at: null, page_quota_max: 1000, page_quota_per_document: 100, user_quota_max: 10 })
      .execute();
    const ids: string[] = [];
    for (let i = 0; i < 1203; i++) ids.push(`mig${String(i).padStart(5, '0')}`);
    for (const id of ids.slice(0, 3)) await repos.docsets.insert({ id, workspaceId, name: `ds ${id}`, isSample: false, documentCount: 0, createdAt: now, updatedAt: now });
    for (const id of ids) {
      await repos.documents.insert({
        id, workspaceId, docsetId: null, docsetCandidates: [], name: `${id}.txt`, format: 'txt', contentType: 'text/plain', size: 1, sha256: 'x',
        blobKey: `k/${id}`, status: 'New', pageCount: null, isSample: false, error: null, createdAt: now, updatedAt: now, processedAt: null,
      });
    }
    const keysOf = async (table: 'documents' | 'docsets') =>
      (await db.selectFrom(table).select(['id', 'pkey']).where('id', 'like', 'mig%').execute()).map((r) => [r.id, r.pkey === null ? null : Number(r.pkey)]);
    const expected = (list: string[]) => list.map((id) => [id, partitionKeyOf(id)]);
    assert.deepEqual((await keysOf('documents')).sort(), expected(ids).sort(), 'inserts set the key');
    await m0010.down(db);
    await m0010.up(db);
    assert.deepEqual((await keysOf('documents')).sort(), expected(ids).sort(), 'documents backfilled across batches');
    assert.deepEqual((await keysOf('docsets')).sort(), expected(ids.slice(0, 3)).sort(), 'docsets backfilled');
    // The range scan uses the new index.
    const page = await repos.documents.listPartitioned(workspaceId, {}, { range: { min: 0, max: 0x7fff }, limit: 5000 });
    assert.deepEqual(page.items.map((d) => d.id).sort(), ids.filter((id) => partitionKeyOf(id) <= 0x7fff).sort());
  } finally {
    await pointReads.close();
    await db.destroy();
  }
}

test('migration 0010 backfills partition keys (SQLite)', async () => {
  const dir = scratchDir('quire-mig-');
  try {
    await migrationCheck({ kind: 'sqlite', file: path.join(dir, 'quire.db') } as Config['database']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

if (findPgBin()) {
  let cluster: PgCluster | undefined;
  const clusterOnce = async () => (cluster ??= await startPgCluster());
  test('migration 0010 backfills partition keys (PostgreSQL)', async () => {
    const url = await (await clusterOnce()).createDatabase('quire_ops_migration');
    await migrationCheck({ kind: 'postgres', url } as Config['database']);
  });
  continuationSuite(
    'PostgreSQL',
    async () => startQuire({ databaseUrl: await (await clusterOnce()).createDatabase('quire_ops'), args: ['serve', '--no-worker'] }),
    async () => cluster?.stop(),
  );
} else {
  test('PostgreSQL checks', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
}

