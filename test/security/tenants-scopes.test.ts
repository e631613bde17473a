/**
 * Tenants and scopes, for every route of the API description (`/openapi.json`, `/ops/openapi.json`),
 * through one real server holding real resources of every kind in two workspaces:
 *  - a key of workspace B given A's ids (alone, or mixed with B's own) gets exactly what it gets for
 *    ids that do not exist: the same status (404 for reads) and the same Problem, so nothing of A can
 *    be read, changed, deleted or even inferred; B's lists, searches and cursors show nothing of A;
 *    A's resources are all still there afterwards;
 *  - every route × every scope: a key with only that scope gets 403 exactly when the route's
 *    documented scope (`x-scope`) is not granted, and is let through otherwise (GETs: 2xx).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SCOPES, hasScope, type Scope } from '../../src/model/scopes.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { client, type Client } from '../helpers/http.js';
import { FAKE_ID, createFixtures, realParam, type Fixtures } from '../helpers/api-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface RestOp {
  method: string;
  path: string;
  params: string[];
  scope: Scope | 'any' | null;
  json: boolean;
}

function restOps(doc: Json): RestOp[] {
  const out: RestOp[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
    if (!path.startsWith('/v1preview1/')) continue;
    for (const [m, o] of Object.entries(methods as Record<string, Json>)) {
      out.push({
        method: m.toUpperCase(),
        path,
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!),
        scope: o['x-scope'] ?? null,
        json: Boolean(o.requestBody?.content?.['application/json']),
      });
    }
  }
  return out;
}

interface Answer {
  status: number;
  /** The Problem without `instance`, with the ids the request named masked (echoing them reveals nothing). */
  problem: string | null;
  /** The body, with the ids the request named masked. */
  text: string;
}

async function call(q: Quire, key: string, method: string, path: string, body?: unknown, requested: string[] = []): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${q.origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let text = method === 'HEAD' ? '' : await r.text();
  for (const id of requested) if (id.length >= 8) text = text.split(id).join('<id>');
  let problem: string | null = null;
  if (/problem\+json/.test(r.headers.get('content-type') ?? '')) {
    const p = JSON.parse(text);
    delete p.instance;
    problem = JSON.stringify(p);
  }
  return { status: r.status, problem, text };
}

/**
 * Path parameters that are not ids of a workspace's resources (a page number, a version number, a
 * found label's name: `Party` may be found in both workspaces' docsets).
 */
const NOT_IDS = new Set(['pageNumber', 'version', 'name']);

const fill = (path: string, values: Record<string, string>) => path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(values[n] ?? FAKE_ID));

/**
 * Every id of a workspace's fixtures, and the text of its fields (a document's metadata, a webhook's
 * receiver, an uploaded artifact's name): what must never show up for the other workspace.
 */
const idsOf = (fx: Fixtures) =>
  [fx.document, fx.document2, fx.docset, fx.docset2, fx.project, fx.webhook, fx.session, fx.property, fx.delivery, fx.artifact, fx.key, fx.freshProject, fx.upload, ...fx.markers].filter(
    (id) => id !== FAKE_ID,
  );

describe('tenants and scopes, generated from the API descriptions', () => {
  let q: Quire;
  let a: Client;
  let b: Client;
  let keyB: string;
  let fxA: Fixtures;
  let fxB: Fixtures;
  let ops: RestOp[];
  let opsDoc: Json;

  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', QUIRE_PROJECT_DEBOUNCE_MS: '200' } });
    assert.equal((await q.cli(['workspaces', 'create', 'tenant-b'])).code, 0);
    const made = await q.cli(['keys', 'create', '--workspace', 'tenant-b', '--scopes', 'admin']);
    assert.equal(made.code, 0, made.stderr);
    keyB = made.stdout.trim();
    a = client(q.api, q.key);
    b = client(q.api, keyB);
    [fxA, fxB] = await Promise.all([createFixtures(a, 'tenant-a'), createFixtures(b, 'tenant-b')]);
    ops = restOps(await (await fetch(`${q.origin}/openapi.json`)).json());
    opsDoc = await (await fetch(`${q.origin}/ops/openapi.json`)).json();
    assert.ok(ops.length > 50, `${ops.length} REST operations`);
    for (const fx of [fxA, fxB]) assert.notEqual(fx.artifact, FAKE_ID, 'the fixtures include a published artifact');
  });

  after(async () => {
    await q?.stop();
  });

  test("REST: B's key with A's ids (alone or mixed with B's) gets exactly the unknown-id answer; reads are 404", async () => {
    const mismatches: string[] = [];
    let checked = 0;
    // The sample catalog is the same for every workspace (it describes what can be generated): not tenant data.
    const tenantOps = ops.filter((o) => o.params.length && !o.path.startsWith('/v1preview1/sample-catalog/'));
    // Destructive calls last, so that a leak there cannot hide one elsewhere.
    const ordered = [...tenantOps.filter((o) => o.method !== 'DELETE'), ...tenantOps.filter((o) => o.method === 'DELETE')];
    for (const op of ordered) {
      const variants: [string, Record<string, string>][] = [['all of A', Object.fromEntries(op.params.map((p) => [p, realParam(fxA, op.path, p)]))]];
      if (op.params.length > 1) {
        for (const p of op.params.filter((x) => !NOT_IDS.has(x))) {
          const mixed = Object.fromEntries(op.params.map((x) => [x, realParam(fxB, op.path, x)]));
          mixed[p] = realParam(fxA, op.path, p);
          variants.push([`${p} of A, the rest of B`, mixed]);
        }
      }
      for (const [what, values] of variants) {
        const unknown = { ...values };
        for (const p of op.params) if (!NOT_IDS.has(p) && values[p] !== realParam(fxB, op.path, p)) unknown[p] = FAKE_ID;
        const body = op.json ? {} : undefined;
        const real = await call(q, keyB, op.method, fill(op.path, values), body, Object.values(values));
        const fake = await call(q, keyB, op.method, fill(op.path, unknown), body, Object.values(unknown));
        checked++;
        const route = `${op.method} ${op.path} (${what})`;
        if (real.status !== fake.status || real.problem !== fake.problem) mismatches.push(`${route}: ${real.status} ${real.problem ?? real.text.slice(0, 120)} vs unknown ids ${fake.status} ${fake.problem}`);
        else if ((op.method === 'GET' || op.method === 'HEAD') && real.status !== 404) mismatches.push(`${route}: ${real.status} (a read of another workspace's resource must be 404)`);
        else if (real.status < 400) mismatches.push(`${route}: ${real.status}, a success`);
        for (const id of idsOf(fxA)) if (real.text.includes(id)) mismatches.push(`${route}: the answer names ${id} of workspace A`);
      }
    }
    assert.deepEqual(mismatches, [], `${mismatches.length} of ${checked} requests leak or differ`);
    assert.ok(checked >= 40, `${checked} requests`);
  });

  test("/ops: B's key with A's ids gets the unknown-id answer", async () => {
    const bodies: Record<string, (fx: Fixtures | null) => Json> = {
      GetDocset: (fx) => ({ id: fx?.docset ?? FAKE_ID }),
      DeleteDocset: (fx) => ({ id: fx?.docset2 ?? FAKE_ID }),
      ListDocsetDocuments: (fx) => ({ id: fx?.docset ?? FAKE_ID }),
      AddDocumentToDocset: (fx) => ({ docsetId: fx?.docset ?? FAKE_ID, documentId: fx?.document ?? FAKE_ID }),
      RemoveDocumentFromDocset: (fx) => ({ docsetId: fx?.docset ?? FAKE_ID, documentId: fx?.document ?? FAKE_ID }),
      GetDocument: (fx) => ({ id: fx?.document ?? FAKE_ID }),
      GetProject: (fx) => ({ id: fx?.project ?? FAKE_ID }),
      ListArtifacts: (fx) => ({ projectId: fx?.project ?? FAKE_ID }),
      DownloadArtifact: (fx) => ({ projectId: fx?.project ?? FAKE_ID, artifactId: fx?.artifact ?? FAKE_ID }),
      UploadDocument: (fx) => ({ fileName: 'x.txt', base64Content: Buffer.from('x\n').toString('base64'), docsetIds: fx?.docset ?? FAKE_ID }),
    };
    const documented = Object.keys(opsDoc.paths).map((p) => p.replace(/^\//, ''));
    const mismatches: string[] = [];
    for (const [id, body] of Object.entries(bodies)) {
      assert.ok(documented.includes(id), `${id} is an operation`);
      const real = await call(q, keyB, 'POST', `/ops/${id}`, body(fxA), Object.values(body(fxA)).map(String));
      const fake = await call(q, keyB, 'POST', `/ops/${id}`, body(null), [FAKE_ID]);
      if (real.status !== fake.status || real.problem !== fake.problem || real.status !== 404) mismatches.push(`${id}: ${real.status} ${real.problem} vs unknown ${fake.status} ${fake.problem}`);
      for (const x of idsOf(fxA)) if (real.text.includes(x)) mismatches.push(`${id}: names ${x} of workspace A`);
    }
    assert.deepEqual(mismatches, []);
  });

  test("B's lists, searches and cursors show nothing of A, and A's cursors are refused to B", async () => {
    const aIds = idsOf(fxA);
    const lists = ops.filter((o) => o.method === 'GET' && o.params.length === 0);
    assert.ok(lists.length >= 4);
    for (const op of lists) {
      const r = await call(q, keyB, 'GET', `${op.path}?limit=100`);
      for (const id of aIds) assert.ok(!r.text.includes(id), `${op.path} shows ${id} of A to B`);
    }
    for (const op of ['SearchDocuments', 'ListDocsets', 'ListProjects']) {
      const r = await call(q, keyB, 'POST', `/ops/${op}`, {});
      assert.equal(r.status, 200, op);
      for (const id of aIds) assert.ok(!r.text.includes(id), `${op} shows ${id} of A to B`);
    }
    // B's own lists are not empty: the check above is not vacuous.
    assert.ok((await b.get('/documents?limit=100')).json.documents.some((d: Json) => d.id === fxB.document));
    // A cursor made for A's key, presented by B's.
    const page = await a.get('/documents?limit=1');
    assert.ok(page.json.next, 'A has a second page');
    const foreign = await fetch(page.json.next, { headers: { authorization: `Bearer ${keyB}` } });
    const text = await foreign.text();
    assert.ok(foreign.status === 400 || foreign.status === 404, `A's cursor with B's key: ${foreign.status}`);
    for (const id of aIds) assert.ok(!text.includes(id));
  });

  test("a new project's version 0 and its upload: B gets the unknown-id answer on every artifact route, and cannot upload into it", async () => {
    const mismatches: string[] = [];
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob(['{"from": "B"}']), 'from-b.json');
      return f;
    };
    const routes: [string, (p: string, a: string) => string, boolean][] = [
      ['GET', (p) => `/projects/${p}/artifacts/latest`, false],
      ['GET', (p) => `/projects/${p}/artifacts/0`, false],
      ['GET', (p) => `/projects/${p}/artifacts?version=latest`, false],
      ['GET', (p, a) => `/projects/${p}/artifacts/latest/${a}`, false],
      ['GET', (p, a) => `/projects/${p}/artifacts/0/${a}/content`, false],
      ['HEAD', (p, a) => `/projects/${p}/artifacts/latest/${a}/content`, false],
      ['DELETE', (p, a) => `/projects/${p}/artifacts/latest/${a}`, false],
      ['POST', (p) => `/projects/${p}/artifacts/latest/content`, true],
    ];
    for (const [method, path, multipart] of routes) {
      const send = async (p: string, a: string) => {
        const r = await fetch(`${q.api}${path(p, a)}`, { method, headers: { authorization: `Bearer ${keyB}` }, body: multipart ? form() : undefined });
        let text = method === 'HEAD' ? '' : await r.text();
        if (text && /problem\+json/.test(r.headers.get('content-type') ?? '')) {
          const problem = JSON.parse(text);
          delete problem.instance;
          text = JSON.stringify(problem);
        }
        return { status: r.status, text: text.split(p).join('<id>').split(a).join('<id>') };
      };
      const real = await send(fxA.freshProject, fxA.upload);
      const fake = await send(FAKE_ID, FAKE_ID);
      if (real.status !== 404 || real.status !== fake.status || real.text !== fake.text) mismatches.push(`${method} ${path('{p}', '{a}')}: ${real.status} ${real.text.slice(0, 160)} vs unknown ${fake.status} ${fake.text.slice(0, 160)}`);
      for (const id of idsOf(fxA)) if (real.text.includes(id)) mismatches.push(`${method} ${path('{p}', '{a}')}: names ${id} of A`);
    }
    for (const [op, body] of [
      ['ListArtifacts', (p: string) => ({ projectId: p })],
      ['DownloadArtifact', (p: string, a = FAKE_ID) => ({ projectId: p, artifactId: a })],
    ] as const) {
      const real = await call(q, keyB, 'POST', `/ops/${op}`, (body as (p: string, a?: string) => object)(fxA.freshProject, fxA.upload), [fxA.freshProject, fxA.upload]);
      const fake = await call(q, keyB, 'POST', `/ops/${op}`, (body as (p: string, a?: string) => object)(FAKE_ID, FAKE_ID), [FAKE_ID]);
      if (real.status !== 404 || real.problem !== fake.problem) mismatches.push(`${op}: ${real.status} ${real.problem} vs unknown ${fake.status} ${fake.problem}`);
    }
    assert.deepEqual(mismatches, []);
    // A sees its own: the upload is under latest (whatever version the project is at now), with its bytes.
    const mine = await a.get(`/projects/${fxA.freshProject}/artifacts/latest/${fxA.upload}/content`);
    assert.equal(mine.status, 200);
    assert.equal(mine.text, '{"uploaded": true}');
  });

  test("afterwards every resource of A is still there and unchanged (B's deletes and writes did nothing)", async () => {
    for (const [path, field] of [
      [`/documents/${fxA.document}`, 'id'],
      [`/documents/${fxA.document2}`, 'id'],
      [`/docsets/${fxA.docset}`, 'id'],
      [`/docsets/${fxA.docset2}`, 'id'],
      [`/projects/${fxA.project}`, 'id'],
      [`/webhooks/${fxA.webhook}`, 'id'],
    ] as const) {
      const r = await a.get(path);
      assert.equal(r.status, 200, path);
      assert.ok(r.json[field], path);
    }
    assert.equal((await a.get(`/docsets/${fxA.docset}`)).json.documentCount, 2, "A's docset kept both documents");
    assert.equal((await a.get(`/docsets/${fxA.docset}`)).json.name, 'tenant-a-docset', "A's docset kept its name");
    assert.ok((await a.get('/workspace/keys?limit=100')).json.keys.some((k: { id: string }) => k.id === fxA.key), "A's spare key is still live");
    assert.equal((await a.get(`/projects/${fxA.project}/artifacts/${fxA.version}/${fxA.artifact}/content`)).status, 200);
    assert.equal((await a.get(`/projects/${fxA.freshProject}/artifacts/latest/${fxA.upload}`)).json.name, fxA.markers[2]);
    assert.deepEqual((await a.get(`/documents/${fxA.document}`)).json.metadata, [{ key: 'marker', value: fxA.markers[0] }]);
    assert.equal((await a.get(`/webhooks/${fxA.webhook}`)).json.webhookUrl, fxA.markers[1]);
  });

  test('every route × every scope: 403 exactly when the documented scope is not granted', async () => {
    const keys = new Map<Scope, string>();
    for (const s of SCOPES) {
      const r = await q.cli(['keys', 'create', '--workspace', 'default', '--scopes', s, '--name', `scope-${s}`]);
      assert.equal(r.code, 0, r.stderr);
      keys.set(s, r.stdout.trim());
    }
    const wrong: string[] = [];
    let checked = 0;
    for (const op of ops) {
      if (op.scope === null) continue;
      const read = op.method === 'GET' || op.method === 'HEAD';
      // Reads with A's real ids; anything else with unknown ids and an empty body: no side effects,
      // and the scope is checked before either is looked at.
      const values = Object.fromEntries(op.params.map((p) => [p, read ? realParam(fxA, op.path, p) : FAKE_ID]));
      const realIds = Object.values(values).every((v) => v !== FAKE_ID);
      // Webhook routes are documented `any` at the route and scoped by the webhook's target (the
      // fixture's is Documents): only reads of the real webhook can show that rule.
      const byTarget = op.scope === 'any' && op.path.startsWith('/v1preview1/webhooks/');
      if (byTarget && !(read && realIds)) continue;
      for (const [scope, key] of keys) {
        const r = await call(q, key, op.method, fill(op.path, values), op.json ? {} : undefined);
        checked++;
        const granted = byTarget
          ? ['read:documents', 'read:webhooks', 'admin'].includes(scope)
          : op.scope === 'any' || hasScope([scope], op.scope as Scope);
        const route = `${op.method} ${op.path} with ${scope} (documented: ${byTarget ? 'by target: read:documents or read:webhooks' : op.scope})`;
        if (!granted && r.status !== 403) wrong.push(`${route}: ${r.status}, expected 403`);
        if (granted && (r.status === 401 || r.status === 403)) wrong.push(`${route}: ${r.status}, expected to be let through`);
        if (granted && read && realIds && (r.status < 200 || r.status > 299)) wrong.push(`${route}: ${r.status}, expected a 2xx read`);
      }
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${checked} scope checks wrong`);
    assert.ok(checked >= 7 * 50, `${checked} checks`);
  });
});
