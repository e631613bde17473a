import { wordsOf, type Leaf, type List, type ListStyle, type Paragraph, type Section, type StructureNode } from '../../document/structure.js';
import { findAddresses } from '../stages/entities/places.js';

/** Text of a format without pages, in reading order, as Quire's own text layout draws it. */
export interface Block {
  kind: 'heading' | 'paragraph' | 'list-item' | 'line';
  text: string;
  /** 1..6 for headings. */
  level?: number;
  /** List items: the marker drawn in the indent ("1.", "•"); absent on an item's later paragraphs. */
  marker?: string;
  /** List items: nesting depth, 1 for a top-level list. */
  depth?: number;
}

export function leafOf(text: string): Leaf {
  return { text, boxes: [] };
}

/** Short paragraphs without a sentence end are fragments (`div`): labels, names, captions. */
const FRAGMENT_WORDS = 8;

export function paragraphOf(text: string): Paragraph {
  const fragment = wordsOf(text).length < FRAGMENT_WORDS && !/[.!?]["”’)]*$/.test(text);
  return { type: 'paragraph', structure: fragment ? 'div' : 'p', role: 'body', leaf: leafOf(text) };
}

/** The blocks that lay out a structure: headings, paragraphs, list items, one line per table row. */
export function layoutBlocks(nodes: readonly StructureNode[], depth = 0): Block[] {
  const blocks: Block[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'section':
        blocks.push({ kind: 'heading', text: node.heading.text, level: Math.min(node.level, 6) });
        blocks.push(...layoutBlocks(node.children, depth));
        break;
      case 'paragraph':
        blocks.push(depth ? { kind: 'list-item', text: node.leaf.text, depth } : { kind: 'paragraph', text: node.leaf.text });
        break;
      case 'list':
        for (const item of node.items) {
          const body = layoutBlocks(item.children, depth + 1);
          const first = body[0];
          if (first?.kind === 'list-item' && first.depth === depth + 1 && first.marker === undefined) {
            if (item.marker) first.marker = item.marker.text;
          } else if (item.marker) {
            body.unshift({ kind: 'list-item', text: '', marker: item.marker.text, depth: depth + 1 });
          }
          blocks.push(...body);
        }
        break;
      case 'table':
        for (const row of node.rows) blocks.push({ kind: 'paragraph', text: row.cells.map((c) => c.leaf.text).join('\t') });
        break;
    }
  }
  return blocks;
}

/** Deeper lists than this are read as plain paragraphs of the deepest item: the model stays shallow. */
export const MAX_LIST_DEPTH = 16;

export function newList(style: ListStyle): List {
  return { type: 'list', ordered: style !== 'circle' && style !== 'none', style, items: [] };
}

/** The marker a list of `style` prints for its `n`-th item (1-based). */
export function listMarker(style: ListStyle, n: number): string | null {
  switch (style) {
    case 'decimal':
      return `${n}.`;
    case 'lower-alpha':
      return `${alpha(n)}.`;
    case 'upper-alpha':
      return `${alpha(n).toUpperCase()}.`;
    case 'lower-roman':
      return `${roman(n).toLowerCase()}.`;
    case 'upper-roman':
      return `${roman(n)}.`;
    case 'circle':
      return '•';
    case 'none':
      return null;
  }
}

function alpha(n: number): string {
  let s = '';
  for (let k = Math.max(1, n); k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}

function roman(n: number): string {
  if (n < 1 || n >= 4000) return String(n);
  const digits: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let s = '';
  for (const [v, d] of digits) for (; n >= v; n -= v) s += d;
  return s;
}

/** A numbering label opening a line ("1.", "2.1", "A.", "IV.", "ARTICLE I", "Section 2"), and what kind it is. */
export interface HeadingLabel {
  /** Length of the label in the text. */
  length: number;
  /** The numbering scheme; same-kind labels are siblings. */
  kind: string;
  /** Components of a decimal label ("2.1" → 2), else 1. */
  depth: number;
}

const WORD_LABEL = /^(article|section|part|item|chapter|schedule|exhibit|appendix)\s+(?:\d{1,3}[a-z]?(?:\.\d{1,3})*|[ivxlc]{1,6}|[a-z])\b[.:]?/i;
const DECIMAL_LABEL = /^(\d{1,3}[A-Z]?(?:\.\d{1,3})*)\.?(?=\s)/;
const LETTER_LABEL = /^[A-Z]\.(?=\s)/;
const ROMAN_LABEL = /^[IVXL]{1,6}\.(?=\s)/;

export function headingLabel(text: string): HeadingLabel | null {
  const word = WORD_LABEL.exec(text);
  if (word) return { length: word[0].length, kind: word[1]!.toLowerCase(), depth: 1 };
  const roman = ROMAN_LABEL.exec(text);
  // A lone "V.", "X." or "L." is more often a letter than a roman numeral; "I." is read as one.
  if (roman && !/^[VXL]\.$/.test(roman[0])) return { length: roman[0].length, kind: 'upper-roman', depth: 1 };
  const letter = LETTER_LABEL.exec(text);
  if (letter) return { length: letter[0].length, kind: 'upper-letter', depth: 1 };
  const decimal = DECIMAL_LABEL.exec(text);
  // "12 Main Street" is an address line, not clause 12.
  if (decimal && !decimal[0].includes('.') && findAddresses(text).some((a) => a.start === 0)) return null;
  if (decimal) return { length: decimal[0].length, kind: 'decimal', depth: decimal[1]!.split('.').length };
  return null;
}

/**
 * Outline order of heading kinds, outermost first: an ALL CAPS line is a title, exhibits and parts
 * hold articles (a filing's parts hold its items), roman numerals hold letters ("I." → "A."),
 * decimals nest by depth ("1." → "1.1"), and a bold title without a number goes under them all.
 */
const KIND_ORDER = ['caps', 'schedule', 'exhibit', 'appendix', 'part', 'item', 'chapter', 'article', 'upper-roman', 'upper-letter', 'section', 'decimal', 'bold'];

/** A heading that is its label alone ("ARTICLE I", "Section 2.", "IV."). */
function isBareLabel(text: string): boolean {
  const label = headingLabel(`${text} X`);
  return label !== null && label.length >= text.length;
}

/** The rank of an inferred heading (1 = outermost), from its label's kind and depth. */
export function headingRank(label: Pick<HeadingLabel, 'kind' | 'depth'>): number {
  return KIND_ORDER.indexOf(label.kind) + 1 + Math.min(label.depth - 1, 9) / 10;
}

/**
 * The section tree as headings arrive: a heading closes the open sections of its rank or lower,
 * and everything added until the next heading goes under it. `level` is the resulting depth.
 * Inferred headings (numbered paragraphs, ALL CAPS lines) nest under the markup's own headings and
 * close when any markup heading comes.
 */
export class SectionTree {
  private readonly top: StructureNode[] = [];
  private readonly open: { rank: number; inferred: boolean; section: Section; parent: StructureNode[]; emptyIsParagraph: boolean }[] = [];

  /** The tree, once every section still open is closed (the tree is complete). */
  finish(): StructureNode[] {
    while (this.open.length) this.close();
    return this.top;
  }

  /** How many sections are open. */
  get depth(): number {
    return this.open.length;
  }

  /** Where content goes now: the innermost open section, or the top level. */
  get container(): StructureNode[] {
    return this.open[this.open.length - 1]?.section.children ?? this.top;
  }

  /** Rank of the innermost markup heading (0 at the top level): inferred ranks are added to it. */
  get markupRank(): number {
    for (let i = this.open.length - 1; i >= 0; i--) if (!this.open[i]!.inferred) return this.open[i]!.rank;
    return 0;
  }

  /**
   * `emptyIsParagraph`: a heading nothing follows before the next one (or the end) is a paragraph
   * after all. `titleOnly`: a title without a label ("DEFINITIONS") right after a label standing
   * alone ("ARTICLE I") completes that heading ("ARTICLE I DEFINITIONS") instead of opening one.
   */
  openSection(rank: number, heading: Leaf, inferred: boolean, opts: { emptyIsParagraph?: boolean; titleOnly?: boolean } = {}): Section {
    const last = this.open[this.open.length - 1];
    if (opts.titleOnly && last && last.inferred && last.section.children.length === 0 && isBareLabel(last.section.heading.text)) {
      last.section.heading = leafOf(`${last.section.heading.text} ${heading.text}`);
      return last.section;
    }
    for (let top = this.open[this.open.length - 1]; top; top = this.open[this.open.length - 1]) {
      if (top.rank < rank && (inferred || !top.inferred)) break;
      this.close();
    }
    const section: Section = { type: 'section', level: this.open.length + 1, heading, children: [] };
    const parent = this.container;
    parent.push(section);
    this.open.push({ rank, inferred, section, parent, emptyIsParagraph: opts.emptyIsParagraph ?? false });
    return section;
  }

  private close(): void {
    const { section, parent, emptyIsParagraph } = this.open.pop()!;
    if (emptyIsParagraph && section.children.length === 0 && parent[parent.length - 1] === section) parent[parent.length - 1] = paragraphOf(section.heading.text);
  }
}
