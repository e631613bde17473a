/**
 * Issue 6 gaps the main projects suite (test/api/projects.test.ts) leaves open, over real HTTP
 * against a real server with its workers (SQLite, file blob store): autoConfirmDocuments false/true
 * for every project type on one shared docset; the version triggers (items, extracted values of a
 * new document and of a relabelled property, a deleted document); `Project.Artifacts.Delete` for
 * dropped files, a deleted upload and a deleted project; the stored files of a deleted project;
 * artifact upload extensions and the 300 MB limit; `GET /projects` paging; the `maxSize` filter.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, collectPages, rawMultipartUpload, type Client, until } from '../helpers/http.js';
import { PROJECT_TYPES } from '../../src/model/projects.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';
import type { EventRecord } from '../../src/store/db/events.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const ALLOWED = ['.xml', '.json', '.csv', '.xlsx', '.pdf', '.docx'];
const REFUSED = ['.exe', '.txt', '.zip', '.docm', '.html', '.xlsx.exe', ''];
const MAX = 300 * 1024 * 1024;

/** Every text a generated file holds: cells of every sheet, DOCX text, or the bytes as UTF-8. */
async function textOf(name: string, bytes: Buffer): Promise<string> {
  if (name.endsWith('.xlsx')) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const out: string[] = [];
    for (const ws of wb.worksheets) ws.eachRow((row) => row.eachCell((cell) => out.push(cell.text)));
    return out.join('\n');
  }
  if (name.endsWith('.docx')) return (await mammoth.extractRawText({ buffer: bytes })).value;
  return bytes.toString('utf8');
}

/** `pr:Heading` -> `pr:Value` of a report-values.xml (the markup is Quire's own, read loosely here). */
function reportValues(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  for (const m of xml.matchAll(/<pr:Entry>\s*<pr:Heading>([\s\S]*?)<\/pr:Heading>\s*(?:<pr:Value>([\s\S]*?)<\/pr:Value>|<pr:Value\/>)/g)) {
    out.set(unescape(m[1]!), unescape(m[2] ?? ''));
  }
  return out;
}

describe('projects: issue 6 coverage (SQLite)', () => {
  let q: Quire;
  let c: Client;
  /** type -> project id of the auto-confirming projects of the first test (later tests reuse them). */
  const autoByType = new Map<string, string>();

  const project = async (id: string) => {
    const r = await c.get(`/projects/${id}`);
    assertJson(r);
    return r.json;
  };
  const versionOf = async (id: string) => Number((await project(id)).artifacts.version ?? 0);
  const atVersion = (id: string, v: number) => until(`project ${id} version ${v}`, async () => ((await versionOf(id)) >= v ? true : undefined));
  /** Waits for a first version of each, then until no new version appears for 3 s. */
  async function quiet(ids: string[]): Promise<void> {
    for (const id of ids) await atVersion(id, 1);
    let last = '';
    for (let stable = 0; stable < 3; ) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = (await Promise.all(ids.map(versionOf))).join(',');
      stable = now === last ? stable + 1 : 0;
      last = now;
    }
  }
  const artifacts = async (projectId: string, version: string | number = 'latest') =>
    (await collectPages(c, `/projects/${projectId}/artifacts/${version}?limit=100`, 'artifacts')).items as any[];
  async function content(a: { url: string }): Promise<Buffer> {
    const r = await c.get(`${a.url}/content`);
    assert.equal(r.status, 200, r.text);
    return r.buffer;
  }
  async function txt(docsetId: string, name: string, text: string): Promise<{ id: string; name: string }> {
    const r = await c.upload({ bytes: text, name }, { 'docset.id': docsetId });
    assertJson(r, 201);
    await until(`${name} Ready`, async () => ((await c.get(`/documents/${r.json.id}`)).json.status === 'Ready' ? true : undefined));
    return { id: r.json.id, name: r.json.name };
  }
  async function events(projectId: string): Promise<EventRecord[]> {
    const store = await Store.open(loadConfig(q.env).database, { migrate: false });
    try {
      const ws = (await store.workspaces.list())[0]!.id;
      return (await store.events.list(ws, undefined, 1_000_000)).filter((e) => (e.payload as any).projectId === projectId);
    } finally {
      await store.close();
    }
  }
  /** Whether a version of a project includes a document: a file of its own, or its name or id in a file. */
  async function mentions(projectId: string, version: number, doc: { id: string; name: string }): Promise<boolean> {
    const list = await artifacts(projectId, version);
    if (list.some((a) => a.document?.id === doc.id)) return true;
    for (const a of list) {
      const text = await textOf(a.name, await content(a));
      if (text.includes(doc.name) || text.includes(doc.id)) return true;
    }
    return false;
  }
  const projectBlobDir = (id: string) => path.join(q.dataDir, 'blobs', 'projects', id);
  const filesUnder = (dir: string): string[] => {
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  };
  const stagedBlobs = () => {
    const dir = path.join(q.dataDir, 'blobs', '.staging');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  function uploadArtifact(projectId: string, name: string, bytes: string | Buffer, fields: Record<string, string> = {}, version = 'latest') {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([bytes]), name);
    return c.post(`/projects/${projectId}/artifacts/${version}/content`, { body: form });
  }

  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_PROJECT_DEBOUNCE_MS: '300' } });
    c = client(q.api, q.key);
  });

  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('every type: autoConfirmDocuments false holds a joining document back until publish or switching on; true takes it at once', async () => {
    const ds = (await c.post('/docsets', { json: { name: 'confirmation, every type' } })).json;
    const first = await txt(ds.id, 'first.txt', 'Agreement number: AG-1\n\nThe first agreement.');
    const held = new Map<string, string>();
    for (const type of PROJECT_TYPES) {
      for (const auto of [true, false]) {
        const r = await c.post('/projects', { json: { name: `${type} ${auto}`, type, 'docset.id': ds.id, items: [{ label: 'Agreement number' }], autoConfirmDocuments: auto } });
        assertJson(r, 201);
        assert.equal(r.json.autoConfirmDocuments, auto);
        (auto ? autoByType : held).set(type, r.json.id);
      }
    }
    const all = [...autoByType.values(), ...held.values()];
    await quiet(all);
    const v0 = new Map(await Promise.all(all.map(async (id) => [id, await versionOf(id)] as const)));
    // Chat generates nothing: there is no file to look into, only versions.
    const readable = (type: string) => type !== 'Chat' && type !== 'AssistedAuthoring';
    for (const [type, id] of held) if (readable(type)) assert.ok(await mentions(id, v0.get(id)!, first), `${type}: version ${v0.get(id)} includes first.txt`);

    const second = await txt(ds.id, 'second.txt', 'Agreement number: AG-2\n\nThe second agreement.');
    for (const id of autoByType.values()) await atVersion(id, v0.get(id)! + 1);
    await quiet(all);
    for (const [type, id] of autoByType) {
      if (readable(type)) assert.ok(await mentions(id, await versionOf(id), second), `${type} (auto): the new version includes second.txt`);
    }
    for (const [type, id] of held) {
      assert.equal(await versionOf(id), v0.get(id), `${type} (held): the unconfirmed document publishes nothing`);
      if (readable(type)) assert.equal(await mentions(id, v0.get(id)!, second), false, `${type} (held): second.txt is not in it`);
    }

    // Half the types confirm by publishing, the other half by switching auto-confirmation on.
    const how = new Map<string, string>(PROJECT_TYPES.map((t, i) => [t, i % 2 === 0 ? 'publish' : 'switch']));
    for (const [type, id] of held) {
      if (how.get(type) === 'publish') assertJson(await c.post(`/projects/${id}/publish`), 202);
      else {
        const r = await c.put(`/projects/${id}`, { json: { autoConfirmDocuments: true } });
        assertJson(r);
        assert.equal(r.json.autoConfirmDocuments, true);
      }
    }
    for (const id of held.values()) await atVersion(id, v0.get(id)! + 1);
    await quiet([...held.values()]);
    for (const [type, id] of held) {
      const n = await versionOf(id);
      assert.equal(n, v0.get(id)! + 1, `${type} (${how.get(type)}): one new version`);
      if (readable(type)) {
        assert.ok(await mentions(id, n, second), `${type} (${how.get(type)}): version ${n} includes second.txt`);
        assert.equal(await mentions(id, n - 1, second), false, `${type}: version ${n - 1} still does not`);
      }
    }
  });

  test('version triggers: items, an extracted value (new document, relabelled property), a deleted document; Delete events for dropped files', async () => {
    const ds = (await c.post('/docsets', { json: { name: 'triggers' } })).json;
    const text = (n: number) => `Agreement number: AG-${n}\n\nLease number: L-${n}${n}\n\nTenant name: Tenant${n}\n\nAgreement ${n}.`;
    const t1 = await txt(ds.id, 't1.txt', text(1));
    const t2 = await txt(ds.id, 't2.txt', text(2));
    const p = (await c.post('/projects', { json: { name: 'triggers', type: 'TabularReport', 'docset.id': ds.id, items: [{ label: 'Agreement number' }] } })).json;
    await quiet([p.id]);
    const valuesOf = async (docId: string, version: string | number = 'latest') => {
      const a = (await artifacts(p.id, version)).find((x) => x.name === 'report-values.xml' && x.document?.id === docId);
      return a ? reportValues((await content(a)).toString('utf8')) : undefined;
    };
    assert.equal((await valuesOf(t1.id))?.get('Agreement number'), 'AG-1', 'extraction found the value (version 1)');

    // A new name alone is not an input: no version.
    let n = await versionOf(p.id);
    assertJson(await c.req('PATCH', `/projects/${p.id}`, { json: { name: 'triggers renamed' } }));
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await versionOf(p.id), n, 'renaming publishes nothing');

    // Items change: a new version with the new column and its extracted values.
    assertJson(await c.req('PATCH', `/projects/${p.id}`, { json: { items: [{ label: 'Agreement number' }, { label: 'Lease number' }] } }));
    await atVersion(p.id, n + 1);
    await quiet([p.id]);
    const csv = (await content((await artifacts(p.id)).find((a) => a.name === 'report.csv'))).toString('utf8');
    assert.match(csv.split('\r\n')[0]!, /Agreement number,Lease number/);
    assert.equal((await valuesOf(t1.id))?.get('Lease number'), 'L-11');
    assert.equal((await valuesOf(t1.id, n))?.has('Lease number'), false, 'the version before the items changed has no such column');

    // A new document whose values get extracted: a new version holding them.
    n = await versionOf(p.id);
    const t3 = await txt(ds.id, 't3.txt', text(3));
    await atVersion(p.id, n + 1);
    await until('t3 values extracted in the latest version', async () => ((await valuesOf(t3.id))?.get('Lease number') === 'L-33' ? true : undefined));
    assert.equal((await valuesOf(t3.id))?.get('Agreement number'), 'AG-3');
    await quiet([p.id]);

    // A relabelled property is extracted again: a new version with the new heading and value.
    n = await versionOf(p.id);
    const lease = (await c.get(`/docsets/${ds.id}/properties`)).json.properties.find((x: any) => x.label === 'Lease number');
    assertJson(await c.put(`/docsets/${ds.id}/properties/${lease.id}`, { json: { label: 'Tenant name' } }));
    await atVersion(p.id, n + 1);
    let seen: unknown;
    await until('relabelled values re-extracted', async () => {
      const v = await valuesOf(t2.id);
      seen = v && [...v];
      return v?.get('Tenant name') === 'Tenant2' ? true : undefined;
    }, 60_000).catch((e) => assert.fail(`${e.message}; t2's latest report-values.xml: ${JSON.stringify(seen)}`));
    await quiet([p.id]);
    for (const [d, i] of [[t1, 1], [t2, 2], [t3, 3]] as const) {
      const v = await valuesOf(d.id);
      assert.equal(v?.get('Tenant name'), `Tenant${i}`, `${d.name}: the relabelled property's new extracted value`);
      assert.equal(v?.has('Lease number'), false);
    }
    assert.equal((await valuesOf(t2.id, n))?.get('Lease number'), 'L-22', 'the version before the relabel is unchanged');

    // A deleted document: a new version without it; its dropped file is a Delete event.
    n = await versionOf(p.id);
    const before = await artifacts(p.id, n);
    const droppedXml = before.find((a) => a.name === 'report-values.xml' && a.document?.id === t2.id);
    assert.ok(droppedXml);
    assert.equal((await c.del(`/documents/${t2.id}`)).status, 204);
    await atVersion(p.id, n + 1);
    await quiet([p.id]);
    const latest = await artifacts(p.id);
    assert.equal(latest.some((a) => a.document?.id === t2.id), false, 'no file of the deleted document');
    assert.deepEqual(latest.filter((a) => a.name === 'report-values.xml').map((a) => a.document.id).sort(), [t1.id, t3.id].sort());
    const rows = (await content(latest.find((a) => a.name === 'report.csv'))).toString('utf8');
    assert.ok(!rows.includes('t2.txt') && rows.includes('t1.txt') && rows.includes('t3.txt'), rows);
    assert.equal((await artifacts(p.id, n)).length, before.length, 'the previous version keeps its files');

    const evs = await events(p.id);
    const deletes = evs.filter((e) => e.type === 'Project.Artifacts.Delete');
    const dropped = deletes.filter((e) => (e.payload as any).artifactId === droppedXml.id);
    assert.equal(dropped.length, 1, `one Delete event for the dropped report-values.xml of t2: ${JSON.stringify(deletes.map((e) => e.payload))}`);
    assert.deepEqual(dropped[0]!.payload, { projectId: p.id, docsetId: ds.id, version: String(n), artifactId: droppedXml.id, name: 'report-values.xml', documentId: t2.id });
    // Only that file was dropped by the last version: the others were kept or regenerated.
    assert.deepEqual(deletes.filter((e) => (e.payload as any).version === String(n)).map((e) => (e.payload as any).artifactId), [droppedXml.id]);
    const versions = evs.filter((e) => e.type === 'Project.Artifacts.Version').map((e) => (e.payload as any).version);
    assert.deepEqual(versions, Array.from({ length: n + 1 }, (_, i) => String(i + 1)), 'a Version event for every version');
    // New items, a new document and a relabel dropped no file: no Delete event before the deletion.
    assert.equal(deletes.length, 1);
    autoByType.set('triggers', p.id);
  });

  test('a deleted upload and a deleted project record Project.Artifacts.Delete; the project\'s stored files go', async () => {
    const p = autoByType.get('triggers')!;
    const other = autoByType.get('TabularReport')!;
    const n = await versionOf(p);
    const up = await uploadArtifact(p, 'notes.json', '{"reviewed": true}');
    assertJson(up, 201);
    assert.equal(up.json.isReadOnly, false);
    assert.equal((await c.del(up.json.url)).status, 204);
    const keep = await uploadArtifact(p, 'kept.pdf', '%PDF-1.4 not really');
    assertJson(keep, 201);
    let evs = await events(p);
    const created = evs.filter((e) => e.type === 'Project.Artifacts.Create' && (e.payload as any).artifactId === up.json.id);
    assert.equal(created.length, 1, 'the upload was a Create event');
    const deleted = evs.filter((e) => e.type === 'Project.Artifacts.Delete' && (e.payload as any).artifactId === up.json.id);
    assert.equal(deleted.length, 1, 'the deleted upload is a Delete event');
    const docsetId = (await project(p)).docset.id;
    assert.deepEqual(deleted[0]!.payload, { projectId: p, docsetId, version: String(n), artifactId: up.json.id, name: 'notes.json', documentId: null });

    const latest = await artifacts(p);
    assert.ok(latest.some((a) => a.id === keep.json.id));
    const blobsBefore = filesUnder(projectBlobDir(p));
    assert.ok(blobsBefore.length > 0, 'the project has stored files');
    const otherBefore = filesUnder(projectBlobDir(other));
    assert.ok(otherBefore.length > 0);
    const deletesBefore = evs.filter((e) => e.type === 'Project.Artifacts.Delete').length;

    assert.equal((await c.del(`/projects/${p}`)).status, 204);
    assertProblem(await c.get(`/projects/${p}`), 404);
    evs = await events(p);
    const onDelete = evs.filter((e) => e.type === 'Project.Artifacts.Delete').slice(deletesBefore);
    assert.deepEqual(
      onDelete.map((e) => (e.payload as any).artifactId).sort(),
      latest.map((a) => a.id).sort(),
      'a Delete event for every file of the latest version, the upload included',
    );
    for (const e of onDelete) assert.equal((e.payload as any).version, String(n));
    await until('the project\'s stored files are gone', async () => (filesUnder(projectBlobDir(p)).length === 0 ? true : undefined), 10_000);
    assert.equal(fs.existsSync(projectBlobDir(p)), false, 'its directory too');
    for (const f of blobsBefore) assert.equal(fs.existsSync(f), false, `${f} is gone`);
    assert.deepEqual(filesUnder(projectBlobDir(other)).sort(), otherBefore.sort(), 'another project keeps its files');
    // What the other project serves still downloads.
    for (const a of await artifacts(other)) await content(a);
  });

  test('artifact uploads: every allowed extension accepted with its Content-Type, others 415', async () => {
    const p = autoByType.get('TabularReport')!;
    const n = await versionOf(p);
    const types: Record<string, RegExp> = {
      '.xml': /^application\/xml/,
      '.json': /^application\/json/,
      '.csv': /^text\/csv/,
      '.xlsx': /^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet/,
      '.pdf': /^application\/pdf/,
      '.docx': /^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document/,
    };
    const made: string[] = [];
    for (const ext of [...ALLOWED, '.PDF', '.Docx']) {
      const r = await uploadArtifact(p, `upload${ext}`, JSON.stringify(`bytes of ${ext}`));
      assertJson(r, 201);
      assert.equal(r.json.isReadOnly, false);
      assert.equal(r.json.version, String(n));
      const got = await c.get(`${r.json.url}/content`);
      assert.equal(got.status, 200);
      assert.equal(got.text, JSON.stringify(`bytes of ${ext}`));
      assert.match(got.headers.get('content-type')!, types[ext.toLowerCase()]!, `${ext}: ${got.headers.get('content-type')}`);
      made.push(r.json.id);
    }
    const listed = await c.get(`/projects/${p}/artifacts/latest?isReadOnly=false&limit=100`);
    assert.deepEqual(listed.json.artifacts.map((a: any) => a.id).sort(), [...made].sort());
    for (const ext of REFUSED) assertProblem(await uploadArtifact(p, `refused${ext}`, 'x'), 415, /\.xml/);
    assert.equal((await c.get(`/projects/${p}/artifacts/latest?isReadOnly=false&limit=100`)).json.artifacts.length, made.length, 'a refused upload adds nothing');
    for (const id of made) assert.equal((await c.del(`/projects/${p}/artifacts/latest/${id}`)).status, 204);
  });

  test('artifact uploads over 300 MB: 413, declared or streamed, nothing kept', async () => {
    const p = autoByType.get('TabularReport')!;
    const url = `${q.api}/projects/${p}/artifacts/latest/content`;
    const count = async () => (await c.get(`/projects/${p}/artifacts/latest?isReadOnly=false&limit=100`)).json.artifacts.length;
    const before = await count();
    const declared = await rawMultipartUpload(url, q.key, { fileName: 'big.csv', declaredLength: 400 * 1024 * 1024, sendBytes: 1024 });
    assert.equal(declared.status, 413, declared.body);
    assert.equal(JSON.parse(declared.body).status, 413);
    // No length: streamed (chunked) until just over the limit.
    const streamed = await rawMultipartUpload(url, q.key, { fileName: 'big.csv', sendBytes: MAX + 4096 });
    assert.equal(streamed.status, 413, streamed.body);
    assert.match(JSON.parse(streamed.body).detail, /300 MB|314572800/);
    assert.equal(await count(), before, 'no artifact was created');
    await until('no staged blob is left', async () => (stagedBlobs().length === 0 ? true : undefined), 10_000);
  });

  test('GET /projects pages with limit and cursor; next carries the filters', async () => {
    const ds = (await c.post('/docsets', { json: { name: 'paging' } })).json;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await c.post('/projects', { json: { name: 'paged', type: 'SmartsheetExport', 'docset.id': ds.id } })).json.id);
    for (let i = 0; i < 2; i++) made.push((await c.post('/projects', { json: { name: 'paged', type: 'Chat', 'docset.id': ds.id } })).json.id);
    made.push((await c.post('/projects', { json: { name: 'other name', type: 'SmartsheetExport', 'docset.id': ds.id } })).json.id);

    const check = async (first: string, expected: string[], mustCarry: string[]) => {
      const { items, urls } = await collectPages(c, first, 'projects');
      const ids = items.map((p) => p.id);
      assert.equal(new Set(ids).size, ids.length, `${first}: no project twice`);
      assert.deepEqual([...ids].sort(), [...expected].sort(), first);
      const pages = Math.ceil(expected.length / 2);
      assert.ok(urls.length > 1 && urls.length >= pages && urls.length <= pages + 1, `${first}: pages of 2 (${urls.join(' ')})`);
      for (const u of urls.slice(1)) {
        assert.ok(u.startsWith(`${q.api}/projects?`), u);
        const params = new URL(u).searchParams;
        assert.ok(params.get('cursor'), u);
        for (const kv of mustCarry) {
          const [k, v] = kv.split('=');
          assert.equal(params.get(k!), v, `${u} carries ${kv}`);
        }
      }
      for (const u of urls) assert.ok((await c.get(u)).json.projects.length <= 2);
      return urls;
    };
    const allIds = made;
    const smartsheet = made.filter((_, i) => i < 5 || i === 7);
    await check(`/projects?docset.id=${ds.id}&limit=2`, allIds, [`docset.id=${ds.id}`, 'limit=2']);
    await check(`/projects?docset[id]=${ds.id}&type=SmartsheetExport&limit=2`, smartsheet, [`docset.id=${ds.id}`, 'type=SmartsheetExport', 'limit=2']);
    await check(`/projects?docset.id=${ds.id}&name=paged&limit=2`, made.slice(0, 7), [`docset.id=${ds.id}`, 'name=paged', 'limit=2']);
    // A page boundary that falls exactly on the end.
    const exact = await collectPages(c, `/projects?docset.id=${ds.id}&type=Chat&limit=2`, 'projects');
    assert.deepEqual(exact.items.map((p) => p.id).sort(), made.slice(5, 7).sort());
    // The first page's cursor answers the second page again, with the filters it carries.
    const first = await c.get(`/projects?docset.id=${ds.id}&type=SmartsheetExport&limit=2`);
    const again1 = await c.get(first.json.next);
    const again2 = await c.get(first.json.next);
    assert.deepEqual(again1.json.projects.map((p: any) => p.id), again2.json.projects.map((p: any) => p.id));
    assert.ok(again1.json.projects.every((p: any) => p.type === 'SmartsheetExport' && p.docset.id === ds.id));
    assertProblem(await c.get('/projects?cursor=not-a-cursor'), 400);
    assertProblem(await c.get('/projects?limit=0'), 400);
    for (const id of made) assert.equal((await c.del(`/projects/${id}`)).status, 204);
  });

  test('artifact list: maxSize (with minSize, paging and the version query)', async () => {
    const p = autoByType.get('TabularReport')!;
    const all = await artifacts(p);
    assert.ok(all.length >= 3, `${all.length} files`);
    const sizes = all.map((a) => a.size as number).sort((a, b) => a - b);
    const mid = sizes[Math.floor(sizes.length / 2)]!;
    const idsWhere = (f: (a: any) => boolean) => all.filter(f).map((a) => a.id).sort();

    const upTo = await collectPages(c, `/projects/${p}/artifacts/latest?maxSize=${mid}&limit=1`, 'artifacts');
    assert.deepEqual(upTo.items.map((a) => a.id).sort(), idsWhere((a) => a.size <= mid), 'maxSize is inclusive');
    assert.ok(upTo.urls.slice(1).every((u) => new URL(u).searchParams.get('maxSize') === String(mid)), 'next carries maxSize');
    const exact = await c.get(`/projects/${p}/artifacts/latest?minSize=${mid}&maxSize=${mid}&limit=100`);
    assert.deepEqual(exact.json.artifacts.map((a: any) => a.id).sort(), idsWhere((a) => a.size === mid));
    assert.ok(exact.json.artifacts.length >= 1);
    const viaQuery = await c.get(`/projects/${p}/artifacts?version=latest&maxSize=${sizes[0]! - 1}`);
    assertJson(viaQuery);
    assert.deepEqual(viaQuery.json.artifacts, [], 'below the smallest file: none');
    const everything = await c.get(`/projects/${p}/artifacts/latest?maxSize=${sizes.at(-1)}&limit=100`);
    assert.equal(everything.json.artifacts.length, all.length);
    const crossed = await c.get(`/projects/${p}/artifacts/latest?minSize=${mid + 1}&maxSize=${mid}`);
    if (crossed.status === 400) assertProblem(crossed, 400);
    else assert.deepEqual(crossed.json.artifacts, [], 'minSize above maxSize: nothing');
    assertProblem(await c.get(`/projects/${p}/artifacts/latest?maxSize=-1`), 400);
    assertProblem(await c.get(`/projects/${p}/artifacts/latest?maxSize=big`), 400);
  });
});
