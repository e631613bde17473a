import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import type { PageModel } from '../../src/document/pages.js';
import { pdfStructure } from '../../src/ingest/stages/layout.js';
import { parseHeadingNumber, parseMarker } from '../../src/document/markers.js';
import { cleanItemText, isBrokenWord, joinAtBreak, Vocabulary } from '../../src/ingest/stages/layout/text.js';
import { detectTables, type PageTables } from '../../src/ingest/stages/tables.js';
import { readingText } from '../../src/ingest/stages/tables/draft.js';
import { renderMarkdown, renderText } from '../../src/document/writers/text.js';
import { renderDgml } from '../../src/document/writers/dgml.js';
import { leaves, normalizeSpace, wordsOf, type Leaf, type List, type ListItem, type Paragraph, type Section, type StructureNode, type Table } from '../../src/document/structure.js';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { structureCounts } from '../helpers/dgml-counts.js';

/** A PDF of Letter pages, each drawing its content stream with Helvetica as font /F1. */
function helveticaPdf(contents: readonly string[]): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${contents.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${contents.length} >>`, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  contents.forEach((ops, i) => {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`, `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
  });
  return makePdf(objects);
}

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/corpus');
const reference = (name: string): string => path.join(corpus, 'reference-dgml', name);

interface Doc {
  pages: PageModel[];
  tables: PageTables[];
  nodes: StructureNode[];
}

async function analyze(file: string): Promise<Doc> {
  const pages = await readPdfPages(new Uint8Array(fs.readFileSync(file)));
  const tables = pages.map(detectTables);
  return { pages, tables, nodes: pdfStructure(pages, tables) };
}

function* walk(nodes: readonly StructureNode[]): Generator<StructureNode | ListItem> {
  for (const n of nodes) {
    yield n;
    if (n.type === 'section') yield* walk(n.children);
    if (n.type === 'list') {
      for (const item of n.items) {
        yield item;
        yield* walk(item.children);
      }
    }
  }
}

const sections = (nodes: readonly StructureNode[]): Section[] => [...walk(nodes)].filter((n): n is Section => 'type' in n && n.type === 'section');
const listItems = (nodes: readonly StructureNode[]): ListItem[] => [...walk(nodes)].filter((n): n is ListItem => !('type' in n));
const paragraphs = (nodes: readonly StructureNode[]): Paragraph[] => [...walk(nodes)].filter((n): n is Paragraph => 'type' in n && n.type === 'paragraph');

/** Leaves outside tables (table cells hold the items the tables stage consumed). */
const textLeaves = (nodes: readonly StructureNode[]): Leaf[] => [...leaves(nodes.filter((n) => n.type !== 'table').map(stripTables))];
function stripTables(n: StructureNode): StructureNode {
  if (n.type === 'section') return { ...n, children: n.children.filter((c) => c.type !== 'table').map(stripTables) };
  if (n.type === 'list') return { ...n, items: n.items.map((i) => ({ ...i, children: i.children.filter((c) => c.type !== 'table').map(stripTables) })) };
  return n;
}

function referenceCount(xml: string, structure: string): number {
  return fs.readFileSync(reference(xml), 'utf8').split(`structure="${structure}"`).length - 1;
}

/** The reference's headings outside tables (see structureCounts: some references mark label cells as headings). */
function referenceHeadings(xml: string): number {
  return structureCounts(fs.readFileSync(reference(xml), 'utf8')).h1;
}

/** Within the share of the reference, and never stricter than one off (as the DGML API test counts). */
function assertNear(actual: number, expected: number, share: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= Math.max(1, share * expected), `${what}: ${actual}, reference ${expected}`);
}

/**
 * Every character of the page text that no table consumed, once: the letters of all leaves and of
 * all remaining items (both cleaned the same way) are the same multiset. Whitespace is left out
 * (items are often word fragments) and so are hyphens (line-end hyphenation is mended).
 */
function assertCoverage(doc: Doc): void {
  const count = (m: Map<string, number>, text: string, sign: number): void => {
    for (const ch of text.replace(/[\s-]/g, '')) m.set(ch, (m.get(ch) ?? 0) + sign);
  };
  const balance = new Map<string, number>();
  doc.pages.forEach((page, i) => page.items.forEach((it, k) => doc.tables[i]!.consumed.has(k) || count(balance, cleanItemText(it.text), 1)));
  for (const leaf of textLeaves(doc.nodes)) count(balance, leaf.text, -1);
  const off = [...balance].filter(([, n]) => n !== 0);
  assert.deepEqual(off, [], 'characters missing (>0) or duplicated (<0) in leaves');
}

function assertBoxes(doc: Doc): void {
  for (const leaf of leaves(doc.nodes)) {
    if (!leaf.text) continue;
    assert.ok(leaf.boxes.length > 0, `no box for "${leaf.text}"`);
    for (const b of leaf.boxes) {
      assert.ok(b.page >= 1 && b.page <= doc.pages.length && b.width > 0 && b.height > 0, `bad box ${JSON.stringify(b)} for "${leaf.text}"`);
    }
    assert.equal(new Set(leaf.boxes.map((b) => b.page)).size, leaf.boxes.length, 'one box per page');
  }
}

const bodyText = (nodes: readonly StructureNode[]): string[] => paragraphs(nodes).filter((p) => p.role === 'body').map((p) => p.leaf.text);

describe('layout: Jane Doe NDA', () => {
  let doc: Doc;
  before(async () => {
    doc = await analyze(reference('Jane Doe NDA.pdf'));
  });

  test('headings and list items match the reference counts', () => {
    assertNear(sections(doc.nodes).length, referenceHeadings('Jane Doe.xml'), 0.25, 'sections');
    assertNear(listItems(doc.nodes).length, referenceCount('Jane Doe.xml', 'li'), 0.25, 'list items');
  });

  test('numbered clauses are list items holding a section, as in the reference', () => {
    const first = listItems(doc.nodes)[0]!;
    assert.equal(first.marker?.text, '1.');
    const section = first.children[0];
    assert.equal(section?.type, 'section');
    assert.equal((section as Section).heading.text, 'Definition of Confidential Information');
    assert.match(leavesText((section as Section).children), /^For purposes of this Agreement/);
    const labels = sections(doc.nodes).map((s) => s.heading.text);
    assert.ok(labels.includes('Disclosing Party:') && labels.includes('Receiving Party:'), labels.join(' | '));
  });

  test('Office ligature glyphs are read as letters', () => {
    // Without tables, the table's text ("Software development") is in leaves too.
    const noTables = pdfStructure(doc.pages, doc.pages.map(() => ({ tables: [], consumed: new Set<number>() })));
    const text = textLeaves(noTables).map((l) => l.text).join(' ');
    assert.match(text, /"Effective Date"/);
    assert.match(text, /Confidential Information/);
    assert.match(text, /\bSoftware development\b/);
    assert.doesNotMatch(text, /[\u019F\u01A9]/);
  });

  test('page numbers are furniture, not body text', () => {
    const numbers = paragraphs(doc.nodes).filter((p) => p.role === 'page-number');
    assert.deepEqual(numbers.map((p) => p.leaf.text), ['Page | 1', 'Page | 2']);
    assert.ok(numbers.every((p) => p.structure === 'div'));
    assert.ok(!bodyText(doc.nodes).some((t) => /Page \| \d/.test(t)));
  });

  test('every word is in exactly one leaf, and every leaf has valid boxes', () => {
    assertCoverage(doc);
    assertBoxes(doc);
  });

  test('consumed items are skipped and the table is placed by its box', () => {
    const page = doc.pages[1]!;
    const rows = page.items.map((it, i) => [it, i] as const).filter(([it]) => /^(Authorized Individual|John Smith|Lisa White|Michael Brown)$/.test(it.text));
    assert.ok(rows.length === 4, 'the table rows of page 2');
    const top = Math.min(...rows.map(([it]) => it.y));
    const bottom = Math.max(...rows.map(([it]) => it.y + it.height));
    const consumed = new Set(page.items.flatMap((it, i) => (it.y >= top - 1 && it.y + it.height <= bottom + 1 ? [i] : [])));
    const table = { type: 'table' as const, rows: [], boxes: [{ page: 2, left: 300, top, width: 2000, height: bottom - top }], source: 'aligned' as const };
    const tables = doc.pages.map((_, i) => (i === 1 ? { tables: [table], consumed } : { tables: [], consumed: new Set<number>() }));
    const nodes = pdfStructure(doc.pages, tables);
    const order = [...walk(nodes)].flatMap((n) => ('type' in n && n.type === 'table' ? ['TABLE'] : 'type' in n && n.type === 'paragraph' ? [n.leaf.text] : []));
    const at = order.indexOf('TABLE');
    assert.ok(at > 0, 'table placed');
    assert.match(order[at - 1]!, /purpose of disclosure:$/);
    assert.match(order[at + 1]!, /^the Parties have executed/);
    const text = textLeaves(nodes).map((l) => l.text).join(' ');
    assert.doesNotMatch(text, /Lisa White|Financial Analyst/);
    assertCoverage({ pages: doc.pages, tables, nodes });
  });
});

function leavesText(nodes: readonly StructureNode[]): string {
  return [...leaves(nodes)].map((l) => l.text).join(' ');
}

describe('layout: Shorebucks lease', () => {
  let doc: Doc;
  before(async () => {
    doc = await analyze(reference('Shorebucks LLC_AZ.pdf'));
  });

  test('headings and list items match the reference counts', () => {
    assertNear(sections(doc.nodes).length, referenceHeadings('Shorebucks LLC_AZ.xml'), 0.25, 'sections');
    assertNear(listItems(doc.nodes).length, referenceCount('Shorebucks LLC_AZ.xml', 'li'), 0.25, 'list items');
  });

  const section = (heading: string): Section => {
    const found = sections(doc.nodes).find((s) => s.heading.text === heading);
    assert.ok(found, `no section "${heading}"`);
    return found;
  };
  const childHeadings = (s: Section): string[] => sections(s.children).map((c) => c.heading.text);

  test('sub-clauses nest in their clause, as in the reference', () => {
    const basic = section('BASIC LEASE INFORMATION AND DEFINED TERMS.');
    const under = childHeadings(basic);
    for (const h of ['Landlord.', 'Tenant.', 'Premises.', 'Additional Definitions:', 'Building Standard.']) assert.ok(under.includes(h), `${h} under 1.`);
    assert.ok(!under.includes('LEASE TERM.'));
    assert.ok(childHeadings(section('Additional Definitions:')).includes('Tenant Parties.'));
    assert.deepEqual(childHeadings(section('Exclusive Use.')), ['Restriction.', 'Limitation of Remedies.', 'Enforceability.', 'Waiver on Extension.', 'No Solicitation.']);
    assert.ok(section('Restriction.').level > section('Exclusive Use.').level);
    assert.ok(section('Exclusive Use.').level > section('USE.').level);
  });

  test('the clause numbers are the list markers', () => {
    const markers = listItems(doc.nodes).map((i) => i.marker?.text);
    for (const m of ['1.', '1.1', '1.22.8', '3.4.5', '(a)', '6.4.12']) assert.ok(markers.includes(m), m);
    const reasonable = section('Reasonable Consent.');
    const items = listItems(reasonable.children);
    assert.equal(items.length, 12);
    assert.match(leavesText(items[0]!.children), /^The proposed transferee has sufficient financial wherewithal/);
  });

  test('an article with nothing under it among articles with text ("31. RESERVED.") is still an article heading', () => {
    const reserved = section('RESERVED.');
    assert.deepEqual(reserved.children.filter((n) => n.type !== 'paragraph' || n.role === 'body'), []);
  });

  test('a bold run-on sentence is not a heading and a paragraph crossing pages has one box per page', () => {
    assert.ok(!sections(doc.nodes).some((s) => /^OF WHATEVER KIND|Assignee"/.test(s.heading.text)));
    assert.ok(textLeaves(doc.nodes).some((l) => l.boxes.length === 2));
  });

  test('every word is in exactly one leaf, and every leaf has valid boxes', () => {
    assertCoverage(doc);
    assertBoxes(doc);
  });
});

describe('layout: NTSB reports', () => {
  for (const name of ['20071204X01896', '20071210X01921']) {
    test(`${name}: headings and list items near the reference, full coverage`, async () => {
      const doc = await analyze(reference(`${name}.pdf`));
      assertNear(sections(doc.nodes).length, referenceHeadings(`${name}.xml`), 0.25, 'sections');
      assertNear(listItems(doc.nodes).length, referenceCount(`${name}.xml`, 'li'), 0.25, 'list items');
      const footers = paragraphs(doc.nodes).filter((p) => p.role !== 'body');
      assert.equal(footers.length, doc.pages.length, 'one "Page n of m" line per page');
      assert.ok(!bodyText(doc.nodes).some((t) => /^Page \d+ of \d+/.test(t)));
      assertCoverage(doc);
      assertBoxes(doc);
    });
  }
});

describe('layout: the findings of an NTSB report', () => {
  let doc: Doc;
  before(async () => {
    doc = await analyze(reference('20071210X01921.pdf'));
  });

  test('"Occurrence #1:" and "Phase of Operation:" are two headings, and each numbered finding is its own item, its text no heading', () => {
    const headings = sections(doc.nodes).map((s) => s.heading.text);
    assert.ok(headings.includes('Occurrence #1: ON GROUND/WATER COLLISION WITH OBJECT'), JSON.stringify(headings));
    assert.ok(headings.includes('Phase of Operation: LANDING - ROLL'), JSON.stringify(headings));
    const findings = listItems(doc.nodes).filter((i) => i.marker && /^\d\.$/.test(i.marker.text.trim()));
    assert.deepEqual(
      findings.map((i) => i.marker!.text.trim()),
      ['1.', '2.', '3.', '4.'],
    );
    const first = [...leaves(findings[0]!.children)].map((l) => l.text).join(' ');
    assert.ok(!first.includes('TERRAIN'), `the first finding stops before the second: ${first}`);
    // Lines in capitals with nothing under them: a list of findings, not four empty sections.
    for (const item of findings) assert.ok(item.children.every((n) => n.type === 'paragraph'), `finding ${item.marker!.text}: ${JSON.stringify(item.children.map((n) => n.type))}`);
    assert.deepEqual(
      findings.map((i) => i.children.flatMap((n) => (n.type === 'paragraph' && n.role === 'body' ? [n.leaf.text] : []))),
      [['(C) DIRECTIONAL CONTROL - NOT MAINTAINED - PILOT IN COMMAND'], ['(F) TERRAIN CONDITION - ROUGH/UNEVEN'], ['(F) OBJECT - OTHER'], ['TERRAIN CONDITION - SAND BAR']],
    );
  });
});

test('layout: a title in body type, on its own line above a paragraph with an indented first line, is a subsection, also across a page', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06145295_Prot_SAP_000.pdf'));
  const measure = sections(doc.nodes).find((s) => s.heading.text === 'Measure');
  assert.ok(measure, JSON.stringify(sections(doc.nodes).map((s) => s.heading.text)));
  const inside = measure.children.filter((n): n is Section => n.type === 'section');
  assert.deepEqual(
    inside.map((s) => s.heading.text),
    // The second title ends page 4; its paragraph starts page 5, indented.
    ['Identity synthesis (primary outcome)', 'Health-related quality of life (secondary outcome)', 'Participant Engagement'],
  );
  assert.match(inside[1]!.children.map((n) => (n.type === 'paragraph' ? n.leaf.text : '')).join(' '), /^HRQOL was measured/);
  // The cover's title and the bold titles are the top level.
  assert.deepEqual(
    doc.nodes.filter((n): n is Section => 'type' in n && n.type === 'section').map((s) => s.heading.text.split(':')[0]),
    ['Understanding the Effectiveness of an Online Support Group in Enhancing Recovery Identity and Health-Related Quality of Life of Middle-aged and Older Ovarian Cancer Patients', 'Intervention', 'Measure', 'Data collection and analysis'],
  );
});

test('layout: each line opening with the bullet of the line above, at its place, is the next item, though the item above ends without a stop', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf'));
  const method = sections(doc.nodes).find((s) => s.heading.text === 'Statistical method');
  assert.ok(method);
  const items = listItems(method.children).map((i) => [...leaves(i.children)].map((l) => l.text).join(' '));
  assert.deepEqual(items, [
    'Median and interquartile range (percentile 25-75) for continuous variables',
    'Frequency and percentage for discrete variables',
    'Wilcoxon Signed rank test: to compare outcome between before-after low dose emicizumab',
    'Pearson’s correlation coefficiency: to find correlation factor affect emicizumab levels',
    'Paired t test : to compare ABR, AJBR between before-after low dose emicizumab',
    'P<0.05 is statistic significant',
  ]);
});

test('layout: invisible tags (1 pt anchors) are paragraphs of their own, out of the headings and text beside them', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/NARA2022.pdf'));
  const GUID = /_[0-9a-f]{8}-[0-9a-f]{4}-/;
  const all = paragraphs(doc.nodes);
  const tags = all.filter((p) => p.role === 'tag');
  assert.ok(tags.length >= 20, `${tags.length} tags`);
  assert.ok(tags.every((p) => GUID.test(p.leaf.text)), JSON.stringify(tags.map((p) => p.leaf.text).filter((t) => !GUID.test(t))));
  // No other leaf holds one: not a heading, not a paragraph, not a list item.
  const others = [...walk(doc.nodes)].flatMap((n) => ('type' in n && n.type === 'section' ? [n.heading.text] : 'type' in n && n.type === 'paragraph' && n.role !== 'tag' ? [n.leaf.text] : []));
  assert.deepEqual(others.filter((t) => GUID.test(t)), []);
  // Text and Markdown, made for readers, leave them out with the other page furniture.
  const model = { version: 1 as const, pages: doc.pages.map((p) => ({ number: p.number, width: p.width, height: p.height })), paginated: true, nodes: doc.nodes, ocrPages: [] };
  assert.ok(!GUID.test(renderText(model)) && !GUID.test(renderMarkdown(model)));
  assert.match(renderText(model), /\nVision\n/);
  // "Vision" and "Mission", set larger, each with an anchor at the page's right edge, are headings.
  const headings = sections(doc.nodes).map((s) => s.heading.text);
  assert.ok(headings.includes('Vision') && headings.includes('Mission'), JSON.stringify(headings.slice(0, 30)));
  // A bold label ends at its colon: the bold line under it is not part of it.
  assert.ok(headings.includes('Stakeholder(s):'), JSON.stringify(headings.filter((h) => h.startsWith('Stakeholder'))));
  assert.ok(!headings.some((h) => h.startsWith('Stakeholder(s): ')), JSON.stringify(headings.filter((h) => h.startsWith('Stakeholder'))));
});

test('layout: short titles one under another with nothing under any of them are the items of a list, not empty sections', async () => {
  // DOSAID page 6: "Values" over eleven bold words, each on its own line; GSA page 3 the same with four.
  for (const [file, terms] of [
    ['DOSAID2022.pdf', ['Security', 'Prosperity', 'Democracy', 'Freedom', 'Humanity', 'Locality', 'Sustainability', 'Diversity', 'Equity', 'Inclusion', 'Accessibility']],
    ['GSA2022.pdf', ['Efficiency', 'Sustainability', 'Accessibility', 'Responsiveness']],
  ] as const) {
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports', file));
    const values = sections(doc.nodes).find((s) => s.heading.text === 'Values');
    assert.ok(values, file);
    assert.deepEqual(values.children.filter((n) => n.type === 'section').length, 0, file);
    const items = listItems(values.children).map((i) => i.children.find((n): n is Paragraph => n.type === 'paragraph')?.leaf.text);
    assert.deepEqual(items, terms, file);
  }
});

test('layout: names set one to a line in columns, carried over a page, are the items of one list (DOSAID p3–4 interagency partners)', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
  const partners = sections(doc.nodes).find((s) => s.heading.text === 'Interagency Partners :');
  assert.ok(partners);
  const lists = partners.children.filter((n) => n.type === 'list');
  assert.equal(lists.length, 1);
  const items = listItems(lists).map((i) => i.children.find((n): n is Paragraph => n.type === 'paragraph')?.leaf.text);
  // Left column, then the right one beside it (not nested in the left's last item), then page 4's two columns.
  assert.deepEqual(items.slice(0, 3), ['Department of Defense', 'Department of Treasury', 'Department of Justice']);
  assert.deepEqual(items.slice(10, 14), ['Department of Agriculture', 'Department of Veterans Affairs', 'Peace Corps', 'Intelligence Community']);
  // A name that wrapped is one item: its head alone on the next line is no name of its own.
  assert.ok(items.includes('U.S. International Development Finance Corporation'), JSON.stringify(items));
  assert.ok(!items.includes('Corporation'));
  assert.deepEqual(items.slice(-6), ['U.S. Trade and Development Agency', 'Office of Personnel Management', 'Office of Management and Budget', 'General Services Administration', 'Social Security Administration', 'Equal Employment Opportunity Commission']);
  assert.equal(items.length, 30);
  // None of them heads a section.
  assert.ok(!sections(doc.nodes).some((s) => /Peace Corps|Office of Personnel Management/.test(s.heading.text)));
  // p16 ends on an entry with nothing under it ("Stateless Persons"); the names carried to p17 are more of the label's, not that entry's.
  const stateless = sections(doc.nodes).find((s) => s.heading.text === 'Stateless Persons');
  assert.ok(stateless);
  assert.deepEqual(listItems(stateless.children), []);
  const carried = sections(doc.nodes).find((s) => s.children.includes(stateless));
  assert.ok(carried && listItems(carried.children).some((i) => i.children.some((n) => n.type === 'paragraph' && n.leaf.text === 'Marginalized Communities')));
  // Nor are names under an entry whose text ends its sentence ("Partners : … social and youth movements.") that entry's.
  const partners2 = sections(doc.nodes).find((s) => s.heading.text === 'Partners :' && s.children.some((n) => n.type === 'paragraph' && n.leaf.text.includes('forge new partnerships')));
  assert.ok(partners2);
  assert.deepEqual(listItems(partners2.children), []);
  const label = sections(doc.nodes).find((s) => s.children.includes(partners2));
  assert.ok(label && listItems(label.children).some((i) => i.children.some((n) => n.type === 'paragraph' && n.leaf.text === 'Sub-National Governments')));
  // Under the recurring "Stakeholder(s):", three names in a column are a list too (p44: "Allies", "Partners", "Countries",
  // where "Partners" was a section holding "Countries"); so after "U.S. Partners : … at home and abroad." (p65).
  const texts = (items: ReturnType<typeof listItems>) => items.map((i) => i.children.map((n) => (n.type === 'paragraph' ? n.leaf.text : n.type)).join(' | '));
  const all = [...walk(doc.nodes)].filter((n): n is List => 'type' in n && n.type === 'list').map((l) => texts(listItems([l])).join(' / '));
  assert.ok(all.includes('Allies / Partners / Countries'), JSON.stringify(all.filter((l) => l.includes('Allies'))));
  assert.ok(all.includes('State Governments / Local Governments / Business Representatives'));
  const usPartners = sections(doc.nodes).find((s) => s.heading.text === 'U.S. Partners :');
  assert.ok(usPartners);
  assert.deepEqual(listItems(usPartners.children), []);
  // A title with nothing but a page turn under it holds none of the names carried to the next page (p4–5).
  assert.ok(all.includes('COVAX / Global Fund / International Committee of the Red Cross'), JSON.stringify(all.filter((l) => l.includes('COVAX'))));
  const title = sections(doc.nodes).find((s) => s.heading.text === 'World Health Organization GAVI Alliance');
  assert.ok(title);
  assert.deepEqual(listItems(title.children), []);
});

test('layout: four or more names stacked one to a line are list items; a name in three lines or a sentence in short lines stays one paragraph', () => {
  const pageOf = (lines: string[]): PageModel => {
    const height = (11 * 300) / 72;
    let y = 300;
    const items = lines.map((text) => ({ text, x: 300, y: (y += 1.25 * height), width: text.length * height * 0.5, height, fontName: 'Times-Bold', fontSize: 11 }));
    return { number: 1, width: 2550, height: 3300, items };
  };
  const structureOf = (lines: string[]) => pdfStructure([pageOf(lines)], [{ tables: [], consumed: new Set<number>() }]);
  const names = ['Department of Defense', 'Department of the Treasury', 'Federal Communications', 'Commission', 'Peace Corps'];
  const stacked = structureOf(names);
  assert.deepEqual(
    listItems(stacked).map((i) => i.children.map((n) => (n.type === 'paragraph' ? n.leaf.text : n.type)).join(' | ')),
    ['Department of Defense', 'Department of the Treasury', 'Federal Communications Commission', 'Peace Corps'],
  );
  // After a table, two names are no column carried on from the names above it.
  const height = (11 * 300) / 72;
  const at = (k: number): number => 300 + (k + 1) * 1.25 * height;
  const box = { page: 1, left: 300, top: at(5) + height, width: 1500, height: 3 * height };
  const cell = (text: string) => ({ leaf: { text, boxes: [box] }, colspan: 1, rowspan: 1, boxes: [box] });
  const table = { type: 'table' as const, rows: [{ cells: [cell('Rent'), cell('$4,000')], boxes: [box] }], boxes: [box], source: 'ruled' as const };
  const page = pageOf([...names, '', '', '', '', 'Office of Personnel Management', 'Social Security Administration']);
  page.items = page.items.filter((i) => i.text);
  const afterTable = pdfStructure([page], [{ tables: [table], consumed: new Set<number>() }]);
  assert.ok(afterTable.some((n) => n.type === 'table'), 'the table is placed');
  assert.deepEqual(
    listItems(afterTable).map((i) => i.children.map((n) => (n.type === 'paragraph' ? n.leaf.text : n.type)).join(' | ')),
    ['Department of Defense', 'Department of the Treasury', 'Federal Communications Commission', 'Peace Corps'],
  );
  for (const lines of [names.slice(0, 3), ['The Tenant shall keep the', 'Premises in good repair and', 'return them to the Landlord', 'at the end of the Term.']]) {
    assert.deepEqual(listItems(structureOf(lines)), [], JSON.stringify(lines));
  }
});

test('layout: a bold line standing alone with nothing under it, then bold lead-ins of its type at its place, are entries of one list', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/NARA2022.pdf'));
  const values = sections(doc.nodes).find((s) => s.heading.text === 'Values');
  assert.ok(values);
  assert.deepEqual(
    values.children.filter((n): n is Section => n.type === 'section').map((s) => s.heading.text),
    ['Public Service:', 'Openness', 'Transparency', 'Trust', 'Collaboration:', 'Innovation:', 'Learning:', 'Integrity:', 'Diversity:'],
  );
  // Also across a page turn, its running header and page number between them (DHS: "Civil Liberties" ends
  // page 6, "Integration: Ensure …" opens page 7).
  const dhs = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DHS2020.pdf'));
  const dhsValues = sections(dhs.nodes).find((s) => s.heading.text === 'Values');
  assert.ok(dhsValues);
  const entries = dhsValues.children.filter((n): n is Section => n.type === 'section').map((s) => s.heading.text);
  assert.deepEqual(entries.slice(-2), ['Civil Liberties', 'Integration:'], JSON.stringify(entries));
});

test('layout: a bold lead-in after a bulleted list is not inside its last item', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf'));
  const inItems = listItems(doc.nodes).flatMap((i) => sections(i.children).map((s) => s.heading.text));
  assert.ok(inItems.includes('Secondary objective:'), JSON.stringify(inItems));
  assert.ok(!inItems.includes('Study design:'), JSON.stringify(inItems));
  assert.ok(sections(doc.nodes).some((s) => s.heading.text === 'Study design:'));
});

test('layout: a line set larger but all in small letters is no title ("iPhone" and "Overview" are)', () => {
  const lines: [string, number][] = [
    ['Overview', 14],
    ['Net sales rose in every region during the quarter, led by services and wearables.', 10],
    ['iPhone', 14],
    ['Net sales of the product line were flat against the same quarter a year earlier.', 10],
    ['ujjayii', 14],
    ['Breathing practice closes every class, and the teacher notes how each student did.', 10],
  ];
  let y = 300;
  const items = lines.map(([text, pt]) => {
    const height = (pt * 300) / 72;
    const item = { text, x: 300, y, width: text.length * height * 0.5, height, fontName: 'Helvetica', fontSize: pt };
    y += height * 2;
    return item;
  });
  const page: PageModel = { number: 1, width: 2550, height: 3300, items };
  const nodes = pdfStructure([page], [{ tables: [], consumed: new Set<number>() }]);
  assert.deepEqual(
    sections(nodes).map((s) => s.heading.text),
    ['Overview', 'iPhone'],
  );
  assert.ok([...leaves(nodes)].some((l) => l.text === 'ujjayii'));
});

test("layout: a document's title alone on its cover page heads it, though set in body type; opening a full page it is text", async () => {
  const protocol = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06145295_Prot_SAP_000.pdf'));
  assert.equal(
    sections(protocol.nodes)[0]?.heading.text,
    'Understanding the Effectiveness of an Online Support Group in Enhancing Recovery Identity and Health-Related Quality of Life of Middle-aged and Older Ovarian Cancer Patients: A Randomized Controlled Trial',
  );
  /** Blocks of 12-point lines, a blank line between blocks. */
  const pageOf = (number: number, blocks: string[][]): PageModel => {
    const height = (12 * 300) / 72;
    let y = 300 - 1.2 * height;
    const items = blocks.flatMap((lines) => {
      y += 1.2 * height;
      return lines.map((text) => ({ text, x: 300, y: (y += 1.2 * height), width: text.length * height * 0.45, height, fontName: 'Times', fontSize: 12 }));
    });
    return { number, width: 2550, height: 3300, items };
  };
  const title = ['A Study of Sleep and Recovery in Adults', 'Recovering from Surgery at Home:', 'A Randomized Trial'];
  const body = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} of the protocol's body says what the study does and how it is run.`);
  const structureOf = (pages: PageModel[]) => pdfStructure(pages, pages.map(() => ({ tables: [], consumed: new Set<number>() })));
  const covered = structureOf([pageOf(1, [title, ['Oct-16-2023']]), pageOf(2, [body])]);
  assert.equal(sections(covered)[0]?.heading.text, title.join(' '));
  const full = structureOf([pageOf(1, [title, body]), pageOf(2, [body])]);
  assert.deepEqual(sections(full), [], 'the same lines opening a page of text head nothing');
});

test("layout: a document's first line centred over its text is its title, though set in body type; flush left it is text", async () => {
  const protocol = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06159946_Prot_000.pdf'));
  const top = sections(protocol.nodes)[0];
  assert.equal(top?.heading.text, 'Study Protocol');
  assert.deepEqual(
    sections(top.children).map((s) => s.heading.text),
    ['Official Title:', 'Grant Number:', 'Document Date:'],
    'the form fields under it are its subsections',
  );
  const height = (12 * 300) / 72;
  const body = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} of the protocol's body says what the study does and how it is run.`);
  const pageWith = (titleX: number): PageModel => {
    const title = 'Study Protocol';
    const items = [{ text: title, x: titleX, y: 300, width: title.length * height * 0.45, height, fontName: 'Times', fontSize: 12 }];
    body.forEach((text, i) => items.push({ text, x: 300, y: 300 + (i + 2) * 1.2 * height, width: body[0]!.length * height * 0.45, height, fontName: 'Times', fontSize: 12 }));
    return { number: 1, width: 2550, height: 3300, items };
  };
  const structureOf = (page: PageModel) => pdfStructure([page], [{ tables: [], consumed: new Set<number>() }]);
  const lineWidth = body[0]!.length * height * 0.45;
  const centred = structureOf(pageWith(300 + (lineWidth - 'Study Protocol'.length * height * 0.45) / 2));
  assert.deepEqual(sections(centred).map((s) => s.heading.text), ['Study Protocol']);
  assert.deepEqual(sections(structureOf(pageWith(300))), [], 'the same line flush left heads nothing');
});

test('layout: a heading the document ends under, with nothing but page furniture after it, is a line of text', async () => {
  for (const [file, line] of [
    ['kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf', 'IRB No. 0206/66'],
    ['kgrag/us-fed-agency-reports/NARA2022.pdf', 'PDF formatted using TopLeaf XML publisher www.turnkey.com.au'],
  ] as const) {
    const doc = await analyze(path.join(corpus, file));
    assert.ok(!sections(doc.nodes).some((s) => s.heading.text === line), `${file}: "${line}" heads nothing`);
    const paragraph = [...leaves(doc.nodes)].find((l) => l.text === line);
    assert.ok(paragraph, `${file}: "${line}" is kept as text`);
    // The sections before it keep their headings.
    assert.ok(sections(doc.nodes).length >= 5, `${file}: ${sections(doc.nodes).length} sections`);
  }
});

test('layout: a lead-in set off by a blank line after a heading of its type that sits tight on its text is the next entry, not inside it', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf'));
  const top = doc.nodes.filter((n): n is Section => n.type === 'section').map((s) => s.heading.text);
  // As the page sets them: each bold title at the margin after a blank line, with or without its text on its line.
  assert.deepEqual(top, [
    'Study Protocol',
    'Objectives:',
    'Study design:',
    'Population and Sample size',
    'Informed Consent Process',
    'Study procedure',
    'Comparator, dosage & mode of administration',
    'Duration of participation for each volunteer',
    'Outcome variables',
    'Statistical method',
    'Ethical Consideration:',
  ]);
  // Built pages: "Objectives:" in bold over its text, then the bold lead-in "Study design: …", set off
  // by a blank line (the next entry) or on the very next line (inside it).
  const height = (11 * 300) / 72;
  const pageWith = (blank: boolean): PageModel => {
    const run = (text: string, x: number, y: number, bold: boolean) => ({ text, x, y, width: text.length * height * 0.45, height, fontName: bold ? 'Arial-Bold' : 'Arial', fontSize: 11, bold });
    const body = ['The study measures how eight weeks of yoga classes change the blood pressure of', 'adults at rest.'];
    const y = 300 + (blank ? 4.5 : 3.3) * height;
    const lead = 'Study design:';
    return {
      number: 1,
      width: 2550,
      height: 3300,
      items: [
        run('Objectives:', 300, 300, true),
        ...body.map((text, k) => run(text, 300, 300 + (k + 1) * 1.1 * height, false)),
        run(lead, 300, y, true),
        run('Interventional, two arms, eight weekly classes.', 300 + (lead.length + 1) * height * 0.45, y, false),
      ],
    };
  };
  const outline = (page: PageModel) =>
    sections(pdfStructure([page], [{ tables: [], consumed: new Set<number>() }]))
      .filter((s) => s.heading.text === 'Objectives:')
      .map((s) => sections(s.children).map((c) => c.heading.text));
  assert.deepEqual(outline(pageWith(true)), [[]], 'set off by a blank line: the next entry');
  assert.deepEqual(outline(pageWith(false)), [['Study design:']], 'on the next line: inside it');
});

test('layout: form fields over a protocol are one section each, holding their value and nothing after it', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/nih-clinical-trial-protocols/NCT06159946_Prot_000.pdf'));
  // They sit under the document's title, "Study Protocol".
  const title = sections(doc.nodes)[0];
  assert.equal(title?.heading.text, 'Study Protocol');
  const fields = title.children.filter((n): n is Section => n.type === 'section');
  const text = (s: Section): string => [...leaves(s.children)].map((l) => l.text).join(' ');
  assert.deepEqual(
    fields.slice(0, 3).map((s) => [s.heading.text, text(s)]),
    [
      // The title's value wraps over two lines; the next field starts on the line after it.
      ['Official Title:', 'Access-H20: Sensor driven smart faucet to enable and empower independent drinking and grooming for individuals impacted by spinal cord injury'],
      ['Grant Number:', '1R43HD108061-01A1'],
      ['Document Date:', 'March 2022'],
    ],
  );
  // The study's text follows the fields under the title, not inside "Document Date:".
  const body = title.children.find((n): n is Paragraph => n.type === 'paragraph' && n.leaf.text.startsWith('The study is a feasibility study'));
  assert.ok(body, JSON.stringify(title.children.map((n) => n.type)));
});

test('layout: each table-of-contents entry, ended by leader dots and a page number, is its own block, nested by its number', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/GSA2022.pdf'));
  const contents = sections(doc.nodes).find((s) => s.heading.text === 'Contents');
  assert.ok(contents);
  const texts = [...leaves(contents.children)].map((l) => l.text.replace(/(?:\.\s?){4,}/g, ' … ').replace(/\s+/g, ' '));
  assert.deepEqual(texts.slice(0, 3), ['Vision … 3', 'Mission … 3', 'Values … 3']);
  // No entry runs into the next one.
  assert.ok(texts.every((t) => (t.match(/ … /g) ?? []).length <= 1), JSON.stringify(texts.filter((t) => (t.match(/ … /g) ?? []).length > 1)));
  const items = listItems(contents.children).map((i) => i.marker?.text.trim());
  for (const m of ['1.', '1.1.', '1.1.1.', '1.2.', '1.2.3.1.']) assert.ok(items.includes(m), `${m} in ${JSON.stringify(items.slice(0, 20))}`);
});

test('layout: a table-of-contents entry that leads with a bold "Strategy 1.1.1." is an entry, not a heading', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
  const headings = sections(doc.nodes).map((s) => s.heading.text);
  assert.deepEqual(headings.filter((h) => /\.{4,}/.test(h) || /^Strategy \d+(?:\.\d+)*\.?$/.test(h)), []);
  const contents = sections(doc.nodes).find((s) => s.heading.text === 'Contents');
  assert.ok(contents);
  const entries = [...leaves(contents.children)].map((l) => l.text.replace(/(?:\.\s?){4,}/g, ' … ').replace(/\s+/g, ' '));
  assert.ok(entries.includes('Strategy 1.1.1. COVID-19 … 11'), JSON.stringify(entries.slice(0, 12)));
  assert.ok(entries.includes('Strategy 5.2.2. Modernization … 71'), JSON.stringify(entries.slice(-12)));
});

test('layout: raised marks set over gaps inside a run of text ("AirPods , Apple TV" under "®"s) go where their gaps are', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/sec-10-q/2022 Q3 AAPL.pdf'));
  const texts = paragraphs(doc.nodes).map((p) => p.leaf.text);
  const has = (s: string): boolean => texts.some((t) => t.includes(s));
  assert.ok(has('include sales of AirPods®, Apple TV®, Apple Watch®, Beats® products, HomePod mini® and accessories.'), JSON.stringify(texts.filter((t) => t.includes('AirPods')).slice(0, 2)));
  assert.ok(has('advertising, AppleCare®, cloud, digital content'));
  assert.ok(has('lower net sales of iPad Pro®, partially offset'));
  assert.ok(!texts.some((t) => / [,.]/.test(t) && /[®™]/.test(t) && / ,/.test(t)), JSON.stringify(texts.filter((t) => / ,/.test(t) && /®/.test(t))));
});

describe('layout: titles centred over several lines', () => {
  test('the NTSB report title, its second line shorter and so inset on both sides, is one heading', async () => {
    const doc = await analyze(reference('20071210X01921.pdf'));
    const headings = sections(doc.nodes).map((s) => s.heading.text);
    assert.equal(headings[0], 'National Transportation Safety Board Aviation Accident Final Report', JSON.stringify(headings.slice(0, 3)));
    assert.ok(!headings.includes('Aviation Accident Final Report'));
  });

  test('a 10-Q certification title in bold capitals over five centred lines is one heading, and its "SECTION 906" line no section', async () => {
    const doc = await analyze(path.join(corpus, 'kgrag/sec-10-q/2023 Q1 AAPL.pdf'));
    const headings = sections(doc.nodes).map((s) => s.heading.text);
    const title = 'CERTIFICATIONS OF CHIEF EXECUTIVE OFFICER AND CHIEF FINANCIAL OFFICER PURSUANT TO 18 U.S.C. SECTION 1350, AS ADOPTED PURSUANT TO SECTION 906 OF THE SARBANES-OXLEY ACT OF 2002';
    assert.ok(headings.includes(title), JSON.stringify(headings.filter((h) => /CERTIFICATION|PURSUANT|SECTION 906/.test(h))));
    assert.ok(!headings.some((h) => h.startsWith('SECTION 906') || h.startsWith('PURSUANT TO')));
    // Column headings over the statements' figures belong to their tables, not the outline.
    assert.ok(!headings.some((h) => /Months Ended/.test(h)), JSON.stringify(headings.filter((h) => /Months Ended/.test(h))));
  });

  test('a short bold name centred a blank line over a statement title is part of that title, not an empty section', async () => {
    const doc = await analyze(path.join(corpus, 'kgrag/sec-10-q/2023 Q1 AAPL.pdf'));
    const all = sections(doc.nodes);
    const headings = all.map((s) => s.heading.text);
    for (const title of ['CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)', 'CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)', 'Notes to Condensed Consolidated Financial Statements (Unaudited)']) {
      assert.ok(headings.includes(`Apple Inc. ${title}`), JSON.stringify(headings.filter((h) => h.includes(title))));
    }
    // Before, each statement page opened with an empty "Apple Inc." section; the two left are on the cover.
    assert.equal(headings.filter((h) => h === 'Apple Inc.').length, 2);
    const balance = all.find((s) => s.heading.text === 'Apple Inc. CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)')!;
    assert.ok(balance.children.some((c) => c.type === 'table'), 'the statement holds its table');
  });

  test('a justified paragraph, its lines sharing both edges, is not a centred title', async () => {
    const doc = await analyze(reference('Shorebucks LLC_AZ.pdf'));
    const long = sections(doc.nodes).filter((s) => wordsOf(s.heading.text).length > 16);
    assert.deepEqual(long.map((s) => s.heading.text), []);
  });
});

test('layout: a 10-Q\'s numbered notes ("Note 3 – Financial Instruments") hold the unnumbered headings of their type up to the next note, inside Item 1', async () => {
  const doc = await analyze(path.join(corpus, 'kgrag/sec-10-q/2023 Q1 AAPL.pdf'));
  const all = sections(doc.nodes);
  const named = (heading: string) => {
    const found = all.find((s) => s.heading.text === heading);
    assert.ok(found, `a section "${heading}"`);
    return found;
  };
  const children = (s: Section) => s.children.filter((c): c is Section => c.type === 'section').map((c) => c.heading.text);
  assert.deepEqual(children(named('Note 1 – Summary of Significant Accounting Policies')), ['Basis of Presentation and Preparation', 'Earnings Per Share']);
  assert.deepEqual(children(named('Note 3 – Financial Instruments')), ['Cash, Cash Equivalents and Marketable Securities', 'Derivative Instruments and Hedging', 'Accounts Receivable']);
  // The notes are the item's: nine of them in Item 1, none in Item 2, which is the next item, not a note's child.
  const item1 = children(named('Item 1. Financial Statements'));
  assert.equal(item1.filter((h) => /^Note \d+ – /.test(h)).length, 9, JSON.stringify(item1));
  assert.ok(children(named('PART I — FINANCIAL INFORMATION')).includes('Item 2. Management’s Discussion and Analysis of Financial Condition and Results of Operations'));
});

test('layout: another final report of the same NTSB form, with a longer narrative, gets the same findings headings', async () => {
  // Its 12 pt narrative is a little longer than its 9 pt boilerplate (1,094 and 928 characters; 785
  // and 928 in 20071210X01921): the body size must not flip between them.
  const doc = await analyze(path.join(corpus, 'kgrag/ntsb-aviation-incident-accident-reports/20080117X00072.pdf'));
  const headings = sections(doc.nodes).map((s) => s.heading.text);
  for (const h of ['Occurrence #1: ON GROUND/WATER COLLISION WITH OBJECT', 'Phase of Operation: TAXI - FROM LANDING']) assert.ok(headings.includes(h), JSON.stringify(headings));
  assert.equal(headings.filter((h) => h === 'Findings').length, 2, JSON.stringify(headings));
});

describe('layout: federal agency reports', () => {
  test('a two-column page reads column 1 before column 2, with hyphenated words mended', async () => {
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DHS2020.pdf'));
    const page5 = textLeaves(doc.nodes).filter((l) => l.boxes.some((b) => b.page === 5)).map((l) => l.text);
    const at = (text: string): number => page5.findIndex((t) => t.includes(text));
    const left = at('Oversees and coordinates the Department’s legal affairs, public affairs');
    const leftLater = at('One of the world\'s largest law enforcement organizations');
    const right = at('Conducts homeland security investigations and enforces criminal and civil federal laws');
    assert.ok(left >= 0 && leftLater >= 0 && right >= 0, page5.join('\n'));
    assert.ok(left < leftLater && leftLater < right, 'column 1 then column 2');
    assertCoverage(doc);
    assertBoxes(doc);
  });

  test('two columns of names read down each column, also where their lines come to share a baseline', async () => {
    // DOSAID's interagency partners (page 3): the columns' lines are staggered, then three rows line up across the gutter.
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    const texts = textLeaves(doc.nodes).filter((l) => l.boxes.some((b) => b.page === 3)).map((l) => l.text).join(' ');
    for (const runTogether of ['Department of Labor Inter-American Foundation', 'Department of Interior U.S. Export-Import Bank']) assert.ok(!texts.includes(runTogether), `"${runTogether}" is two columns' names`);
    const order = ['Department of Energy', 'Department of Labor', 'Department of Health and Human Services', 'Department of Interior', 'Department of Transportation', 'Department of Veterans Affairs', 'Corporation Inter-American Foundation', 'U.S.-African Development Foundation', 'U.S. Export-Import Bank', 'Millennium Challenge Corporation'];
    const at = order.map((t) => texts.indexOf(t));
    assert.ok(at.every((i) => i >= 0) && at.every((i, k) => k === 0 || i > at[k - 1]!), `down the left column, then down the right: ${JSON.stringify(at)} ${texts}`);
  });

  test('columns of two tightly set lines are read one column after the other', async () => {
    // DOSAID's last page: a paragraph carried over from the page before, in two columns of two lines.
    const dosaid = bodyText((await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'))).nodes);
    assert.ok(dosaid.some((t) => t.includes('refine its business model for visa operations to secure prompt visa issuances to qualified travelers, while enhancing mechanisms')), 'the visa sentence reads down its columns');
    // NARA's "Contributing Programs": two lines in each column under the label.
    const nara = bodyText((await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/NARA2022.pdf'))).nodes);
    assert.ok(nara.includes('Research Services; Agency Services; Legislative Archives, Presidential Libraries, and Museum Services;'), 'the left column whole');
    assert.ok(nara.includes('Offce of General Counsel; Offce of Innovation, Information Services.'), 'the right column whole');
  });

  test('two columns read down to their feet, though their paragraph gaps line up across them', async () => {
    // DOSAID page 7: "International Institutions :" and "Foreign Publics :" open side by side after
    // paragraphs that end on one line; "Partners :" runs on from the foot of column 1 to the top of
    // column 2 ("… bringing together sub-national" / "governments; the private sector; …").
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    const page7 = textLeaves(doc.nodes).filter((l) => l.boxes.some((b) => b.page === 7)).map((l) => l.text);
    const at = (text: string): number => page7.findIndex((t) => t.startsWith(text));
    const order = ['Allies :', 'International Institutions :', 'Partners :', 'Sub-National Governments', 'Multilateral Organizations :', 'Foreign Publics :'].map(at);
    assert.ok(order.every((i) => i >= 0), JSON.stringify(page7));
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'column 1 to its foot, then column 2');
    assert.ok(page7.some((t) => t.includes('bringing together sub-national governments; the private sector; civil society')), 'the paragraph under "Partners :" reads on into column 2');
    // Page 17: "Performance Indicators", set off under the first column of names, is not part of it.
    const page17 = textLeaves(doc.nodes).filter((l) => l.boxes.some((b) => b.page === 17)).map((l) => l.text);
    assert.ok(page17.indexOf('Older Persons') >= 0 && page17.indexOf('Older Persons') < page17.indexOf('Performance Indicators'), JSON.stringify(page17.slice(0, 14)));
  });

  test('entries set side by side in columns on one bold line are items under their label, each its own, not a title', async () => {
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    const headings = sections(doc.nodes).map((s) => s.heading.text);
    for (const name of ['Mothers Children', 'Indigenous Peoples Women', 'Donor Countries Host Countries', 'Mothers', 'Donor Countries']) {
      assert.ok(!headings.includes(name), `"${name}" is not a heading`);
    }
    const stakeholders = sections(doc.nodes).filter((s) => s.heading.text === 'Stakeholder(s):');
    const entries = stakeholders.flatMap((s) => listItems(s.children).map((i) => textLeaves(i.children).map((l) => l.text).join(' ')));
    for (const name of ['Mothers', 'Children', 'Indigenous Peoples', 'Women', 'Donor Countries', 'Host Countries']) assert.ok(entries.includes(name), `"${name}" under "Stakeholder(s):": ${JSON.stringify(entries)}`);
    for (const pair of ['Mothers Children', 'Indigenous Peoples Women', 'Donor Countries Host Countries']) assert.ok(!paragraphs(doc.nodes).some((p) => p.leaf.text === pair), `"${pair}" is not one run of words`);
  });

  test('a running header is furniture however its lines are cut, and "continued next page" notes are furniture that a paragraph reads on across', async () => {
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    // The header ("U.S. Department of State, U.S. Agency for International" over "Development", across
    // from "Strategic Plan") is read as one line on some pages and as two or three on others.
    const body = bodyText(doc.nodes);
    const strays = body.filter((t) => /^(?:Strategic Plan|U\.S\. Department of State, U\.S\. Agency for International(?: Development)?|Development)$/.test(t));
    assert.deepEqual(strays, []);
    const furniture = paragraphs(doc.nodes).filter((p) => p.role === 'header' || p.role === 'footer');
    const headerPages = new Set(furniture.filter((p) => /Strategic Plan/.test(p.leaf.text)).map((p) => p.leaf.boxes[0]!.page));
    assert.ok(headerPages.size >= doc.pages.length - 2, `"Strategic Plan" is a header on ${headerPages.size} of ${doc.pages.length} pages`);
    // "— continued next page" at a column's foot, "Stakeholders (continued)" atop the next page.
    const notes = furniture.filter((p) => /continued/i.test(p.leaf.text));
    assert.ok(notes.filter((p) => /continued next page$/.test(p.leaf.text)).length >= 8, JSON.stringify(notes.map((p) => p.leaf.text)));
    assert.ok(notes.some((p) => p.leaf.text === 'Stakeholders (continued)'));
    assert.ok(!body.some((t) => /continued next page|^Stakeholders \(continued\)$/.test(t)));
    // A paragraph cut by the page turn reads on, its word broken there mended.
    assert.ok(body.some((t) => t.includes('identify opportunities to improve, particularly where the Department needs to overcome')), 'the paragraph runs on across pages 67 and 68');
    assertCoverage(doc);
  });

  test('running headers and page numbers are furniture on every page', async () => {
    const doc = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/NARA2022.pdf'));
    const furniture = paragraphs(doc.nodes).filter((p) => p.role !== 'body');
    const numbers = furniture.filter((p) => p.role === 'page-number').map((p) => p.leaf.text);
    assert.ok(numbers.length >= doc.pages.length - 2, `page numbers: ${numbers.join(', ')}`);
    assert.ok(numbers.every((t) => /^Page \d+$/.test(t)));
    assert.ok(furniture.filter((p) => p.role === 'header').length >= doc.pages.length / 2);
    assert.ok(!bodyText(doc.nodes).some((t) => /^Page \d+$|^Strategic Plan National Archives/.test(t)));
    assertCoverage(doc);
  });
});

test('layout: a short line of its own in italics heads the text right under it; with nothing under it, or its text set apart, it is text', async () => {
  const tenQ = await analyze(path.join(corpus, 'kgrag/sec-10-q/2023 Q3 AAPL.pdf'));
  // The 10-Q's MD&A names each product line in italics over its paragraph.
  for (const product of ['iPhone', 'Mac', 'iPad', 'Wearables, Home and Accessories', 'Services']) {
    const found = sections(tenQ.nodes).find((s) => s.heading.text === product);
    assert.ok(found, `"${product}" heads a section`);
    const first = found.children[0];
    assert.ok(first?.type === 'paragraph' && first.leaf.text.startsWith(`${product} net sales`), JSON.stringify(first));
  }
  assert.ok(sections(tenQ.nodes).some((s) => s.heading.text === 'Research and Development'));
  // A stakeholder's role in italics under its name, nothing under it, stays text (NARA, DOSAID).
  for (const [file, role] of [
    ['kgrag/us-fed-agency-reports/NARA2022.pdf', 'Contributing Program'],
    ['kgrag/us-fed-agency-reports/DOSAID2022.pdf', 'DOS Lead Agency'],
    ['kgrag/us-fed-agency-reports/DOSAID2022.pdf', 'USAID Lead Agency'],
  ] as const) {
    const doc = await analyze(path.join(corpus, file));
    assert.ok(!sections(doc.nodes).some((s) => s.heading.text === role), `"${role}" is no heading in ${file}`);
    assert.ok(bodyText(doc.nodes).includes(role), `"${role}" is text in ${file}`);
  }
  // Built pages: an italic line over its paragraph, then the same line with a blank line between.
  const height = (10 * 300) / 72;
  const pageWith = (gap: number): PageModel => {
    const run = (text: string, y: number, italic: boolean) => ({ text, x: 300, y, width: text.length * height * 0.45, height, fontName: italic ? 'Arial-ItalicMT' : 'ArialMT', fontSize: 10, italic });
    const body = ['Net sales of the product line rose during the quarter, led by the new models and', 'by higher sales in every region.'];
    const items = [run('Intro text that opens the page and sets the body type for what comes after.', 300, false), run('Product Line', 300 + 2.2 * height, true)];
    body.forEach((text, k) => items.push(run(text, 300 + (3.2 + gap + k * 1.1) * height, false)));
    return { number: 1, width: 2550, height: 3300, items };
  };
  const headings = (page: PageModel) => sections(pdfStructure([page], [{ tables: [], consumed: new Set<number>() }])).map((s) => s.heading.text);
  assert.deepEqual(headings(pageWith(0.1)), ['Product Line']);
  assert.deepEqual(headings(pageWith(1.5)), []);
});

test('layout: a title set large with its text running on in body type heads that text; labels in small capitals are no titles', async () => {
  const doc = await analyze(path.join(corpus, 'pdf/A - Package Proposal.pdf'));
  const heads = sections(doc.nodes).map((s) => s.heading.text);
  for (const title of ['Causes of Loss – Earthquake', 'Causes of Loss – Broad Form Flood']) {
    const found = sections(doc.nodes).find((s) => s.heading.text === title);
    assert.ok(found, `"${title}" heads a section: ${JSON.stringify(heads)}`);
    const first = found.children[0];
    assert.ok(first?.type === 'paragraph' && first.leaf.text.startsWith('– aggregate in any one policy year'), JSON.stringify(first));
  }
  // Column labels set smaller than the rows under them ("AGGREGATE LIMITS OF / INSURANCE", "FORM NUMBER").
  for (const label of ['AGGREGATE LIMITS OF', 'INSURANCE', 'LIMITS OF INSURANCE', 'DESCRIPTION', 'FORM NUMBER', 'PREMIUM']) assert.ok(!heads.includes(label), `"${label}" is no heading`);
  assertCoverage(doc);
});

test('layout: table notes under the body are footnotes, kept apart from running footers', async () => {
  const doc = await analyze(path.join(corpus, 'pdf/A - Package Proposal.pdf'));
  const byRole = (role: string): string[] => paragraphs(doc.nodes).filter((p) => p.role === role).map((p) => p.leaf.text);
  const notes = byRole('footnote');
  assert.ok(notes.length >= 2 && notes.every((t) => /^\*Included means/.test(t)), notes.join(' | '));
  assert.ok(byRole('footer').some((t) => t === 'Refer to policy for actual terms and conditions'));
  assert.ok(byRole('page-number').length >= doc.pages.length / 2);
  assert.ok(!bodyText(doc.nodes).some((t) => /^\*Included means|^Page \| \d+$/.test(t)));
  assertCoverage(doc);
  assertBoxes(doc);
});

describe('layout: a line printed in place atop a few pages', () => {
  const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'inlet', 'juniper', 'kestrel', 'lagoon'];
  /** Twelve Letter pages of 10 pt sentences, each its own; on pages 2, 6 and 9 `top` (Helvetica `[text, size, y]` lines at x 72) above them. */
  const pdfWith = (top: [string, number, number][]): Buffer =>
    helveticaPdf(
      Array.from({ length: 12 }, (_, i) => {
        // Without figures: lines differing only in their figures would be running lines themselves.
        const body: [string, number, number][] = [0, 1, 2, 3].map((k) => [`The ${WORDS[i]} ${WORDS[(i + k + 1) % 12]} clause says something of its own, and says it plainly here.`, 10, 600 - 14 * k]);
        return [...([1, 5, 8].includes(i) ? top : []), ...body].map(([text, size, y]) => `BT /F1 ${size} Tf 1 0 0 1 72 ${y} Tm (${text}) Tj ET`).join('\n');
      }),
    );
  const nodesOf = async (pdf: Buffer): Promise<StructureNode[]> => (await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 })).structure.nodes;
  const rolesOf = (nodes: StructureNode[], text: string): string[] => paragraphs(nodes).filter((p) => p.leaf.text === text).map((p) => p.role);

  test('with a figure, standing apart from the title under it: a running header on those pages', async () => {
    const nodes = await nodesOf(pdfWith([['Form CX 12 04', 12, 740], ['Schedule of locations', 16, 690]]));
    assert.deepEqual(rolesOf(nodes, 'Form CX 12 04'), ['header', 'header', 'header']);
    assert.ok(sections(nodes).some((s) => s.heading.text === 'Schedule of locations'), JSON.stringify(sections(nodes).map((s) => s.heading.text)));
  });

  test('the first line of a title in its type, or a line without a figure: not furniture', async () => {
    const titled = await nodesOf(pdfWith([['Form CX 12 04', 12, 740], ['Schedule of locations', 12, 726]]));
    assert.deepEqual(rolesOf(titled, 'Form CX 12 04'), [], 'a title block');
    assert.ok(!paragraphs(titled).some((p) => p.role === 'header'), JSON.stringify(paragraphs(titled).filter((p) => p.role !== 'body').map((p) => [p.role, p.leaf.text])));
    const plain = await nodesOf(pdfWith([['Form of the schedule', 12, 740], ['Schedule of locations', 16, 690]]));
    assert.ok(!paragraphs(plain).some((p) => p.role === 'header'), JSON.stringify(paragraphs(plain).filter((p) => p.role === 'header').map((p) => p.leaf.text)));
  });
});

test('layout: a line printed in place atop a few pages is their running header; a title block is not', async () => {
  const proposal = await analyze(path.join(corpus, 'pdf/A - Package Proposal.pdf'));
  // "Policy Number 630-001" heads 4 of the 20 pages (one form of the package): too few for the whole
  // document's furniture, but word for word at one height in the top margin.
  const policy = paragraphs(proposal.nodes).filter((p) => p.leaf.text === 'Policy Number 630-001');
  assert.deepEqual(
    policy.map((p) => [p.leaf.boxes[0]?.page, p.role]),
    [
      [4, 'header'],
      [17, 'header'],
      [18, 'header'],
      [19, 'header'],
    ],
  );
  assert.ok(!sections(proposal.nodes).some((s) => s.heading.text === 'Policy Number 630-001'), 'no empty section named after it');
  // "Apple Inc." repeats in place over every statement of the 10-Q, in the statement title's size and
  // weight, a line above it: it is the title's first line.
  const tenQ = await analyze(path.join(corpus, 'kgrag/sec-10-q/2022 Q3 AAPL.pdf'));
  const titles = sections(tenQ.nodes).map((s) => s.heading.text);
  for (const title of ['Apple Inc. CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)', 'Apple Inc. CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)']) {
    assert.ok(titles.includes(title), `no section "${title}" in ${JSON.stringify(titles.filter((t) => /Apple|CONDENSED/.test(t)))}`);
  }
  assert.ok(!paragraphs(tenQ.nodes).some((p) => p.role === 'header' && p.leaf.text === 'Apple Inc.'), 'Apple Inc. is no running header');
});

describe('layout: labels over their entries, and headings inside the item their number is under', () => {
  test("the GSA plan: a stakeholder under \"Stakeholder(s):\", the indicators after them and the sub-objective's list inside the objective", async () => {
    const gsa = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/GSA2022.pdf'));
    // (The first "1.1." is the table of contents' entry.)
    const item = listItems(gsa.nodes).find((i) => i.marker?.text === '1.1.' && i.children[0]?.type === 'section');
    assert.ok(item, 'a list item "1.1." holding a section');
    const objective = item.children[0];
    assert.ok(objective?.type === 'section' && objective.heading.text === 'Workspaces & Services', `item 1.1 holds its objective: ${JSON.stringify(objective).slice(0, 200)}`);
    const inside = objective.children.filter((n): n is Section => n.type === 'section').map((s) => s.heading.text);
    assert.deepEqual(inside, ['Stakeholder(s):', 'Performance Indicators'], 'the stakeholders, then the indicators beside them');
    const indicators = objective.children.find((n): n is Section => n.type === 'section' && n.heading.text === 'Performance Indicators')!;
    assert.deepEqual(
      indicators.children.filter((n): n is Section => n.type === 'section').map((g) => g.heading.text),
      ['Key Performance Goal 1.1.1 Right-Sizing'],
      'the goal, indented under the indicators in their type, is inside them',
    );
    const label = objective.children.find((n): n is Section => n.type === 'section' && n.heading.text === 'Stakeholder(s):')!;
    const entry = label.children.find((n): n is Section => n.type === 'section');
    // Its name is set a point larger than the label, in bold: it is what the label introduces all the same.
    assert.equal(entry?.heading.text, 'Public Buildings Service :');
    assert.deepEqual(bodyText(entry.children), ['Lead Office']);
    const sub = listItems(objective.children).map((i) => i.marker?.text);
    assert.deepEqual(sub, ['1.1.1.', '1.1.2.'], 'the sub-objectives are items inside objective 1.1, not a list after it');
    // Every stakeholder entry of the plan sits under a label, and no indicator does.
    for (const s of sections(gsa.nodes).filter((x) => x.heading.text === 'Stakeholder(s):')) {
      assert.ok(sections(s.children).every((x) => !/^(Performance Indicators|Key Performance Goal)/.test(x.heading.text)), `indicators under the stakeholders on page ${s.heading.boxes[0]?.page}`);
    }
    assert.equal(sections(gsa.nodes).filter((x) => x.heading.text === 'Performance Indicators' && x.level <= 3).length, 0, 'no indicators outside their objective');
    const goals = sections(gsa.nodes).filter((x) => x.heading.text.startsWith('Key Performance Goal'));
    const underIndicators = sections(gsa.nodes)
      .filter((x) => x.heading.text === 'Performance Indicators')
      .flatMap((x) => x.children.filter((n): n is Section => n.type === 'section'));
    assert.deepEqual(
      goals.filter((g) => !underIndicators.includes(g)).map((g) => g.heading.text),
      [],
      `every one of the ${goals.length} key performance goals is under its indicators`,
    );
  });

  test('the State/USAID plan: each "Strategy 1.1.1." inside objective 1.1; a bold label under an italic line without its stop is a heading', async () => {
    const plan = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    const strategies = sections(plan.nodes).filter((s) => /^Strategy \d+\.\d+\.\d+\./.test(s.heading.text));
    assert.ok(strategies.length >= 40, `the plan's strategies: ${strategies.length}`);
    // Each is inside the list item whose number starts its own (the table of contents' entries are text).
    const items = listItems(plan.nodes).filter((i) => /^\d+\.\d+\.$/.test(i.marker?.text ?? ''));
    for (const strategy of strategies) {
      const holder = items.find((i) => sections(i.children).includes(strategy));
      const number = /^Strategy (\d+\.\d+)\./.exec(strategy.heading.text)![1];
      assert.equal(holder?.marker?.text, `${number}.`, `"${strategy.heading.text}" is inside objective ${number}`);
    }
    // "Protect our personnel … threats (Joint)" in italics, then "Stakeholder(s):" in bold on the next line.
    const threats = items.find((i) => i.marker?.text === '4.3.' && i.children[0]?.type === 'section');
    assert.ok(threats, 'objective 4.3');
    const objective = threats.children[0] as Section;
    const labels = objective.children.filter((n): n is Section => n.type === 'section' && n.heading.text === 'Stakeholder(s):');
    assert.equal(labels.length, 1, 'objective 4.3 has its stakeholders');
    assert.ok(!bodyText(objective.children).some((t) => t.includes('Stakeholder(s):')), 'the label is not the end of the italic sentence');
    assert.ok(sections(labels[0]!.children).some((s) => s.heading.text === 'Bureau of Diplomatic Security and Overseas Building Operations :'), 'the lead agency is under the label');
    // USAID's stakeholders: the Administrator, named as a label over her title, the partners under her,
    // then those set a point larger in a second column; each an entry of the label, none inside another.
    // (Read column by column: "World Bank :" heads the second column, beside "Samantha Power :".)
    const usaid = sections(plan.nodes).find((s) => s.heading.text === 'Stakeholder(s):' && s.children.some((c) => c.type === 'section' && c.heading.text === 'Samantha Power :'));
    assert.ok(usaid, '"Samantha Power :" is under "Stakeholder(s):"');
    const entries = usaid.children.filter((n): n is Section => n.type === 'section');
    assert.deepEqual(entries.map((e) => e.heading.text), ['Samantha Power :', 'International & Multilateral Partners :', 'United Nations :', 'World Bank :']);
    assert.deepEqual(entries.map((e) => sections(e.children).length), [0, 0, 0, 0], 'no entry holds another');
    assert.deepEqual(bodyText(entries[0]!.children), ['USAID Administrator']);
  });

  test('the State/USAID plan: "Stakeholder(s)" without its colon is the label the plan sets with it 57 times; "Allies", a label once, is not', async () => {
    const plan = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    const bare = sections(plan.nodes).filter((s) => s.heading.text === 'Stakeholder(s)');
    assert.ok(bare.length >= 3, `the plan's labels without their colon: ${bare.length}`);
    const first = (s: Section) => sections(s.children)[0]?.heading.text;
    for (const [lead, where] of [
      ['Under Secretary for Political Affairs :', 'goal 1'],
      ['U.S. Middle Class :', 'goal 2'],
      ['Under Secretary for Civilian Security, Democracy, and Human Rights :', 'goal 3'],
    ]) {
      assert.ok(bare.some((s) => first(s) === lead), `"${lead}" (${where}) is the first entry under "Stakeholder(s)": ${bare.map(first).join(' | ')}`);
    }
    const goal3 = bare.find((s) => first(s) === 'Under Secretary for Civilian Security, Democracy, and Human Rights :')!;
    assert.deepEqual(sections(goal3.children).map((s) => s.heading.text), ['Under Secretary for Civilian Security, Democracy, and Human Rights :', 'Bureau for Development, Democracy, and Innovation :']);
    // Page 19: "Allies" (its only label use is "Allies :" on page 7) is an entry like "NATO :", not a label over "European Union :".
    const allies = sections(plan.nodes).filter((s) => s.heading.text === 'Allies' && s.heading.boxes[0]?.page === 19);
    assert.equal(allies.length, 1, 'the entry "Allies" on page 19');
    assert.deepEqual(sections(allies[0]!.children).map((s) => s.heading.text), [], '"Allies" holds no entries');
  });

  /** Lines of text on a Letter page: `[text, size, bold, y]` at the left margin (x 72) or at `x`. */
  const page = (lines: [string, number, boolean, number, number?][]): Buffer => {
    const ops = lines.map(([text, size, bold, y, x]) => `BT /${bold ? 'F2' : 'F1'} ${size} Tf 1 0 0 1 ${x ?? 72} ${y} Tm (${text}) Tj ET`).join('\n');
    return makePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents 6 0 R >>',
      `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    ]);
  };
  const BODY: [string, number, boolean, number][] = [
    ['Objective 4', 14, true, 720],
    ['The agency will modernise its buildings and the services that run them, with its partners,', 10, false, 696],
    ['and will report on the progress it makes every year to the public and to the Congress.', 10, false, 684],
  ];
  const structureOf = async (pdf: Buffer): Promise<Section> => {
    const nodes = pdfStructure(await readPdfPages(pdf), []);
    const top = sections(nodes).find((s) => s.heading.text === 'Objective 4');
    assert.ok(top, `a section "Objective 4": ${JSON.stringify(nodes).slice(0, 300)}`);
    return top;
  };
  const shape = (s: Section): unknown[] => s.children.filter((n): n is Section => n.type === 'section').map((c) => [c.heading.text, ...shape(c)]);
  const AFTER: [string, number, boolean, number][] = [
    ['Performance Indicators', 10, true, 583],
    ['Buildings modernised in the year, against the plan for the year.', 10, false, 567],
  ];

  test('a built page: the entry right under the label is inside it, the heading after a blank line is not', async () => {
    const built = await structureOf(page([...BODY, ['Stakeholder(s):', 10, true, 660], ['Public Buildings Service :', 11, true, 647], ['Lead Office', 9, false, 635], ['Federal Acquisition Service :', 11, true, 621], ['Contributing Office', 9, false, 609], ...AFTER]));
    assert.deepEqual(shape(built), [['Stakeholder(s):', ['Public Buildings Service :'], ['Federal Acquisition Service :']], ['Performance Indicators']]);
  });

  test("a built page: headings in a heading's type, indented tight under it, are inside it; after a blank line, beside it", async () => {
    const goals = (x: number, y: number): [string, number, boolean, number, number?][] => [
      ...BODY,
      ['Performance Indicators', 10, true, 660],
      ['Goal 4.1 Buildings modernised', 10, true, y, x],
      ['Buildings modernised in the year, against the plan for the year.', 10, false, y - 16, x],
      ['Goal 4.2 Services delivered', 10, true, y - 40, x],
      ['Services delivered in the year, against the plan for the year.', 10, false, y - 56, x],
    ];
    assert.deepEqual(shape(await structureOf(page(goals(84, 643)))), [['Performance Indicators', ['Goal 4.1 Buildings modernised'], ['Goal 4.2 Services delivered']]]);
    assert.deepEqual(shape(await structureOf(page(goals(84, 630)))), [['Performance Indicators'], ['Goal 4.1 Buildings modernised'], ['Goal 4.2 Services delivered']]);
  });

  test('a built page: a label followed by a blank line, or by a label of its own type, holds nothing', async () => {
    const apart = await structureOf(page([...BODY, ['Stakeholder(s):', 10, true, 660], ['Public Buildings Service :', 11, true, 634], ['Lead Office', 9, false, 622], ...AFTER]));
    // (The indicators, set smaller than the name, are under it, as under any heading.)
    assert.deepEqual(shape(apart), [['Stakeholder(s):'], ['Public Buildings Service :', ['Performance Indicators']]]);
    const fields = await structureOf(page([...BODY, ['Applicant:', 10, true, 660], ['Address:', 10, true, 647], ['Telephone:', 10, true, 634], ...AFTER]));
    assert.deepEqual(shape(fields), [['Applicant:'], ['Address:'], ['Telephone:'], ['Performance Indicators']]);
    // A value under the third field does not make it an entry of the second.
    const filled = await structureOf(page([...BODY, ['Applicant:', 10, true, 660], ['Address:', 10, true, 647], ['Telephone:', 10, true, 634], ['(555) 010-0100', 10, false, 622], ...AFTER]));
    assert.deepEqual(shape(filled), [['Applicant:'], ['Address:'], ['Telephone:'], ['Performance Indicators']]);
  });

  test('a built page: labels in the type of the empty label above them, each over its own sentence, are its entries', async () => {
    const entries = await structureOf(
      page([
        ...BODY,
        ['Stakeholder(s):', 10, true, 660],
        ['Elected Leaders :', 10, true, 647],
        ['Protecting the elected leaders is a paramount responsibility.', 10, false, 635],
        ['Federal Personnel :', 10, true, 621],
        ['The agency also protects federal facilities and their staff.', 10, false, 609],
        ...AFTER,
      ]),
    );
    assert.deepEqual(shape(entries), [['Stakeholder(s):', ['Elected Leaders :'], ['Federal Personnel :']], ['Performance Indicators']]);
    // Set off by a blank line, the first one is a heading beside the label, as before.
    const apart = await structureOf(
      page([
        ...BODY,
        ['Stakeholder(s):', 10, true, 660],
        ['Elected Leaders :', 10, true, 634],
        ['Protecting the elected leaders is a paramount responsibility.', 10, false, 622],
        ...AFTER,
      ]),
    );
    assert.deepEqual(shape(apart), [['Stakeholder(s):'], ['Elected Leaders :'], ['Performance Indicators']]);
  });

  test('a built page: under a label the document sets three times, the first entry may stand a blank line lower', async () => {
    const withApart = (labels: number) => {
      const lines: [string, number, boolean, number][] = [...BODY];
      let y = 660;
      for (let i = 0; i < labels; i++) {
        lines.push(['Stakeholder(s):', 10, true, y], [i === 0 ? 'Elected Leaders :' : `Partners ${i} :`, 10, true, y - (i === 0 ? 26 : 13)]);
        lines.push(['Protecting the elected leaders is a paramount responsibility.', 10, false, y - (i === 0 ? 38 : 25)]);
        y -= 70;
      }
      return page([...lines, ['Performance Indicators', 10, true, y], ['Buildings modernised in the year, against the plan for the year.', 10, false, y - 16]]);
    };
    const three = shape(await structureOf(withApart(3)));
    assert.deepEqual(three.slice(0, 1), [['Stakeholder(s):', ['Elected Leaders :']]], JSON.stringify(three));
    // Set once only, the label holds nothing a blank line under it (as above).
    const once = shape(await structureOf(withApart(1)));
    assert.deepEqual(once.slice(0, 2), [['Stakeholder(s):'], ['Elected Leaders :']], JSON.stringify(once));
  });

  test('a built document: entries named as labels go on at the top of the next page where they started; a heading not so named does not', async () => {
    type Line = [string, number, boolean, number, number?];
    const ops = (lines: Line[]) => lines.map(([text, size, bold, y, x]) => `BT /${bold ? 'F2' : 'F1'} ${size} Tf 1 0 0 1 ${x ?? 72} ${y} Tm (${text}) Tj ET`).join('\n');
    const twoPages = (first: Line[], second: Line[]): Buffer => {
      const [a, b] = [ops(first), ops(second)];
      const pageObject = (contents: number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contents} 0 R >>`;
      return makePdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 >>',
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
        pageObject(7),
        pageObject(8),
        `<< /Length ${a.length} >>\nstream\n${a}\nendstream`,
        `<< /Length ${b.length} >>\nstream\n${b}\nendstream`,
      ]);
    };
    const first: Line[] = [
      ...BODY,
      ['Stakeholder(s):', 10, true, 98],
      ['Elected Leaders :', 10, true, 85],
      ['Protecting the elected leaders is a paramount responsibility.', 10, false, 73],
    ];
    const overPage = async (second: Line[]) => shape(await structureOf(twoPages(first, second)));
    assert.deepEqual(
      await overPage([
        ['Federal Personnel :', 10, true, 720],
        ['The agency also protects federal facilities and their staff.', 10, false, 708],
        ['Performance Indicators', 10, true, 670],
        ['Buildings modernised in the year, against the plan for the year.', 10, false, 654],
      ]),
      [['Stakeholder(s):', ['Elected Leaders :'], ['Federal Personnel :']], ['Performance Indicators']],
    );
    assert.deepEqual(
      await overPage([
        ['Performance Indicators', 10, true, 720],
        ['Buildings modernised in the year, against the plan for the year.', 10, false, 704],
      ]),
      [['Stakeholder(s):', ['Elected Leaders :']], ['Performance Indicators']],
    );
    // A label that ends its page with nothing under it: the first entry opens the next page.
    const labelLast = await structureOf(
      twoPages(
        [...BODY, ['Stakeholder(s):', 10, true, 80]],
        [
          ['Federal Personnel :', 10, true, 720],
          ['The agency also protects federal facilities and their staff.', 10, false, 708],
          ['Performance Indicators', 10, true, 670],
          ['Buildings modernised in the year, against the plan for the year.', 10, false, 654],
        ],
      ),
    );
    assert.deepEqual(shape(labelLast), [['Stakeholder(s):', ['Federal Personnel :']], ['Performance Indicators']]);
  });

  test('the four agency plans: every "Stakeholder(s):" holds its stakeholders, named in its own type', async () => {
    for (const name of ['DHS2020.pdf', 'NARA2022.pdf', 'GSA2022.pdf', 'DOSAID2022.pdf']) {
      const plan = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports', name));
      const labels = sections(plan.nodes).filter((s) => s.heading.text === 'Stakeholder(s):');
      assert.ok(labels.length >= 10, `${name}: ${labels.length} labels`);
      const empty = labels.filter((s) => !s.children.some((c) => c.type === 'section' || c.type === 'list' || (c.type === 'paragraph' && c.role === 'body')));
      assert.deepEqual(empty.map((s) => s.heading.boxes[0]?.page), [], `${name}: labels holding nothing`);
    }
    const dhs = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DHS2020.pdf'));
    const leaders = sections(dhs.nodes).find((s) => s.heading.text === 'Stakeholder(s):' && sections(s.children).some((e) => e.heading.text === 'U.S. Elected Leaders :'));
    assert.ok(leaders, 'objective 1.3: "U.S. Elected Leaders :" is under "Stakeholder(s):"');
    assert.deepEqual(
      sections(leaders.children).map((e) => e.heading.text).slice(0, 4),
      ['U.S. Elected Leaders :', 'Designated Leaders :', 'Visiting Foreign Leaders', 'Federal Personnel :'],
    );
    // The Department's components go on over a page turn ("Federal Law Enforcement Training Centers :" opens page 6).
    const components = sections(dhs.nodes).find((s) => s.heading.text === 'Stakeholder(s):' && sections(s.children).some((e) => e.heading.text === 'Office of the Secretary :'));
    assert.ok(components, '"Office of the Secretary :" is under "Stakeholder(s):"');
    const names = sections(components.children).map((e) => e.heading.text);
    assert.ok(names.includes('Federal Law Enforcement Training Centers :') && names.includes('Science and Technology Directorate :'), JSON.stringify(names));
  });
});

describe('layout: text clean-up', () => {
  test('ligatures, soft hyphens and non-breaking spaces', () => {
    assert.equal(cleanItemText('e\uFB03cient \uFB01nal\u00ADly\u00A0here'), 'efficient finally here');
    assert.equal(cleanItemText('the agree\u00AD'), 'the agree-');
    assert.equal(cleanItemText('\u019F'), 'ti');
    assert.equal(cleanItemText('So\u014Cware'), 'Software');
    assert.equal(cleanItemText('\u014Csaka'), 'Osaka'.replace('O', '\u014C'));
  });

  test("a table cell's text is cleaned as a paragraph's: Calibri's ligatures, soft hyphens, invisible characters", async () => {
    const item = (text: string, x: number, y: number) => ({ text, x, y, width: 8 * text.length, height: 14, fontName: 'Calibri', fontSize: 11 });
    assert.equal(readingText([item('So\u014Cware devel\u00ADopment', 100, 100), item('e\uFB03cient\u200B', 100, 118)]), 'Software development efficient');
    // The NDA's table of its people: "Software development and analysis", not "SoŌware".
    const nda = await analyze(path.join(corpus, 'reference-dgml/Jane Doe NDA.pdf'));
    const cells = nda.nodes.flatMap(function cellsOf(n: StructureNode): string[] {
      if (n.type === 'table') return n.rows.flatMap((r) => r.cells.map((c) => c.leaf.text));
      if (n.type === 'section') return n.children.flatMap(cellsOf);
      if (n.type === 'list') return n.items.flatMap((i) => i.children.flatMap(cellsOf));
      return [];
    });
    assert.ok(cells.includes('Software development and analysis'), JSON.stringify(cells.filter((c) => /ware/.test(c))));
  });

  test('list markers and heading numbers', () => {
    const none = (): boolean => false;
    assert.deepEqual(parseMarker('1.22.8 Tenant Parties.', none), { end: 6, key: 'dec', style: 'decimal', ordered: true, depth: 3, value: 8 });
    assert.equal(parseMarker('(iv) the fourth', none)?.style, 'lower-roman');
    assert.equal(parseMarker('(i) after (h)', (key, value) => key === '(a)' && value === 9)?.style, 'lower-alpha');
    assert.equal(parseMarker('b) second', none)?.key, 'a)');
    assert.equal(parseMarker('• item', none)?.style, 'circle');
    assert.equal(parseMarker('(408) 996-1010', none), null);
    assert.equal(parseMarker('I. am not a list', none), null);
    assert.equal(parseHeadingNumber('ARTICLE IV DEFINITIONS')?.rank, 'article');
    assert.equal(parseHeadingNumber('Section 3(b). Term')?.end, 'Section 3(b).'.length);
    assert.equal(parseHeadingNumber('Sections of the lease'), null);
  });

  test('hyphens at line ends: broken words joined, compounds kept', () => {
    assert.ok(isBrokenWord('the agree-', 'ment is'));
    assert.ok(isBrokenWord('enforces crimi-', 'nal and civil'));
    assert.ok(!isBrokenWord('a well-', 'known fact'));
    assert.ok(!isBrokenWord('the Non-', 'Disclosure'));
    assert.ok(!isBrokenWord('a risk-', 'based approach'));
    assert.ok(!isBrokenWord('COVID-', '19'));
    assert.ok(!isBrokenWord('out-of-', 'pocket'));
    assert.ok(!isBrokenWord('pages 3 -', 'and'));
  });

  test("hyphens at line ends: the document's own words decide; a compound closes up, a suspended hyphen keeps its space", () => {
    const words = new Vocabulary(() => ['the subject of a multilateral forum', 'co-insurance applies to coinsurance clauses']);
    assert.equal(joinAtBreak('using sub-', 'ject-matter expertise', words), 'using subject-matter expertise');
    assert.equal(joinAtBreak('a key multi-', 'lateral forum', words), 'a key multilateral forum');
    // Written both ways in the document: the hyphen is kept, nothing is lost.
    assert.equal(joinAtBreak('the co-', 'insurance', words), 'the co-insurance');
    assert.equal(joinAtBreak('the agree-', 'ment is', words), 'the agreement is');
    assert.equal(joinAtBreak('a well-', 'known fact', words), 'a well-known fact');
    assert.equal(joinAtBreak('against COVID-', '19', words), 'against COVID-19');
    assert.equal(joinAtBreak('three-', 'and four-year terms', words), 'three- and four-year terms');
    assert.equal(joinAtBreak('pages 3 -', 'and 4', words), 'pages 3 - and 4');
    assert.equal(joinAtBreak('an out-of-', 'pocket cost', words), 'an out-of-pocket cost');
    assert.equal(joinAtBreak('plain', 'text', words), 'plain text');
  });

  test('hyphens at line ends in the corpus: "sub-" / "ject-matter" reads "subject-matter", "multi-" / "lateral" "multilateral"', async () => {
    const dhs = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DHS2020.pdf'));
    assert.ok(bodyText(dhs.nodes).some((t) => t.includes('risk-based analysis, subject-matter expertise')));
    const dos = await analyze(path.join(corpus, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf'));
    const text = bodyText(dos.nodes).join(' ');
    for (const phrase of ['a key multilateral forum', 'the highest-possible degree']) assert.ok(text.includes(phrase), phrase);
    // Broken at a line's end and written whole elsewhere in the report.
    for (const word of ['responsible', 'exchanges']) assert.ok(text.includes(word) && !text.includes(`${word.slice(0, 2)}- ${word.slice(2)}`), word);
  });
});

test('word counts of leaves are whitespace-normalised', async () => {
  const doc = await analyze(reference('20071204X01896.pdf'));
  for (const leaf of leaves(doc.nodes)) assert.equal(leaf.text, wordsOf(leaf.text).join(' '));
});

test('normalizeSpace collapses exactly what \\s matches, for every character of the Basic Multilingual Plane', () => {
  const collapse = (t: string): string => t.replace(/\s+/g, ' ').trim();
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [ch, `a${ch}b`, `a ${ch}b`, `a${ch} b`, `${ch}a`, `a${ch}`]) {
      if (normalizeSpace(text) !== collapse(text)) assert.fail(`U+${c.toString(16).padStart(4, '0')} in ${JSON.stringify(text)}`);
    }
  }
  for (const text of ['', ' ', 'a', 'a b', 'a  b', ' a', 'a ', 'a\tb', 'a\u00a0b', 'a \u3000 b']) assert.equal(normalizeSpace(text), collapse(text));
  const normal = 'already normal text';
  assert.equal(normalizeSpace(normal), normal);
});

describe('layout: text set sideways', () => {
  /** A Letter page of Helvetica lines: each `[text, size, Tm]` drawn at its text matrix. */
  const pageOf = (lines: [string, number, string][]): Buffer => helveticaPdf([lines.map(([text, size, tm]) => `BT /F1 ${size} Tf ${tm} Tm (${text}) Tj ET`).join('\n')]);
  const ROWS = [['Region', 'Q1', 'Q2', 'Q3'], ['North', '1,200', '1,350', '1,410'], ['South', '980', '1,020', '1,100'], ['East', '2,040', '2,110', '2,300'], ['West', '760', '800', '845']];
  /** A titled table and a sentence after it, its content turned a quarter turn (or upside down) on the portrait page. */
  const sidewaysTable = (dir: 'up' | 'down' | 'over'): Buffer => {
    const cols = [0, 140, 230, 320];
    const lines: { text: string; line: number; at: number; size: number }[] = [
      { text: 'Table 3. Quarterly sales by region', line: 0, at: 0, size: 13 },
      ...ROWS.flatMap((r, i) => r.map((text, c) => ({ text, line: 2 + i, at: cols[c]!, size: 11 }))),
      { text: 'Sales rose in every region over the three quarters of the year.', line: 8, at: 0, size: 11 },
    ];
    // Running up the page, lines stack to the right; running down, to the left; upside down, upwards.
    const matrix = (l: (typeof lines)[number]) =>
      dir === 'up' ? `0 1 -1 0 ${150 + l.line * 18} ${150 + l.at}` : dir === 'down' ? `0 -1 1 0 ${460 - l.line * 18} ${640 - l.at}` : `-1 0 0 -1 ${540 - l.at} ${150 + l.line * 18}`;
    return pageOf(lines.map((l) => [l.text, l.size, matrix(l)]));
  };

  for (const dir of ['up', 'down', 'over'] as const) {
    for (const engine of ['pdfium', 'pdfjs'] as const) {
      test(`a page whose text runs ${dir === 'over' ? 'upside down' : `${dir} it`} is read upright (${engine}): its table's rows and columns, its boxes on the page as it is`, async () => {
        const pdf = sidewaysTable(dir);
        const [page] = await readPdfPages(pdf, engine);
        assert.ok(page!.items.every((it) => it.dir === dir), 'the reader says which way each item runs');
        const { structure } = await analyzeDocument(await readDocument(pdf, 'pdf', { pdfEngine: engine }), { ocrBudgetMs: 10_000, pdfEngine: engine });
        const nodes = [...walk(structure.nodes)];
        const table = nodes.find((n): n is Table => 'type' in n && n.type === 'table');
        assert.ok(table, `a table: ${JSON.stringify(structure.nodes).slice(0, 400)}`);
        assert.deepEqual(table.rows.map((r) => r.cells.map((c) => c.leaf.text)), ROWS);
        const box = table.boxes[0]!;
        if (dir === 'over') assert.ok(box.width > box.height && box.top > page!.height / 2, `the table stands upside down low on the page: ${JSON.stringify(box)}`);
        else assert.ok(box.height > 3 * box.width, `the table stands sideways on the page: ${JSON.stringify(box)}`);
        assert.ok(box.left >= 0 && box.top >= 0 && box.left + box.width <= page!.width && box.top + box.height <= page!.height);
        const text = renderText(structure);
        assert.ok(text.indexOf('Table 3. Quarterly sales by region') < text.indexOf('Region'));
        assert.ok(text.indexOf('845') < text.indexOf('Sales rose in every region over the three quarters of the year.'));
      });
    }
  }

  for (const dir of ['up', 'down'] as const) {
    test(`a table set sideways (${dir}) under text read across is a table, the text as it was`, async () => {
      const cols = [0, 90, 150, 210];
      const body = ['Results', ...Array.from({ length: 14 }, (_, i) => `Line ${i + 1} of the discussion of results, which runs on across the upper part of the page.`)];
      const pdf = pageOf([
        ...body.map((l, i): [string, number, string] => [l, i === 0 ? 14 : 10, `1 0 0 1 72 ${740 - i * 14}`]),
        ...ROWS.flatMap((r, i) => r.map((t, c): [string, number, string] => [t, 10, dir === 'up' ? `0 1 -1 0 ${200 + i * 16} ${150 + cols[c]!}` : `0 -1 1 0 ${400 - i * 16} ${450 - cols[c]!}`])),
      ]);
      const { structure } = await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 });
      const results = sections(structure.nodes).find((s) => s.heading.text === 'Results');
      assert.ok(results, JSON.stringify(structure.nodes).slice(0, 300));
      const table = results.children.find((n): n is Table => n.type === 'table');
      assert.ok(table, 'the sideways table is a table of the section');
      assert.deepEqual(table.rows.map((r) => r.cells.map((c) => c.leaf.text)), ROWS);
      assert.ok(table.boxes[0]!.height > 2 * table.boxes[0]!.width, 'its box stands sideways on the page');
      const paragraphs = results.children.filter((n): n is Paragraph => n.type === 'paragraph');
      assert.deepEqual(paragraphs.map((p) => p.role), ['body']);
      assert.match(paragraphs[0]!.leaf.text, /^Line 1 .* Line 14 of the discussion of results, which runs on across the upper part of the page\.$/);
    });
  }

  test('a line set sideways on a page read across is a paragraph of its own: not a heading, not joined to the lines beside it', async () => {
    const body = ['Introduction', 'Large language models read documents in chunks. This paper studies', 'how the structure of a document helps retrieval. We show that sections', 'and tables, kept whole, answer more questions than fixed windows.', 'Method', 'We split each document at its headings and measure recall at ten.'];
    const stamp = 'arXiv:2401.01234v1 [cs.CL] 12 Jan 2024';
    const pdf = pageOf([...body.map((l, i): [string, number, string] => [l, i === 0 || i === 4 ? 14 : 11, `1 0 0 1 100 ${700 - i * 16}`]), [stamp, 18, '0 1 -1 0 40 300']]);
    const { structure } = await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 });
    const nodes = [...walk(structure.nodes)];
    assert.deepEqual(nodes.filter((n): n is Section => 'type' in n && n.type === 'section').map((s) => s.heading.text), ['Introduction', 'Method']);
    const paragraphs = nodes.filter((n): n is Paragraph => 'type' in n && n.type === 'paragraph');
    assert.deepEqual(paragraphs.filter((p) => p.role === 'sideways').map((p) => p.leaf.text), [stamp]);
    assert.ok(paragraphs.filter((p) => p.role !== 'sideways').every((p) => !p.leaf.text.includes('arXiv')));
    assert.match(paragraphs.find((p) => p.leaf.text.startsWith('Large'))!.leaf.text, /than fixed windows\.$/);
  });
});

describe('layout: lists printed without markers', () => {
  const pageOf = (lines: [string, number, number][]): Buffer => helveticaPdf([lines.map(([text, x, y]) => `BT /F1 11 Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`).join('\n')]);

  test('short lines in capitals under a line ending with a colon are items of a list; a sentence wrapped after a colon is not', async () => {
    const pdf = pageOf([
      ['The policy of insurance covers the loss of each of the following:', 72, 700],
      ['Water Supply', 80, 686],
      ['Communication Supply', 80, 672],
      ['Power Supply', 80, 658],
      ['Coverage for overhead transmission lines is included in the limit above.', 72, 644],
      ['The parties agree that the terms of this lease are these, as follows:', 72, 600],
      ['Tenant shall pay the Rent on the first day of each month and', 72, 586],
      ['Landlord shall keep the roof in good repair at its own cost.', 72, 572],
      ['Each of them signs this lease on the date written below:', 72, 530],
      ['John Smith', 72, 516],
      ['In witness whereof they have signed this lease on that date.', 72, 502],
    ]);
    const { structure } = await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 });
    const lists = [...walk(structure.nodes)].filter((n): n is Extract<StructureNode, { type: 'list' }> => 'type' in n && n.type === 'list');
    assert.deepEqual(
      lists.map((l) => l.items.map((i) => [i.marker, textLeaves(i.children).map((leaf) => leaf.text).join(' ')])),
      [[[null, 'Water Supply'], [null, 'Communication Supply'], [null, 'Power Supply']]],
      'one list, its three items without markers (a single short line after a colon is none)',
    );
    const texts = paragraphs(structure.nodes).map((p) => p.leaf.text);
    assert.ok(texts.includes('Coverage for overhead transmission lines is included in the limit above.'), `the line after the list is a paragraph: ${JSON.stringify(texts)}`);
    assert.ok(texts.some((t) => t.startsWith('The parties agree') && t.endsWith('at its own cost.')), `a sentence run on after a colon stays one paragraph: ${JSON.stringify(texts)}`);
  });

  test('the package proposal: the utility services it covers are a list', async () => {
    const doc = await analyze(path.join(corpus, 'pdf/A - Package Proposal.pdf'));
    const list = [...walk(doc.nodes)].find((n): n is Extract<StructureNode, { type: 'list' }> => 'type' in n && n.type === 'list' && n.items.some((i) => textLeaves(i.children).some((l) => l.text === 'Water Supply')));
    assert.ok(list, 'a list holds "Water Supply"');
    assert.deepEqual(list.items.map((i) => textLeaves(i.children).map((l) => l.text).join(' ')), ['Water Supply', 'Communication Supply', 'Power Supply']);
    assert.equal(list.style, 'none');
  });

  test('names set two to a row under a label are items each, an invisible tag between them and the label ends nothing; a wide gap elsewhere keeps its line', async () => {
    const at = (text: string, x: number, y: number, size = 11): string => `BT /F1 ${size} Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`;
    const pdf = helveticaPdf([
      [
        at('Strategic Plan', 72, 750),
        at('Department of Examples', 400, 750),
        at('Protect designated leaders and their families, as well as visiting heads of state.', 72, 700),
        at('Stakeholder\\(s\\):', 72, 680),
        at('_63ed4262-c0c9-11ec-a4ba-aeec1c83ea00', 500, 672, 1),
        at('U.S. Leaders', 72, 664),
        at('Foreign Leaders', 330, 664),
        at('Families of U.S. Leaders', 72, 648),
        at('Manage and coordinate security operations for events of national significance.', 72, 600),
      ].join('\n'),
    ]);
    const { structure } = await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 });
    const lists = [...walk(structure.nodes)].filter((n): n is Extract<StructureNode, { type: 'list' }> => 'type' in n && n.type === 'list');
    assert.deepEqual(
      lists.map((l) => l.items.map((i) => textLeaves(i.children).filter((leaf) => !leaf.text.startsWith('_')).map((leaf) => leaf.text).join(' '))),
      [['U.S. Leaders', 'Foreign Leaders', 'Families of U.S. Leaders']],
    );
    const texts = paragraphs(structure.nodes).map((p) => p.leaf.text);
    assert.ok(!texts.includes('U.S. Leaders Foreign Leaders'), `the row is not one run of words: ${JSON.stringify(texts)}`);
    assert.ok(texts.includes('Strategic Plan Department of Examples'), `a line outside a list keeps its words together: ${JSON.stringify(texts)}`);
    assert.deepEqual(sections(structure.nodes).map((s) => s.heading.text).filter((h) => /Leaders/.test(h)), [], 'no name of the grid heads an empty section');
    const xml = renderDgml(structure, { workspace: 'default', docsetName: 'x', version: 'x' });
    assert.doesNotMatch(xml, /<docset:(?:USLeaders|ForeignLeaders|FamiliesofUSLeaders)\b/, 'the names are the list\'s values, not clauses named by their own words');
  });

  test('the DHS plan: its stakeholders set two to a row are a list of names, none named by its own words', async () => {
    const file = path.join(corpus, 'kgrag/us-fed-agency-reports/DHS2020.pdf');
    const { structure } = await analyzeDocument(await readDocument(fs.readFileSync(file), 'pdf'), { ocrBudgetMs: 0 });
    const list = [...walk(structure.nodes)].find((n): n is Extract<StructureNode, { type: 'list' }> => 'type' in n && n.type === 'list' && n.items.some((i) => textLeaves(i.children).map((l) => l.text).join(' ') === 'Foreign Leaders'));
    assert.ok(list, 'a list holds "Foreign Leaders" as an item');
    assert.deepEqual(list.items.map((i) => textLeaves(i.children).map((l) => l.text).join(' ')), ['U.S. Leaders', 'Foreign Leaders', 'Families of U.S. Leaders']);
    assert.ok(list.items.every((i) => i.children.every((c) => c.type !== 'paragraph' || !c.clause)));
  });
});

describe('layout: a figure in brackets under a number in words', () => {
  const pageOf = (lines: [string, number, number][]): Buffer => helveticaPdf([lines.map(([text, x, y]) => `BT /F1 11 Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`).join('\n')]);
  const lists = (nodes: StructureNode[]) => [...walk(nodes)].filter((n) => 'type' in n && n.type === 'list');

  test('"within thirty" over "(30) days": one sentence, no list item (text file and PDF)', async () => {
    const text = 'the\n   Committee fails to remedy such event within thirty\n   (30) days of the receipt of such notice and (iii)\n';
    const fromText = (await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 })).structure;
    assert.equal(lists(fromText.nodes).length, 0);
    assert.ok(paragraphs(fromText.nodes).some((p) => /within thirty \(30\) days of the receipt/.test(p.leaf.text)), JSON.stringify(paragraphs(fromText.nodes).map((p) => p.leaf.text)));
    const pdf = pageOf([
      ['It may be cured within ninety', 72, 700],
      ['(90) days of the notice.', 72, 686],
    ]);
    const fromPdf = (await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 })).structure;
    assert.equal(lists(fromPdf.nodes).length, 0);
    assert.deepEqual(paragraphs(fromPdf.nodes).map((p) => p.leaf.text), ['It may be cured within ninety (90) days of the notice.']);
  });

  test('a text file: a line opening on an initial ("J. Servodidio") is a name, not an item or a lettered heading; "B." after "A." is one', async () => {
    const text = ['A. Scope', '', 'The scope is this.', '', 'B. Term', '', 'The term is that.', '', 'J. Servodidio', '', 'Executive Vice President', '', 'K. Moreau signs for the Company.', '', 'X. Republic Airways shall deliver a guaranty.', ''].join('\n');
    const { structure } = await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 });
    const headings = [...walk(structure.nodes)].flatMap((n) => ('type' in n && n.type === 'section' && n.heading ? [n.heading.text] : []));
    assert.deepEqual(headings, ['A. Scope', 'B. Term']);
    const texts = [...walk(structure.nodes)].flatMap((n) => ('type' in n && n.type === 'paragraph' ? [n.leaf.text] : []));
    assert.ok(texts.includes('J. Servodidio') && texts.includes('K. Moreau signs for the Company.'), JSON.stringify(texts));
    // "X." may be a numeral: it stays a marker.
    assert.deepEqual(lists(structure.nodes).flatMap((l) => (l as Extract<StructureNode, { type: 'list' }>).items.map((i) => i.marker?.text)), ['X.']);
  });

  test('a text file: a marker-like initial wrapped under a full line continues the sentence; items after "and" or a stop stay items', async () => {
    const text = [
      'This Agreement is made between Open Text Corporation, a Canadian corporation, and Gordon',
      '   A. Davies (the "Executive"), who agree to the following terms of his employment and',
      '   (a) the salary is paid monthly; and',
      '   (b) the bonus is paid yearly.',
      '',
    ].join('\n');
    const { structure } = await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 });
    const texts = [...walk(structure.nodes)].flatMap((n) => ('type' in n && n.type === 'paragraph' ? [n.leaf.text] : []));
    assert.ok(texts[0]?.includes('and Gordon A. Davies (the "Executive")'), JSON.stringify(texts));
    const list = lists(structure.nodes)[0] as Extract<StructureNode, { type: 'list' }> | undefined;
    assert.equal(list?.items.length, 2, JSON.stringify(texts));
  });

  test('a text file: a numbered title with its stop over its own subclauses ("2. Onsite Services." / "2.1 …") is their heading', async () => {
    const text = '2. Onsite Services.\n\n   2.1 Onsite visits are charged by the day.\n\n   2.2 Travel is charged at cost.\n';
    const { structure } = await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 });
    const section = structure.nodes.find((n) => n.type === 'section');
    assert.equal(section?.type === 'section' ? section.heading.text : undefined, '2. Onsite Services.', JSON.stringify(structure.nodes.map((n) => n.type)));
    // Without subclauses under it, a numbered sentence is no heading.
    const plain = (await analyzeDocument(await readDocument(Buffer.from('2. Payment is due.\n\nThe Tenant pays monthly.\n', 'utf8'), 'txt'), { ocrBudgetMs: 0 })).structure;
    assert.ok(!plain.nodes.some((n) => n.type === 'section'));
  });

  test('a bracketed number after a line that ends otherwise still opens an item', async () => {
    const text = 'The Tenant shall:\n(1) pay the rent;\n(2) keep the premises clean.\n';
    const { structure } = await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 });
    assert.equal(lists(structure.nodes).length, 1);
  });
});

describe('layout: tables carried over to the next page', () => {
  /** Letter pages of Helvetica 10 pt text: each `[text, x, y]` in PDF points from the bottom left. */
  const pagesOf = (pages: [string, number, number][][]): Buffer =>
    helveticaPdf(pages.map((lines) => lines.map(([text, x, y]) => `BT /F1 10 Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`).join('\n')));
  const COLUMNS = [72, 250, 400];
  const row = (cells: string[], y: number): [string, number, number][] => cells.flatMap((c, k): [string, number, number][] => (c ? [[c, COLUMNS[k]!, y]] : []));
  const footer = (n: number): [string, number, number][] => [[`Quarterly schedule of premises, page ${n}`, 200, 40]];
  const HEADINGS = ['Premises', 'Area', 'Premium'];
  const ROWS = [
    ['North Tower', '12,000', '$4,200'],
    ['South Tower', '9,500', '$3,100'],
    ['East Annex', '3,200', '$950'],
    ['West Annex', '2,900', '$880'],
    ['Parking Garage', '40,000', '$1,200'],
    ['Loading Dock', '1,100', '$300'],
  ];
  const tablesOf = async (pdf: Buffer): Promise<Table[]> => {
    const { structure } = await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 10_000 });
    return [...walk(structure.nodes)].filter((n): n is Table => 'type' in n && n.type === 'table');
  };
  const text = (t: Table): string[][] => t.rows.map((r) => r.cells.map((c) => c.leaf.text));
  const intro: [string, number, number][] = [
    ['Schedule of Premises', 72, 720],
    ['The premises insured under this policy and the premium charged for each are listed below.', 72, 700],
    ['Each is insured for the whole policy period unless this schedule says otherwise.', 72, 686],
  ];

  /** The headings and the first rows set at the foot of page 1. */
  const foot = (rows: string[][]): [string, number, number][] => [...intro, ...row(HEADINGS, 100 + 20 * rows.length), ...rows.flatMap((r, i) => row(r, 100 + 20 * (rows.length - 1 - i))), ...footer(1)];
  /** Rows set at the head of page 2, then a sentence. */
  const head = (rows: string[][]): [string, number, number][] => [...rows.flatMap((r, i) => row(r, 740 - 20 * i)), ['The premium is due on the first day of the policy period.', 72, 740 - 20 * rows.length - 30], ...footer(2)];

  test('a table ending one page and going on at the top of the next, in its columns, is one table', async () => {
    const tables = await tablesOf(pagesOf([foot(ROWS.slice(0, 3)), head(ROWS.slice(3))]));
    assert.equal(tables.length, 1, `one table: ${JSON.stringify(tables.map(text))}`);
    assert.deepEqual(text(tables[0]!), [HEADINGS, ...ROWS]);
    assert.deepEqual(tables[0]!.boxes.map((b) => b.page), [1, 2], 'the table has a box on each page');
  });

  test("the next page's table stays its own when it repeats the headings, stands in other columns, or text comes between", async () => {
    const first = foot(ROWS.slice(0, 3));
    assert.equal((await tablesOf(pagesOf([first, head([HEADINGS, ...ROWS.slice(3)])]))).length, 2, 'repeated headings: two tables');
    const shifted = pagesOf([first, [...ROWS.slice(3).flatMap((r, i) => r.map((c, k): [string, number, number] => [c, [72, 330, 480][k]!, 740 - 20 * i])), ...footer(2)]]);
    assert.equal((await tablesOf(shifted)).length, 2, 'other columns: two tables');
    const between = pagesOf([first, [['Further premises acquired during the policy period are these.', 72, 760], ...head(ROWS.slice(3))]]);
    assert.equal((await tablesOf(between)).length, 2, 'a sentence between: two tables');
  });

  test('the package proposal: the premium schedule goes on over two pages as one table, its description cut by the page break joined', async () => {
    const doc = await analyze(path.join(corpus, 'pdf/A - Package Proposal.pdf'));
    const tables = [...walk(doc.nodes)].filter((n): n is Table => 'type' in n && n.type === 'table');
    const schedule = tables.find((t) => t.rows.some((r) => r.cells[1]?.leaf.text === '10/16'));
    assert.ok(schedule, 'the premium schedule');
    assert.deepEqual([...new Set(schedule.boxes.map((b) => b.page))], [15, 16]);
    assert.deepEqual(schedule.rows.find((r) => r.cells[1]?.leaf.text === '10/16')!.cells.map((c) => c.leaf.text), ['TX', '10/16', '61217', 'BUILDINGS OR PREMISES - BANK OR OFFICE -', 'Prem/Ops.', '83,940', '43.485', '$3,650']);
    assert.ok(schedule.rows.some((r) => r.cells[1]?.leaf.text === '13/19'), 'the rows of page 16 are in it');
    assert.ok(!tables.some((t) => t.rows.some((r) => r.cells[0]?.leaf.text === '' && r.cells[3]?.leaf.text === 'BANK OR OFFICE -')), 'no half row is left');
    // The running footer on a page the table fills is furniture, not text between the two parts.
    const footers = paragraphs(doc.nodes).filter((p) => p.leaf.text === 'Refer to policy for actual terms and conditions');
    assert.ok(footers.length >= 19 && footers.every((p) => p.role === 'footer'), JSON.stringify(footers.map((p) => [p.leaf.boxes[0]?.page, p.role])));
  });
});
