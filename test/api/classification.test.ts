/**
 * Classification over real HTTP: an upload naming several docsets (`docset.id` = `a|b|c|d`) joins the
 * one whose documents it resembles most once its text is known, and records why.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, type Client } from '../helpers/http.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';

const KGRAG = path.join(CORPUS, 'kgrag');
const FOLDERS = fs.readdirSync(KGRAG).filter((f) => fs.statSync(path.join(KGRAG, f)).isDirectory()).sort();

async function ready(c: Client, id: string): Promise<any> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const r = await c.get(`/documents/${id}`);
    assertJson(r);
    if (['Ready', 'Error', 'OverQuota'].includes(r.json.status)) return r.json;
    if (Date.now() > deadline) throw new Error(`document ${id} did not settle: ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('classification into one of several docsets', () => {
  let q: Quire;
  let c: Client;
  const docsetOf = new Map<string, string>();

  before(async () => {
    q = await startQuire({});
    c = client(q.api, q.key);
    for (const folder of FOLDERS) {
      const ds = await c.post('/docsets', { json: { name: folder } });
      assertJson(ds, 201);
      docsetOf.set(folder, ds.json.id);
    }
  });

  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('the kgrag folders as docsets: a new document of each joins its own, with every candidate scored', async () => {
    assert.equal(FOLDERS.length, 4);
    // Two documents of each folder teach its docset; the last one of each is classified.
    const held: { folder: string; file: string }[] = [];
    const taught: string[] = [];
    for (const folder of FOLDERS) {
      const files = fs.readdirSync(path.join(KGRAG, folder)).filter((f) => f.endsWith('.pdf')).sort();
      for (const f of files.slice(0, 2)) {
        const r = await c.upload({ path: path.join(KGRAG, folder, f) }, { 'docset.id': docsetOf.get(folder)! });
        assertJson(r, 201);
        taught.push(r.json.id);
      }
      held.push({ folder, file: files[files.length - 1]! });
    }
    for (const id of taught) assert.equal((await ready(c, id)).status, 'Ready');

    const all = FOLDERS.map((f) => docsetOf.get(f)!).join('|');
    const uploaded: { folder: string; id: string }[] = [];
    for (const h of held) {
      const r = await c.upload({ path: path.join(KGRAG, h.folder, h.file) }, { 'docset.id': all });
      assertJson(r, 201);
      assert.equal(r.json.docset, undefined, 'in no docset until classified');
      uploaded.push({ folder: h.folder, id: r.json.id });
    }
    for (const u of uploaded) {
      const doc = await ready(c, u.id);
      assert.equal(doc.status, 'Ready');
      assert.equal(doc.docset?.id, docsetOf.get(u.folder), `${u.folder}: ${JSON.stringify(doc.classification)}`);
      assert.equal(doc.classification.chosen.id, docsetOf.get(u.folder));
      assert.equal(doc.classification.candidates.length, 4);
      const scores = doc.classification.candidates.map((x: { score: number }) => x.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'candidates best first');
      assert.ok(doc.classification.candidates.every((x: { basis: string }) => x.basis === 'documents'));
      const inDocset = await c.get(`/docsets/${docsetOf.get(u.folder)}/documents/${u.id}`);
      assertJson(inDocset);
    }
    const counts = await Promise.all(FOLDERS.map(async (f) => (await c.get(`/docsets/${docsetOf.get(f)}`)).json.documentCount));
    assert.deepEqual(counts, [3, 3, 3, 3]);
  });

  test('a chunked upload session naming several docsets is classified too, and joining records a Docset.Document.Add event', async () => {
    const bytes = fs.readFileSync(path.join(CORPUS, 'reference-dgml/20071210X01921.pdf'));
    const form = new FormData();
    form.append('fileName', 'ntsb.pdf');
    form.append('fileSize', String(bytes.length));
    form.append('docset.id', FOLDERS.map((f) => docsetOf.get(f)!).join('|'));
    const session = await c.post('/documents/uploads/session', { body: form });
    assertJson(session, 201);
    const chunk = new FormData();
    chunk.append('byteOffset', '0');
    chunk.append('file', new Blob([bytes]), 'chunk');
    assertJson(await c.post(`/documents/uploads/session/${session.json.sessionId}/chunk`, { body: chunk }));
    const fin = await c.post(`/documents/uploads/session/${session.json.sessionId}/finalize`);
    assertJson(fin, 201);
    const doc = await ready(c, fin.json.id);
    const ntsb = FOLDERS.find((f) => f.startsWith('ntsb'))!;
    assert.equal(doc.docset?.id, docsetOf.get(ntsb), JSON.stringify(doc.classification));

    const store = await Store.open(loadConfig(q.env).database);
    try {
      const ws = (await store.workspaces.getByName('default'))!;
      const events = await store.events.list(ws.id, undefined, 10_000);
      const added = events.filter((e) => e.type === 'Docset.Document.Add' && (e.payload as { documentId: string }).documentId === doc.id);
      assert.deepEqual(added.map((e) => (e.payload as { docsetId: string }).docsetId), [docsetOf.get(ntsb)]);
    } finally {
      await store.close();
    }
  });

  test('empty docsets compete on their names', async () => {
    const a = await c.post('/docsets', { json: { name: 'Aviation accident reports' } });
    const b = await c.post('/docsets', { json: { name: 'Quarterly financial statements' } });
    const r = await c.upload({ path: path.join(CORPUS, 'reference-dgml/20071204X01896.pdf') }, { 'docset.id': `${b.json.id}|${a.json.id}` });
    assertJson(r, 201);
    const doc = await ready(c, r.json.id);
    assert.equal(doc.docset?.id, a.json.id, JSON.stringify(doc.classification));
    assert.ok(doc.classification.candidates.every((x: { basis: string }) => x.basis === 'name'));
  });
});
