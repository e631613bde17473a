import { IngestError } from '../../../document/pages.js';
import type { StructureNode } from '../../../document/structure.js';
import { htmlStructure, WORD_LABEL_END, WORD_LABEL_START, type HtmlOptions } from '../html/html.js';
import { headersAndFooters } from './word-furniture.js';
import { diagramDataTargets, withDiagramText } from './word-diagrams.js';
import { asShown, readableByMammoth } from './word-shown.js';
import { formatNumber, numberedParagraphs, type NumberedParagraph } from './word-numbering.js';
import { joinPageCuts } from './word-page-cuts.js';
import { writeZip } from '../write/zip.js';
import { brokenXml } from './xml-check.js';
import { zipEntries, zipTexts } from '../zip/zip.js';

const DOCUMENT = 'word/document.xml';
const NUMBERING = 'word/numbering.xml';
const STYLES = 'word/styles.xml';
const SETTINGS = 'word/settings.xml';
const DOCUMENT_RELS = 'word/_rels/document.xml.rels';
/** SmartArt's text (see word-diagrams.ts). */
const DIAGRAM_DATA = /^word\/diagrams\/data\d*\.xml$/;

/**
 * Word's title styles on top of mammoth's defaults (which already map Heading 1..6 to h1..h6 and
 * numbered paragraphs to nested ol/ul), and underlining, which mammoth drops unless told (a clause's
 * underlined run-in title is its heading, as a bold one is).
 */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh", 'u => u'];

/** The package's own parts, which mammoth reads too: its content types and relationships. */
const PACKAGE_PART = /^(?:\[Content_Types\]\.xml|(?:.*\/)?_rels\/[^/]*\.rels)$/;

/** The parts a DOCX shows as text: its body, notes, headers and footers. */
const SHOWN_PART = /^word\/(?:document|footnotes|endnotes|(?:header|footer)\d*)\.xml$/;

export interface DocxRead {
  nodes: StructureNode[];
  /**
   * The package as Word shows it, when that differs from the given one: text formatted hidden left
   * out, tracked changes accepted, simple fields as their results. Its rendition then shows the text
   * the structure holds.
   */
  shown: Buffer | null;
}

/**
 * The structure of a DOCX: its heading styles, numbering and tables, through mammoth's HTML; its
 * running headers and footers as furniture before and after the body.
 */
export async function readDocx(bytes: Buffer): Promise<DocxRead> {
  let parts: Map<string, string>;
  try {
    parts = await zipTexts(bytes, (name) => name === NUMBERING || name === STYLES || name === SETTINGS || SHOWN_PART.test(name) || PACKAGE_PART.test(name) || DIAGRAM_DATA.test(name));
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `not a readable ZIP package (${(err as Error).message})`);
  }
  if (!parts.has(DOCUMENT)) throw new IngestError('Corrupt DOCX', 'no word/document.xml');
  for (const [name, xml] of parts) {
    const problem = brokenXml(xml);
    if (problem) throw new IngestError('Corrupt DOCX', `${name} is not well-formed XML: ${problem}.`);
  }
  const diagrams = diagramDataTargets(parts.get(DOCUMENT_RELS));
  for (const name of [...parts.keys()]) if (PACKAGE_PART.test(name)) parts.delete(name);
  // Hidden text is neither shown nor printed by Word, tracked changes read as accepted, and a simple
  // field as its result: mammoth would read hidden runs and drop simple fields, and LibreOffice prints
  // deletions (and computes some fields again), so both get the package as shown.
  const changed = new Map<string, string>();
  for (const [name, xml] of parts) {
    if (!SHOWN_PART.test(name)) continue;
    const shown = asShown(xml);
    if (shown !== xml) changed.set(name, shown);
  }
  for (const [name, xml] of changed) parts.set(name, xml);
  const shown = changed.size ? await withParts(bytes, changed) : null;
  // What mammoth passes over, in elements it reads (the rendition keeps Word's own): mammoth's
  // package holds both kinds of change, written in one go.
  const forMammoth = new Map(changed);
  let unread = false;
  // Paragraphs a page cut in two (in a document converted from PDF) are read as one; the rendition keeps them as Word shows them.
  const document = joinPageCuts(parts.get(DOCUMENT)!);
  for (const [name, xml] of parts) {
    const readable = SHOWN_PART.test(name) ? readableByMammoth(name === DOCUMENT ? withDiagramText(document, diagrams, parts) : xml) : xml;
    if (readable === xml) continue;
    forMammoth.set(name, readable);
    unread = true;
  }
  const mammothBytes = unread ? await withParts(bytes, forMammoth) : (shown ?? bytes);
  const numbering = parts.get(NUMBERING);
  let numbered: NumberedParagraph[] = [];
  try {
    if (numbering) numbered = numberedParagraphs(document, numbering, parts.get(STYLES));
  } catch {
    // Numbers Word would show are a refinement: without them the lists keep mammoth's structure.
  }
  // Loaded on the first DOCX: a thread reading only PDFs does not carry it (~9 MiB).
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: mammothBytes }, { styleMap: STYLE_MAP, transformDocument: (doc) => withWordLabels(headingsLikeTheirLevel(doc), numbered) })).value;
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `word/document.xml cannot be read: ${xmlProblem((err as Error).message)}`);
  }
  let furniture: ReturnType<typeof headersAndFooters> = { headers: [], footers: [] };
  try {
    furniture = headersAndFooters(parts);
  } catch {
    // Headers and footers are a refinement: the body stands without them.
  }
  return { nodes: [...furniture.headers, ...htmlStructure(html, { wordNumbering: true, boldTitles: false, noteMarks: noteMarks(document, parts.get(SETTINGS)) }), ...furniture.footers], shown };
}

/**
 * How the document numbers its notes: the format its section (else its settings) gives footnotes
 * and endnotes, Word's defaults (1, 2, … and i, ii, …) without one.
 */
function noteMarks(document: string, settings: string | undefined): NonNullable<HtmlOptions['noteMarks']> {
  // The last section's properties (the body's own, at its end), else the settings'.
  const numFmt = (xml: string | undefined, kind: string): string | undefined => {
    const at = xml?.lastIndexOf(`<w:${kind}Pr>`) ?? -1;
    if (at < 0) return undefined;
    const end = xml!.indexOf(`</w:${kind}Pr>`, at);
    return /<w:numFmt w:val="(\w+)"/.exec(xml!.slice(at, end < 0 ? at + 2000 : end))?.[1];
  };
  const format = (kind: 'footnote' | 'endnote', fallback: string): string => numFmt(document, kind) ?? numFmt(settings, kind) ?? fallback;
  const footnote = format('footnote', 'decimal');
  const endnote = format('endnote', 'lowerRoman');
  return { footnote: (n) => formatNumber(n, footnote), endnote: (n) => formatNumber(n, endnote) };
}

/** The package with some parts replaced (every other part as it was). */
async function withParts(bytes: Buffer, replaced: ReadonlyMap<string, string>): Promise<Buffer> {
  const entries = await zipEntries(bytes, () => true);
  for (const [name, xml] of replaced) entries.set(name, Buffer.from(xml, 'utf8'));
  return writeZip([...entries].map(([entry, data]) => ({ name: entry, data })));
}

/**
 * The parser's message in a user's words: XML entity declarations (never expanded: no entity bombs,
 * no external files) and malformed XML, without the parser's internals (positions it does not know).
 */
function xmlProblem(message: string): string {
  if (/entity not found|<!ENTITY|DOCTYPE/i.test(message)) return 'it uses XML entities, which Word never writes and Quire does not expand.';
  const first = message
    .replace(/\[xmldom [a-z]+\]\s*/gi, '')
    .replace(/@#\[line:[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return first && !/undefined|null|\[object/.test(first) ? `it is not well-formed XML (${first.slice(0, 200)}).` : 'it is not well-formed XML.';
}

/** mammoth's document elements, as far as the labels and headings need them. */
interface Element {
  type: string;
  value?: string;
  numbering?: unknown;
  styleId?: string | null;
  styleName?: string | null;
  isBold?: boolean;
  isUnderline?: boolean;
  children?: Element[];
}

/** Word's heading styles, as mammoth's style map knows them ("heading 2" → h2). */
const HEADING_STYLE = /^heading [1-6]$/i;
/** A title is this short at most, and ends without a sentence's stop. */
const MAX_TITLE_WORDS = 12;

/**
 * A numbered paragraph in the list level that numbers heading-styled paragraphs (mammoth gives the
 * paragraphs of one list level the same numbering object), set in bold or underlined throughout,
 * short and without a stop, is a heading like them though its style is another ("50. Licenses and
 * Permits" in List Paragraph, bold and underlined, between "49. Intentionally Omitted" and "51.
 * Utility Services" in Heading 2). Two such headings in the level at least, so that a lone heading
 * does not turn a list's items into headings.
 */
function headingsLikeTheirLevel(doc: Element): Element {
  const paragraphs: Element[] = [];
  const stack: Element[] = [doc];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.type === 'paragraph') paragraphs.push(el);
    else for (const child of el.children ?? []) stack.push(child);
  }
  const headings = new Map<unknown, Element[]>();
  for (const p of paragraphs) {
    if (p.numbering && HEADING_STYLE.test(p.styleName ?? '')) headings.set(p.numbering, [...(headings.get(p.numbering) ?? []), p]);
  }
  for (const p of paragraphs) {
    const like = p.numbering ? headings.get(p.numbering) : undefined;
    if (!like || like.length < 2 || HEADING_STYLE.test(p.styleName ?? '') || !titleRuns(p)) continue;
    p.styleId = like[0]!.styleId;
    p.styleName = like[0]!.styleName;
  }
  return doc;
}

/** The paragraph's text is short, without a stop, and every run with text in it is bold or underlined. */
function titleRuns(p: Element): boolean {
  const text = textOf(p).trim();
  if (!text || /[.;:,]$/.test(text) || text.split(/\s+/).length > MAX_TITLE_WORDS) return false;
  const runs: Element[] = [];
  const walk = (el: Element): void => {
    if (el.type === 'run') runs.push(el);
    else for (const child of el.children ?? []) walk(child);
  };
  walk(p);
  return runs.every((r) => !textOf(r).trim() || r.isBold || r.isUnderline);
}

function textOf(el: Element): string {
  if (el.type === 'text') return el.value ?? '';
  return (el.children ?? []).map(textOf).join('');
}

const comparable = (text: string): string => text.replace(/\s+/g, '');

/** A run as mammoth's own reader makes one, without formatting. */
const PLAIN_RUN = {
  type: 'run',
  styleId: null,
  styleName: null,
  isBold: false,
  isUnderline: false,
  isItalic: false,
  isStrikethrough: false,
  isAllCaps: false,
  isSmallCaps: false,
  verticalAlignment: 'baseline',
  font: null,
  fontSize: null,
  highlight: null,
};

/**
 * Puts Word's label in front of each numbered paragraph, between markers the HTML reader takes it
 * from. Only when mammoth's numbered paragraphs are the ones read from the XML, one for one with the
 * same text; otherwise the document keeps mammoth's own lists.
 */
function withWordLabels(doc: Element, numbered: readonly NumberedParagraph[]): Element {
  const paragraphs: Element[] = [];
  const stack: Element[] = [doc];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.type === 'paragraph' && el.numbering) paragraphs.push(el);
    // Children are pushed in reverse so they come off the stack in document order.
    for (let k = (el.children?.length ?? 0) - 1; k >= 0; k--) stack.push(el.children![k]!);
  }
  if (paragraphs.length !== numbered.length) return doc;
  if (paragraphs.some((p, k) => comparable(textOf(p)) !== comparable(numbered[k]!.text))) return doc;
  paragraphs.forEach((p, k) => {
    const label = numbered[k]!.label;
    if (label === null) return;
    const run = { ...PLAIN_RUN, children: [{ type: 'text', value: `${WORD_LABEL_START}${label}${WORD_LABEL_END}` }] };
    p.children = [run, ...(p.children ?? [])];
  });
  return doc;
}
