/**
 * Projects and versioned artifacts over real HTTP against a real server with its workers, on SQLite
 * and on PostgreSQL: every project type publishes version 1 from corpus documents and their
 * property values, each artifact is downloaded and parsed back; a changed value publishes version 2
 * while version 1 stays as it was; autoConfirmDocuments; the artifact routes; the LangChain loader
 * flow of CLIENTS.md.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { SaxesParser } from 'saxes';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, collectPages, type Client, until } from '../helpers/http.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { PROJECT_TYPES } from '../../src/model/projects.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';

const NTSB = [path.join(CORPUS, 'reference-dgml/20071204X01896.pdf'), path.join(CORPUS, 'reference-dgml/20071210X01921.pdf')];
const ITEMS = ['Accident Number', 'Aircraft Registration Number', 'Reviewer Note'];
/** Set by hand on the first report: XML- and CSV-significant characters must survive every format. */
const HOSTILE = `Checked <ok> & "fine", it's; done`;

/** `//pr:Entry` of a report-values.xml: heading -> value, read with a namespace-aware parser. */
function readReportValues(xml: string): Map<string, string> {
  const parser = new SaxesParser({ xmlns: true });
  const entries = new Map<string, string>();
  let heading = '';
  let value = '';
  let into: 'heading' | 'value' | null = null;
  let rootPrefix: string | undefined;
  parser.on('opentag', (t) => {
    rootPrefix ??= t.attributes['xmlns:pr'] ? 'pr' : '';
    if (t.uri === 'http://www.docugami.com/2021/dgml/project' && t.local === 'Entry') (heading = ''), (value = '');
    if (t.uri === 'http://www.docugami.com/2021/dgml/project' && t.local === 'Heading') into = 'heading';
    if (t.uri === 'http://www.docugami.com/2021/dgml/project' && t.local === 'Value') into = 'value';
  });
  parser.on('text', (text) => {
    if (into === 'heading') heading += text;
    if (into === 'value') value += text;
  });
  parser.on('closetag', (t) => {
    if (t.local === 'Heading' || t.local === 'Value') into = null;
    if (t.local === 'Entry') entries.set(heading, value);
  });
  parser.write(xml).close();
  assert.equal(rootPrefix, 'pr', 'the root declares the prefix pr');
  return entries;
}

async function sheetRows(bytes: Buffer, sheet?: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = sheet ? wb.getWorksheet(sheet) : wb.worksheets[0];
  assert.ok(ws, `sheet ${sheet ?? '#1'} exists`);
  const rows: string[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let i = 1; i <= ws.columnCount; i++) {
      const v = row.getCell(i).value as unknown;
      cells.push(
        v === null || v === undefined
          ? ''
          : typeof v === 'object' && v !== null && 'text' in v
            ? String((v as { text: unknown }).text)
            : typeof v === 'object' && v !== null && 'richText' in v
              ? (v as { richText: { text: string }[] }).richText.map((r) => r.text).join('')
              : String(v),
      );
    }
    rows.push(cells);
  });
  return rows;
}

/** RFC 4180 CSV (with BOM) into rows. */
function parseCsv(bytes: Buffer): string[][] {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'CSV starts with a UTF-8 BOM');
  const text = bytes.subarray(3).toString('utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

export function projectSuite(label: string, start: () => Promise<Quire>, teardown: () => Promise<void> = async () => undefined) {
  describe(`projects and artifacts (${label})`, () => {
    let q: Quire;
    let c: Client;
    let docsetId: string;
    const docs: { id: string; name: string }[] = [];
    /** label -> documentId -> value, as the properties API reports them once version 1 exists. */
    const truth = new Map<string, Map<string, string | null>>();
    const projects = new Map<string, string>();

    async function project(id: string) {
      const r = await c.get(`/projects/${id}`);
      assertJson(r);
      return r.json;
    }
    const versionOf = async (id: string) => Number((await project(id)).artifacts.version);
    const atVersion = (id: string, v: number) => until(`project ${id} version ${v}`, async () => ((await versionOf(id)) >= v ? true : undefined));
    /** Waits for a first version, then until no new one appears for a while (extraction may refine values). */
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
    async function artifacts(projectId: string, version = 'latest') {
      return (await collectPages(c, `/projects/${projectId}/artifacts/${version}?limit=100`, 'artifacts')).items as any[];
    }
    async function content(a: { url: string }): Promise<Buffer> {
      const r = await c.get(`${a.url}/content`, { headers: { accept: 'application/json' } });
      assert.equal(r.status, 200, r.text);
      return r.buffer;
    }
    async function readTruth() {
      for (const d of docs) {
        const r = await c.get(`/docsets/${docsetId}/document-properties/${d.id}`);
        assertJson(r);
        for (const p of r.json.properties) {
          if (!truth.has(p.label)) truth.set(p.label, new Map());
          truth.get(p.label)!.set(d.id, p.value);
        }
      }
    }

    before(async () => {
      q = await start();
      c = client(q.api, q.key);
      const ds = await c.post('/docsets', { json: { name: 'NTSB reports' } });
      assertJson(ds, 201);
      docsetId = ds.json.id;
      for (const f of NTSB) {
        const r = await c.upload({ path: f }, { 'docset.id': docsetId });
        assertJson(r, 201);
        docs.push({ id: r.json.id, name: r.json.name });
      }
      for (const d of docs) await until(`document ${d.id} Ready`, async () => ((await c.get(`/documents/${d.id}`)).json.status === 'Ready' ? true : undefined));
      assertJson(await c.post(`/docsets/${docsetId}/document-properties/${docs[0]!.id}`, { json: { label: 'Reviewer Note', value: HOSTILE } }));
    });

    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('create validates its body; items become docset properties', async () => {
      assertProblem(await c.post('/projects', { json: { name: 'x', type: 'Nope', 'docset.id': docsetId } }), 400);
      assertProblem(await c.post('/projects', { json: { name: 'x', type: 'TabularReport' } }), 400, /docset/);
      assertProblem(await c.post('/projects', { json: { name: 'x', type: 'TabularReport', 'docset.id': 'nosuch' } }), 404);
      assertProblem(await c.post('/projects', { json: { name: 'x', type: 'TabularReport', 'docset.id': docsetId, items: [{ label: 'bad|label' }] } }), 400, /items\[0\]/);
      assertProblem(await c.post('/projects', { json: { name: '', type: 'TabularReport', 'docset.id': docsetId } }), 400);

      for (const type of PROJECT_TYPES) {
        // Both spellings of the docset: "docset.id" (docs) and docset: {id} (the SDK's shape).
        const body = type === 'Chat' ? { name: `p ${type}`, type, docset: { id: docsetId }, items: ITEMS.map((label) => ({ label })) } : { name: `p ${type}`, type, 'docset.id': docsetId, items: ITEMS.map((label) => ({ label })), autoConfirmDocuments: true };
        const r = await c.post('/projects', { json: body });
        assertJson(r, 201);
        assert.equal(r.json.type, type);
        assert.equal(r.json.docset.id, docsetId);
        assert.equal(r.json.url, `${q.api}/projects/${r.json.id}`);
        assert.equal(r.json.artifacts.url, `${q.api}/projects/${r.json.id}/artifacts/latest`);
        assert.deepEqual(r.json.items.map((i: any) => i.label), ITEMS);
        projects.set(type, r.json.id);
      }
      const props = await c.get(`/docsets/${docsetId}/properties`);
      assert.deepEqual(props.json.properties.map((p: any) => p.label).sort(), [...ITEMS].sort(), 'each item exists once as a docset property');
    });

    /** Downloads every file of the project's latest version and checks it holds the values of `truth`. */
    async function verify(type: string, id: string): Promise<void> {
      const expectRow = (docId: string) => ITEMS.map((l) => truth.get(l)!.get(docId) ?? '');
      {
        const list = await artifacts(id);
        const version = String(await versionOf(id));
        for (const a of list) {
          assert.equal(a.isReadOnly, true);
          assert.equal(a.version, version);
          assert.equal(a.url, `${q.api}/projects/${id}/artifacts/${version}/${a.id}`);
          assert.equal(a.downloadUrl, `${a.url}/content`);
          assert.equal((await content(a)).length, a.size);
        }
        const named = (name: string, documentId: string | null = null) => {
          const found = list.find((a) => a.name === name && (a.document?.id ?? null) === documentId);
          assert.ok(found, `${type}: ${name}${documentId ? ` for ${documentId}` : ''} among ${list.map((a) => a.name).join(', ')}`);
          return found;
        };
        switch (type) {
          case 'TabularReport': {
            const rows = await sheetRows(await content(named('report.xlsx')));
            assert.deepEqual(rows[0]!.slice(1, 1 + ITEMS.length), ITEMS);
            for (const d of docs) {
              const row = rows.find((r) => r[0] === d.name);
              assert.ok(row, `a row for ${d.name}`);
              assert.deepEqual(row.slice(1, 1 + ITEMS.length), expectRow(d.id));
              assert.equal(row[1 + ITEMS.length], `${q.api}/documents/${d.id}`);
            }
            const csv = parseCsv(await content(named('report.csv')));
            assert.deepEqual(csv[0]!.slice(1, 1 + ITEMS.length), ITEMS);
            for (const d of docs) assert.deepEqual(csv.find((r) => r[0] === d.name)!.slice(1, 1 + ITEMS.length), expectRow(d.id));
            for (const d of docs) {
              const values = readReportValues((await content(named('report-values.xml', d.id))).toString('utf8'));
              assert.deepEqual([...values.keys()], ITEMS);
              for (const l of ITEMS) assert.equal(values.get(l), truth.get(l)!.get(d.id) ?? '');
            }
            break;
          }
          case 'ExcelExport': {
            const rows = await sheetRows(await content(named('spreadsheet.xlsx')), 'Properties');
            for (const d of docs) {
              const row = rows.find((r) => r[0] === d.name)!;
              for (const l of ITEMS) assert.equal(row[rows[0]!.indexOf(l)], truth.get(l)!.get(d.id) ?? '');
            }
            const details = await sheetRows(await content(named('spreadsheet.xlsx')), 'Details');
            assert.ok(details.some((r) => r.includes('DEN08WA037')), 'the details sheet lists each value');
            break;
          }
          case 'Abstract': {
            for (const d of docs) {
              const text = (await mammoth.extractRawText({ buffer: await content(named('abstract.docx', d.id)) })).value;
              for (const l of ITEMS) {
                assert.ok(text.includes(l), `abstract of ${d.name} names ${l}`);
                const v = truth.get(l)!.get(d.id);
                if (v) assert.ok(text.includes(v), `abstract of ${d.name} has ${v}`);
              }
            }
            const rows = await sheetRows(await content(named('abstracts.xlsx')));
            for (const d of docs) assert.deepEqual(rows.find((r) => r[0] === d.name)!.slice(1, 1 + ITEMS.length), expectRow(d.id));
            break;
          }
          case 'DiligenceReport': {
            const rows = await sheetRows(await content(named('diligence-report.xlsx')), 'Report');
            for (const d of docs) assert.deepEqual(rows.find((r) => r[0] === d.name)!.slice(1, 1 + ITEMS.length), expectRow(d.id));
            const summary = await sheetRows(await content(named('diligence-report.xlsx')), 'Summary');
            const missing = (l: string) => docs.filter((d) => !truth.get(l)!.get(d.id)).length;
            for (const l of ITEMS) {
              const row = summary.find((r) => r[0] === l);
              assert.ok(row, `summary row for ${l}`);
              assert.ok(row.includes(String(missing(l))), `summary of ${l} counts ${missing(l)} missing: ${row}`);
            }
            break;
          }
          case 'AssistedAuthoring': {
            const json = JSON.parse((await content(named('clause-library.json'))).toString('utf8'));
            assert.equal(json.docset.id, docsetId);
            assert.ok(Array.isArray(json.clauses));
            for (const clause of json.clauses) for (const v of clause.variants) for (const id of v.documents) assert.ok(docs.some((d) => d.id === id));
            const text = (await mammoth.extractRawText({ buffer: await content(named('clause-library.docx')) })).value;
            assert.ok(json.clauses.length === 0 || text.includes(json.clauses[0].label));
            break;
          }
          case 'ZapierWorkFlow':
          case 'UiPathWorkFlow':
          case 'PowerAutomateWorkFlow':
          case 'AutomationAnywhereWorkFlow': {
            for (const d of docs) {
              const a = list.find((x) => x.document?.id === d.id && x.name.endsWith('.json'));
              assert.ok(a, `${type}: a JSON file for ${d.name}`);
              const json = JSON.parse((await content(a)).toString('utf8'));
              assert.deepEqual(json.document, { id: d.id, name: d.name, url: `${q.api}/documents/${d.id}` });
              assert.equal(json.docset.id, docsetId);
              for (const l of ITEMS) assert.equal(json.values[l], truth.get(l)!.get(d.id) ?? null);
              assert.ok(!Number.isNaN(Date.parse(json.extractedAt)));
            }
            break;
          }
          case 'UiPathDocumentAssembly':
          case 'AutomationAnywhereDocumentAssembly': {
            for (const d of docs) {
              const json = JSON.parse((await content(named('data.json', d.id))).toString('utf8'));
              for (const l of ITEMS) assert.equal(json.values[l], truth.get(l)!.get(d.id) ?? null);
              const xml = (await content(named('data.xml', d.id))).toString('utf8');
              const parser = new SaxesParser();
              const values = new Map<string, string>();
              let current: string | null = null;
              parser.on('opentag', (t) => (current = t.name === 'Value' ? String(t.attributes.label) : null));
              parser.on('text', (t) => current && values.set(current, (values.get(current) ?? '') + t));
              parser.on('closetag', () => (current = null));
              parser.write(xml).close();
              for (const l of ITEMS) assert.equal(values.get(l) ?? '', truth.get(l)!.get(d.id) ?? '');
            }
            break;
          }
          case 'SmartsheetExport': {
            const csv = parseCsv(await content(named('sheet.csv')));
            for (const d of docs) assert.deepEqual(csv.find((r) => r[0] === d.name)!.slice(1, 1 + ITEMS.length), expectRow(d.id));
            break;
          }
          case 'Chat':
            assert.equal(list.length, 0, 'a Chat project generates nothing');
            break;
        }
      }
    }

    test('every type publishes version 1 whose files hold the document values', async () => {
      await quiet([...projects.values()]);
      await readTruth();
      assert.equal(truth.get('Accident Number')!.get(docs[0]!.id), 'DEN08WA037', 'extraction found the accident number');
      assert.equal(truth.get('Reviewer Note')!.get(docs[0]!.id), HOSTILE);
      for (const [type, id] of projects) await verify(type, id);
    });

    test('every type: a changed value publishes a new version with it; the old version is unchanged', async () => {
      const before = new Map<string, { version: number; bytes: Map<string, Buffer>; list: any[] }>();
      for (const [type, id] of projects) {
        const version = await versionOf(id);
        const list = await artifacts(id, String(version));
        before.set(type, { version, list, bytes: new Map(await Promise.all(list.map(async (a) => [a.id, await content(a)] as const))) });
      }
      const accident = (await c.get(`/docsets/${docsetId}/properties`)).json.properties.find((p: any) => p.label === 'Accident Number');
      assertJson(await c.put(`/docsets/${docsetId}/properties/${accident.id}/documents/${docs[1]!.id}`, { json: { value: 'CORRECTED-123' } }));
      for (const [type, id] of projects) await atVersion(id, before.get(type)!.version + 1);
      await quiet([...projects.values()]);
      await readTruth();
      assert.equal(truth.get('Accident Number')!.get(docs[1]!.id), 'CORRECTED-123');
      for (const [type, id] of projects) {
        await verify(type, id);
        const old = before.get(type)!;
        const again = await artifacts(id, String(old.version));
        assert.deepEqual(again.map((a) => a.id), old.list.map((a) => a.id), `${type}: version ${old.version} lists the same files`);
        for (const a of again) assert.deepEqual(await content(a), old.bytes.get(a.id), `${type}: version ${old.version}'s ${a.name} is unchanged`);
      }
      // What changed is recorded as events (webhooks deliver them).
      const store = await Store.open(loadConfig(q.env).database, { migrate: false });
      try {
        const tab = projects.get('TabularReport')!;
        const events = (await store.events.list((await store.workspaces.list())[0]!.id, undefined, 100_000)).filter((e) => (e.payload as any).projectId === tab);
        const n = await versionOf(tab);
        const versions = events.filter((e) => e.type === 'Project.Artifacts.Version').map((e) => (e.payload as any).version);
        assert.deepEqual(versions, Array.from({ length: n }, (_, i) => String(i + 1)));
        const last = events.filter((e) => (e.payload as any).version === String(n));
        const modified = last.filter((e) => e.type === 'Project.Artifacts.Modify').map((e) => `${(e.payload as any).name}:${(e.payload as any).documentId ?? ''}`).sort();
        assert.deepEqual(modified, ['report-values.xml:' + docs[1]!.id, 'report.csv:', 'report.xlsx:'].sort());
        assert.equal(events.filter((e) => e.type === 'Project.Artifacts.Create' && (e.payload as any).version === '1').length, 2 + docs.length);
      } finally {
        await store.close();
      }
    });

    test('a changed value publishes a new version; the old one stays as it was', async () => {
      const id = projects.get('TabularReport')!;
      const n = await versionOf(id);
      const v1 = await artifacts(id, String(n));
      const v1Bytes = new Map(await Promise.all(v1.map(async (a) => [a.id, await content(a)] as const)));
      const props = (await c.get(`/docsets/${docsetId}/properties`)).json.properties;
      const note = props.find((p: any) => p.label === 'Reviewer Note');
      // A burst of changes makes one version.
      for (const v of ['first draft', 'second draft', 'final note']) {
        assertJson(await c.put(`/docsets/${docsetId}/properties/${note.id}/documents/${docs[1]!.id}`, { json: { value: v } }));
      }
      await atVersion(id, n + 1);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(await versionOf(id), n + 1, 'the burst published one version');
      const latest = await artifacts(id, 'latest');
      const v2 = await artifacts(id, String(n + 1));
      assert.deepEqual(latest.map((a) => a.id), v2.map((a) => a.id));
      const xml = v2.find((a) => a.name === 'report-values.xml' && a.document.id === docs[1]!.id);
      assert.equal(readReportValues((await content(xml)).toString('utf8')).get('Reviewer Note'), 'final note');
      const unchanged = v2.find((a) => a.name === 'report-values.xml' && a.document.id === docs[0]!.id);
      assert.equal(unchanged.version, String(n + 1));
      for (const a of v1) assert.deepEqual(await content(a), v1Bytes.get(a.id), `version 1's ${a.name} is unchanged`);
      const oldXml = v1.find((a) => a.name === 'report-values.xml' && a.document.id === docs[1]!.id);
      assert.notEqual(readReportValues((await content(oldXml)).toString('utf8')).get('Reviewer Note'), 'final note');
    });

    test('autoConfirmDocuments: true takes a joining document at once; false waits for publish', async () => {
      const ds = (await c.post('/docsets', { json: { name: 'confirmation' } })).json;
      const first = await c.upload({ bytes: 'Agreement number: AG-1\n\nThe first agreement.', name: 'first.txt' }, { 'docset.id': ds.id });
      await until('first Ready', async () => ((await c.get(`/documents/${first.json.id}`)).json.status === 'Ready' ? true : undefined));
      const auto = (await c.post('/projects', { json: { name: 'auto', type: 'SmartsheetExport', 'docset.id': ds.id, items: [{ label: 'Agreement number' }], autoConfirmDocuments: true } })).json;
      const manual = (await c.post('/projects', { json: { name: 'manual', type: 'SmartsheetExport', 'docset.id': ds.id, items: [{ label: 'Agreement number' }], autoConfirmDocuments: false } })).json;
      assert.equal(manual.autoConfirmDocuments, false);
      await quiet([auto.id, manual.id]);
      const [a0, m0] = [await versionOf(auto.id), await versionOf(manual.id)];
      const rowsOf = async (pid: string) => parseCsv(await content((await artifacts(pid)).find((a) => a.name === 'sheet.csv'))).slice(1).map((r) => r[0]);
      assert.deepEqual(await rowsOf(manual.id), ['first.txt']);

      const second = await c.upload({ bytes: 'Agreement number: AG-2\n\nThe second agreement.', name: 'second.txt' }, { 'docset.id': ds.id });
      await until('auto includes the new document', async () => ((await versionOf(auto.id)) > a0 && (await rowsOf(auto.id)).length === 2 ? true : undefined));
      assert.deepEqual((await rowsOf(auto.id)).sort(), ['first.txt', 'second.txt']);
      await quiet([auto.id]);
      assert.equal(await versionOf(manual.id), m0, 'the unconfirmed document publishes nothing');
      assert.deepEqual(await rowsOf(manual.id), ['first.txt']);

      const published = await c.post(`/projects/${manual.id}/publish`);
      assertJson(published, 202);
      await atVersion(manual.id, m0 + 1);
      assert.deepEqual((await rowsOf(manual.id)).sort(), ['first.txt', 'second.txt']);

      // Leaving the docset publishes a version without the document.
      const a1 = await versionOf(auto.id);
      assert.equal((await c.del(`/docsets/${ds.id}/documents/${second.json.id}`)).status, 204);
      await atVersion(auto.id, a1 + 1);
      assert.deepEqual(await rowsOf(auto.id), ['first.txt']);
    });

    test('the LangChain loader flow finds report-values.xml per document and reads every label and value', async () => {
      for (const filter of ['docset.id', 'docset[id]']) {
        const listed = await c.get(`/projects?${filter}=${docsetId}`);
        assertJson(listed);
        assert.equal(listed.json.projects.length, PROJECT_TYPES.length);
      }
      const p = (await c.get(`/projects?docset.id=${docsetId}&type=TabularReport`)).json.projects[0];
      const latest = await c.get(`${p.url}/artifacts/latest`);
      assertJson(latest);
      const found = new Map<string, Map<string, string>>();
      for (const a of latest.json.artifacts) {
        if (a.name !== 'report-values.xml' || !a.document) continue;
        found.set(a.document.id, readReportValues((await content(a)).toString('utf8')));
      }
      await readTruth();
      assert.deepEqual([...found.keys()].sort(), docs.map((d) => d.id).sort());
      for (const [docId, values] of found) for (const l of ITEMS) assert.equal(values.get(l), truth.get(l)!.get(docId) ?? '');
    });

    test('artifact routes: filters, content with Range and ETag, uploads, read-only, versions', async () => {
      const id = projects.get('TabularReport')!;
      const base = `/projects/${id}/artifacts`;
      assertJson(await c.get(`${base}/latest`));
      assertProblem(await c.get(`${base}/99`), 404);
      assertProblem(await c.get(`${base}/abc`), 404);
      // Version 0 (what the project held before its first version) exists; it had no uploads.
      assert.deepEqual((await c.get(`${base}/0`)).json.artifacts, []);
      assertProblem(await c.get(`${base}/00`), 404);
      assertProblem(await c.get(`/projects/nosuch/artifacts/latest`), 404);

      const byName = await c.get(`${base}/latest?name=report.csv`);
      assert.deepEqual(byName.json.artifacts.map((a: any) => a.name), ['report.csv']);
      for (const f of ['document.id', 'document[id]']) {
        const byDoc = await c.get(`${base}/latest?${f}=${docs[0]!.id}`);
        assert.deepEqual(byDoc.json.artifacts.map((a: any) => a.name), ['report-values.xml']);
      }
      const viaQuery = await c.get(`${base}?version=1&name=report.xlsx`);
      assert.equal(viaQuery.json.artifacts[0].version, '1');
      const paged = await collectPages(c, `${base}/latest?limit=1&isReadOnly=true`, 'artifacts');
      assert.equal(paged.items.length, (await artifacts(id)).length);
      assert.ok(paged.urls.slice(1).every((u) => u.startsWith(`${q.api}${base}/`) && u.includes('isReadOnly=true')));
      const big = await c.get(`${base}/latest?minSize=1000`);
      assert.ok(big.json.artifacts.every((a: any) => a.size >= 1000));

      const csv = byName.json.artifacts[0];
      const full = await c.get(`${csv.url}/content`);
      assert.match(full.headers.get('content-type')!, /^text\/csv/);
      assert.equal(full.headers.get('content-length'), String(csv.size));
      const etag = full.headers.get('etag')!;
      assert.equal((await c.get(`${csv.url}/content`, { headers: { 'if-none-match': etag } })).status, 304);
      const part = await c.get(`${csv.url}/content`, { headers: { range: 'bytes=0-2' } });
      assert.equal(part.status, 206);
      assert.deepEqual([...part.buffer], [0xef, 0xbb, 0xbf]);
      const head = await c.req('HEAD', `${csv.url}/content`);
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String(csv.size));

      assertProblem(await c.del(csv.url), 403, /read-only/);

      const upload = (name: string, bytes: string, fields: Record<string, string> = {}, version = 'latest') => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        form.append('file', new Blob([bytes]), name);
        return c.post(`${base}/${version}/content`, { body: form });
      };
      const mine = await upload('notes.json', '{"reviewed": true}', { 'document.id': docs[0]!.id });
      assertJson(mine, 201);
      assert.equal(mine.json.isReadOnly, false);
      assert.equal(mine.json.document.id, docs[0]!.id);
      assert.equal((await c.get(`${mine.json.url}/content`)).text, '{"reviewed": true}');
      const writable = await c.get(`${base}/latest?isReadOnly=false`);
      assert.deepEqual(writable.json.artifacts.map((a: any) => a.id), [mine.json.id]);
      const replaced = await upload('notes.json', '{"reviewed": false}', { 'document.id': docs[0]!.id });
      assert.equal(replaced.json.id, mine.json.id, 'the same name and document replaces the upload');
      assert.equal((await c.get(`${mine.json.url}/content`)).text, '{"reviewed": false}');
      assertProblem(await upload('report.csv', 'a,b'), 409);
      assertProblem(await upload('notes.exe', 'x'), 415);
      assertProblem(await upload('notes.json', '{}', { 'document.id': 'nosuch' }), 404);
      assertProblem(await upload('notes.json', '{}', {}, '77'), 404);
      assert.equal((await c.del(mine.json.url)).status, 204);
      assertProblem(await c.get(mine.json.url), 404);
    });

    test('the SDK flow on a new project: upload into latest, list by document.id and isReadOnly, retrieve, download, delete; published versions keep the upload under latest', async () => {
      const ops = (operation: string, body: unknown) => c.post(`${q.origin}/ops/${operation}`, { json: body });
      // A document still being processed holds version 1 back: the flow runs on version 0 first.
      const ds = (await c.post('/docsets', { json: { name: 'sdk flow' } })).json;
      const doc = (await c.upload({ path: NTSB[1]! }, { 'docset.id': ds.id })).json;
      const created = await c.post('/projects', { json: { name: 'sdk flow', type: 'TabularReport', docset: { id: ds.id }, items: [{ label: 'Accident Number' }] } });
      assertJson(created, 201);
      const p = created.json;
      assert.equal(p.artifacts.version, '0', 'a new project has a version: a string');
      // As the SDK's projects.artifacts.contents.upload("latest", project_id=…, file=…, document_id=…) sends it.
      const upload = (name: string, bytes: Buffer, documentId?: string) => {
        const form = new FormData();
        if (documentId) form.append('document.id', documentId);
        form.append('file', new Blob([bytes]), name);
        return c.post(`/projects/${p.id}/artifacts/latest/content`, { body: form });
      };
      const bytes = Buffer.from(JSON.stringify({ reference: 'checked', items: [1, 2, 3] }));
      const mine = await upload('reference.json', bytes, doc.id);
      assertJson(mine, 201);
      const a = mine.json;
      assert.equal(a.version, '0');
      assert.equal(a.isReadOnly, false);
      assert.deepEqual(a.document, { id: doc.id, url: `${q.api}/documents/${doc.id}` });
      assert.equal(a.url, `${q.api}/projects/${p.id}/artifacts/0/${a.id}`);
      const scratch = await upload('scratch.csv', Buffer.from('x,y\n'));
      assertJson(scratch, 201);

      const list = async (query = '', version = 'latest') => {
        const r = await c.get(`/projects/${p.id}/artifacts/${version}${query}`);
        assertJson(r);
        return r.json.artifacts as any[];
      };
      assert.deepEqual((await list(`?document.id=${doc.id}`)).map((x) => x.id), [a.id]);
      assert.deepEqual((await list(`?document%5Bid%5D=${doc.id}&isReadOnly=false`)).map((x) => x.id), [a.id]);
      assert.deepEqual((await list('?isReadOnly=false')).map((x) => x.id).sort(), [a.id, scratch.json.id].sort());
      assert.deepEqual(await list('?isReadOnly=true'), []);
      assert.deepEqual((await c.get(`/projects/${p.id}/artifacts/latest/${a.id}`)).json, a);
      const dl = await c.get(`${a.url}/content`, { headers: { accept: 'application/octet-stream' } });
      assert.equal(dl.status, 200);
      assert.ok(dl.buffer.equals(bytes), 'the exact bytes');
      assert.equal((await c.del(scratch.json.url)).status, 204);
      assertProblem(await c.get(scratch.json.url), 404);
      assert.deepEqual((await list()).map((x) => x.id), [a.id]);
      assert.equal((await project(p.id)).artifacts.version, '0', 'still nothing published: the flow above ran on version 0');

      // The document is processed, its value extracted: version 1 is published, with the upload carried.
      await atVersion(p.id, 1);
      await quiet([p.id]);
      const n = await versionOf(p.id);
      const latest = await list();
      const generated = latest.filter((x) => x.isReadOnly);
      assert.deepEqual(generated.map((x) => x.name).sort(), ['report-values.xml', 'report.csv', 'report.xlsx']);
      const carried = latest.filter((x) => !x.isReadOnly);
      assert.deepEqual(carried.map((x) => x.id), [a.id], 'the upload is still under latest, by its id');
      assert.deepEqual(carried[0], { ...a, version: String(n), url: `${q.api}/projects/${p.id}/artifacts/${n}/${a.id}`, downloadUrl: `${q.api}/projects/${p.id}/artifacts/${n}/${a.id}/content` });
      assert.deepEqual((await list(`?isReadOnly=false&document.id=${doc.id}`)).map((x) => x.id), [a.id]);
      assert.deepEqual((await list(`?isReadOnly=true&document.id=${doc.id}`)).map((x) => x.name), ['report-values.xml']);
      const again = await c.get(`/projects/${p.id}/artifacts/latest/${a.id}/content`);
      assert.equal(again.status, 200);
      assert.ok(again.buffer.equals(bytes));
      assert.ok((await c.get(`${a.url}/content`)).buffer.equals(bytes), 'version 0 still serves it too');
      // Read-only rules as before: generated files 403, the upload deletable (below).
      assertProblem(await c.del(generated[0].url), 403, /read-only/);
      const viaOps = await ops('ListArtifacts', { projectId: p.id, isReadOnly: false });
      assertJson(viaOps);
      assert.deepEqual(viaOps.json.artifacts.map((x: any) => [x.id, x.version]), [[a.id, String(n)]]);
      assert.ok(Buffer.from((await ops('DownloadArtifact', { projectId: p.id, artifactId: a.id })).json, 'base64').equals(bytes));

      // Another version (a changed value): carried again; deleting it under latest leaves the older versions theirs.
      const accident = (await c.get(`/docsets/${ds.id}/properties`)).json.properties.find((x: any) => x.label === 'Accident Number');
      assertJson(await c.put(`/docsets/${ds.id}/properties/${accident.id}/documents/${doc.id}`, { json: { value: 'SDK-FLOW-1' } }));
      await atVersion(p.id, n + 1);
      await quiet([p.id]);
      const m = await versionOf(p.id);
      assert.deepEqual((await list('?isReadOnly=false')).map((x) => [x.id, x.version]), [[a.id, String(m)]]);
      assert.equal((await c.del(`/projects/${p.id}/artifacts/latest/${a.id}`)).status, 204);
      assert.deepEqual(await list('?isReadOnly=false'), []);
      assertProblem(await c.get(`/projects/${p.id}/artifacts/latest/${a.id}`), 404);
      assert.ok((await c.get(`/projects/${p.id}/artifacts/${n}/${a.id}/content`)).buffer.equals(bytes), `version ${n} keeps it`);
      // Bytes shared by the older versions are not removed with the latest one's row.
      assert.ok((await c.get(`${a.url}/content`)).buffer.equals(bytes));
    });

    test('project CRUD, filters and a project with nothing published', async () => {
      const empty = (await c.post('/docsets', { json: { name: 'busy docset' } })).json;
      // A document still being processed holds version 1 back: `latest` is an empty list until then.
      await c.upload({ path: NTSB[0]! }, { 'docset.id': empty.id });
      const p = (await c.post('/projects', { json: { name: 'pending', type: 'ExcelExport', 'docset.id': empty.id } })).json;
      const none = await c.get(`/projects/${p.id}/artifacts/latest`);
      assertJson(none);
      assert.deepEqual(none.json.artifacts, []);
      assert.equal(p.artifacts.version, '0');

      const typed = await c.get(`/projects?type=ExcelExport`);
      assert.ok(typed.json.projects.every((x: any) => x.type === 'ExcelExport'));
      assertProblem(await c.get('/projects?type=Bogus'), 400);
      assertProblem(await c.put(`/projects/${p.id}`, { json: {} }), 400);
      const put = await c.put(`/projects/${p.id}`, { json: { autoConfirmDocuments: false } });
      assertJson(put);
      assert.equal(put.json.autoConfirmDocuments, false);
      const patched = await c.req('PATCH', `/projects/${p.id}`, { json: { name: 'renamed', items: [{ label: 'Accident Number' }] } });
      assertJson(patched);
      assert.equal(patched.json.name, 'renamed');
      assert.deepEqual(patched.json.items.map((i: any) => i.label), ['Accident Number']);
      assert.equal((await c.get('/projects?name=renamed')).json.projects[0].id, p.id);

      const tab = projects.get('TabularReport')!;
      const before = await artifacts(tab);
      assert.equal((await c.del(`/projects/${tab}`)).status, 204);
      assertProblem(await c.get(`/projects/${tab}`), 404);
      assertProblem(await c.get(before[0].url), 404);
      assertProblem(await c.get(`/projects/${tab}/artifacts/latest`), 404);
    });
  });
}

projectSuite('SQLite', () => startQuire({ extraEnv: { QUIRE_PROJECT_DEBOUNCE_MS: '300' } }));

if (findPgBin()) {
  let cluster: PgCluster | undefined;
  projectSuite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return startQuire({ databaseUrl: await cluster.createDatabase('quire_projects'), extraEnv: { QUIRE_PROJECT_DEBOUNCE_MS: '300' } });
    },
    async () => cluster?.stop(),
  );
} else {
  describe('projects and artifacts (PostgreSQL)', () => {
    test('PostgreSQL suite', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
