/**
 * Document understanding end to end, against a real server with its workers: every document of
 * ../shared/corpus (and generated HTML and TXT) is uploaded, processed to `Ready`, and its DGML read
 * the way DGML readers read it (test/helpers/dgml-reader.ts): it parses, has chunks, only prefixed
 * elements, valid boxes, every word of the structure model in its chunks, and ≥ 97% of the words
 * pdftotext finds in the PDF. The reference pairs are compared with the reference DGML.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, type Client } from '../helpers/http.js';
import { readDgml } from '../helpers/dgml-reader.js';
import { structureCounts } from '../helpers/dgml-counts.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';
import { leaves, wordsOf, type StructureModel } from '../../src/document/structure.js';

const REF = path.join(CORPUS, 'reference-dgml');
const REFERENCE_PAIRS = [
  { pdf: 'Jane Doe NDA.pdf', xml: 'Jane Doe.xml' },
  { pdf: 'Shorebucks LLC_AZ.pdf', xml: 'Shorebucks LLC_AZ.xml' },
  { pdf: '20071204X01896.pdf', xml: '20071204X01896.xml' },
  { pdf: '20071210X01921.pdf', xml: '20071210X01921.xml' },
];

function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(pdf|docx|doc|txt|html?)$/i.test(e.name)) out.push(p);
    }
  };
  walk(CORPUS);
  return out.sort();
}

const HTML_FIXTURE = `<!doctype html><html><head><title>Supply terms</title><style>p{color:red}</style></head><body>
<h1>Supply Agreement</h1><p>This Supply Agreement is made on March 3, 2024 between Acme Widgets, Inc. and Beta Parts LLC.</p>
<h2>1. Deliveries</h2><ol><li>Deliveries are made weekly.</li><li>Each delivery is inspected<ul><li>on arrival</li><li>within thirty (30) days</li></ul></li></ol>
<h2>2. Prices</h2><table><tr><th>Item</th><th>Price</th></tr><tr><td>Bolt</td><td>$1.25</td></tr><tr><td colspan="2">Prices exclude 5% tax</td></tr></table>
<script>document.write('not text')</script></body></html>`;

const TXT_FIXTURE = `MASTER LEASE

1. PREMISES

The Landlord leases to the Tenant the premises at 12 Harbor Road, Portland, Maine.

2. TERM

The term is twelve (12) months starting January 1, 2025.
- Rent is due monthly.
- Keys are returned at the end.
`;

/**
 * Words as compared with pdftotext: letters and digits only, lower case (punctuation and hyphen splits
 * differ between extractors), and the glyphs some Calibri subsets use for ligatures ("ti", "tt", "ft")
 * spelled out on both sides (pdftotext prints them as they are, or drops them).
 */
const GLYPH_LIGATURES: Record<string, string> = { ɵ: 'ti', Ɵ: 'ti', Ʃ: 'tt', ʃ: 'tt', ō: 'ft', Ō: 'ft' };
function comparable(text: string): string[] {
  return wordsOf(
    text
      .normalize('NFKC')
      .replace(/[ɵƟƩʃōŌ]/g, (g) => GLYPH_LIGATURES[g]!)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]+/gu, ''),
  );
}

/**
 * Share of pdftotext's words found in Quire's: exact matches (with multiplicity) first; a word left
 * over still counts when it is a piece of one of Quire's unmatched words, since pdftotext splits
 * words where a glyph has no Unicode mapping ("effec ve" for "effective").
 */
function pdftotextRecall(reference: string[], ours: string[]): number {
  const have = multiset(ours);
  const missing: string[] = [];
  for (const w of reference) {
    const n = have.get(w) ?? 0;
    if (n > 0) have.set(w, n - 1);
    else missing.push(w);
  }
  const unmatched = [...have].filter(([, n]) => n > 0).map(([w]) => w);
  const pieces = missing.filter((w) => unmatched.some((u) => u.length > w.length && u.includes(w))).length;
  return reference.length ? (reference.length - missing.length + pieces) / reference.length : 1;
}

function multiset(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Share of `expected` words (with multiplicity) present in `actual`. */
function recall(expected: string[], actual: string[]): number {
  const have = multiset(actual);
  let found = 0;
  for (const w of expected) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      found++;
      have.set(w, n - 1);
    }
  }
  return expected.length ? found / expected.length : 1;
}

/** Section headings of a DGML document as a tree: each heading text with the headings nested under it. */
interface SectionTree {
  heading: string;
  children: SectionTree[];
}
function sectionTree(xml: string): SectionTree[] {
  const root: SectionTree = { heading: '', children: [] };
  const stack: { node: SectionTree; depth: number }[] = [{ node: root, depth: -1 }];
  const parser = new SaxesParser({ xmlns: true });
  let depth = 0;
  let headingDepth: number | null = null;
  let headingText = '';
  parser.on('opentag', (t) => {
    depth++;
    if (t.name.endsWith('-section')) {
      const node: SectionTree = { heading: '', children: [] };
      stack[stack.length - 1]!.node.children.push(node);
      stack.push({ node, depth });
    }
    const s = t.attributes.structure;
    if ((typeof s === 'string' ? s : s?.value) === 'h1' && headingDepth === null) {
      headingDepth = depth;
      headingText = '';
    }
  });
  parser.on('text', (text) => {
    if (headingDepth !== null) headingText += text;
  });
  parser.on('closetag', (t) => {
    if (headingDepth === depth) {
      const top = stack[stack.length - 1]!.node;
      if (!top.heading) top.heading = headingText.replace(/\s+/g, ' ').trim();
      headingDepth = null;
    }
    if (t.name.endsWith('-section') && stack[stack.length - 1]!.depth === depth) stack.pop();
    depth--;
  });
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  return root.children;
}

/** The rows of every table, as the whitespace-normalised text of each cell. */
function tableRows(xml: string): string[][] {
  const rows: string[][] = [];
  const parser = new SaxesParser({ xmlns: true });
  let cell: string | null = null;
  parser.on('opentag', (t) => {
    if (t.local === 'tr' && t.uri === 'http://www.w3.org/1999/xhtml') rows.push([]);
    if (t.local === 'td' && t.uri === 'http://www.w3.org/1999/xhtml') cell = '';
  });
  parser.on('text', (text) => {
    if (cell !== null) cell += ` ${text}`;
  });
  parser.on('closetag', (t) => {
    if (t.local === 'td' && t.uri === 'http://www.w3.org/1999/xhtml' && cell !== null) {
      rows[rows.length - 1]?.push(cell.replace(/\s+/g, ' ').trim());
      cell = null;
    }
  });
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  return rows;
}

function findSection(trees: SectionTree[], pattern: RegExp): SectionTree | undefined {
  for (const t of trees) {
    if (pattern.test(t.heading)) return t;
    const inner = findSection(t.children, pattern);
    if (inner) return inner;
  }
  return undefined;
}

function within(actual: number, reference: number, share: number): boolean {
  return Math.abs(actual - reference) <= Math.max(1, share * reference);
}

const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;

describe('document understanding: DGML of every corpus document', () => {
  let q: Quire;
  let c: Client;
  let store: Store;
  const uploaded = new Map<string, { id: string; doc: any }>();
  let docsetId: string;

  before(async () => {
    // The whole corpus through the default PDFium compile (test servers otherwise use `lazy`: helpers/quire.ts).
    q = await startQuire({ extraEnv: { QUIRE_PDFIUM_COMPILE: 'optimized' } });
    c = client(q.api, q.key);
    store = await Store.open(loadConfig(q.env).database);
    const ds = await c.post('/docsets', { json: { name: 'Reference Pairs' } });
    assertJson(ds, 201);
    docsetId = ds.json.id;
    const refPdfs = new Set(REFERENCE_PAIRS.map((p) => path.join(REF, p.pdf)));
    const files: { name: string; bytes: Buffer; key: string; docset?: string }[] = corpusFiles().map((f) => ({
      name: path.basename(f),
      bytes: fs.readFileSync(f),
      key: path.relative(CORPUS, f),
      docset: refPdfs.has(f) ? docsetId : undefined,
    }));
    files.push({ name: 'supply.html', bytes: Buffer.from(HTML_FIXTURE), key: 'generated/supply.html' });
    files.push({ name: 'lease.txt', bytes: Buffer.from(TXT_FIXTURE), key: 'generated/lease.txt' });
    for (const f of files) {
      const form = new FormData();
      if (f.docset) form.append('docset.id', f.docset);
      form.append('file', new Blob([f.bytes]), f.name);
      const r = await c.req('POST', '/documents/content', { body: form });
      assertJson(r, 201);
      uploaded.set(f.key, { id: r.json.id, doc: r.json });
    }
    const deadline = Date.now() + 600_000;
    for (const [key, u] of uploaded) {
      for (;;) {
        const r = await c.get(`/documents/${u.id}`);
        assertJson(r);
        u.doc = r.json;
        if (['Ready', 'Error', 'OverQuota'].includes(r.json.status)) break;
        if (Date.now() > deadline) throw new Error(`${key} did not settle: ${JSON.stringify(r.json)}`);
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  });

  after(async () => {
    await store?.close();
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  async function structureOf(doc: { id: string }): Promise<StructureModel> {
    const record = await store.documents.get((await store.workspaces.getByName('default'))!.id, doc.id);
    assert.ok(record?.structureBlobKey, 'the structure model is stored');
    const file = path.join(q.dataDir, 'blobs', record.structureBlobKey);
    return JSON.parse(gunzipSync(fs.readFileSync(file)).toString('utf8')) as StructureModel;
  }

  test('every document reaches Ready with its processing details', () => {
    for (const [key, u] of uploaded) {
      assert.equal(u.doc.status, 'Ready', `${key}: ${JSON.stringify(u.doc.error ?? u.doc)}`);
      assert.ok(u.doc.processing?.analysis, `${key}: processing.analysis`);
    }
    // The corpus's one scanned page is read by OCR within its budget.
    const scan = uploaded.get('kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf');
    assert.deepEqual(scan?.doc.processing.analysis.ocrPages, [1], JSON.stringify(scan?.doc.processing));
    assert.equal(scan?.doc.processing.analysis.ocrTimedOutPages, undefined, JSON.stringify(scan?.doc.processing));
  });

  test('DGML of every document: parses, chunks, prefixes, boxes, 100% of the structure model words', async () => {
    for (const [key, u] of uploaded) {
      const r = await c.get(`/documents/${u.id}/dgml`);
      assert.equal(r.status, 200, `${key}: ${r.text.slice(0, 300)}`);
      assert.match(r.headers.get('content-type') ?? '', /^application\/xml/);
      assert.ok(r.buffer.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), `${key}: starts with a BOM`);
      const read = readDgml(r.text);
      assert.ok(read.chunks.length >= 1, `${key}: at least one chunk`);
      assert.deepEqual(read.unprefixed, [], `${key}: unprefixed elements`);
      assert.deepEqual(read.badBoxes, [], `${key}: invalid boxes`);
      assert.deepEqual(read.textInNonLeaf, [], `${key}: text outside leaves`);
      const structure = await structureOf(u);
      // Words as letters and digits: inline tags end before the punctuation after a value (`<dgc:Org>Acme Inc.</dgc:Org>,`).
      const alnum = (words: string[]): string[] => words.flatMap((w) => w.match(/[\p{L}\p{N}]+/gu) ?? []);
      const modelWords = alnum([...leaves(structure.nodes)].flatMap((l) => wordsOf(l.text)));
      // A table chunk reads as a grid; its words are its cells' words, without the grid's borders.
      const chunkWords = alnum(read.chunks.flatMap((ch) => ch.words));
      assert.ok(modelWords.length > 0, `${key}: the structure model has words`);
      assert.equal(recall(modelWords, chunkWords), 1, `${key}: every word of the structure model is in a chunk`);
      assert.equal(chunkWords.length, modelWords.length, `${key}: no word is duplicated in the chunks`);
    }
  });

  test('DGML chunks hold ≥ 97% of the words pdftotext finds in the PDF (original or rendition)', { skip: hasPdftotext ? false : 'pdftotext (poppler-utils) is not installed' }, async () => {
    for (const [key, u] of uploaded) {
      const record = await store.documents.get((await store.workspaces.getByName('default'))!.id, u.id);
      assert.ok(record);
      const pdfKey = record.renditionBlobKey ?? record.blobKey;
      const out = spawnSync('pdftotext', [path.join(q.dataDir, 'blobs', pdfKey), '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      assert.equal(out.status, 0, out.stderr);
      const dgml = await c.get(`/documents/${u.id}/dgml`);
      const share = pdftotextRecall(comparable(out.stdout), readDgml(dgml.text).chunks.flatMap((ch) => ch.words.flatMap(comparable)));
      assert.ok(share >= 0.97, `${key}: ${(share * 100).toFixed(1)}% of pdftotext's words`);
    }
  });

  // Headings are counted outside tables (structureCounts): the second NTSB report's reference marks
  // 13 of its bold form label cells as headings and leaves the others, set alike, as cells; the first
  // report's reference marks none. Quire keeps every label cell a cell, as DGML.md describes them.
  for (const pair of REFERENCE_PAIRS) {
    test(`${pair.pdf}: tables, headings and list items within 25% of the reference DGML`, async (t) => {
      const u = uploaded.get(path.join('reference-dgml', pair.pdf));
      assert.ok(u);
      const ours = structureCounts((await c.get(`/docsets/${docsetId}/documents/${u.id}/dgml`)).text);
      const ref = structureCounts(fs.readFileSync(path.join(REF, pair.xml), 'utf8'));
      const report = `ours ${JSON.stringify(ours)} vs reference ${JSON.stringify(ref)}`;
      t.diagnostic(report);
      assert.equal(ours.h1InTables, 0, `no heading inside a table cell: ${report}`);
      assert.ok(within(ours.table, ref.table, 0.25), `tables: ${report}`);
      assert.ok(within(ours.h1, ref.h1, 0.25), `headings outside tables: ${report}`);
      assert.ok(within(ours.li, ref.li, 0.25), `list items: ${report}`);
    });
  }

  test('NTSB forms: label cells and value cells are separate cells of one row', async () => {
    const u = uploaded.get('reference-dgml/20071204X01896.pdf');
    assert.ok(u);
    const xml = (await c.get(`/documents/${u.id}/dgml`)).text;
    const rows = tableRows(xml);
    const row = rows.find((cells) => cells.some((cell) => /^Accident Number:?$/.test(cell)));
    assert.ok(row, 'a row with the cell "Accident Number:"');
    const at = row.findIndex((cell) => /^Accident Number:?$/.test(cell));
    assert.equal(row[at + 1], 'DEN08WA037', `the value cell follows the label cell: ${JSON.stringify(row)}`);
    const location = rows.find((cells) => cells.some((cell) => /^Location:?$/.test(cell)));
    assert.ok(location, 'a row with the cell "Location:"');
  });

  test("the lease's section tree nests the defined terms under their article, as the reference does", async () => {
    const u = uploaded.get('reference-dgml/Shorebucks LLC_AZ.pdf');
    assert.ok(u);
    const ours = sectionTree((await c.get(`/documents/${u.id}/dgml`)).text);
    const ref = sectionTree(fs.readFileSync(path.join(REF, 'Shorebucks LLC_AZ.xml'), 'utf8'));
    for (const tree of [ref, ours]) {
      const basic = findSection(tree, /BASIC LEASE INFORMATION/i);
      assert.ok(basic, 'a section "BASIC LEASE INFORMATION AND DEFINED TERMS"');
      for (const term of [/^(1\.\d+\s+)?Landlord\s*\.?$/, /^(1\.\d+\s+)?Tenant\s*\.?$/, /^(1\.\d+\s+)?Premises\s*\.?$/]) {
        assert.ok(findSection(basic.children, term), `${term} is nested under ${basic.heading}`);
      }
    }
  });

  test('the docset route: the docset namespace names the docset; another docset answers 404', async () => {
    const u = uploaded.get('reference-dgml/Jane Doe NDA.pdf');
    assert.ok(u);
    const r = await c.get(`/docsets/${docsetId}/documents/${u.id}/dgml`);
    assert.equal(r.status, 200);
    assert.match(r.text, /xmlns:docset="http:\/\/www\.docugami\.com\/2021\/dgml\/[^"]+\/ReferencePairs"/);
    const other = await c.post('/docsets', { json: { name: 'Elsewhere' } });
    assertProblem(await c.get(`/docsets/${other.json.id}/documents/${u.id}/dgml`), 404);
    assertProblem(await c.get(`/docsets/${docsetId}/documents/nosuchdoc/dgml`), 404);
    const outside = uploaded.get('pdf/A - Package Proposal.pdf');
    assert.ok(outside);
    assert.match((await c.get(`/documents/${outside.id}/dgml`)).text, /xmlns:docset="[^"]*\/Unassigned"/);
    const again = await c.get(`/documents/${u.id}/dgml`, { headers: { 'if-none-match': r.headers.get('etag')! } });
    assert.equal(again.status, 304);
  });

  test('a Docset.Document.Dgml event is recorded for each processed document', async () => {
    const ws = (await store.workspaces.getByName('default'))!;
    const events = await store.events.list(ws.id, undefined, 1000);
    const dgml = events.filter((e) => e.type === 'Docset.Document.Dgml');
    for (const [key, u] of uploaded) {
      assert.ok(
        dgml.some((e) => (e.payload as { documentId?: string }).documentId === u.id),
        `${key}: Docset.Document.Dgml event`,
      );
    }
  });

  test('text and Markdown renderings (content?format=)', async () => {
    const u = uploaded.get('generated/supply.html');
    assert.ok(u);
    const text = await c.get(`/documents/${u.id}/content?format=text`);
    assert.equal(text.status, 200);
    assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(text.text, /Supply Agreement/);
    assert.match(text.text, /Beta Parts LLC/);
    assert.doesNotMatch(text.text, /not text/, 'script content is not document text');
    const md = await c.get(`/documents/${u.id}/content?format=markdown`);
    assert.equal(md.status, 200);
    assert.match(md.headers.get('content-type') ?? '', /^text\/markdown/);
    assert.match(md.text, /^# Supply Agreement/m);
    assert.match(md.text, /^#+ 1\. Deliveries/m);
    assert.match(md.text, /\|\s*Bolt\s*\|\s*\$1\.25\s*\|/);
    const original = await c.get(`/documents/${u.id}/content`);
    assert.equal(original.text, HTML_FIXTURE, 'without format: the original bytes');
    assertProblem(await c.get(`/documents/${u.id}/content?format=pdf`), 400);
  });
});

describe('document understanding: not processed yet', () => {
  let q: Quire;
  let c: Client;
  before(async () => {
    q = await startQuire({ args: ['serve', '--no-worker'] });
    c = client(q.api, q.key);
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('DGML and text of a document that is not Ready: 409 with retry-after', async () => {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(path.join(REF, 'Jane Doe NDA.pdf'))]), 'nda.pdf');
    const up = await c.req('POST', '/documents/content', { body: form });
    assertJson(up, 201);
    for (const url of [`/documents/${up.json.id}/dgml`, `/documents/${up.json.id}/content?format=text`]) {
      const r = await c.get(url);
      assertProblem(r, 409);
      assert.equal(r.headers.get('retry-after'), '5');
    }
  });
});

describe('document understanding: OCR over its per-page budget', () => {
  let q: Quire;
  let c: Client;
  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_OCR_PAGE_TIMEOUT_MS: '100' } });
    c = client(q.api, q.key);
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('the document is Ready and its processing details name the page given up', async () => {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf'))]), 'scan.pdf');
    const up = await c.req('POST', '/documents/content', { body: form });
    assertJson(up, 201);
    let doc = up.json;
    for (const deadline = Date.now() + 120_000; !['Ready', 'Error'].includes(doc.status) && Date.now() < deadline; ) {
      await new Promise((res) => setTimeout(res, 200));
      doc = (await c.get(`/documents/${up.json.id}`)).json;
    }
    assert.equal(doc.status, 'Ready', JSON.stringify(doc));
    assert.deepEqual(doc.processing.analysis.ocrTimedOutPages, [1], JSON.stringify(doc.processing));
    assert.deepEqual(doc.processing.analysis.ocrPages, [], JSON.stringify(doc.processing));
  });
});
