import type { Box, Leaf, List, ListItem, Paragraph, Section, Span, StructureModel, StructureNode, Table, TableCell } from '../structure.js';
import { boxesPerPage, isFurniture } from '../structure.js';

export interface DgmlContext {
  /** Workspace name or id, in the `docset` namespace URI. */
  workspace: string;
  /** The docset's name; `Unassigned` for documents outside any docset. */
  docsetName: string;
  /** Quire's version (`cp:version`). */
  version: string;
  /** Label cells of key/value tables whose property is known: their content is wrapped in `docset:{labelId}-cell`. */
  labelCells?: ReadonlyMap<TableCell, string>;
}

const NAMESPACES = {
  dg: 'http://www.docugami.com/2021/dgml',
  dgc: 'http://www.docugami.com/2021/dgml/docugami/contracts',
  dgm: 'http://www.docugami.com/2021/dgml/docugami/medical',
  xhtml: 'http://www.w3.org/1999/xhtml',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  cp: 'http://classifyprocess.com/2018/07/',
};

/** The document as DGML (../shared/docs/DGML.md): BOM, declaration, prefixed elements, leaves only hold text. */
export function renderDgml(model: StructureModel, ctx: DgmlContext): string {
  const writer = new DgmlWriter(model.paginated, ctx.labelCells);
  const docset = `http://www.docugami.com/2021/dgml/${namespaceSegment(ctx.workspace)}/${namespaceSegment(ctx.docsetName)}`;
  const declarations = [`xmlns:docset="${attr(docset)}"`, ...Object.entries(NAMESPACES).map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)];
  return (
    '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n' +
    `<dg:chunk cp:version="${attr(ctx.version)}" ${declarations.join(' ')}>\n` +
    writer.clause(model.clause, writer.nodes(model.nodes)).xml +
    '</dg:chunk>\n'
  );
}

/** Rendered XML and the per-page union of the boxes it holds (what a parent element's style shows). */
interface Rendered {
  xml: string;
  boxes: readonly Box[];
}

const NOTHING: Rendered = { xml: '', boxes: [] };

class DgmlWriter {
  constructor(
    private readonly paginated: boolean,
    private readonly labelCells: ReadonlyMap<TableCell, string> | undefined,
  ) {}

  nodes(nodes: readonly StructureNode[]): Rendered {
    const parts = nodes.map((n) => this.node(n));
    return { xml: parts.map((p) => p.xml).join(''), boxes: unionPerPage(parts) };
  }

  /**
   * Blocks that are one clause wrapped in an element named for it, without `structure` (as a section's
   * `-section` element): the blocks stay the chunks readers take, their xpaths carry the name, and a
   * value named inside stays the nearest element around that value.
   */
  clause(name: string | undefined, inner: Rendered): Rendered {
    if (!name || !inner.xml) return inner;
    const tag = `docset:${ncName(name, 'Clause')}`;
    return { xml: `<${tag}>\n${inner.xml}</${tag}>\n`, boxes: inner.boxes };
  }

  private node(n: StructureNode): Rendered {
    switch (n.type) {
      case 'paragraph':
        return this.paragraph(n);
      case 'section':
        return this.section(n);
      case 'list':
        return this.list(n);
      case 'table':
        return this.table(n);
    }
  }

  private paragraph(p: Paragraph): Rendered {
    if (isFurniture(p.role)) return this.leafChunk('dg:chunk', 'div', p.leaf);
    return this.clause(p.clause, this.leafChunk('dg:chunk', p.structure, p.leaf));
  }

  /** A leaf element: its text (with inline tags) and nothing structural inside. Empty leaves are dropped. */
  private leafChunk(tag: string, structure: string, leaf: Leaf, extraStyle = ''): Rendered {
    const text = inlineXml(leaf);
    if (!text) return NOTHING;
    const boxes = this.boxes(leaf.boxes);
    return { xml: `<${tag} structure="${structure}"${this.style(boxes, extraStyle)}>${text}</${tag}>\n`, boxes };
  }

  private section(s: Section): Rendered {
    const name = sectionName(s.heading.text);
    const heading = this.leafChunk('dg:chunk', 'h1', s.heading);
    // A body that is one paragraph is the body element itself (as the reference output does), so
    // its chunk carries the section's name.
    const only = s.children.length === 1 ? s.children[0] : undefined;
    let body: Rendered;
    // (Unless the paragraph is a clause of its own name: `7. INSURANCE.` over `7.1 Tenant's Insurance. Tenant shall …`.)
    if (only?.type === 'paragraph' && !isFurniture(only.role) && !only.clause) {
      body = this.leafChunk(`docset:${name}`, 'div', only.leaf);
    } else if (s.children.every((n) => n.type === 'paragraph' && isFurniture(n.role))) {
      // Nothing under the heading but a page's furniture (its running header, its number, an anchor's tag): that is no
      // body of the section's, and the section's name over it would tell readers "Page 6" is what "Accessibility" says.
      body = this.nodes(s.children);
    } else {
      const inner = this.nodes(s.children);
      body = inner.xml ? { xml: `<docset:${name} structure="div"${this.style(inner.boxes)}>\n${inner.xml}</docset:${name}>\n`, boxes: inner.boxes } : NOTHING;
    }
    if (!heading.xml && !body.xml) return NOTHING;
    return { xml: `<docset:${name}-section>\n${heading.xml}${body.xml}</docset:${name}-section>\n`, boxes: unionPerPage([heading, body]) };
  }

  private list(l: List): Rendered {
    const items = l.items.map((item) => this.item(item)).filter((item) => item.xml);
    if (!items.length) return NOTHING;
    const boxes = unionPerPage(items);
    const structure = l.ordered ? 'ol' : 'ul';
    const xml = `<dg:chunk structure="${structure}"${this.style(boxes, `list-style-type: ${l.style}; `)}>\n${items.map((i) => i.xml).join('')}</dg:chunk>\n`;
    return this.clause(l.clause, { xml, boxes });
  }

  /**
   * `li` > `lim` marker, then the item's blocks as they are: every block renders to its own
   * structural element(s), so no wrapper is needed for the text to stay in leaves, and readers merge
   * the marker into whichever chunk comes first.
   */
  private item(item: ListItem): Rendered {
    const marker = item.marker ? this.leafChunk('dg:chunk', 'lim', item.marker) : NOTHING;
    const body = this.nodes(item.children);
    if (!marker.xml && !body.xml) return NOTHING;
    const boxes = unionPerPage([marker, body]);
    return { xml: `<dg:chunk structure="li"${this.style(boxes)}>\n${marker.xml}${body.xml}</dg:chunk>\n`, boxes };
  }

  /**
   * Cell text sits directly in the `td`, which is then a leaf: readers that split tables into cells
   * take it as a chunk, and the table chunk reads it either way. A `dg:chunk` wrapper (as the reference
   * sometimes has) would add an element per cell for nothing.
   */
  private table(t: Table): Rendered {
    if (!t.rows.length) return NOTHING;
    const rows = t.rows.map((row) => {
      const cells = row.cells.map((cell) => this.cell(cell));
      const boxes = this.boxes(row.boxes.length ? row.boxes : cells.flatMap((c) => c.boxes));
      return { xml: `<xhtml:tr structure="tr"${this.style(boxes)}>\n${cells.map((c) => c.xml).join('')}</xhtml:tr>\n`, boxes };
    });
    const boxes = this.boxes(t.boxes.length ? t.boxes : rows.flatMap((r) => r.boxes));
    const style = this.style(boxes);
    const xml = `<xhtml:table structure="table"${style}>\n<xhtml:tbody structure="tbody"${style}>\n${rows.map((r) => r.xml).join('')}</xhtml:tbody>\n</xhtml:table>\n`;
    return this.clause(t.clause, { xml, boxes });
  }

  private cell(cell: TableCell): Rendered {
    const boxes = this.boxes(cell.boxes.length ? cell.boxes : cell.leaf.boxes);
    let content = inlineXml(cell.leaf);
    const labelId = this.labelCells?.get(cell);
    if (labelId !== undefined && content) {
      const tag = `docset:${ncName(labelId, 'Label')}-cell`;
      content = `<${tag}>${content}</${tag}>`;
    }
    const span = spanAttr('colspan', cell.colspan) + spanAttr('rowspan', cell.rowspan);
    return { xml: `<xhtml:td structure="td"${span}${this.style(boxes)}>${content}</xhtml:td>\n`, boxes };
  }

  /** The boxes a reader accepts, one union per page; none for documents without pages. */
  private boxes(boxes: readonly Box[]): readonly Box[] {
    if (!this.paginated) return [];
    // Leaves usually hold one valid box per page already, in page order.
    const ready = boxes.every((b, i) => emittable(b) && (i === 0 || b.page > boxes[i - 1]!.page));
    return ready ? boxes : boxesPerPage(boxes.filter(emittable));
  }

  private style(boxes: readonly Box[], prefix = ''): string {
    const value = prefix + boxes.map(boundingBox).join('');
    return value ? ` style="${value}"` : '';
  }
}

function unionPerPage(parts: readonly Rendered[]): readonly Box[] {
  const boxes = parts.flatMap((p) => p.boxes);
  return boxes.length > 1 ? boxesPerPage(boxes) : boxes;
}

function spanAttr(name: string, n: number): string {
  return Number.isInteger(n) && n > 1 ? ` ${name}="${n}"` : '';
}

const oneDecimal = (n: number): number => Math.round(n * 10) / 10;

/** Readers reject a whole document for one box on page 0 or with a size ≤ 0 once printed with one decimal. */
function emittable(b: Box): boolean {
  return (
    Number.isInteger(b.page) &&
    b.page >= 1 &&
    Number.isFinite(b.left) &&
    Number.isFinite(b.top) &&
    oneDecimal(b.width) > 0 &&
    oneDecimal(b.height) > 0 &&
    Number.isFinite(b.width) &&
    Number.isFinite(b.height)
  );
}

function coordinate(n: number): string {
  const s = oneDecimal(n).toFixed(1);
  return s === '-0.0' ? '0.0' : s;
}

function boundingBox(b: Box): string {
  return `boundingBox:{left: ${coordinate(b.left)}; top: ${coordinate(b.top)}; width: ${coordinate(b.width)}; height: ${coordinate(b.height)}; page: ${b.page};}; `;
}

// ---- inline tags ----

/**
 * The leaf's text with its spans as inline elements. Spans are widened to whole words (readers join
 * text pieces with spaces, so a tag boundary inside a word splits it), and a span
 * that would overlap another instead of nesting in it is dropped: the text is never lost.
 */
function inlineXml(leaf: Leaf): string {
  const text = leaf.text;
  if (!leaf.spans?.length) return escapeText(text);
  const spans = wholeWordSpans(text, leaf.spans);
  let xml = '';
  let at = 0;
  const open: { end: number; tag: string }[] = [];
  const closeUpTo = (limit: number): void => {
    for (let top = open.at(-1); top && top.end <= limit; top = open.at(-1)) {
      xml += escapeText(text.slice(at, top.end)) + `</${top.tag}>`;
      at = top.end;
      open.pop();
    }
  };
  for (const s of spans) {
    closeUpTo(s.start);
    const parent = open.at(-1);
    if (parent && s.end > parent.end) continue;
    const { openTag, tag } = inlineTag(s);
    xml += escapeText(text.slice(at, s.start)) + openTag;
    at = s.start;
    open.push({ end: s.end, tag });
  }
  closeUpTo(Infinity);
  return xml + escapeText(text.slice(at));
}

const isWordChar = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** Spans widened to whole words: a boundary may sit between a word and its punctuation (`<x>Jagel</x>, Germany`), never inside a word. */
function wholeWordSpans(text: string, spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    let start = Math.max(0, Math.min(s.start, text.length));
    let end = Math.max(0, Math.min(s.end, text.length));
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (start >= end) continue;
    while (start > 0 && isWordChar(text[start - 1]) && isWordChar(text[start])) start--;
    while (end < text.length && isWordChar(text[end - 1]) && isWordChar(text[end])) end++;
    out.push({ ...s, start, end });
  }
  // Outer spans first; equal ranges keep their given order (the first is the outer one).
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

function inlineTag(s: Span): { openTag: string; tag: string } {
  if (s.tag.kind === 'property' || s.tag.kind === 'label') {
    const tag = `docset:${ncName(s.tag.kind === 'property' ? s.tag.labelId : s.tag.name, 'Property')}`;
    return { openTag: `<${tag}>`, tag };
  }
  if (s.tag.type === 'Date') return { openTag: '<dg:chunk xsi:type="date">', tag: 'dg:chunk' };
  const tag = `dgc:${s.tag.type}`;
  return { openTag: `<${tag}>`, tag };
}

// ---- names ----

/**
 * Prepositions and articles that label names keep as written ("Choice of Law." → `ChoiceofLaw`,
 * "Rentable Area of the Premises" → `RentableAreaofthePremises`), while other words get a capital
 * ("Exclusions from …" → `ExclusionsFrom…`, "Probable Cause and Findings" → `ProbableCauseAndFindings`).
 */
/** A workspace or docset name in the `docset` namespace URI: spaces removed as the reference does ("NationalTransportationSafetyBoard"), the rest URI-escaped. */
function namespaceSegment(name: string): string {
  return encodeURIComponent(xmlSafe(name).replace(/\s+/g, '')) || 'Unnamed';
}

const KEPT_AS_WRITTEN = new Set(['a', 'an', 'the', 'at', 'by', 'for', 'in', 'of', 'off', 'on', 'per', 'to', 'up', 'via']);
const MAX_NAME = 64;

/** A heading's numbering: "4.", "7.1", "42E.", "(a)", "iv.", "B." ("Section 1" is words of the heading, as in the reference DGML). */
export const HEADING_NUMBER = /^\s*(?:\(?\d+(?:\.\d+)*(?:[A-Z]\.|[.)])?|\(?[a-z][.)]|\(?[ivxlc]+[.)]|[IVXLC]+\.|\(?[A-Z][.)])\s+(?=\S)/u;

/** "Section 11:", "ARTICLE IV –" before a heading's words: its number with the word that says so ("Section 8.1" alone stays: a number is all it has). */
const SECTION_WORD_NUMBER = /^\s*(?:section|article)\s+(?:\d+(?:\.\d+)*[A-Z]?|[IVXLC]+)\b\s*[.:–—-]?\s+(?=\p{L})/iu;

/**
 * The `docset` element name of a section from its heading: words stripped of punctuation and joined
 * with capitals, hyphens inside words kept, `_` before a leading digit, always a valid NCName.
 */
export function sectionName(heading: string): string {
  // "4. Hours of Operation" → `HoursofOperation`, "7.1 Additional Rent – Sprinkler" → `AdditionalRentSprinkler`,
  // as Docugami names them: the numbering orders sections, it does not name them. A number alone ("2020") stays.
  const unnumbered = heading.replace(SECTION_WORD_NUMBER, '').replace(HEADING_NUMBER, '');
  const words = xmlSafe(unnumbered)
    .split(/\s+/)
    // Most words are plain ASCII letters and digits, all name letters: only the others are read a character at a time.
    .map((w) => (ASCII_WORD.test(w) ? w : [...w].filter(isNameLetter).join('').replace(/-+/g, '-').replace(/^-|-$/g, '')))
    .filter(Boolean);
  const name = words.map((w, i) => (i > 0 && KEPT_AS_WRITTEN.has(w) ? w : capitalise(w))).join('');
  return ncName(name, 'Section');
}

const ASCII_WORD = /^[A-Za-z0-9]+$/;

function capitalise(word: string): string {
  const first = String.fromCodePoint(word.codePointAt(0)!);
  return first.toUpperCase() + word.slice(first.length);
}

/** Letters, digits, combining marks and hyphens that XML allows in names. */
function isNameLetter(ch: string): boolean {
  return (ch === '-' || /[\p{L}\p{N}\p{M}]/u.test(ch)) && isNameChar(ch.codePointAt(0)!);
}

/** `name` made a valid NCName of at most 64 characters: other characters dropped, `_` before a first one that is not a letter. */
function ncName(name: string, fallback: string): string {
  let chars = [...name].filter((ch) => ch !== ':' && isNameChar(ch.codePointAt(0)!));
  if (!chars.length) return fallback;
  // Letters only: other name-start characters (digits of other scripts, …) are not names for every parser.
  const first = chars[0]!;
  if (!/[\p{L}_]/u.test(first) || !isNameStartChar(first.codePointAt(0)!)) chars = ['_', ...chars];
  return chars.slice(0, MAX_NAME).join('').replace(/[-.]+$/, '');
}

/** XML 1.0 (5th edition) NameStartChar, without ':'. */
function isNameStartChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x5f ||
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    (c >= 0x200c && c <= 0x200d) ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0xeffff)
  );
}

function isNameChar(c: number): boolean {
  return (
    isNameStartChar(c) ||
    c === 0x2d ||
    c === 0x2e ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0xb7 ||
    (c >= 0x300 && c <= 0x36f) ||
    (c >= 0x203f && c <= 0x2040)
  );
}

// ---- escaping ----

/** Characters XML 1.0 cannot hold (C0 controls but tab and line ends, lone surrogates, U+FFFE/FFFF), plus DEL and the C1 controls. */
const NOT_XML = /[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Quick test for anything `xmlSafe` or the escapes would change (any surrogate, to be checked properly). */
const MAYBE_UNSAFE = /[&<>\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]/;

function xmlSafe(s: string): string {
  return s.replace(NOT_XML, '');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** Element content: `&`, `<` and `>` (so `]]>` cannot appear); quotes are plain text there. */
function escapeText(s: string): string {
  return MAYBE_UNSAFE.test(s) ? xmlSafe(s).replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!) : s;
}

function attr(s: string): string {
  return xmlSafe(s).replace(/[&<>"'\t\n\r]/g, (c) => ATTR_ESCAPES[c]!);
}
