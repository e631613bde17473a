/**
 * Docset properties over real HTTP against a real server with its workers: every route, the label
 * rules, extraction into values (with location), manual override and reset, relabelling, and the
 * values tagged in DGML.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, type Client, until } from '../helpers/http.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';
import { SaxesParser } from 'saxes';

const NTSB = [
  path.join(CORPUS, 'reference-dgml/20071204X01896.pdf'),
  path.join(CORPUS, 'reference-dgml/20071210X01921.pdf'),
];
// Read off the first report by eye.
const ACCIDENT_NUMBER = 'DEN08WA037';

describe('docset properties', () => {
  let q: Quire;
  let c: Client;
  let docsetId: string;
  const docs: string[] = [];
  let outsider: string;

  before(async () => {
    q = await startQuire({});
    c = client(q.api, q.key);
    const ds = await c.post('/docsets', { json: { name: 'NTSB reports' } });
    assertJson(ds, 201);
    docsetId = ds.json.id;
    for (const f of NTSB) {
      const r = await c.upload({ path: f }, { 'docset.id': docsetId });
      assertJson(r, 201);
      docs.push(r.json.id);
    }
    outsider = (await c.upload({ bytes: 'not in the docset', name: 'outsider.txt' })).json.id;
    for (const id of [...docs, outsider]) {
      await until(`document ${id} Ready`, async () => ((await c.get(`/documents/${id}`)).json.status === 'Ready' ? true : undefined));
    }
  });

  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('label rules: XML name characters, spaces and a leading digit allowed; others named in a 400', async () => {
    const ok = await c.post(`/docsets/${docsetId}/properties`, { json: { label: '2nd Party' } });
    assertJson(ok, 201);
    assert.equal(ok.json.labelId, '_2ndParty');
    assert.equal(ok.json.label, '2nd Party');
    for (const [label, named] of [
      ['Amount $', /"\$"/],
      ['Amount (USD)', /"\("/],
      ['Party/Company', /"\/"/],
      ['Fee <max>', /"<"/],
      ['-Dash first', /cannot start with "-"/],
      ['tab\there', /U\+0009/],
    ] as const) {
      assertProblem(await c.post(`/docsets/${docsetId}/properties`, { json: { label } }), 400, named);
    }
    assertProblem(await c.post(`/docsets/${docsetId}/properties`, { json: { label: '' } }), 400);
    assertProblem(await c.post(`/docsets/${docsetId}/properties`, { json: {} }), 400);
    const clash = await c.post(`/docsets/${docsetId}/properties`, { json: { label: '2ndParty' } });
    assertProblem(clash, 409);
    assert.equal(clash.headers.get('x-should-retry'), 'false');
    assertProblem(await c.post('/docsets/nosuchdocset/properties', { json: { label: 'X' } }), 404);
    assert.equal((await c.del(`/docsets/${docsetId}/properties/${ok.json.id}`)).status, 204);
    assertProblem(await c.get(`/docsets/${docsetId}/properties/${ok.json.id}`), 404);
  });

  test('create, list, get, relabel (id and values stay), values extracted with their location', async () => {
    const made = await c.post(`/docsets/${docsetId}/properties`, { json: { label: 'Accident Number' } });
    assertJson(made, 201);
    assert.equal(made.json.labelId, 'AccidentNumber');
    const id = made.json.id;
    const list = await c.get(`/docsets/${docsetId}/properties`);
    assertJson(list);
    assert.ok(list.json.properties.some((p: { id: string }) => p.id === id));
    assert.deepEqual((await c.get(`/docsets/${docsetId}/properties/${id}`)).json, made.json);

    const value = await until('the extracted Accident Number', async () => {
      const r = await c.get(`/docsets/${docsetId}/properties/${id}/documents/${docs[0]}`);
      assertJson(r);
      return r.json.value === null ? undefined : r.json;
    });
    assert.equal(value.value, ACCIDENT_NUMBER);
    assert.equal(value.source, 'extracted');
    assert.ok(value.confidence > 0 && value.confidence <= 1);
    assert.ok(value.location && value.location.page >= 1 && value.location.boundingBox.width > 0, JSON.stringify(value.location));

    const relabelled = await c.put(`/docsets/${docsetId}/properties/${id}`, { json: { label: 'Accident No' } });
    assertJson(relabelled);
    assert.equal(relabelled.json.id, id);
    assert.equal(relabelled.json.labelId, 'AccidentNo');
    const after = await c.get(`/docsets/${docsetId}/properties/${id}/documents/${docs[0]}`);
    assert.equal(after.json.label, 'Accident No');
    assert.equal(after.json.value, ACCIDENT_NUMBER, 'the value stays through the relabel');
    assertProblem(await c.put(`/docsets/${docsetId}/properties/${id}`, { json: { label: 'bad|label' } }), 400);
  });

  test('manual values win, survive re-extraction, and null hands the value back to extraction', async () => {
    const made = await c.post(`/docsets/${docsetId}/properties`, { json: { label: 'Registration' } });
    const id = made.json.id;
    const set = await c.put(`/docsets/${docsetId}/properties/${id}/documents/${docs[1]}`, { json: { value: 'N-MANUAL' } });
    assertJson(set);
    assert.equal(set.json.value, 'N-MANUAL');
    assert.equal(set.json.source, 'manual');
    // Relabelling queues extraction again; the manual value stays.
    await c.put(`/docsets/${docsetId}/properties/${id}`, { json: { label: 'Registration Number' } });
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await c.get(`/docsets/${docsetId}/properties/${id}/documents/${docs[1]}`)).json.value, 'N-MANUAL');
    const reset = await c.put(`/docsets/${docsetId}/properties/${id}/documents/${docs[1]}`, { json: { value: null } });
    assertJson(reset);
    assert.notEqual(reset.json.source, 'manual');
    assertProblem(await c.put(`/docsets/${docsetId}/properties/${id}/documents/${docs[1]}`, { json: { value: 42 } }), 400);
    assertProblem(await c.put(`/docsets/${docsetId}/properties/${id}/documents/${outsider}`, { json: { value: 'x' } }), 404);
  });

  test('document-properties: all values of a document; POST by label creates the property', async () => {
    const r = await c.post(`/docsets/${docsetId}/document-properties/${docs[0]}`, { json: { label: 'Reviewer Note', value: 'checked' } });
    assertJson(r);
    assert.equal(r.json.labelId, 'ReviewerNote');
    assert.equal(r.json.value, 'checked');
    assert.equal(r.json.source, 'manual');
    const all = await c.get(`/docsets/${docsetId}/document-properties/${docs[0]}`);
    assertJson(all);
    const byLabel = new Map(all.json.properties.map((p: { label: string; value: string | null }) => [p.label, p.value]));
    assert.equal(byLabel.get('Reviewer Note'), 'checked');
    assert.equal(byLabel.get('Accident No'), ACCIDENT_NUMBER);
    // The same label again sets the value on the existing property.
    const again = await c.post(`/docsets/${docsetId}/document-properties/${docs[0]}`, { json: { label: 'Reviewer Note', value: 'rechecked' } });
    assert.equal(again.json.id, r.json.id);
    assertProblem(await c.get(`/docsets/${docsetId}/document-properties/${outsider}`), 404);
    assertProblem(await c.post(`/docsets/${docsetId}/document-properties/${docs[0]}`, { json: { label: 'x', value: 1 } }), 400);
  });

  test('values are tagged in the DGML: docset:{labelId} around the value, the label cell as {labelId}-cell', async () => {
    const xml = (await c.get(`/docsets/${docsetId}/documents/${docs[0]}/dgml`)).text;
    assert.match(xml, new RegExp(`<docset:AccidentNo>\\s*${ACCIDENT_NUMBER}\\s*</docset:AccidentNo>`));
    assert.match(xml, /<docset:AccidentNo-cell>/);
  });

  test('manual values with XML-significant characters are tagged in well-formed DGML', async () => {
    const supplier = 'Smith & Sons <Ltd>';
    const trade = '"S&S"';
    const ds = await c.post('/docsets', { json: { name: `Suppliers & "Partners" <EU>` } });
    assertJson(ds, 201);
    const docsetId2 = ds.json.id;
    // In running text the values end next to punctuation; in the form each is a line of its own.
    const prose = `Purchase order 4471.\n\nGoods are supplied by ${supplier}, trading as ${trade}. The buyer is Acme Supplies, of Leeds.\n`;
    const form = `Supplier: ${supplier}\nTrade name: ${trade}\n`;
    const ids: string[] = [];
    for (const [bytes, name] of [
      [prose, 'order & <terms>.txt'],
      [form, 'form.txt'],
    ] as const) {
      const up = await c.upload({ bytes, name }, { 'docset.id': docsetId2 });
      assertJson(up, 201);
      ids.push(up.json.id);
    }
    for (const id of ids) await until(`document ${id} Ready`, async () => ((await c.get(`/documents/${id}`)).json.status === 'Ready' ? true : undefined));
    const [proseId, formId] = ids as [string, string];
    const propertyIds: Record<string, string> = {};
    for (const label of ['Supplier Name', 'Trade Name', 'Buyer']) {
      const made = await c.post(`/docsets/${docsetId2}/properties`, { json: { label } });
      assertJson(made, 201);
      propertyIds[made.json.labelId] = made.json.id;
    }

    const store = await Store.open(loadConfig(q.env).database);
    try {
      const ws = (await store.workspaces.getByName('default'))!;
      const dgmlEvents = async (documentId: string) =>
        (await store.events.list(ws.id, undefined, 10_000)).filter((e) => e.type === 'Docset.Document.Dgml' && (e.payload as { documentId?: string }).documentId === documentId).length;
      const before = new Map([
        [proseId, await dgmlEvents(proseId)],
        [formId, await dgmlEvents(formId)],
      ]);
      for (const [documentId, labelId, value] of [
        [proseId, 'SupplierName', supplier],
        [proseId, 'TradeName', trade],
        [proseId, 'Buyer', 'Acme Supplies'],
        [formId, 'SupplierName', supplier],
        [formId, 'TradeName', trade],
      ] as const) {
        const set = await c.put(`/docsets/${docsetId2}/properties/${propertyIds[labelId]}/documents/${documentId}`, { json: { value } });
        assertJson(set);
        assert.equal(set.json.value, value);
        assert.equal(set.json.source, 'manual');
      }
      for (const [documentId, n] of before) {
        await until(`the DGML of ${documentId} re-recorded`, async () => ((await dgmlEvents(documentId)) > n ? true : undefined));
      }
    } finally {
      await store.close();
    }

    /** The text of each `docset:` element, by local name, from a real XML parser (which throws on a stray & or <). */
    const tagged = (xml: string): { texts: Map<string, string[]>; docsetUri: string } => {
      const texts = new Map<string, string[]>();
      const open: { local: string; text: string }[] = [];
      let docsetUri = '';
      const parser = new SaxesParser({ xmlns: true });
      parser.on('opentag', (t) => {
        if (t.name === 'dg:chunk' && !docsetUri) docsetUri = t.ns.docset ?? '';
        if (t.prefix === 'docset') open.push({ local: t.local, text: '' });
      });
      parser.on('text', (s) => {
        for (const o of open) o.text += s;
      });
      parser.on('closetag', (t) => {
        if (t.prefix !== 'docset') return;
        const o = open.pop()!;
        texts.set(o.local, [...(texts.get(o.local) ?? []), o.text]);
      });
      parser.write(xml.replace(/^\uFEFF/, '')).close();
      return { texts, docsetUri };
    };

    for (const route of ['/documents', `/docsets/${docsetId2}/documents`]) {
      const read = async (documentId: string) => {
        const r = await c.get(`${route}/${documentId}/dgml`);
        assert.equal(r.status, 200);
        let result: ReturnType<typeof tagged> | undefined;
        assert.doesNotThrow(() => (result = tagged(r.text)), `${route}/${documentId}/dgml is well-formed:\n${r.text}`);
        assert.match(result!.docsetUri, /\/Suppliers%26%22Partners%22%3CEU%3E$/, 'the docset name sits escaped in the namespace URI');
        return { ...result!, xml: r.text };
      };
      const inForm = await read(formId);
      assert.deepEqual(inForm.texts.get('SupplierName'), [supplier], inForm.xml);
      assert.deepEqual(inForm.texts.get('TradeName'), [trade], inForm.xml);
      // In running text a tag covers whole words and ends where the value does: the punctuation
      // right after it stays outside (issue 45: clean spans, as Docugami's DGML writes them).
      const inProse = await read(proseId);
      assert.deepEqual(inProse.texts.get('SupplierName'), [supplier], inProse.xml);
      assert.deepEqual(inProse.texts.get('TradeName'), [trade], inProse.xml);
      assert.deepEqual(inProse.texts.get('Buyer'), ['Acme Supplies'], inProse.xml);
    }
  });

  test('a document that leaves the docset loses its values there', async () => {
    const other = await c.post('/docsets', { json: { name: 'Elsewhere' } });
    assertJson(await c.put(`/docsets/${other.json.id}/documents/${docs[1]}`));
    assertProblem(await c.get(`/docsets/${docsetId}/document-properties/${docs[1]}`), 404);
    const store = await Store.open(loadConfig(q.env).database);
    try {
      const ws = (await store.workspaces.getByName('default'))!;
      const moves = (await store.events.list(ws.id, undefined, 10_000))
        .filter((e) => /^Docset\.Document\.(Add|Remove)$/.test(e.type) && (e.payload as { documentId: string }).documentId === docs[1])
        .map((e) => [e.type, (e.payload as { docsetId: string }).docsetId]);
      assert.deepEqual(moves, [
        ['Docset.Document.Remove', docsetId],
        ['Docset.Document.Add', other.json.id],
      ]);
    } finally {
      await store.close();
    }
    assertJson(await c.put(`/docsets/${docsetId}/documents/${docs[1]}`));
    const back = await c.get(`/docsets/${docsetId}/document-properties/${docs[1]}`);
    assertJson(back);
    assert.ok(back.json.properties.every((p: { source: string | null }) => p.source !== 'manual'), 'no manual value came back with it');
  });
});
