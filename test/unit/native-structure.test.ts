import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { layoutBlocks, MAX_LIST_DEPTH } from '../../src/ingest/readers/blocks.js';
import { withoutHiddenRuns } from '../../src/ingest/readers/office/word-shown.js';
import { mathAsText } from '../../src/ingest/readers/office/word-math.js';
import { acceptedRevisions } from '../../src/ingest/readers/office/word-revisions.js';
import { htmlStructure } from '../../src/ingest/readers/html/html.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { findSoffice } from '../../src/ingest/readers/office/libreoffice.js';
import { txtStructure } from '../../src/ingest/readers/text/txt.js';
import { formatNumber, numberedParagraphs } from '../../src/ingest/readers/office/word-numbering.js';
import { joinPageCuts } from '../../src/ingest/readers/office/word-page-cuts.js';
import { zipEntries, zipTexts } from '../../src/ingest/readers/zip/zip.js';
import { makeZip } from '../helpers/zip.js';
import { IngestError, type DocumentModel } from '../../src/document/pages.js';
import { alignBoxes } from '../../src/ingest/stages/align.js';
import { leaves, wordsOf, type Leaf, type List, type Paragraph, type Section, type StructureNode, type Table } from '../../src/document/structure.js';
import { CORPUS } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';

const corpus = (p: string) => fs.readFileSync(path.join(CORPUS, p));

/** The labels Word generates for a DOCX's numbered paragraphs. */
async function wordLabels(docx: Buffer): Promise<Set<string>> {
  const parts = await zipTexts(docx, ['word/document.xml', 'word/numbering.xml', 'word/styles.xml']);
  const numbering = parts.get('word/numbering.xml');
  if (!numbering) return new Set();
  return new Set(numberedParagraphs(parts.get('word/document.xml')!, numbering, parts.get('word/styles.xml')).flatMap((p) => (p.label ? [p.label] : [])));
}
const soffice = findSoffice();
const TMP = scratchDir('quire-native-');
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

/** Every node of a structure, depth first (the structures here are shallow). */
function* walk(nodes: readonly StructureNode[]): Generator<StructureNode> {
  for (const n of nodes) {
    yield n;
    if (n.type === 'section') yield* walk(n.children);
    if (n.type === 'list') for (const item of n.items) yield* walk(item.children);
  }
}
/** The document without its running headers and footers (top-level furniture paragraphs). */
const body = (nodes: readonly StructureNode[]) => nodes.filter((n) => n.type !== 'paragraph' || n.role === 'body');
const sections = (nodes: readonly StructureNode[]) => [...walk(nodes)].filter((n): n is Section => n.type === 'section');
const lists = (nodes: readonly StructureNode[]) => [...walk(nodes)].filter((n): n is List => n.type === 'list');
const tables = (nodes: readonly StructureNode[]) => [...walk(nodes)].filter((n): n is Table => n.type === 'table');
const section = (nodes: readonly StructureNode[], heading: string) => {
  const found = sections(nodes).find((s) => s.heading.text === heading);
  assert.ok(found, `no section "${heading}"`);
  return found;
};
const childHeadings = (s: Section) => s.children.filter((c): c is Section => c.type === 'section').map((c) => c.heading.text);
const markers = (nodes: readonly StructureNode[]) => new Set(lists(nodes).flatMap((l) => l.items.flatMap((i) => (i.marker ? [i.marker] : []))));
/** The words of all leaves but the list markers the structure generated (Word and HTML print them, their text does not hold them). */
const textWords = (nodes: readonly StructureNode[]) => {
  const generated = markers(nodes);
  return [...leaves(nodes)].filter((l) => !generated.has(l)).flatMap((l) => wordsOf(l.text));
};

/**
 * Asserts that the leaves hold exactly `expected` words, in order, each once: list markers may be
 * generated (Word's numbering: not in the text) or typed ("(a)" opening a paragraph: in the text),
 * so a marker's words count where the text has them next and are skipped where it does not.
 */
function assertWordsOnce(nodes: readonly StructureNode[], expected: string[], generatedLabels: ReadonlySet<string> = new Set()): void {
  const marks = markers(nodes);
  const actual: string[] = [];
  let at = 0;
  for (const leaf of leaves(nodes)) {
    let words = wordsOf(leaf.text);
    if (marks.has(leaf) && !words.every((w, k) => expected[at + k] === w)) continue;
    // A numbered heading's label is Word's too ("40. Rent"): not in the text either.
    if (generatedLabels.has(words[0]!) && expected[at] !== words[0]) words = words.slice(1);
    actual.push(...words);
    at += words.length;
  }
  assert.deepEqual(actual, expected);
}

/** Aligns, then returns the share of leaves with words that got boxes, after checking every box lies on its page. */
function alignedShare(model: DocumentModel): number {
  const nodes = model.native!;
  alignBoxes(nodes, model.pages);
  const withWords = [...leaves(nodes)].filter((l) => l.text);
  let lastPage = 0;
  for (const leaf of withWords) {
    for (const b of leaf.boxes) {
      const page = model.pages[b.page - 1];
      assert.ok(page && b.page >= 1, `box on page ${b.page}`);
      assert.ok(b.width > 0 && b.height > 0 && b.left >= 0 && b.top >= 0, JSON.stringify(b));
      assert.ok(b.left + b.width <= page.width + 1 && b.top + b.height <= page.height + 1, JSON.stringify(b));
    }
    // Leaves come in reading order, so their pages never go back.
    if (leaf.boxes.length) {
      assert.ok(leaf.boxes[0]!.page >= lastPage, `"${leaf.text.slice(0, 40)}" on page ${leaf.boxes[0]!.page} after page ${lastPage}`);
      lastPage = leaf.boxes[leaf.boxes.length - 1]!.page;
    }
  }
  return withWords.filter((l) => l.boxes.length > 0).length / withWords.length;
}

/** The rendition's text inside a box (items whose centre falls in it). */
function textIn(model: DocumentModel, leaf: Leaf): string {
  const b = leaf.boxes[0]!;
  return model.pages[b.page - 1]!.items
    .filter((i) => i.x + i.width / 2 >= b.left && i.x + i.width / 2 <= b.left + b.width && i.y + i.height / 2 >= b.top && i.y + i.height / 2 <= b.top + b.height)
    .map((i) => i.text)
    .join(' ');
}

const DOCX = ['Master Services Agreement - Daltech.docx', 'NDA simple layout.docx', 'TruTone Lane 1.docx'];

describe('DOCX native structure (corpus)', () => {
  const textLayout = new Map<string, DocumentModel>();
  const libreOffice = new Map<string, DocumentModel>();
  before(async () => {
    for (const file of DOCX) {
      const bytes = corpus(`office/${file}`);
      textLayout.set(file, await readDocument(bytes, 'docx', { libreoffice: false }));
      if (soffice) libreOffice.set(file, await readDocument(bytes, 'docx'));
    }
  });

  test('the services agreement: lettered parts, numbered clauses and subclauses as sections', () => {
    const nodes = textLayout.get('Master Services Agreement - Daltech.docx')!.native!;
    assert.equal(nodes.length, 1);
    const top = section(nodes, 'MASTER SERVICES AGREEMENT');
    assert.equal(top.level, 1);
    assert.deepEqual(childHeadings(top), ['A. STANDARD SOFTWARE AND SERVICES AGREEMENT', 'B. INITIAL STATEMENT OF WORK (SOW)']);
    const partA = section(nodes, 'A. STANDARD SOFTWARE AND SERVICES AGREEMENT');
    assert.equal(partA.level, 2);
    assert.equal(childHeadings(partA).length, 14);
    assert.equal(childHeadings(partA)[0], '1. Deliverables.');
    const warranties = section(nodes, '8. Representations and Warranties.');
    assert.equal(warranties.level, 3);
    assert.deepEqual(childHeadings(warranties), ['8.1 Company’s Representation.', '8.2 Client’s Representation.', '8.3 Warranty Disclaimer.']);
    // A run-in title: the bold words are the heading, the rest of the paragraph its body.
    const deliverables = section(nodes, '1. Deliverables.');
    assert.equal(deliverables.children[0]?.type, 'paragraph');
    assert.match((deliverables.children[0] as { leaf: Leaf }).leaf.text, /^Company shall provide Client with software/);
    assert.equal(section(nodes, '12.2.1 Preexisting Intellectual Property.').level, 5);
    // Unbolded numbered sentences are the items of a list in their clause, as the PDF layout reads them.
    const onsite = section(nodes, '2. Onsite Services.');
    assert.deepEqual(onsite.children.map((c) => c.type), ['list']);
    const clauses = onsite.children[0] as List;
    assert.deepEqual(clauses.items.map((i) => i.marker?.text), ['2.1', '2.2', '2.3', '2.4']);
    assert.match((clauses.items[0]!.children[0] as { leaf: Leaf }).leaf.text, /^Onsite visits will be charged/);
    // Typed "(a)" … "(f)" paragraphs under a clause: a lettered list, and the paragraph after it closes it.
    const insurance = section(nodes, '12.1 Insurance');
    const kinds = insurance.children.find((c): c is List => c.type === 'list')!;
    assert.deepEqual(kinds.items.map((i) => i.marker?.text), ['(a)', '(b)', '(c)', '(d)', '(e)', '(f)']);
    assert.equal(kinds.style, 'lower-alpha');
    assert.equal(insurance.children[insurance.children.length - 1]?.type, 'paragraph');
    // Bulleted contact lists, nested.
    const hours = section(nodes, '4. Hours of Operation');
    const contacts = hours.children.find((c): c is List => c.type === 'list')!;
    assert.equal(contacts.ordered, false);
    assert.deepEqual(contacts.items.map((i) => i.marker?.text), ['•', '•']);
    const engineering = contacts.items[0]!.children;
    assert.equal(engineering[0]?.type === 'paragraph' && engineering[0].leaf.text, 'Engineering:');
    assert.equal((engineering[1] as List).items.length, 3);
    // The fee table keeps its spans.
    const fees = tables(section(nodes, '2. Fees.').children)[0]!;
    assert.equal(fees.source, 'native');
    assert.deepEqual(fees.rows[0]!.cells.map((c) => [c.leaf.text, c.colspan]), [['Itemized Fees', 2], ['Fee', 1]]);
    assert.deepEqual(fees.rows[1]!.cells.map((c) => [c.leaf.text, c.rowspan]), [['Software', 3], ['MagicSoft Mobile x 250 seats', 1], ['$220,000', 1]]);
    assert.equal(fees.rows[2]!.cells.length, 2, 'the rowspan cell is absent from the rows it covers');
  });

  test('the NDA: numbered clauses as an ordered list, each holding the section its underlined run-in title heads; lettered sub-items nested', () => {
    const nodes = textLayout.get('NDA simple layout.docx')!.native!;
    const top = section(nodes, 'MUTUAL NON-DISCLOSURE AGREEMENT');
    const clauses = top.children.find((c): c is List => c.type === 'list')!;
    assert.equal(clauses.style, 'decimal');
    assert.deepEqual(clauses.items.map((i) => i.marker?.text), ['1.', '2.', '3.', '4.', '5.', '6.', '7.', '8.', '9.', '10.', '11.']);
    // "Return of Confidential Information. Upon…": Word underlines the title (mammoth drops underlining unless told).
    const titles = clauses.items.map((i) => {
      const only = i.children.length === 1 ? i.children[0]! : null;
      return only?.type === 'section' ? only.heading.text : null;
    });
    assert.deepEqual(titles, [
      'Confidential Information.',
      'Obligations and Restrictions.',
      'Exceptions.',
      'Compelled Disclosure.',
      'Return of Confidential Information.',
      'No Obligations.',
      'No Warranty.',
      'Term.',
      'Equitable Relief.',
      'Non-compete.',
      'Miscellaneous.',
    ]);
    const exceptions = (clauses.items[2]!.children[0] as Section).children;
    assert.match((exceptions[0] as { leaf: Leaf }).leaf.text, /^The obligations and restrictions in Section 2/);
    const sub = exceptions[1] as List;
    assert.equal(sub.type, 'list');
    // Word's own labels, as Word and LibreOffice show them (not a guess from the nesting depth).
    assert.deepEqual(sub.items.map((i) => i.marker?.text), ['(i)', '(ii)', '(iii)']);
    assert.equal(sub.style, 'lower-roman');
    assert.equal(tables(nodes).length, 1, 'the signature block');
  });

  test("the NDA's running footers are footer furniture after the body, each text once, page numbers left out", () => {
    const nodes = textLayout.get('NDA simple layout.docx')!.native!;
    const furniture = nodes.filter((n): n is Paragraph => n.type === 'paragraph' && n.role !== 'body');
    assert.deepEqual(
      furniture.map((p) => [p.role, p.leaf.text]),
      [['footer', 'Document ID: 123-456-7890'], ['footer', 'Document ID: 123-456-789'], ['footer', '[Signature Page to Docugami Inc. Mutual Non-Disclosure Agreement]']],
    );
    assert.deepEqual(nodes.slice(-3), furniture);
    // The lease's footer is its page number alone: nothing is added.
    assert.ok(textLayout.get('TruTone Lane 1.docx')!.native!.every((n) => n.type !== 'paragraph' || n.role === 'body'));
  });

  test('a numbered paragraph reads as a heading of its list level only when bold or underlined throughout', async () => {
    const bytes = corpus('office/TruTone Lane 1.docx');
    const parts = await zipEntries(bytes, () => true);
    const document = parts.get('word/document.xml')!.toString('utf8');
    const at = document.indexOf('>Licenses</w:t>');
    const start = Math.max(document.lastIndexOf('<w:p ', at), document.lastIndexOf('<w:p>', at));
    const end = document.indexOf('</w:p>', at);
    const plain = document.slice(start, end).replace(/<w:b\/>|<w:u w:val="single"\/>/g, '');
    parts.set('word/document.xml', Buffer.from(document.slice(0, start) + plain + document.slice(end)));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const headings = (m: DocumentModel) => sections(m.native!).map((s) => s.heading.text);
    assert.ok(headings(await readDocument(bytes, 'docx', { libreoffice: false })).includes('50. Licenses and Permits'));
    const after = headings(await readDocument(edited, 'docx', { libreoffice: false }));
    assert.ok(!after.some((h) => h.includes('Licenses')), 'set plain, it is no heading');
    assert.ok(after.includes('73. Quiet Enjoyment'));
  });

  test('text formatted hidden in Word is not read (the body and the footers); text with hidden turned off is', async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    const hidden = (text: string, val = '') => `<w:r><w:rPr><w:b/><w:vanish${val}/></w:rPr><w:t xml:space="preserve"> ${text}</w:t></w:r>`;
    const withHidden = (xml: string, runs: string) => xml.replace(/(<w:p[ >][\s\S]*?)(<\/w:p>)/, `$1${runs}$2`);
    const document = parts.get('word/document.xml')!.toString('utf8');
    parts.set('word/document.xml', Buffer.from(withHidden(document, hidden('DRAFTNOTEHIDDEN') + hidden('SHOWNAGAIN', ' w:val="0"'))));
    const footer = [...parts.keys()].find((n) => /^word\/footer\d*\.xml$/.test(n))!;
    parts.set(footer, Buffer.from(withHidden(parts.get(footer)!.toString('utf8'), hidden('FOOTERHIDDEN'))));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = (m: DocumentModel) => [...leaves(m.native!)].map((l) => l.text);
    const before = texts(await readDocument(bytes, 'docx', { libreoffice: false }));
    const after = texts(await readDocument(edited, 'docx', { libreoffice: false }));
    assert.ok(!after.some((t) => /DRAFTNOTEHIDDEN|FOOTERHIDDEN/.test(t)), JSON.stringify(after.slice(0, 3)));
    // The shown run joins its paragraph; everything else reads as before.
    assert.equal(after.filter((t) => t.includes('SHOWNAGAIN')).length, 1);
    assert.deepEqual(after.map((t) => t.replace(/ ?SHOWNAGAIN/, '')), before);
    // Malformed XML (runs never closed) is passed over in one pass, not searched again from every run.
    const start = performance.now();
    withoutHiddenRuns('<w:vanish/>' + '<w:r><w:t>x</w:t>'.repeat(200_000));
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
  });

  test('equations read as their linear text, inline and on lines of their own, where mammoth dropped them', async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    const r = (t: string) => `<m:r><w:rPr><w:rFonts w:ascii="Cambria Math"/></w:rPr><m:t>${t}</m:t></m:r>`;
    const sup = (base: string, power: string) => `<m:sSup><m:sSupPr><m:ctrlPr/></m:sSupPr><m:e>${base}</m:e><m:sup>${power}</m:sup></m:sSup>`;
    const fraction = (num: string, den: string) => `<m:f><m:num>${num}</m:num><m:den>${den}</m:den></m:f>`;
    const inline = `<m:oMath>${fraction(r('a+b'), r('2'))}</m:oMath>`;
    const display = `<m:oMathPara><m:oMath>${r('E=m')}${sup(r('c'), r('2'))}</m:oMath><m:oMath>${r('A=')}<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('i=1')}</m:sub><m:sup>${r('n')}</m:sup><m:e><m:sSub><m:e>${r('x')}</m:e><m:sub>${r('i')}</m:sub></m:sSub></m:e></m:nary></m:oMath></m:oMathPara>`;
    const grouped = `<m:oMath>${r('d=')}<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${sup(r('x'), r('2'))}${r('+')}${sup(r('y'), r('2'))}</m:e></m:rad>${r(', ')}<m:func><m:fName>${r('sin')}</m:fName><m:e><m:d><m:e>${r('θ')}</m:e></m:d></m:e></m:func>${r(', ')}<m:rad><m:radPr/><m:deg>${r('5')}</m:deg><m:e>${r('x')}</m:e></m:rad>${r(', a&lt;b')}</m:oMath>`;
    let document = parts.get('word/document.xml')!.toString('utf8');
    let p = 0;
    document = document.replace(/<\/w:p>/g, (end) =>
      ++p === 2 ? `<w:r><w:t xml:space="preserve"> The mean is </w:t></w:r>${inline}<w:r><w:t xml:space="preserve"> and </w:t></w:r>${grouped}<w:r><w:t>.</w:t></w:r>${end}<w:p>${display}</w:p>` : end,
    );
    if (!document.includes('xmlns:m=')) document = document.replace('<w:document ', '<w:document xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" ');
    parts.set('word/document.xml', Buffer.from(document));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = [...leaves((await readDocument(edited, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    const before = [...leaves((await readDocument(bytes, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    assert.ok(texts[1]!.endsWith('NY 12550. The mean is (a+b)/2 and d=√(x²+y²), sin(θ), √(5&x), a<b.'), texts[1]);
    // The display equations are a paragraph of their own, one line each; nothing else changed.
    assert.deepEqual(texts.slice(2, 4), ['E=mc²', 'A=∑_(i=1)^n x_i']);
    assert.deepEqual([...texts.slice(0, 1), ...texts.slice(4)], [...before.slice(0, 1), ...before.slice(2)]);
    // An equation never closed is left as it was, and read in one pass.
    const start = performance.now();
    const unclosed = '<w:p><m:oMath>' + '<m:r><m:t>x</m:t></m:r><m:f>'.repeat(100_000);
    assert.equal(mathAsText(unclosed), unclosed);
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
  });

  test("SmartArt's text is read where its drawing stands, a line a shape, parents before their children in the diagram's order", async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    const point = (id: string, text: string, type = '') =>
      `<dgm:pt modelId="{${id}}"${type ? ` type="${type}"` : ''}><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p>${text ? `<a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r>` : '<a:endParaRPr lang="en-US"/>'}</a:p></dgm:t></dgm:pt>`;
    // The points are listed out of order (as Word leaves them after edits); the connections give the order.
    const data = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>${
      point('D', '', 'doc') + point('CFO', 'Chief Financial Officer') + point('T', '', 'parTrans') + point('B', 'Board of Directors') + point('S', '', 'sibTrans') + point('CEO', 'Chief Executive Officer &amp; President') + point('P', 'PRESENTATIONSHAPE', 'pres')
    }</dgm:ptLst><dgm:cxnLst><dgm:cxn modelId="{1}" srcId="{D}" destId="{B}" srcOrd="0" destOrd="0" parTransId="{T}" sibTransId="{S}"/><dgm:cxn modelId="{2}" srcId="{B}" destId="{CFO}" srcOrd="1" destOrd="0"/><dgm:cxn modelId="{3}" srcId="{B}" destId="{CEO}" srcOrd="0" destOrd="0"/><dgm:cxn modelId="{4}" type="presOf" srcId="{B}" destId="{P}" srcOrd="0" destOrd="0"/></dgm:cxnLst></dgm:dataModel>`;
    const drawing = `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="77" name="Diagram 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:dm="rId901" r:lo="rId902" r:qs="rId903" r:cs="rId904"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    let document = parts.get('word/document.xml')!.toString('utf8');
    document = document.replace('</w:p>', `</w:p>${drawing}`);
    parts.set('word/document.xml', Buffer.from(document));
    parts.set('word/diagrams/data1.xml', Buffer.from(data));
    const rels = parts.get('word/_rels/document.xml.rels')!.toString('utf8');
    parts.set('word/_rels/document.xml.rels', Buffer.from(rels.replace('</Relationships>', '<Relationship Id="rId901" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData" Target="diagrams/data1.xml"/></Relationships>')));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = [...leaves((await readDocument(edited, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    const before = [...leaves((await readDocument(bytes, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    assert.deepEqual(texts.slice(1, 4), ['Board of Directors', 'Chief Executive Officer & President', 'Chief Financial Officer']);
    assert.deepEqual([...texts.slice(0, 1), ...texts.slice(4)], before);
    // Without its data part, the drawing reads as before (nothing), and the rest too.
    parts.delete('word/diagrams/data1.xml');
    const without = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    assert.deepEqual([...leaves((await readDocument(without, 'docx', { libreoffice: false })).native!)].map((l) => l.text), before);
  });

  test('text boxes are read once each: VML, DrawingML with a VML fallback, and DrawingML alone (which mammoth passed over)', async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    const content = (text: string) => `<w:txbxContent><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:txbxContent>`;
    const vml = (text: string) => `<w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:100pt;height:50pt"><v:textbox>${content(text)}</v:textbox></v:shape></w:pict>`;
    const shape = (text: string) =>
      `<w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx>${content(text)}</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>`;
    const alternate = `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps">${shape('Boxed with a fallback')}</mc:Choice><mc:Fallback>${vml('Boxed with a fallback')}</mc:Fallback></mc:AlternateContent>`;
    const paragraph = (run: string) => `<w:p><w:r>${run}</w:r></w:p>`;
    let document = parts.get('word/document.xml')!.toString('utf8');
    document = document.replace('</w:p>', `</w:p>${paragraph(vml('Boxed in VML'))}${paragraph(alternate)}${paragraph(shape('Boxed in DrawingML alone'))}`);
    parts.set('word/document.xml', Buffer.from(document));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = [...leaves((await readDocument(edited, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    const before = [...leaves((await readDocument(bytes, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    assert.deepEqual(texts.slice(1, 4), ['Boxed in VML', 'Boxed with a fallback', 'Boxed in DrawingML alone']);
    assert.deepEqual([...texts.slice(0, 1), ...texts.slice(4)], before);
  });

  test('tracked changes read as accepted, in the structure and in the rendition: deletions and deleted rows gone, insertions kept', async (t) => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    const mark = (id: number) => `w:id="${900 + id}" w:author="Reviewer" w:date="2026-11-01T00:00:00Z"`;
    const deleted = (text: string, id: number) => `<w:del ${mark(id)}><w:r><w:delText xml:space="preserve">${text} </w:delText></w:r></w:del>`;
    const inserted = (text: string, id: number) => `<w:ins ${mark(id)}><w:r><w:t xml:space="preserve"> ${text}</w:t></w:r></w:ins>`;
    let document = parts.get('word/document.xml')!.toString('utf8');
    // In the second paragraph: words deleted and a word inserted, and its bold run's former formatting recorded.
    let p = 0;
    document = document.replace(/<\/w:p>/g, (end) => (++p === 2 ? deleted('STRUCKWORDS', 1) + inserted('ADDEDWORD', 2) + end : end));
    document = document.replace('<w:rPr><w:b/><w:i/></w:rPr>', `<w:rPr><w:b/><w:i/><w:rPrChange ${mark(3)}><w:rPr><w:u w:val="single"/></w:rPr></w:rPrChange></w:rPr>`);
    // After the title: a paragraph deleted whole (its mark too).
    document = document.replace('</w:p>', `</w:p><w:p><w:pPr><w:rPr><w:del ${mark(4)}/></w:rPr></w:pPr>${deleted('WHOLLYGONE paragraph of text', 5)}</w:p>`);
    // The first table gets a row deleted whole.
    document = document.replace('</w:tbl>', `<w:tr><w:trPr><w:del ${mark(6)}/></w:trPr><w:tc><w:p>${deleted('ROWGONE', 7)}</w:p></w:tc></w:tr></w:tbl>`);
    parts.set('word/document.xml', Buffer.from(document));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = (m: DocumentModel) => [...leaves(m.native!)].map((l) => l.text);
    const rows = (m: DocumentModel) => tables(m.native!).map((t) => t.rows.length);
    const before = await readDocument(bytes, 'docx', { libreoffice: false });
    const after = await readDocument(edited, 'docx', { libreoffice: false });
    assert.ok(!texts(after).some((t) => /STRUCKWORDS|WHOLLYGONE|ROWGONE/.test(t)));
    assert.equal(texts(after).filter((t) => t.includes('ADDEDWORD')).length, 1);
    assert.deepEqual(texts(after).map((t) => t.replace(/ ?ADDEDWORD/, '')), texts(before));
    assert.deepEqual(rows(after), rows(before), 'the deleted row is no row');
    if (!soffice) return t.skip('soffice is not on PATH: the rendition is not drawn');
    const rendition = await readDocument(edited, 'docx');
    const drawn = rendition.pages.flatMap((page) => page.items.map((i) => i.text)).join(' ');
    assert.match(drawn, /ADDEDWORD/);
    assert.doesNotMatch(drawn, /STRUCKWORDS|WHOLLYGONE|ROWGONE/, 'the rendition shows the document with its changes accepted');
    assert.equal(rendition.pages.length, libreOffice.get('NDA simple layout.docx')!.pages.length);
    assert.ok(alignedShare(rendition) >= 0.9);
    // The same changes in a Word 97-2003 file (LibreOffice keeps them when it saves one).
    const input = path.join(TMP, 'revised.docx');
    fs.writeFileSync(input, edited);
    const profile = pathToFileURL(path.join(TMP, 'profile-revised')).href;
    const run = spawnSync(soffice, [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', 'doc', '--outdir', TMP, input], { timeout: 120_000, env: { ...process.env, TMPDIR: TMP } });
    assert.equal(run.status, 0, String(run.stderr));
    const doc = await readDocument(fs.readFileSync(path.join(TMP, 'revised.doc')), 'doc');
    const docDrawn = doc.pages.flatMap((page) => page.items.map((i) => i.text)).join(' ');
    assert.match(docDrawn, /ADDEDWORD/);
    assert.doesNotMatch(docDrawn, /STRUCKWORDS|WHOLLYGONE|ROWGONE/);
    assert.ok(!texts(doc).some((t) => /STRUCKWORDS|WHOLLYGONE|ROWGONE/.test(t)));
  });

  test("Word's footnotes are footnote paragraphs marked as their references are, not a list at the end", async (t) => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    let p = 0;
    const reference = (id: number) => `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;
    const document = parts.get('word/document.xml')!.toString('utf8').replace(/<\/w:p>/g, (end) => (++p === 2 ? reference(1) + end : p === 4 ? reference(2) + end : end));
    parts.set('word/document.xml', Buffer.from(document));
    const note = (id: number, text: string) => `<w:footnote w:id="${id}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${text}</w:t></w:r></w:p></w:footnote>`;
    const footnotes = parts.get('word/footnotes.xml')!.toString('utf8').replace('</w:footnotes>', `${note(1, 'Business days, excluding federal holidays.')}${note(2, 'As amended from time to time.')}</w:footnotes>`);
    parts.set('word/footnotes.xml', Buffer.from(footnotes));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const read = async (libreoffice: boolean) => {
      const model = await readDocument(edited, 'docx', { libreoffice });
      const all = [...walk(model.native!)];
      return { model, notes: all.filter((n): n is Paragraph => n.type === 'paragraph' && n.role === 'footnote'), lists: all.filter((n): n is List => n.type === 'list') };
    };
    const { notes, lists: withNotes, model } = await read(false);
    // The NDA's section numbers its footnotes in small roman numerals, as Word shows them (mammoth counts 1, 2).
    assert.deepEqual(notes.map((n) => n.leaf.text), ['[i] Business days, excluding federal holidays.', '[ii] As amended from time to time.']);
    assert.equal(notes[0]!.structure, 'p');
    assert.ok(!notes[0]!.leaf.spans?.length, 'the mark is not read as part of a duration ("1 Business days")');
    // Without a format of its own a document numbers them 1, 2, …
    assert.deepEqual(htmlStructure('<p>A<a href="#footnote-7" id="footnote-ref-7">[7]</a></p><ol><li id="footnote-7"><p>Note.</p></li></ol>', { wordNumbering: true }).flatMap((n) => (n.type === 'paragraph' ? [[n.role, n.leaf.text]] : [])), [['body', 'A[1]'], ['footnote', '[1] Note.']]);
    const before = [...walk((await readDocument(bytes, 'docx', { libreoffice: false })).native!)].filter((n): n is List => n.type === 'list');
    assert.equal(withNotes.length, before.length, 'no list is added for the notes');
    assert.ok([...leaves(model.native!)].some((l) => l.text.startsWith('This Mutual') && l.text.endsWith('[i]')), 'the reference stays in its sentence, marked as its note');
    if (!soffice) return t.skip('soffice is not on PATH: the rendition is not drawn');
    const drawn = await read(true);
    alignBoxes(drawn.model.native!, drawn.model.pages);
    // Boxed from the rendition, where LibreOffice sets them at the foot of their pages.
    for (const n of drawn.notes) assert.ok(n.leaf.boxes.length > 0 && n.leaf.boxes[0]!.top > 2000, JSON.stringify(n.leaf));
  });

  test('a simple field reads as its last result (a date), in the structure and the rendition; a page number stays a field', async (t) => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    let p = 0;
    const date = '<w:r><w:t xml:space="preserve"> Signed </w:t></w:r><w:fldSimple w:instr=" DATE \\@ &quot;MMMM d, yyyy&quot; "><w:r><w:t>March 3, 2024</w:t></w:r></w:fldSimple><w:fldSimple w:instr=" AUTHOR "/>';
    parts.set('word/document.xml', Buffer.from(parts.get('word/document.xml')!.toString('utf8').replace(/<\/w:p>/g, (end) => (++p === 2 ? date + end : end))));
    const footer = [...parts.keys()].find((n) => /^word\/footer\d*\.xml$/.test(n) && /Document ID/.test(parts.get(n)!.toString('utf8')))!;
    parts.set(footer, Buffer.from(parts.get(footer)!.toString('utf8').replace('</w:p>', '<w:r><w:t xml:space="preserve"> Page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>')));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = [...leaves((await readDocument(edited, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    assert.ok(texts.some((t) => t.startsWith('This Mutual') && t.endsWith('Signed March 3, 2024')), JSON.stringify(texts.slice(0, 3)));
    if (!soffice) return t.skip('soffice is not on PATH: the rendition is not drawn');
    const rendition = await readDocument(edited, 'docx');
    const pageText = rendition.pages.map((page) => page.items.map((i) => i.text).join(' '));
    assert.match(pageText[0]!, /Signed March 3, 2024/);
    // Each page with that footer numbered by its field, not all with the one result the file holds.
    const footed = pageText.flatMap((text, k) => (/Document ID/.test(text) ? [k] : []));
    assert.ok(footed.length >= 2, `${footed.length} pages with the footer`);
    for (const k of footed) assert.match(pageText[k]!, new RegExp(`Page ${k + 1}\\b`), `page ${k + 1}`);
  });

  test('positional tabs, carriage returns, soft hyphens, right-to-left runs and rubies: the words Word shows, apart and whole', async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    let p = 0;
    const runs = '<w:r><w:t>Left</w:t></w:r><w:r><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/></w:r><w:r><w:t>Right</w:t></w:r><w:r><w:cr/></w:r><w:r><w:t>Next co</w:t></w:r><w:r><w:softHyphen/></w:r><w:r><w:t>operation</w:t></w:r>' +
      '<w:r><w:t xml:space="preserve"> in </w:t></w:r><w:dir w:val="rtl"><w:r><w:t>שלום</w:t></w:r></w:dir><w:r><w:t xml:space="preserve"> and </w:t></w:r><w:bdo w:val="ltr"><w:r><w:t>Tokyo</w:t></w:r></w:bdo>' +
      '<w:r><w:t xml:space="preserve"> </w:t></w:r><w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>kan</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>漢</w:t></w:r></w:rubyBase></w:ruby></w:r>';
    parts.set('word/document.xml', Buffer.from(parts.get('word/document.xml')!.toString('utf8').replace(/<\/w:p>/g, (end) => (++p === 2 ? `</w:p><w:p>${runs}</w:p>` : end))));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const words = [...leaves((await readDocument(edited, 'docx', { libreoffice: false })).native!)].flatMap((l) => wordsOf(l.text));
    const at = words.indexOf('Left');
    assert.deepEqual(words.slice(at, at + 9), ['Left', 'Right', 'Next', 'cooperation', 'in', 'שלום', 'and', 'Tokyo', '漢']);
  });

  test('tags never closed and elements after the root are refused at once, not handed to a parser quadratic in them', async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    for (const part of ['word/document.xml', 'word/styles.xml']) {
      const parts = await zipEntries(bytes, () => true);
      const xml = parts.get(part)!.toString('utf8');
      // 100,000 of each at the end of the part: xmldom took minutes over some of them, and a pattern
      // scanning to the next ">" from each tag would be quadratic too.
      for (const tail of ['<w:ptab ', '<w:fldSimple ', '<w:dir ', '<w:vanish ', '<w:del ', '<w:ruby>', '<w:footnotePr>', '<w:p>', '<w:r><w:t>a', '<!--']) {
        parts.set(part, Buffer.from(xml + tail.repeat(100_000)));
        // Stored, not deflated: so repetitive a part would be refused as a compression bomb first.
        const hostile = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: name !== part })));
        const start = performance.now();
        await assert.rejects(readDocument(hostile, 'docx', { libreoffice: false }), (err: Error) => {
          assert.ok(err instanceof IngestError && err.title === 'Corrupt DOCX' && err.detail.startsWith(`${part} is not well-formed XML`), err.message);
          return true;
        });
        assert.ok(performance.now() - start < 10_000, `${part} + ${tail}: ${performance.now() - start} ms`);
      }
    }
  });

  test('accepting revisions: what each mark does to the XML', () => {
    const r = (text: string) => `<w:r><w:t>${text}</w:t></w:r>`;
    // Inserted then deleted by another reviewer: gone. Moved: kept where it went only.
    assert.equal(acceptedRevisions(`<w:p>${r('a')}<w:ins w:id="1"><w:del w:id="2"><w:r><w:delText>b</w:delText></w:r></w:del>${r('c')}</w:ins></w:p>`), `<w:p>${r('a')}${r('c')}</w:p>`);
    assert.equal(acceptedRevisions(`<w:p><w:moveFrom w:id="1">${r('m')}</w:moveFrom></w:p><w:p><w:moveTo w:id="2">${r('m')}</w:moveTo></w:p>`), `<w:p></w:p><w:p>${r('m')}</w:p>`);
    // A deleted paragraph mark: the paragraph goes when nothing is left of it, stays when text is.
    const gone = '<w:pPr><w:rPr><w:del w:id="3"/></w:rPr></w:pPr>';
    assert.equal(acceptedRevisions(`<w:p>${gone}<w:del w:id="4"><w:r><w:delText>x</w:delText></w:r></w:del></w:p><w:p>${r('kept')}</w:p>`), `<w:p>${r('kept')}</w:p>`);
    assert.equal(acceptedRevisions(`<w:p>${gone}${r('left')}</w:p>`), `<w:p><w:pPr><w:rPr></w:rPr></w:pPr>${r('left')}</w:p>`);
    // A picture is something left, and so is text in a text box.
    assert.equal(acceptedRevisions(`<w:p>${gone}<w:r><w:drawing/></w:r></w:p>`), '<w:p><w:pPr><w:rPr></w:rPr></w:pPr><w:r><w:drawing/></w:r></w:p>');
    assert.equal(acceptedRevisions(`<w:p>${gone}<w:r><w:txbxContent><w:p>${r('box')}</w:p></w:txbxContent></w:r></w:p>`).includes('box'), true);
    // A deleted row goes with its cells; the other rows, and former formatting, as accepted.
    const row = (text: string, props = '') => `<w:tr>${props}<w:tc><w:p>${r(text)}</w:p></w:tc></w:tr>`;
    assert.equal(acceptedRevisions(`<w:tbl>${row('one')}${row('two', '<w:trPr><w:del w:id="5"/></w:trPr>')}${row('three')}</w:tbl>`), `<w:tbl>${row('one')}${row('three')}</w:tbl>`);
    assert.equal(acceptedRevisions('<w:rPr><w:b/><w:rPrChange w:id="6"><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr>'), '<w:rPr><w:b/></w:rPr>');
    // Malformed: a deletion never closed drops the rest, and is passed over in one pass.
    assert.equal(acceptedRevisions(`<w:p>${r('a')}</w:p><w:del>${r('b')}`), `<w:p>${r('a')}</w:p>`);
    const start = performance.now();
    acceptedRevisions('<w:del w:id="1">'.repeat(100_000) + '<w:p><w:tr>'.repeat(100_000));
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
  });

  test('the lease: Heading 2 articles under the title, with their lists and rent table', () => {
    const nodes = textLayout.get('TruTone Lane 1.docx')!.native!;
    const top = section(nodes, 'RIDER TO LEASE');
    const articles = childHeadings(top);
    assert.ok(articles.length >= 40, `${articles.length} articles`);
    // Heading 2 numbered by Word ("40."), and one numbered by hand ("40A."), read alike.
    assert.deepEqual(articles.slice(0, 3), ['40. Rent', '40A. Term of Lease', '41. Escalations']);
    // Every article from 40 to 73 is one: "50. Licenses and Permits" and "73. Quiet Enjoyment" are set in
    // List Paragraph, bold and underlined, in the numbering of the Heading 2 articles around them.
    const numbers = articles.map((a) => /^(\d+)[A-Z]?\./.exec(a)?.[1]).filter((n) => n !== undefined).map(Number);
    assert.deepEqual([...new Set(numbers)], Array.from({ length: 34 }, (_, k) => 40 + k), JSON.stringify(articles));
    assert.ok(articles.includes('50. Licenses and Permits') && articles.includes('73. Quiet Enjoyment'), JSON.stringify(articles.slice(-5)));
    assert.ok(sections(top.children).every((s) => s.level === 2));
    const rent = tables(section(nodes, '40. Rent').children)[0]!;
    assert.equal(rent.rows.length, 11);
    assert.deepEqual(rent.rows[0]!.cells.map((c) => c.leaf.text), ['TERM YEAR', 'PERIOD', 'MONTHLY RENT', 'ANNUAL RENT']);
    const restrictions = section(nodes, '42G. Use Restrictions').children.find((c): c is List => c.type === 'list')!;
    assert.equal(restrictions.items.length, 17);
    assert.deepEqual(restrictions.items.slice(0, 3).map((i) => i.marker?.text), ['(a)', '(b)', '(c)']);
    // Lettered items restart after each sentence that introduces them. The second (a) goes on over a
    // page break (a paragraph of its own in the converted document, joined to it), and (b) follows it.
    const use = section(nodes, '42. Use of Premises');
    assert.deepEqual(
      lists(use.children).map((l) => l.items.map((i) => i.marker?.text)),
      [
        ['(a)', '(b)'],
        ['(a)', '(b)', '(c)'],
      ],
    );
  });

  test('the lease, converted from PDF: a paragraph a page break cut in two (a section ending between them) is one paragraph', () => {
    const nodes = textLayout.get('TruTone Lane 1.docx')!.native!;
    const texts = [...leaves(nodes)].map((l) => l.text);
    const security = texts.find((t) => t.startsWith('The Security being held pursuant to this Article shall at all times be an amount equal to'));
    assert.ok(security, 'the paragraph on the security');
    assert.match(security, /an amount equal to three \(3\) times the monthly fixed rent then reserved under Article 40 of this Lease\./);
    assert.ok(!texts.some((t) => t.startsWith('three (3) times the monthly fixed rent')), 'its second half is no paragraph of its own');
    // A numbered item cut at the page goes on in the item ("(a) Tenant shall install … promptly to install" / "such additional air purifying equipment …").
    const install = texts.find((t) => t.startsWith('Tenant shall install, if not already in existence, a filtration'));
    assert.match(install ?? '', /promptly to install such additional air purifying equipment/);
  });

  test('page cuts joined: only across a section end, after running text stopping mid-sentence, before a paragraph neither numbered nor a heading', () => {
    const long = 'Tenant shall keep the Premises and the sidewalks in front of them clean and free of';
    const p = (text: string, props = '') => `<w:p><w:pPr>${props}</w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const section = '<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/></w:sectPr></w:pPr></w:p>';
    const doc = (...parts: string[]) => `<w:document><w:body>${parts.join('')}</w:body></w:document>`;
    const joined = joinPageCuts(doc(p(long), '<w:p/>', section, p('snow, ice and rubbish.')));
    assert.equal(joined, doc(`<w:p><w:pPr></w:pPr><w:r><w:t>${long}</w:t></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r><w:r><w:t>snow, ice and rubbish.</w:t></w:r></w:p>`, '<w:p/>', section, '<w:p><w:pPr></w:pPr></w:p>'));
    for (const [why, xml] of [
      ['no section ends between them', doc(p(long), '<w:p/>', p('snow, ice and rubbish.'))],
      ['the first ends its sentence', doc(p(`${long} snow.`), section, p('Tenant shall also …'))],
      ['the first is a short line', doc(p('Rent and'), section, p('other charges'))],
      ['the second is numbered', doc(p(long), section, p('snow, ice and rubbish.', '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="4"/></w:numPr>'))],
      ['the second is a heading', doc(p(long), section, p('Insurance', '<w:pStyle w:val="Heading2"/>'))],
      ['a table between them', doc(p(long), section, '<w:tbl><w:tr><w:tc>', p('snow'), '</w:tc></w:tr></w:tbl>', p('ice and rubbish.'))],
    ] as const) {
      assert.equal(joinPageCuts(xml), xml, why);
    }
  });

  for (const file of DOCX) {
    test(`${file}: every word once, in order (against mammoth's raw text)`, async () => {
      // mammoth's raw text is the document's paragraphs without Word's generated list numbers, so
      // the leaves' words without the generated markers must be exactly its words.
      const raw = (await mammoth.extractRawText({ buffer: corpus(`office/${file}`) })).value;
      // Headers and footers (furniture around the body) are no part of mammoth's text.
      assertWordsOnce(body(textLayout.get(file)!.native!), wordsOf(raw), await wordLabels(corpus(`office/${file}`)));
    });

    test(`${file}: leaves get boxes from Quire's text layout`, (t) => {
      const model = textLayout.get(file)!;
      const share = alignedShare(model);
      t.diagnostic(`${(share * 100).toFixed(1)}% of leaves boxed on ${model.pages.length} text-layout pages`);
      assert.ok(share >= 0.9, `${share}`);
    });

    test(`${file}: leaves get boxes from LibreOffice's rendition`, { skip: soffice ? false : 'soffice is not on PATH' }, (t) => {
      const model = libreOffice.get(file)!;
      assert.equal(model.pagination, 'libreoffice');
      const share = alignedShare(model);
      t.diagnostic(`${(share * 100).toFixed(1)}% of leaves boxed on ${model.pages.length} LibreOffice pages`);
      assert.ok(share >= 0.9, `${share}`);
      const heading = sections(model.native!)[0]!.heading;
      assert.equal(heading.boxes[0]!.page, 1);
      assert.equal(textIn(model, heading), heading.text, 'the title box holds the title');
    });
  }
});

describe('HTML native structure', () => {
  test('a table that lays a page out (headings in its cells, or one cell) reads as the page; a table of data inside it is a table', () => {
    const nodes = htmlStructure(`<table width="100%"><tr><td><h1>Quarterly Update</h1><p>Revenue grew strongly this quarter.</p>
      <table><tr><th>Region</th><th>Sales</th></tr><tr><td>East</td><td>10</td></tr></table>
      <h2>Outlook</h2><p>We expect more.</p></td></tr></table>
      <table><tr><td>A note in a box.</td></tr></table>`);
    assert.deepEqual(nodes.map((n) => n.type === 'section' && n.heading.text), ['Quarterly Update']);
    assert.deepEqual(childHeadings(section(nodes, 'Quarterly Update')), ['Outlook']);
    assert.deepEqual(tables(nodes).map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text))), [[['Region', 'Sales'], ['East', '10']]]);
    assert.ok(section(nodes, 'Outlook').children.some((c) => c.type === 'paragraph' && c.leaf.text === 'A note in a box.'));
    // Headings deep inside nested tables are counted once each, not once per table around them.
    const start = performance.now();
    htmlStructure('<table><tr><td>'.repeat(50_000) + '<h1>x</h1>'.repeat(50_000));
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
    // A Word document's tables are its tables, one cell or not.
    assert.equal(tables(htmlStructure('<table><tr><td><p>Boxed clause.</p></td></tr></table>', { wordNumbering: true, boldTitles: false })).length, 1);
  });

  test('a description list is a key/value form: a row per term, its label and value cells; details and summaries are blocks of their own', () => {
    const nodes = htmlStructure('<dl><dt>Effective Date</dt><dd>March 1, 2024</dd><dt>Term</dt><dd>Two years</dd></dl><details><summary>More</summary>Further terms apply.</details>');
    const [form] = tables(nodes);
    assert.ok(form);
    assert.deepEqual(form.rows.map((r) => r.cells.map((c) => [c.role, c.leaf.text])), [
      [['label', 'Effective Date'], ['value', 'March 1, 2024']],
      [['label', 'Term'], ['value', 'Two years']],
    ]);
    assert.deepEqual(textWords(nodes.filter((n) => n.type !== 'table')), ['More', 'Further', 'terms', 'apply.']);
  });

  test('form fields read as they show: a box ticked or not, a choice made or not, a text field its value; a non-breaking hyphen is a hyphen', () => {
    const nodes = htmlStructure(
      '<p>Smoker: <input type="checkbox" checked> Yes <input type="checkbox"> No</p><p><input type="radio" name="r" checked="">Monthly<input type="radio" name="r">Yearly</p>' +
        '<p>Name: <input value="Jane Roe"> <input type="hidden" value="SECRET"><input type="password" value="HIDDEN"></p><p>A non\u2011breaking hyphen</p>',
    );
    assert.deepEqual([...leaves(nodes)].map((l) => l.text), ['Smoker: ☒ Yes ☐ No', '◉ Monthly ○ Yearly', 'Name: Jane Roe', 'A non-breaking hyphen']);
  });

  test('a drop-down list reads as the option it shows (the chosen one, else the first); a list box reads its options', () => {
    const texts = (html: string) => [...leaves(htmlStructure(html))].map((l) => l.text);
    assert.deepEqual(texts('<p>Term: <select name="t"><option value="selected one">One year</option><option selected>Two years</option></select> from signing.</p>'), ['Term: Two years from signing.']);
    assert.deepEqual(texts('<p>State: <select><optgroup label="West"><option>Arizona</option><option>Utah</option></optgroup></select></p>'), ['State: Arizona']);
    assert.deepEqual(texts('<p>Plan: <select><option label="Gold" selected></option><option>Silver</option></select></p>'), ['Plan: Gold']);
    assert.deepEqual(textWords(htmlStructure('<select multiple><option>Yes</option><option>No</option></select>')), ['Yes', 'No']);
    assert.deepEqual(textWords(htmlStructure('<select size="2"><option>Yes</option><option>No</option></select>')), ['Yes', 'No']);
  });

  test("Word's check boxes (content controls and legacy form fields) read ticked or not, where mammoth's input vanished", async () => {
    const bytes = corpus('office/NDA simple layout.docx');
    const parts = await zipEntries(bytes, () => true);
    const run = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const control = (checked: boolean) =>
      `<w:sdt><w:sdtPr><w14:checkbox><w14:checked w14:val="${checked ? 1 : 0}"/></w14:checkbox></w:sdtPr><w:sdtContent><w:r><w:t>${checked ? '☒' : '☐'}</w:t></w:r></w:sdtContent></w:sdt>`;
    const legacy = (checked: boolean) =>
      `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Check1"/><w:checkBox><w:sizeAuto/><w:default w:val="${checked ? 1 : 0}"/></w:checkBox></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    let document = parts.get('word/document.xml')!.toString('utf8');
    const added = `<w:p>${run('Renewal: ')}${control(true)}${run(' Yes ')}${control(false)}${run(' No')}</w:p><w:p>${run('Insured: ')}${legacy(false)}${run(' Yes ')}${legacy(true)}${run(' No')}</w:p>`;
    document = document.replace('</w:p>', `</w:p>${added}`);
    if (!document.includes('xmlns:w14=')) document = document.replace('<w:document ', '<w:document xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" ');
    parts.set('word/document.xml', Buffer.from(document));
    const edited = makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true })));
    const texts = [...leaves((await readDocument(edited, 'docx', { libreoffice: false })).native!)].map((l) => l.text);
    assert.deepEqual(texts.slice(1, 3), ['Renewal: ☒ Yes ☐ No', 'Insured: ☐ Yes ☒ No']);
  });

  test('a raised note mark is a word of its own, not part of the word or figure it follows; an ordinal stays on its number', () => {
    const nodes = htmlStructure('<p>Revenue<sup>1</sup> grew in 2023<sup>(2)</sup> to $1,234<sup>*</sup> by March 1<sup>st</sup>, see note<sup>[iv]</sup>.</p>');
    assert.deepEqual(textWords(nodes), ['Revenue', '1', 'grew', 'in', '2023', '(2)', 'to', '$1,234', '*', 'by', 'March', '1st,', 'see', 'note', '[iv].']);
    // A power stays on its unit or letter, raised; a mark after a longer word is still a note's.
    assert.deepEqual(
      textWords(htmlStructure('<p>An area of 40 m<sup>2</sup> (430 ft<sup>2</sup>), x<sup>-1</sup> and 9.8 m/s<sup>2</sup>; the lessee<sup>2</sup> pays.</p>')),
      ['An', 'area', 'of', '40', 'm²', '(430', 'ft²),', 'x⁻¹', 'and', '9.8', 'm/s²;', 'the', 'lessee', '2', 'pays.'],
    );
    // Raised text nested 100,000 deep, a word in each, is not looked through again at every level.
    const start = performance.now();
    assert.equal(textWords(htmlStructure('<sup>a '.repeat(100_000))).length, 100_000);
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
  });

  test('characters that show nothing are not read: a soft hyphen, zero-width spaces and joiners', () => {
    const nodes = htmlStructure('<p>Co&shy;operation and con\u200Bfidential in\u2060formation\uFEFF here.</p>');
    assert.deepEqual(textWords(nodes), ['Cooperation', 'and', 'confidential', 'information', 'here.']);
  });

  test('h1–h3 nest; a heading holds everything until the next of its level or higher', () => {
    const nodes = htmlStructure(`<h1>One</h1><p>a</p><h2>One.A</h2><p>b</p><h3>One.A.i</h3><p>c</p>
      <h2>One.B</h2><p>d</p><h1>Two</h1><h3>Two.i</h3><p>e</p>`);
    assert.deepEqual(nodes.map((n) => n.type === 'section' && n.heading.text), ['One', 'Two']);
    const one = nodes[0] as Section;
    assert.deepEqual(childHeadings(one), ['One.A', 'One.B']);
    assert.deepEqual(childHeadings(section(nodes, 'One.A')), ['One.A.i']);
    assert.equal(section(nodes, 'One.A.i').level, 3);
    assert.equal(section(nodes, 'Two.i').level, 2, 'levels are depths: a skipped h2 does not leave a gap');
    assert.deepEqual(section(nodes, 'One.B').children.map((c) => c.type === 'paragraph' && c.leaf.text), ['d']);
  });

  test('a filing styled with CSS, without h1–h6: bold titles, parts and items nest, a bold label or signature line stays text', () => {
    const bold = (text: string, more = '') => `<div><span style="font-weight:700${more}">${text}</span></div>`;
    const html = `<div style="text-align:center"><span style="font-weight:bold;font-size:14pt">UNITED STATES SECURITIES AND EXCHANGE COMMISSION</span></div>
      ${bold('FORM 10-Q')}
      ${bold('PART I — FINANCIAL INFORMATION')}
      ${bold('Item 1. Financial Statements')}
      <div>The following table shows net sales by category.</div>
      <table><tr><td>${bold('Category')}</td><td><b>Q1</b></td></tr><tr><td>iPhone</td><td>$ 65,775</td></tr></table>
      ${bold('Item 2. Management’s Discussion and Analysis')}
      ${bold('Business Seasonality and Product Introductions', ';font-style:italic')}
      <p>The Company has historically experienced higher net sales in its first quarter.</p>
      <p style="font-weight: 600">Fixed rent:</p><p>As in the table.</p>
      <p><span style="font-weight:bold">STATE OF NEW YORK )</span></p><p><b>Apple Inc.</b></p>
      ${bold('PART II — OTHER INFORMATION')}
      ${bold('Item 1A. Risk Factors')}
      <div>There have been no <span style="font-weight:bold">material</span> changes.</div>`;
    const nodes = htmlStructure(html);
    // The agency's name is followed by the next title at once: it was a line, not a section.
    assert.equal(nodes[0]!.type, 'paragraph');
    assert.deepEqual(nodes.slice(1).map((n) => n.type === 'section' && n.heading.text), ['FORM 10-Q']);
    assert.deepEqual(childHeadings(section(nodes, 'FORM 10-Q')), ['PART I — FINANCIAL INFORMATION', 'PART II — OTHER INFORMATION']);
    assert.deepEqual(childHeadings(section(nodes, 'PART I — FINANCIAL INFORMATION')), ['Item 1. Financial Statements', 'Item 2. Management’s Discussion and Analysis']);
    assert.deepEqual(childHeadings(section(nodes, 'Item 2. Management’s Discussion and Analysis')), ['Business Seasonality and Product Introductions']);
    assert.deepEqual(childHeadings(section(nodes, 'PART II — OTHER INFORMATION')), ['Item 1A. Risk Factors']);
    assert.equal(tables(section(nodes, 'Item 1. Financial Statements').children).length, 1);
    const texts = section(nodes, 'Business Seasonality and Product Introductions').children.map((c) => c.type === 'paragraph' && c.leaf.text);
    assert.deepEqual(texts, ['The Company has historically experienced higher net sales in its first quarter.', 'Fixed rent:', 'As in the table.', 'STATE OF NEW YORK )', 'Apple Inc.']);
    assert.deepEqual(textWords(nodes), wordsOf(html.replace(/<[^>]+>/g, ' ')));
  });

  test('titles set only in larger type (inline font-size, pt or px) are sections, the larger the outer; body-size text is not', () => {
    const html = `<p><span style="font-size:22pt">Annual Report 2023</span></p>
      <p><span style="font-size: 21px">Our Mission</span></p>
      <p style="font-size:10pt">We build tools for documents and the people who read them.</p>
      <p><span style="font-size:16pt">Our Results</span></p>
      <p style="font-size:10pt">Revenue grew in every region, and <span style="font-size:12pt">margins held</span>.</p>
      <p style="font-size:10pt"><b>Regional detail</b></p>
      <p style="font-size:10pt">The Americas led the growth.</p>
      <p style="font-size:10pt">Short line in body type</p>`;
    const nodes = htmlStructure(html);
    assert.deepEqual(nodes.map((n) => n.type === 'section' && n.heading.text), ['Annual Report 2023']);
    assert.deepEqual(childHeadings(section(nodes, 'Annual Report 2023')), ['Our Mission', 'Our Results']);
    assert.deepEqual(childHeadings(section(nodes, 'Our Results')), ['Regional detail']);
    assert.deepEqual(section(nodes, 'Regional detail').children.map((c) => c.type === 'paragraph' && c.leaf.text), ['The Americas led the growth.', 'Short line in body type']);
  });

  test("an export styled by class (Google Docs, Word's HTML): the page's style sheets make titles bold or larger; relative and legacy sizes count", () => {
    // As Google Docs exports a document: every style is a class, the title's size and the bold lines included.
    const html = `<html><head><style type="text/css">
      @import url('https://themes.googleusercontent.com/fonts/css?kit=x');
      .lst-kix_a > li:before { content: "- " }
      ol{margin:0;padding:0} .c4{font-weight:700;font-family:"Arial"} .c1{font-size:11pt;font-family:"Arial";font-weight:400}
      .c7, .title { padding-top:0pt; font-size:26pt } p.c9 { font-size: 200% }
      @media print { .c1 { font-size: 40pt } }
      .big .c1 { font-size: 40pt } /* descendant selectors are not matched */
      .c2{font-weight:700 !important} .c6{font-family:"Arial"}
      </style></head><body class="c8 doc-content">
      <p class="c7 title"><span class="c6">Partnership Plan</span></p>
      <p class="c3"><span class="c4">Scope of Work</span></p>
      <p class="c3"><span class="c1">The partners will share the costs of the program evenly.</span></p>
      <p class="c3 big"><span class="c4">Payment Terms</span></p>
      <p class="c3"><span class="c1">Invoices are due within thirty days.</span></p>
      <p class="c3"><b><span class="c1">Not bold: its class sets a normal weight</span></b></p>
      <p class="c3"><span class="c2" style="font-weight:400">Important wins over inline</span></p>
      <p class="c3"><span class="c1">Closing remarks follow the terms.</span></p></body></html>`;
    const nodes = htmlStructure(html);
    assert.deepEqual(nodes.map((n) => n.type === 'section' && n.heading.text), ['Partnership Plan']);
    assert.deepEqual(childHeadings(section(nodes, 'Partnership Plan')), ['Scope of Work', 'Payment Terms', 'Important wins over inline']);
    assert.deepEqual(section(nodes, 'Payment Terms').children.map((c) => c.type === 'paragraph' && c.leaf.text), [
      'Invoices are due within thirty days.',
      'Not bold: its class sets a normal weight',
    ]);

    // Sizes relative to the parent (em, %, keywords) and old <font size> tags, as browsers compute them.
    const relative = htmlStructure(`<div style="font-size:10pt"><p><span style="font-size:1.6em">Quarterly Review</span></p>
      <p>Sales rose in every region this quarter.</p><p><font size="5">Outlook</font></p><p>Demand should hold into the spring.</p>
      <p style="font-size:x-large">Appendix</p><p style="font-size:110%">Eleven points is body text, not a title</p><p>More body text here.</p></div>`);
    assert.deepEqual(relative.map((n) => n.type === 'section' && n.heading.text), ['Quarterly Review', 'Outlook', 'Appendix']);
    assert.deepEqual(section(relative, 'Appendix').children.map((c) => c.type === 'paragraph' && c.leaf.text), ['Eleven points is body text, not a title', 'More body text here.']);
  });

  test('hidden text is not read: display:none by style or class, the hidden attribute, an inline XBRL header', () => {
    const html = `<?xml version="1.0" encoding="utf-8"?><html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><head><style>.gone{display:none}.back{display:none}.back.shown{display:block}</style></head><body>
      <div style="display:none"><ix:header><ix:hidden><ix:nonNumeric name="dei:AmendmentFlag">false</ix:nonNumeric></ix:hidden>
      <ix:resources><xbrli:context id="c-1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000320193</xbrli:identifier></xbrli:entity></xbrli:context></ix:resources></ix:header></div>
      <ix:header><ix:hidden>0000320193 2023 Q1 --09-30</ix:hidden></ix:header>
      <p>Apple Inc. reports its <ix:nonNumeric name="dei:DocumentType">10-Q</ix:nonNumeric> for the quarter.</p>
      <p class="gone">Draft note that was never shown.</p><p hidden>Neither was this one.</p>
      <p class="back shown">A later rule shows this again.</p></body></html>`;
    const texts = [...leaves(htmlStructure(html))].map((l) => l.text);
    assert.deepEqual(texts, ['Apple Inc. reports its 10-Q for the quarter.', 'A later rule shows this again.']);
  });

  test("a filing's hanging indents laid out as one-row tables are its items and notes; a real table stays a table", () => {
    const html = `<div><b>PART I — FINANCIAL INFORMATION</b></div>
      <table><tr><td style="width:8%">Item 2.</td><td><b>Management’s Discussion and Analysis of Financial Condition</b></td></tr></table>
      <div>Net sales rose in every segment during the quarter.</div>
      <table><tr><td>(1)</td><td>Includes AppleCare and other services.</td></tr></table>
      <table><tr><td>(2)</td><td>Excludes the effect of foreign currency.</td></tr></table>
      <table><tr><td>Total</td><td>$ 117,154</td></tr></table>`;
    const nodes = htmlStructure(html);
    const item = section(nodes, 'Item 2. Management’s Discussion and Analysis of Financial Condition');
    assert.deepEqual(childHeadings(section(nodes, 'PART I — FINANCIAL INFORMATION')), [item.heading.text]);
    const notes = item.children.find((c): c is List => c.type === 'list');
    assert.deepEqual(notes?.items.map((i) => [i.marker?.text, (i.children[0] as Paragraph).leaf.text]), [
      ['(1)', 'Includes AppleCare and other services.'],
      ['(2)', 'Excludes the effect of foreign currency.'],
    ]);
    assert.deepEqual(tables(nodes).map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text))), [[['Total', '$ 117,154']]]);
    // The markers are the file's own words here.
    assert.deepEqual([...leaves(nodes)].flatMap((l) => wordsOf(l.text)), wordsOf(html.replace(/<[^>]+>/g, ' ')));
  });

  test('a Word document keeps its bold lines as text: its heading styles and numbering are its outline', () => {
    const nodes = htmlStructure('<p><strong>BIRCH STREET, LLC</strong></p><p>Landlord</p><p><strong>Notary Public</strong></p><p>Sworn before me.</p>', { wordNumbering: true, boldTitles: false });
    assert.deepEqual(sections(nodes), []);
  });

  test('a list item led by a bold or underlined title closed by "." or ":" holds a section of that title; other items stay text', () => {
    const nodes = htmlStructure(
      '<ol>' +
        '<li><u>Term</u>. This Agreement runs for two years.<ol><li>It renews each year.</li></ol><p>Either party may end it.</p></li>' +
        '<li><b>Fees:</b> the Client pays monthly.</li>' +
        '<li><b>Notices.</b> Notices are <b>written</b>.</li>' +
        '<li>Plain item with a <b>bold</b> word.</li>' +
        '<li><b>All bold. Still bold.</b></li>' +
        '<li><b>“Affiliate”.</b> A defined term closing its quotes is no title.</li>' +
        '<li><u>provided</u>, that an underlined word is no title.</li>' +
      '</ol>' +
      '<p>1. <u>Survival</u>. These terms survive.</p>',
    );
    const list = nodes.find((n): n is List => n.type === 'list')!;
    const heads = list.items.map((i) => (i.children[0]?.type === 'section' ? i.children[0].heading.text : null));
    assert.deepEqual(heads, ['Term.', 'Fees:', 'Notices.', null, null, null, null]);
    const term = list.items[0]!.children[0] as Section;
    assert.equal(list.items[0]!.children.length, 1, 'the item holds its section only');
    assert.deepEqual(
      term.children.map((c) => c.type),
      ['paragraph', 'list', 'paragraph'],
      'the text, the nested list and the later paragraph go under the title',
    );
    assert.equal((term.children[0] as Paragraph).leaf.text, 'This Agreement runs for two years.');
    assert.equal((list.items[2]!.children[0] as Section).children.length, 1);
    // After a typed label, an underlined title is as good as a bold one.
    assert.ok(sections(nodes).some((s) => s.heading.text === '1. Survival.'), JSON.stringify(sections(nodes).map((s) => s.heading.text)));
    assert.deepEqual(textWords(nodes), wordsOf('Term. This Agreement runs for two years. It renews each year. Either party may end it. Fees: the Client pays monthly. Notices. Notices are written. Plain item with a bold word. All bold. Still bold. “Affiliate”. A defined term closing its quotes is no title. provided, that an underlined word is no title. 1. Survival. These terms survive.'));
  });

  test('nested ol/ul with markers from type, start and value', () => {
    const nodes = htmlStructure(`<ol start="3"><li>three<ul><li>dot</li><li>dash</li></ul></li>
      <li>four<ol type="a"><li>x</li><li value="5">y</li><li>z</li></ol></li></ol>
      <ol type="I"><li>first</li><li>second</li></ol><ul style="list-style-type: none"><li>bare</li></ul>`);
    const [outer, roman, bare] = nodes as List[];
    assert.deepEqual(outer!.items.map((i) => i.marker?.text), ['3.', '4.']);
    const bullets = outer!.items[0]!.children[1] as List;
    assert.deepEqual([bullets.ordered, bullets.style, bullets.items.map((i) => i.marker?.text)], [false, 'circle', ['•', '•']]);
    const letters = outer!.items[1]!.children[1] as List;
    assert.deepEqual([letters.style, letters.items.map((i) => i.marker?.text)], ['lower-alpha', ['a.', 'e.', 'f.']]);
    assert.deepEqual(roman!.items.map((i) => i.marker?.text), ['I.', 'II.']);
    assert.deepEqual([bare!.style, bare!.items[0]!.marker], ['none', null]);
    assert.deepEqual(layoutBlocks(nodes).slice(0, 3), [
      { kind: 'list-item', text: 'three', depth: 1, marker: '3.' },
      { kind: 'list-item', text: 'dot', depth: 2, marker: '•' },
      { kind: 'list-item', text: 'dash', depth: 2, marker: '•' },
    ]);
  });

  test('tables with colspan/rowspan; an inner table flattens into its cell; script and style ignored', () => {
    const html = `<html><head><title>Hidden title</title><style>td { color: red }</style></head><body>
      <script>var secret = "SCRIPT-WORDS";</script>
      <table><tr><th colspan="2">Name &amp; value</th><th rowspan="2">Notes</th></tr>
      <tr><td>alpha</td><td>1</td></tr>
      <tr><td colspan="3"><p>inner:</p><table><tr><td>deep</td><td>cell</td></tr></table></td></tr></table>
      <p>After   the
      table.</p></body></html>`;
    const nodes = htmlStructure(html);
    assert.equal(nodes.length, 2);
    const table = nodes[0] as Table;
    assert.deepEqual(table.rows.map((r) => r.cells.map((c) => [c.leaf.text, c.colspan, c.rowspan])), [
      [['Name & value', 2, 1], ['Notes', 1, 2]],
      [['alpha', 1, 1], ['1', 1, 1]],
      [['inner: deep cell', 3, 1]],
    ]);
    assert.equal(tables(nodes).length, 1);
    assert.deepEqual(textWords(nodes), wordsOf('Name & value Notes alpha 1 inner: deep cell After the table.'));
  });

  test('paragraphs typed with list markers are lists: nested by kind, started at their first value, closed by other text', () => {
    const html = `<p>Terms follow.</p><p>1. Fees are due monthly.</p><p>(a) in advance;</p><p>(b) in dollars.</p>
      <p>2. Late fees apply.</p><p>Closing paragraph.</p><p>(iii) a lone third item continues a sentence.</p>
      <p>• first bullet</p><p>• second bullet</p><h2>Next</h2><p>(a) after a heading</p>`;
    const nodes = htmlStructure(html);
    const outer = nodes.find((n): n is List => n.type === 'list')!;
    assert.deepEqual(outer.items.map((i) => i.marker?.text), ['1.', '2.']);
    const sub = outer.items[0]!.children.find((c): c is List => c.type === 'list')!;
    assert.deepEqual(sub.items.map((i) => [i.marker?.text, (i.children[0] as { leaf: Leaf }).leaf.text]), [
      ['(a)', 'in advance;'],
      ['(b)', 'in dollars.'],
    ]);
    const paragraphs = nodes.filter((n) => n.type === 'paragraph').map((n) => (n as { leaf: Leaf }).leaf.text);
    assert.ok(paragraphs.includes('Closing paragraph.'));
    assert.ok(paragraphs.includes('(iii) a lone third item continues a sentence.'), JSON.stringify(paragraphs));
    assert.deepEqual(lists(nodes).map((l) => l.items.map((i) => i.marker?.text)), [['1.', '2.'], ['(a)', '(b)'], ['•', '•'], ['(a)']]);
    assertWordsOnce(nodes, wordsOf(html.replace(/<[^>]+>/g, ' ')));
  });

  test('every visible word exactly once, through inline markup, breaks and lists in cells', () => {
    const html = `<div>lead <span>in<b>line</b></span> text<br>after break</div><ul><li>item <em>one</em>
      <table><tr><td><ul><li>listed</li></ul>in cell</td></tr></table></li></ul>
      <h2>Head <i>ing</i></h2><pre>code  line
second line</pre><p>&lt;tag&gt; &nbsp; done</p>`;
    assert.deepEqual(textWords(htmlStructure(html)), wordsOf('lead inline text after break item one listed in cell Head ing code line second line <tag> done'));
  });

  test('stray list items and cells, and mammoth footnotes, keep their words', () => {
    const html = `<li>loose item</li><td>loose cell</td><tr><td>loose row</td></tr></p>
      <p>Text<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup> here.</p>
      <ol><li id="footnote-1"><p>The note. <a href="#footnote-ref-1">↑</a></p></li></ol>`;
    const nodes = htmlStructure(html);
    // The raised reference is a word of its own (see the raised note marks below).
    assert.deepEqual(textWords(nodes), wordsOf('loose item loose cell loose row Text [1] here. The note.'));
    assert.equal(tables(nodes).length, 0);
  });

  test('200,000 unclosed <style> tags, and 50,000 style sheets of one class each, finish fast', () => {
    const unclosed = '<p>before the styles</p>' + '<style>'.repeat(200_000) + '<p>read as style text</p>';
    let start = performance.now();
    assert.deepEqual(textWords(htmlStructure(unclosed)), ['before', 'the', 'styles']);
    assert.ok(performance.now() - start < 10_000, `unclosed: ${performance.now() - start} ms`);
    const sheets = Array.from({ length: 50_000 }, (_, i) => `<style>.c${i}{font-weight:700} p{font-size:10pt}</style>`).join('') + '<p class="c7">Title In Bold</p><p>Body text of the page, a sentence long enough.</p>';
    start = performance.now();
    const nodes = htmlStructure(sheets);
    assert.ok(performance.now() - start < 10_000, `sheets: ${performance.now() - start} ms`);
    assert.deepEqual(nodes.map((n) => n.type === 'section' && n.heading.text), ['Title In Bold']);
  });

  test('100,000 levels of nesting finish fast, without recursion, keeping the words', () => {
    const depth = 100_000;
    const cases = {
      div: '<div>'.repeat(depth) + 'deep div words' + '</div>'.repeat(depth),
      list: '<ul><li>'.repeat(depth) + 'deep list words',
      table: '<table><tr><td>'.repeat(depth) + 'deep cell words',
      bold: '<b><i>'.repeat(depth) + 'deep bold words',
      sup: '<sup>'.repeat(depth) + 'deep sup words',
      stray: '<div>'.repeat(depth) + '</span>'.repeat(depth) + 'deep stray words',
      unclosed: '<p>x '.repeat(depth),
    };
    for (const [name, html] of Object.entries(cases)) {
      const start = performance.now();
      const nodes = htmlStructure(html);
      const ms = performance.now() - start;
      assert.ok(ms < 10_000, `${name}: ${ms} ms`);
      const words = textWords(nodes);
      if (name === 'unclosed') assert.equal(words.length, depth);
      else assert.deepEqual(words, ['deep', `${name === 'table' ? 'cell' : name}`, 'words']);
      assert.ok(lists(nodes).length <= MAX_LIST_DEPTH, `${name}: ${lists(nodes).length} lists`);
      assert.ok(tables(nodes).length <= 1);
    }
  });

  test('HTML read whole: positions from the text layout', async () => {
    const html = `<h1>Report</h1><p>Intro words here.</p><ol><li>First point</li><li>Second point</li></ol>
      <table><tr><td>Key</td><td>Value</td></tr></table>`;
    const model = await readDocument(Buffer.from(html), 'html', { libreoffice: false });
    assert.equal(alignedShare(model), 1);
    const table = tables(model.native!)[0]!;
    assert.ok(table.boxes.length === 1 && table.rows[0]!.boxes.length === 1 && table.rows[0]!.cells[1]!.boxes.length === 1);
    const list = lists(model.native!)[0]!;
    assert.equal(textIn(model, list.items[1]!.marker!), '2.', 'the marker is drawn and found');
  });
});

describe('TXT native structure', () => {
  test('a table laid out with spaces (a filing saved as text) is a table, its ruling lines dropped; prose with double spaces and typed lists are not', () => {
    const nodes = txtStructure([
      'CONSOLIDATED BALANCE SHEETS',
      '',
      '                                        December 31,    December 31,',
      '                                            2023            2022',
      '                                        ------------    ------------',
      'Cash and cash equivalents               $     12,345    $     10,111',
      'Accounts receivable, net                       6,789           5,432',
      '                                        ------------    ------------',
      'Total current assets                    $     22,344    $     18,530',
      '                                        ============    ============',
      'The accompanying notes are an integral part of these statements.',
    ].join('\n'));
    assert.deepEqual(tables(nodes)[0]!.rows.map((r) => r.cells.map((c) => c.leaf.text)), [
      ['', 'December 31,', 'December 31,'],
      ['', '2023', '2022'],
      ['Cash and cash equivalents', '$ 12,345', '$ 10,111'],
      ['Accounts receivable, net', '6,789', '5,432'],
      ['Total current assets', '$ 22,344', '$ 18,530'],
    ]);
    assert.ok(section(nodes, 'CONSOLIDATED BALANCE SHEETS').children.some((c) => c.type === 'paragraph' && c.leaf.text.startsWith('The accompanying notes')));
    const prose = txtStructure('This Agreement is made on March 1, 2024.  The parties agree as follows.  Each party\nshall keep the other\'s information confidential.  The term is two years.  Either party\nmay end it on notice.  Notices go to the addresses below.  This is the whole agreement.');
    assert.equal(tables(prose).length, 0);
    assert.equal(tables(txtStructure('Intro\n\n1.  Definitions\n2.  Payment terms\n3.  Term of the agreement')).length, 0);
    // Lines of 100,000 cells each are laid into columns in one walk.
    const start = performance.now();
    assert.equal(tables(txtStructure(Array.from({ length: 3 }, () => 'a  '.repeat(100_000)).join('\n')))[0]!.rows[0]!.cells.length, 100_000);
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
  });

  test('a table written one cell a line (text taken from a PDF table): rows by the cycle of their kinds of text, heads by the lines in capitals over them', () => {
    const cellsOf = (t: Table) => t.rows.map((r) => r.cells.map((c) => c.leaf.text));
    const lines = (...cells: string[]) => cells.map((c) => `   ${c}`).join('\n\n');
    // Column heads, one line each: a head row.
    const schedule = txtStructure(
      lines('Renewal Schedule', 'LEASE YEAR', 'DATES', 'MONTHLY', 'ANNUAL', 'First', '1/01/25 To 12/31/25', '$8,000.00', '$96,000.00', 'Second', '1/01/26 To 12/31/26', '$8,240.00', '$98,880.00', 'Third', '1/01/27 To 12/31/27', '$8,487.20', '$101,846.40') +
        '\n\nRent is due on the first day of each month.',
    );
    assert.deepEqual(cellsOf(tables(schedule)[0]!), [
      ['LEASE YEAR', 'DATES', 'MONTHLY', 'ANNUAL'],
      ['First', '1/01/25 To 12/31/25', '$8,000.00', '$96,000.00'],
      ['Second', '1/01/26 To 12/31/26', '$8,240.00', '$98,880.00'],
      ['Third', '1/01/27 To 12/31/27', '$8,487.20', '$101,846.40'],
    ]);
    assert.ok(!sections(schedule).some((s) => /YEAR|MONTHLY|ANNUAL/.test(s.heading.text)), 'column heads are no headings');
    // Heads wrapped over more lines than columns: one head across the table. Two columns need heads to be a table.
    const wrapped = tables(txtStructure(lines('UNIT', 'NO.', 'SQUARE', 'FEET', 'MONTHLY', 'RENT', '101', '1,200', '$2,400', '102', '950', '$1,900', '103', '1,450', '$2,900')))[0]!;
    assert.deepEqual(cellsOf(wrapped)[0], ['UNIT NO. SQUARE FEET MONTHLY RENT']);
    assert.equal(wrapped.rows[0]!.cells[0]!.colspan, 3);
    const forms = tables(txtStructure(lines('FORM TITLE', 'FORM NUMBER', 'FLOOD EXCLUSION', 'PX 10 22 04 19', 'AMENDATORY ENDORSEMENT', 'PX 11 03 01 20', 'NOTICE OF TERRORISM', 'PX 12 17 05 21')))[0]!;
    assert.deepEqual(cellsOf(forms)[1], ['FLOOD EXCLUSION', 'PX 10 22 04 19']);
    // Without heads: four rows or more.
    const records = tables(txtStructure(lines('OH', '1/1', 'OFFICE', '$4,100', 'OH', '1/2', 'WAREHOUSE', '$7,350', 'OH', '2/1', 'OFFICE', '$3,980', 'OH', '3/1', 'GARAGE', '$1,200')))[0]!;
    assert.equal(records.rows.length, 4);
    // Not tables: three rows without heads; a form's fields, the same label in every row; numbered clauses; pairs without heads.
    assert.equal(tables(txtStructure(lines('OH', '1/1', 'OFFICE', '$4,100', 'OH', '1/2', 'WAREHOUSE', '$7,350', 'OH', '2/1', 'OFFICE', '$3,980'))).length, 0);
    assert.equal(tables(txtStructure(lines('Auto', 'Policy Number', 'BA-10', 'Premium', '$900', 'Umbrella', 'Policy Number', 'UM-22', 'Premium', '$1,400', 'Property', 'Policy Number', 'PR-31', 'Premium', '$5,100', 'Crime', 'Policy Number', 'CR-40', 'Premium', '$300'))).length, 0);
    assert.equal(tables(txtStructure(lines('1.', 'Term', 'The term is three years from the Effective Date unless ended sooner.', '2.', 'Rent', 'Tenant shall pay rent monthly in advance without demand.', '3.', 'Use', 'The premises are for office use only and no other.', '4.', 'Notices', 'Notices go to the addresses set out above.'))).length, 0);
    assert.equal(tables(txtStructure(lines('Initial Setup', '$22,000', 'Training', '$4,000', 'Support', '$9,500', 'Hosting', '$1,200'))).length, 0);
    // A long run of fields is read once, not again from each of its lines.
    const start = performance.now();
    for (const cycle of [['Fee', '$1'], ['Fee', '$1', 'Tax', '$2'], ['OH', '1/1', 'OFFICE', '$5'], ['Fee', '$1', 'Tax', '$2', 'Levy', '$3', 'see below']]) txtStructure(Array.from({ length: 100_000 }, (_, i) => cycle[i % cycle.length]!).join('\n\n'));
    assert.ok(performance.now() - start < 10_000, `${performance.now() - start} ms`);
  });

  test('a text file written in Markdown: "#" headings nest, lists, a pipe table, bold lead-ins and links as text', () => {
    const nodes = txtStructure([
      '# Master Services Agreement',
      '',
      '## 1. Definitions',
      '',
      'The following terms apply, see [the SOW](https://example.com/sow).',
      '',
      '- **Services**: the work described in a SOW.',
      '- **Fees**: amounts payable.',
      '',
      'Payment',
      '-------',
      '',
      '| Milestone | Amount | Due |',
      '|-----------|-------:|-----|',
      '| Kickoff   | $5,000 | On signing |',
      '| Delivery  | $10,000 | 30 days |',
      '',
      '### 2.1 Late Payment ###',
      '',
      'Interest accrues at 1.5% per month.',
    ].join('\n'));
    assert.deepEqual(childHeadings(section(nodes, 'Master Services Agreement')), ['1. Definitions', 'Payment']);
    assert.deepEqual(childHeadings(section(nodes, 'Payment')), ['2.1 Late Payment']);
    assert.deepEqual(lists(nodes)[0]!.items.map((i) => [...leaves(i.children)].map((l) => l.text).join(' ')), ['Services: the work described in a SOW.', 'Fees: amounts payable.']);
    assert.deepEqual(tables(nodes)[0]!.rows.map((r) => r.cells.map((c) => c.leaf.text)), [['Milestone', 'Amount', 'Due'], ['Kickoff', '$5,000', 'On signing'], ['Delivery', '$10,000', '30 days']]);
    assert.ok(textWords(nodes).includes('SOW.') && !textWords(nodes).some((w) => /[#*[\]|]/.test(w)), JSON.stringify(textWords(nodes)));
    // One "#" line in plain text is no Markdown: the file reads as it did.
    const plain = txtStructure('# of units shipped: 40\n\nThe rest is plain text.');
    assert.deepEqual([...leaves(plain)].map((l) => l.text), ['# of units shipped: 40', 'The rest is plain text.']);
  });

  test('Markdown marks that make general parsers slow (runs of emphasis, brackets, unclosed links) are read in linear time', () => {
    for (const tail of ['*a'.repeat(100_000), '_a'.repeat(100_000), '['.repeat(200_000), '[a]('.repeat(60_000), '`a'.repeat(100_000), '> '.repeat(100_000)]) {
      const start = performance.now();
      const words = textWords(txtStructure(`# Title\n\n- item\n\n${tail}`));
      assert.ok(performance.now() - start < 10_000, `${tail.slice(0, 4)}: ${performance.now() - start} ms`);
      assert.ok(words.length >= 2);
    }
  });

  const text = [
    'MASTER AGREEMENT',
    '',
    'This agreement is made between Grüße GmbH and 東京 Ltd.',
    '',
    '1. Definitions',
    '"Term" means the period',
    'stated below.',
    '',
    '1.1 Scope',
    'The scope covers everything.',
    '',
    '- first point',
    '- second point',
    '  continued here',
    '',
    '2. Payment',
    '(a) Monthly fees are due.',
    '(b) Late fees apply.',
    '',
    'SIGNATURES',
    '',
    'Signed by both parties.',
  ].join('\n');

  test('blank-line paragraphs, headings by look, list markers at line start', () => {
    const nodes = txtStructure(text);
    const top = section(nodes, 'MASTER AGREEMENT');
    assert.deepEqual(childHeadings(top), ['1. Definitions', '2. Payment']);
    assert.deepEqual(childHeadings(section(nodes, '1. Definitions')), ['1.1 Scope']);
    assert.deepEqual(section(nodes, '1. Definitions').children[0], {
      type: 'paragraph', structure: 'p', role: 'body', leaf: { text: '"Term" means the period stated below.', boxes: [] },
    });
    const points = section(nodes, '1.1 Scope').children[1] as List;
    assert.deepEqual(points.items.map((i) => [i.marker?.text, (i.children[0] as { leaf: Leaf }).leaf.text]), [['-', 'first point'], ['-', 'second point continued here']]);
    const fees = section(nodes, '2. Payment').children[0] as List;
    assert.deepEqual([fees.style, fees.items.map((i) => i.marker?.text)], ['lower-alpha', ['(a)', '(b)']]);
    assert.deepEqual(nodes.map((n) => n.type === 'section' && n.heading.text), ['MASTER AGREEMENT', 'SIGNATURES']);
    // In a text file the markers are the file's own words.
    assert.deepEqual([...leaves(nodes)].flatMap((l) => wordsOf(l.text)), wordsOf(text));
  });

  test('no blank lines: a file saved from Word has a paragraph a line; hard-wrapped text is cut where a line ends short', () => {
    const long = (n: number) => `Clause ${n}. ${'The parties agree to the terms set out in this clause and in the schedules. '.repeat(4)}`.trim();
    const word = ['MASTER SERVICES AGREEMENT', ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(long), 'Signed by both parties.'].join('\r\n');
    const fromWord = txtStructure(word);
    const paragraphs = [...walk(fromWord)].filter((n): n is Paragraph => n.type === 'paragraph').map((p) => p.leaf.text);
    assert.deepEqual(paragraphs, [...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(long), 'Signed by both parties.']);
    assert.deepEqual(sections(fromWord).map((s) => s.heading.text), ['MASTER SERVICES AGREEMENT']);

    // Wrapped at 60 columns, paragraphs one after the other with no blank line between them.
    const wrap = (text: string) => text.match(/.{1,60}(?:\s|$)/g)!.map((l) => l.trimEnd());
    const texts = [
      'Notices under this agreement are given in writing to the addresses below, and take effect when received by the party they are addressed to.',
      'Acme Corporation',
      '12 Main Street',
      'Either party may change its address by notice to the other given in the same way, and the new address applies from the day after it is received.',
      'This agreement is governed by the laws of the State of Washington, without regard to the rules of that State on the conflict of laws.',
    ];
    const wrapped = texts.flatMap(wrap);
    assert.ok(wrapped.length > 8);
    const nodes = txtStructure(wrapped.join('\n'));
    assert.deepEqual([...walk(nodes)].filter((n): n is Paragraph => n.type === 'paragraph').map((p) => p.leaf.text), texts);
  });

  test('a label alone on its line ("ARTICLE I") and the title under it ("DEFINITIONS") are one heading, in text and in HTML', () => {
    const txt = ['MASTER LEASE AGREEMENT', '', 'ARTICLE I', '', 'DEFINITIONS', '', 'The terms below have these meanings.', '', 'ARTICLE II', '', 'RENT', '', 'Rent is due monthly.'].join('\n');
    const html = '<p><b>ARTICLE I</b></p><p><b>DEFINITIONS</b></p><p>The terms below have these meanings.</p><p><b>ARTICLE II</b></p><p><b>RENT</b></p><p>Rent is due monthly.</p><p><b>ARTICLE III</b></p>';
    const fromText = txtStructure(txt);
    assert.deepEqual(childHeadings(section(fromText, 'MASTER LEASE AGREEMENT')), ['ARTICLE I DEFINITIONS', 'ARTICLE II RENT']);
    const fromHtml = htmlStructure(html);
    assert.deepEqual(fromHtml.map((n) => (n.type === 'section' ? n.heading.text : n.type === 'paragraph' ? n.leaf.text : n.type)), ['ARTICLE I DEFINITIONS', 'ARTICLE II RENT', 'ARTICLE III']);
    assert.deepEqual(section(fromHtml, 'ARTICLE II RENT').children.map((c) => c.type === 'paragraph' && c.leaf.text), ['Rent is due monthly.']);
  });

  test('read whole (UTF-8): text-layout positions for the leaves', async () => {
    const model = await readDocument(Buffer.from(text, 'utf8'), 'txt', { libreoffice: false });
    assert.ok(model.native);
    // 東京 has no WinAnsi glyphs: its word cannot be found on the page, the rest is.
    const share = alignedShare(model);
    assert.equal(share, 1);
    const partner = [...leaves(model.native)].find((l) => l.text.startsWith('This agreement'))!;
    assert.match(textIn(model, partner), /Grüße GmbH/);
  });
});

describe('DOC native structure', () => {
  const skip = soffice ? false : 'soffice is not on PATH (needed to make the .doc fixture)';
  let doc: Buffer;
  before(() => {
    if (!soffice) return;
    const input = path.join(TMP, 'nda.docx');
    fs.writeFileSync(input, corpus('office/NDA simple layout.docx'));
    const profile = pathToFileURL(path.join(TMP, 'profile')).href;
    const run = spawnSync(soffice, [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', 'doc', '--outdir', TMP, input], { timeout: 120_000, env: { ...process.env, TMPDIR: TMP } });
    assert.equal(run.status, 0, String(run.stderr));
    doc = fs.readFileSync(path.join(TMP, 'nda.doc'));
  });

  test('a .doc made by LibreOffice from the NDA: title section, paragraphs, every word, boxes', { skip }, async (t) => {
    const model = await readDocument(doc, 'doc', { libreoffice: false });
    const nodes = model.native!;
    const top = section(nodes, 'MUTUAL NON-DISCLOSURE AGREEMENT');
    assert.ok(top.children.length > 10);
    // Every word of the body as Word has it (curly quotes kept, not word-extractor's ASCII ones).
    const extracted = await new WordExtractor().extract(doc);
    const bodyNodes = nodes.filter((n) => n.type !== 'paragraph' || n.role === 'body');
    assert.deepEqual([...leaves(bodyNodes)].flatMap((l) => wordsOf(l.text)), wordsOf(extracted.getBody({ filterUnicode: false })));
    assert.ok(textWords(bodyNodes).some((w) => w.includes('“')), 'curly quotes kept');
    // The signature block is the table it is in Word, not lines of text.
    assert.deepEqual(tables(nodes).map((t) => t.rows.map((r) => r.cells[0]!.leaf.text)), [['DOCUGAMI INC.:', 'Signature:', 'Name:', 'Title:']]);
    // Its running footers are footer furniture after the body, each text once.
    const footers = nodes.filter((n): n is Paragraph => n.type === 'paragraph' && n.role === 'footer').map((p) => p.leaf.text);
    assert.ok(footers.includes('Document ID: 123-456-7890'), JSON.stringify(footers));
    assert.equal(new Set(footers).size, footers.length);
    assert.deepEqual(nodes.slice(-footers.length).map((n) => n.type === 'paragraph' && n.role), footers.map(() => 'footer'));
    const share = alignedShare(model);
    t.diagnostic(`${(share * 100).toFixed(1)}% of leaves boxed`);
    assert.ok(share >= 0.9);
  });

  test('without LibreOffice a .doc keeps its footnotes, as footnote paragraphs after the body', { skip }, async () => {
    const parts = await zipEntries(corpus('office/NDA simple layout.docx'), () => true);
    let p = 0;
    parts.set('word/document.xml', Buffer.from(parts.get('word/document.xml')!.toString('utf8').replace(/<\/w:p>/g, (end) => (++p === 2 ? '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>' + end : end))));
    const note = '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Business days, excluding federal holidays.</w:t></w:r></w:p></w:footnote>';
    parts.set('word/footnotes.xml', Buffer.from(parts.get('word/footnotes.xml')!.toString('utf8').replace('</w:footnotes>', `${note}</w:footnotes>`)));
    const input = path.join(TMP, 'noted.docx');
    fs.writeFileSync(input, makeZip([...parts].map(([name, data]) => ({ name, data, deflate: true }))));
    const profile = pathToFileURL(path.join(TMP, 'profile-noted')).href;
    const run = spawnSync(soffice!, [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', 'doc', '--outdir', TMP, input], { timeout: 120_000, env: { ...process.env, TMPDIR: TMP } });
    assert.equal(run.status, 0, String(run.stderr));
    const nodes = (await readDocument(fs.readFileSync(path.join(TMP, 'noted.doc')), 'doc', { libreoffice: false })).native!;
    const notes = [...walk(nodes)].filter((n): n is Paragraph => n.type === 'paragraph' && n.role === 'footnote').map((n) => n.leaf.text);
    // The note leads with its mark, and the body says where it is referred to, as the DOCX reader
    // marks them (numbered as Word numbers footnotes by default: the .doc's own format is not read).
    assert.ok(notes.includes('[1] Business days, excluding federal holidays.'), JSON.stringify(notes));
    const referring = [...leaves(body(nodes))].filter((l) => l.text.includes('[1]')).map((l) => l.text);
    assert.equal(referring.length, 1, JSON.stringify(referring));
    assert.ok(referring[0]!.endsWith('Newburgh NY 12550.[1]'), referring[0]);
    assert.ok(![...leaves(nodes)].some((l) => l.text.includes('\uE002')), 'no private mark is left');
  });

  test('with LibreOffice the .doc has the structure Word shows: numbered clauses and their labels, the signature table, every word', { skip }, async () => {
    const model = await readDocument(doc, 'doc');
    assert.equal(model.pagination, 'libreoffice');
    const nodes = model.native!;
    const top = section(nodes, 'MUTUAL NON-DISCLOSURE AGREEMENT');
    const clauses = top.children.find((c): c is List => c.type === 'list')!;
    assert.deepEqual(clauses.items.map((i) => i.marker?.text), ['1.', '2.', '3.', '4.', '5.', '6.', '7.', '8.', '9.', '10.', '11.']);
    const exceptions = clauses.items[2]!.children[0] as Section;
    assert.equal(exceptions.heading.text, 'Exceptions.');
    const sub = exceptions.children.find((c): c is List => c.type === 'list')!;
    assert.deepEqual(sub.items.map((i) => i.marker?.text), ['(i)', '(ii)', '(iii)']);
    assert.equal(tables(nodes).length, 1, 'the signature block');
    const text = (await new WordExtractor().extract(doc)).getBody();
    // word-extractor straightens quotes; LibreOffice keeps Word's. Its body text has no footers.
    const straight = (words: string[]) => words.map((w) => w.replace(/[“”]/g, '"').replace(/[‘’]/g, "'"));
    assert.deepEqual(straight(textWords(body(nodes))), straight(wordsOf(text)));
  });
});

describe('Word numbering labels', () => {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const lvl = (ilvl: number, fmt: string, text: string, extra = '') =>
    `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${text}"/>${extra}</w:lvl>`;
  const numbering = `<w:numbering ${W}>
    <w:abstractNum w:abstractNumId="0">${lvl(0, 'decimal', '%1.')}${lvl(1, 'lowerLetter', '(%2)')}${lvl(2, 'lowerRoman', '%3)')}</w:abstractNum>
    <w:abstractNum w:abstractNumId="1">${lvl(0, 'upperRoman', 'Article %1', '<w:pStyle w:val="Heading1"/>')}${lvl(1, 'decimal', '%1.%2', '<w:isLgl/>')}</w:abstractNum>
    <w:abstractNum w:abstractNumId="2">${lvl(0, 'bullet', '•')}</w:abstractNum>
    <w:abstractNum w:abstractNumId="3">${lvl(0, 'upperLetter', '%1.')}${lvl(1, 'decimal', '%2.', '<w:lvlRestart w:val="0"/>')}</w:abstractNum>
    <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
    <w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>
    <w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>
    <w:num w:numId="4"><w:abstractNumId w:val="1"/></w:num>
    <w:num w:numId="5"><w:abstractNumId w:val="2"/></w:num>
    <w:num w:numId="6"><w:abstractNumId w:val="3"/></w:num>
  </w:numbering>`;
  const p = (text: string, numId?: number, ilvl?: number, style?: string) =>
    `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${numId !== undefined ? `<w:numPr>${ilvl !== undefined ? `<w:ilvl w:val="${ilvl}"/>` : ''}<w:numId w:val="${numId}"/></w:numPr>` : ''}</w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
  const labels = (body: string) => numberedParagraphs(`<w:document ${W}><w:body>${body}</w:body></w:document>`, numbering).map((n) => [n.label, n.text]);

  test('formats, nesting, restarts, and a second instance of one list continuing it', () => {
    const body = [p('one', 1, 0), p('a', 1, 1), p('b', 1, 1), p('i', 1, 2), p('plain'), p('two', 1, 0), p('a again', 1, 1), p('three', 2, 0), p('no number', 0, 0)];
    assert.deepEqual(labels(body.join('')), [
      ['1.', 'one'],
      ['(a)', 'a'],
      ['(b)', 'b'],
      ['i)', 'i'],
      ['2.', 'two'],
      ['(a)', 'a again'],
      ['3.', 'three'],
    ]);
  });

  test('a start override restarts an instance once; legal numbering, style-linked levels, bullets and levels that never restart', () => {
    const body = [p('x', 1, 0), p('y', 1, 0), p('seven', 3, 0), p('eight', 3, 0), p('Heading', undefined, undefined, 'Heading1'), p('sub', 4, 1), p('Heading two', undefined, undefined, 'Heading1'), p('dot', 5, 0), p('A', 6, 0), p('1', 6, 1), p('B', 6, 0), p('2', 6, 1)];
    assert.deepEqual(labels(body.join('')), [
      ['1.', 'x'],
      ['2.', 'y'],
      ['7.', 'seven'],
      ['8.', 'eight'],
      ['Article I', 'Heading'],
      ['1.1', 'sub'],
      ['Article II', 'Heading two'],
      [null, 'dot'],
      ['A.', 'A'],
      ['1.', '1'],
      ['B.', 'B'],
      ['2.', '2'],
    ]);
  });

  test('letters past z and roman numerals', () => {
    assert.deepEqual([1, 26, 27, 53].map((n) => formatNumber(n, 'lowerLetter')), ['a', 'z', 'aa', 'aaa']);
    assert.deepEqual([4, 9, 14, 1994].map((n) => formatNumber(n, 'upperRoman')), ['IV', 'IX', 'XIV', 'MCMXCIV']);
    assert.deepEqual([1, 2, 3, 11, 22].map((n) => formatNumber(n, 'ordinal')), ['1st', '2nd', '3rd', '11th', '22nd']);
    // A hostile start value gives digits, not a string of millions of letters.
    assert.deepEqual([1e9, -3].map((n) => formatNumber(n, 'lowerLetter')), ['1000000000', '-3']);
    assert.equal(formatNumber(1e9, 'upperRoman'), '1000000000');
  });
});
