/**
 * The structure model: what Quire understood of a document, whatever its format. The layout stages
 * build it (from PDF text positions, or from a format's native structure), the entity and property
 * passes tag it, and the renderers (DGML, text, Markdown) serialize it. Coordinates are pixels at
 * 300 DPI with a top-left origin, pages numbered from 1 (the space of page images and DGML boxes).
 *
 * All text lives in leaves: a reader that visits every Leaf sees every word of the document once.
 */

export interface Box {
  /** 1-based page number. */
  page: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * An inline tag on a leaf's text: `[start, end)` character offsets into `Leaf.text`, always on word
 * boundaries. Nested tags are allowed when fully contained; overlapping ones are not.
 */
export interface Span {
  start: number;
  end: number;
  tag: InlineTag;
}

export type EntityType =
  | 'Date'
  | 'Money'
  | 'Percent'
  | 'TimeDuration'
  | 'Org'
  | 'Person'
  | 'Address'
  | 'USState'
  | 'Phone'
  | 'Email';

export type InlineTag =
  /** A generic entity (`dgc:Org`, …; dates become `dg:chunk xsi:type="date"`). */
  | { kind: 'entity'; type: EntityType }
  /** A docset property's value (`docset:{labelId}`), from the docset-intelligence issue. */
  | { kind: 'property'; labelId: string; propertyId?: string }
  /**
   * A value named by the role its context gives it, with no property defined (`docset:{name}`:
   * `TenantName`, `TerminationDate`, `CurePeriod`). A property's value over the same words wins.
   */
  | { kind: 'label'; name: string };

export interface Leaf {
  /** Whitespace-normalised text: single spaces, no leading or trailing space. */
  text: string;
  /** One box per page the leaf spans; empty when the position is unknown. */
  boxes: Box[];
  spans?: Span[];
}

/**
 * Why a paragraph is where it is: body text, furniture repeated on pages, or a tag (text set in a
 * point or so, invisible on the page: authoring tools' anchors such as "_97447fbe-f95d-…").
 */
/** `sideways`: a line set up or down a page read across (a note up the margin), never a heading. */
export type ParagraphRole = 'body' | 'header' | 'footer' | 'page-number' | 'footnote' | 'caption' | 'tag' | 'sideways';

/** Roles of text that is not the document's body: short repeated lines, or no visible text at all. */
const FURNITURE_ROLES: ReadonlySet<ParagraphRole> = new Set(['header', 'footer', 'page-number', 'tag']);

export function isFurniture(role: ParagraphRole): boolean {
  return FURNITURE_ROLES.has(role);
}

/** A block of running text (`p`) or a short line, label or fragment (`div`). */
export interface Paragraph {
  type: 'paragraph';
  structure: 'p' | 'div';
  role: ParagraphRole;
  leaf: Leaf;
  /** What the paragraph is, as a clause (`LicenseFee`, `SecurityDeposit`): the name of a DGML element around it. */
  clause?: string;
}

/** A heading and everything under it until the next heading of the same or a higher level. */
export interface Section {
  type: 'section';
  /** 1 = top level; nesting in `children` follows it. */
  level: number;
  heading: Leaf;
  children: StructureNode[];
}

export type ListStyle = 'decimal' | 'lower-alpha' | 'upper-alpha' | 'lower-roman' | 'upper-roman' | 'circle' | 'none';

export interface ListItem {
  /** The marker as printed ("1.", "(a)", "•"); null when the list has no visible markers. */
  marker: Leaf | null;
  /** The item's body: its paragraph(s), nested lists, or a nested section. */
  children: StructureNode[];
}

export interface List {
  type: 'list';
  ordered: boolean;
  style: ListStyle;
  items: ListItem[];
  /** What the list is, as a clause (`ProhibitedUse`): the name of a DGML element around it. */
  clause?: string;
}

export interface TableCell {
  leaf: Leaf;
  colspan: number;
  rowspan: number;
  /** Key/value forms: a label cell ("Accident Number:") or the value beside it. */
  role?: 'label' | 'value';
  boxes: Box[];
}

/** A row lists the cells that start in it (HTML's model: a rowspan cell is absent from later rows). */
export interface TableRow {
  cells: TableCell[];
  boxes: Box[];
}

export interface Table {
  type: 'table';
  rows: TableRow[];
  boxes: Box[];
  /** How the table was found, for diagnostics: ruled lines, aligned columns, a key/value form, or the format's own markup. */
  source: 'ruled' | 'aligned' | 'form' | 'native';
  /** What the table is (`RentSchedule`): the name of a DGML element around it. */
  clause?: string;
}

export type StructureNode = Section | Paragraph | List | Table;

export interface StructureModel {
  /** Bumped when the model's shape changes, so stored models can be rebuilt. */
  version: 1;
  pages: { number: number; width: number; height: number }[];
  /** Paginated (boxes are meaningful) or not. */
  paginated: boolean;
  nodes: StructureNode[];
  /** Pages whose text came from OCR. */
  ocrPages: number[];
  /** A short document without headings that is one clause as a whole: what it is (a DGML element around its blocks). */
  clause?: string;
}

/** Every leaf in document order (headings, paragraphs, list markers and bodies, table cells). */
export function* leaves(nodes: readonly StructureNode[]): Generator<Leaf> {
  for (const n of nodes) {
    switch (n.type) {
      case 'paragraph':
        yield n.leaf;
        break;
      case 'section':
        yield n.heading;
        yield* leaves(n.children);
        break;
      case 'list':
        for (const item of n.items) {
          if (item.marker) yield item.marker;
          yield* leaves(item.children);
        }
        break;
      case 'table':
        for (const row of n.rows) for (const cell of row.cells) yield cell.leaf;
        break;
    }
  }
}

/** The table cells among the leaves, by their index in `leaves()` order. */
export function cellsByLeafIndex(nodes: readonly StructureNode[]): Map<number, TableCell> {
  const cells = new Map<number, TableCell>();
  let index = 0;
  const walk = (list: readonly StructureNode[]) => {
    for (const n of list) {
      switch (n.type) {
        case 'paragraph':
          index++;
          break;
        case 'section':
          index++;
          walk(n.children);
          break;
        case 'list':
          for (const item of n.items) {
            if (item.marker) index++;
            walk(item.children);
          }
          break;
        case 'table':
          for (const row of n.rows) for (const cell of row.cells) cells.set(index++, cell);
          break;
      }
    }
  };
  walk(nodes);
  return cells;
}

/** The words of a text as readers count them (whitespace-separated). */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Collapses whitespace runs to single spaces and trims. */
export function normalizeSpace(text: string): string {
  return isSpaceNormal(text) ? text : text.replace(/\s+/g, ' ').trim();
}

/** Whether `text` has no whitespace but single spaces between other characters (most texts: no copy needed). */
function isSpaceNormal(text: string): boolean {
  let afterSpace = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if (isOtherWhitespace(c)) return false;
    else afterSpace = false;
  }
  return !afterSpace || text.length === 0;
}

/** What `\s` matches besides the space: tab, line breaks, form feeds, no-break and other Unicode spaces, BOM. */
function isOtherWhitespace(c: number): boolean {
  if (c < 128) return c >= 9 && c <= 13;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The smallest box holding `boxes` on one page (they must share it). */
export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  let l = Infinity;
  let t = Infinity;
  let r = -Infinity;
  let b = -Infinity;
  for (const x of boxes) {
    l = Math.min(l, x.left);
    t = Math.min(t, x.top);
    r = Math.max(r, x.left + x.width);
    b = Math.max(b, x.top + x.height);
  }
  return { page: boxes[0]!.page, left: l, top: t, width: r - l, height: b - t };
}

/** One union box per page, in page order. */
export function boxesPerPage(boxes: readonly Box[]): Box[] {
  const byPage = new Map<number, Box[]>();
  for (const b of boxes) {
    const list = byPage.get(b.page);
    if (list) list.push(b);
    else byPage.set(b.page, [b]);
  }
  return [...byPage.keys()].sort((a, b) => a - b).map((p) => unionBox(byPage.get(p)!)!);
}
