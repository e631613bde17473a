import { Tokenizer } from 'htmlparser2';
import { wordsOf, type List, type ListItem, type ListStyle, type Section, type StructureNode, type Table, type TableRow } from '../../../document/structure.js';
import { MAX_LIST_DEPTH, SectionTree, headingLabel, headingRank, leafOf, listMarker, newList, paragraphOf } from '../blocks.js';
import { parseMarker } from '../../../document/markers.js';
import { TypedLists } from './typed-lists.js';
import { DEFAULT_PT, Stylesheet, resolveSize } from './html-styles.js';

/** Never shown; an inline XBRL filing's `ix:header` (its hidden facts and contexts) included. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'object', 'iframe', 'ix:header']);
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'blockquote', 'dt', 'dd',
  'dl', 'figure', 'figcaption', 'caption', 'address', 'form', 'fieldset', 'hr', 'body', 'html', 'center',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'table', 'tr', 'td', 'th', 'pre',
  'details', 'summary', 'legend', 'hgroup', 'menu', 'dialog', 'search', 'option',
]);
const BOLD = new Set(['b', 'strong']);
/** A raised note mark: a number, a letter or two, symbols, in brackets or not ("1", "(2)", "[i]", "*", "†", "a"). */
const RAISED_MARK = /^\s*[([]?(?:\d{1,3}|[a-z]{1,2}|[ivxlc]{1,5}|[*†‡§¶#]{1,3})[)\]]?[,\s]*$/i;
const ORDINAL = /^\s*(?:st|nd|rd|th)\s*$/i;
/** A raised power after a unit or a lone letter ("m<sup>2</sup>", "x<sup>-1</sup>") is part of it, not a note's mark. */
const POWER = /^\s*[-−]?\d{1,2}\s*$/;
const POWER_BASE = /(?:^|[\s(/·*])(?:\p{L}|[kcmdµμn]m|ft|yd|mi|sq|[kcmµμ]?m\/s|km\/h)$/u;
const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻', '−': '⁻',
};
/** mammoth ends each footnote with a "↑" link back to its reference: navigation, not text. */
const NOTE_BACKLINK = /^#(?:footnote|endnote)-ref-/;
/** mammoth lists a Word document's footnotes and endnotes at its end, each an item with this id… */
const NOTE_ITEM = /^(footnote|endnote)-\d+$/;
/** …and links each reference to its note with this id. */
const NOTE_REFERENCE = /^(footnote|endnote)-ref-\d+$/;
const TYPE_STYLES: Record<string, ListStyle> = { '1': 'decimal', a: 'lower-alpha', A: 'upper-alpha', i: 'lower-roman', I: 'upper-roman' };
const CSS_STYLES: Record<string, ListStyle> = {
  none: 'none', decimal: 'decimal', 'lower-alpha': 'lower-alpha', 'lower-latin': 'lower-alpha', 'upper-alpha': 'upper-alpha',
  'upper-latin': 'upper-alpha', 'lower-roman': 'lower-roman', 'upper-roman': 'upper-roman', disc: 'circle', circle: 'circle', square: 'circle',
};
/** Word's default multilevel numbering, for nested ordered lists that do not say their type. */
const WORD_LEVEL_STYLES: ListStyle[] = ['decimal', 'lower-alpha', 'lower-roman'];

/**
 * Word's own label of a numbered paragraph ("(a)", "40."), put in front of its text by the DOCX reader
 * between these two private-use characters: a list item takes it as its marker, anything else as text.
 */
export const WORD_LABEL_START = '\uF8F0';
export const WORD_LABEL_END = '\uF8F1';
const WORD_LABEL_RE = /\uF8F0([^\uF8F1]*)\uF8F1\s*/g;

/** A numbered paragraph is a heading when its title is at most this long. */
const MAX_TITLE_WORDS = 12;

export interface HtmlOptions {
  /** Nested `<ol>`s without a type number like Word's defaults (1. → a. → i.), as in mammoth's HTML. */
  wordNumbering?: boolean;
  /**
   * Read by its look (default): a short paragraph all in bold is a title, and a one-row table of a
   * marker and a text is a hanging indent. Web pages and filings mark their headings and lay out
   * their notes so; a Word document has its heading styles and numbering for that, its bold lines
   * are as often a party's name over a signature line, and its tables are tables.
   */
  boldTitles?: boolean;
  /**
   * How a Word document numbers its footnotes and endnotes (mammoth numbers them 1, 2, … whatever
   * the document says): the mark for the n-th note of each kind, as its references and notes show it.
   */
  noteMarks?: { footnote: (n: number) => string; endnote: (n: number) => string };
}

interface Run {
  text: string;
  bold: boolean;
  /** Underlined (`<u>`): as good as bold for a clause's run-in title ("Term. This Agreement…"). */
  underline?: boolean;
  /** Its font size (pt) as CSS sets it, or the browsers' default. */
  size: number;
}

/** A paragraph's text, which of its characters are bold, and the smallest font size of its text. */
interface Para {
  text: string;
  bold: boolean[];
  underline: boolean[];
  size: number;
}

/** A paragraph set this much larger than the body text is a title. */
const LARGER_TITLE = 1.25;

type NoteKind = 'footnote' | 'endnote';

/** What an open element did, so its end tag can undo it. */
type Frame = 'skip' | 'inline' | 'bold' | 'underline' | 'sup' | 'block' | 'pre' | 'heading' | 'list' | 'item' | 'note' | 'table' | 'row' | 'cell';

interface Opened {
  frame: Frame;
  /** Its style set its text's weight (pushed on the weights). */
  weighted: boolean;
  /** Its style set its text's size (pushed on the sizes). */
  sized: boolean;
}

interface OpenList {
  list: List;
  next: number;
}

interface OpenTable {
  table: Table;
  row: TableRow | null;
  /** A description list (`<dl>`) read as a form: a row per term, its label cell and value cells. */
  terms?: boolean;
  /** Where the table goes when it ends (the container when it started). */
  container: StructureNode[];
}

/**
 * The structure of an HTML document: h1–h6 sections (and sections inferred from numbered paragraphs
 * with a bold title), paragraphs, lists with their markers, tables. Every visible word lands in
 * exactly one leaf. Built in one pass over the parser's events with explicit stacks, so neither
 * deep nesting nor huge inputs recurse or go quadratic.
 */
export function htmlStructure(source: string, options: HtmlOptions = {}): StructureNode[] {
  const html = shownChoices(source);
  const sections = new SectionTree();
  const lists: OpenList[] = [];
  /** List items' bodies, innermost last; paragraphs go to the innermost one, else to the open section. */
  const items: StructureNode[][] = [];
  let table: OpenTable | null = null;
  /** Where each open `<sup>` began in the runs. */
  const raised: number[] = [];
  /** Word notes being read (mammoth's footnote items): their mark and what they hold. */
  const notes: { mark: string; body: StructureNode[] }[] = [];
  /** References and notes of each kind so far: mammoth lists the notes in the order of their references. */
  const noteCounts = { reference: { footnote: 0, endnote: 0 }, note: { footnote: 0, endnote: 0 } };
  const noteMark = (kind: NoteKind, what: 'reference' | 'note'): string => {
    const n = ++noteCounts[what][kind];
    return options.noteMarks?.[kind](n) ?? String(n);
  };
  const typed = new TypedLists();
  /** Inside a heading or a table cell, blocks only separate words: the text is collected whole. */
  let capture: 'heading' | 'cell' | null = null;
  let cell: { colspan: number; rowspan: number; role?: 'label' | 'value' } = { colspan: 1, rowspan: 1 };
  let headingLevel = 0;
  let runs: Run[] = [];
  let skip = 0;
  let pre = 0;
  /** Whether text is bold, as the open elements that set it say, innermost last. */
  const weights: boolean[] = [];
  const bold = () => weights[weights.length - 1] ?? false;
  let underlines = 0;
  /** Font sizes (pt) set by the open elements, innermost last. */
  const sizes: number[] = [];
  const size = () => sizes[sizes.length - 1] ?? DEFAULT_PT;
  const styles = Stylesheet.of(html);
  /** Tables that lay the page out (web pages only: a Word document's tables are tables), in the order they open. */
  const layout = (options.boldTitles ?? true) && /<table/i.test(html) ? layoutTables(html) : [];
  let tables = 0;
  let layoutTable = false;
  const bodySize = (options.boldTitles ?? true) ? bodyFontSize(html, styles) : DEFAULT_PT;

  const container = () => items[items.length - 1] ?? sections.container;
  /** Bodies of the sections that list items lead into (see `leadInItem`). */
  const itemSections = new Set<StructureNode[]>();
  /**
   * A list item whose first paragraph leads with a bold or underlined title ("Term. This Agreement…",
   * "Primary objective: …") holds a section of that title, as a PDF's numbered clause does: its
   * paragraphs go under the title.
   */
  const leadInItem = (para: Para): boolean => {
    const body = items[items.length - 1]!;
    if (body !== lists[lists.length - 1]?.list.items.at(-1)?.children || body.length > 0) return false;
    const split = runInTitle(para);
    if (!split) return false;
    const level = sections.depth + items.filter((b) => itemSections.has(b)).length + 1;
    const section: Section = { type: 'section', level, heading: leafOf(split.title), children: [paragraphOf(split.rest)] };
    body.push(section);
    items[items.length - 1] = section.children;
    itemSections.add(section.children);
    return true;
  };
  const flush = () => {
    if (capture) {
      runs.push({ text: ' ', bold: false, size: size() });
      return;
    }
    let text = collectRuns(runs);
    runs = [];
    if (!text.text) return;
    const labelled = wordLabel(text);
    if (labelled) {
      const list = lists[lists.length - 1]?.list;
      const item = list?.items.at(-1);
      if (list && item && item.children === items[items.length - 1] && item.children.length === 0) {
        item.marker = leafOf(labelled.label);
        // The list's style is its first label's ("(i)": lower-roman), not the guess from its depth.
        const marker = list.items.length === 1 ? parseMarker(`${labelled.label} `, () => false) : null;
        if (marker) list.style = marker.style;
        text = labelled.rest;
        if (!text.text) return;
      } else {
        text = labelled.inline;
      }
    }
    if (items.length === 0 && inferHeading(text, sections, (options.boldTitles ?? true) ? bodySize : null)) return;
    if (items.length > 0 && leadInItem(text)) return;
    if (items.length === 0 && !pre && typed.add(container(), text.text)) return;
    container().push(paragraphOf(text.text));
  };
  const takeText = () => {
    const text = collectRuns(runs).text.replace(WORD_LABEL_RE, '$1 ').trim();
    runs = [];
    return text;
  };

  /**
   * An element styled bold makes its text bold, as <b> does, whatever else it is, and one styled with
   * a normal weight undoes an outer bold; one styled with a size, its size; one hidden, skipped.
   */
  const openStyled = (name: string, attrs: Record<string, string>): Opened => {
    // Counted for every table, skipped or not, in the order layoutTables counted them.
    if (name === 'table') layoutTable = layout[tables++] ?? false;
    const style = skip ? null : styles.style(name, attrs);
    const frame = open(name, attrs, style?.hidden ?? true);
    if (frame === 'skip' || !style) return { frame, weighted: false, sized: false };
    if (style.bold !== null) weights.push(style.bold);
    if (style.size !== null) sizes.push(resolveSize(style.size, size()));
    return { frame, weighted: style.bold !== null, sized: style.size !== null };
  };
  const closeStyled = ({ frame, weighted, sized }: Opened) => {
    close(frame);
    if (weighted) weights.pop();
    if (sized) sizes.pop();
  };

  const open = (name: string, attrs: Record<string, string>, hidden: boolean): Frame => {
    if (skip || hidden || SKIPPED.has(name) || (name === 'a' && NOTE_BACKLINK.test(attrs.href ?? ''))) {
      skip++;
      return 'skip';
    }
    const reference = options.wordNumbering && name === 'a' ? NOTE_REFERENCE.exec(attrs.id ?? '') : null;
    if (reference) {
      // mammoth's "[1]" for the reference, as the document numbers it ("[i]").
      runs.push({ text: `[${noteMark(reference[1] as NoteKind, 'reference')}]`, bold: bold(), size: size() });
      skip++;
      return 'skip';
    }
    if (name === 'input') {
      // A box shows whether it is ticked (Word's check boxes and legacy form fields come through
      // mammoth as these); a text field shows its value.
      const type = (attrs.type ?? 'text').toLowerCase();
      const shown = type === 'checkbox' ? ('checked' in attrs ? '☒' : '☐') : type === 'radio' ? ('checked' in attrs ? '◉' : '○') : type === 'text' ? (attrs.value ?? '') : '';
      if (shown) runs.push({ text: ` ${shown} `, bold: bold(), size: size() });
      return 'inline';
    }
    if (name === 'br') {
      // A line break ends a paragraph's line; in a heading or a cell it only separates words.
      flush();
      return 'inline';
    }
    if (BOLD.has(name)) {
      weights.push(true);
      return 'bold';
    }
    if (name === 'u') {
      underlines++;
      return 'underline';
    }
    if (name === 'sup') {
      raised.push(runs.length);
      return 'sup';
    }
    if (!BLOCKS.has(name)) return 'inline';
    flush();
    if (capture) return 'block';
    const heading = /^h([1-6])$/.exec(name);
    if (heading && lists.length === 0 && items.length === 0 && !table) {
      capture = 'heading';
      headingLevel = Number(heading[1]);
      return 'heading';
    }
    if ((name === 'ul' || name === 'ol') && lists.length < MAX_LIST_DEPTH) {
      const list = newList(listStyle(name, attrs, lists, options));
      container().push(list);
      lists.push({ list, next: integer(attrs.start) ?? 1 });
      return 'list';
    }
    const note = options.wordNumbering && name === 'li' ? NOTE_ITEM.exec(attrs.id ?? '') : null;
    if (note && !table) {
      // A Word note is a footnote paragraph led by its mark in brackets, as its reference reads, not an item of a list.
      notes.push({ mark: noteMark(note[1] as NoteKind, 'note'), body: [] });
      items.push(notes[notes.length - 1]!.body);
      return 'note';
    }
    if (name === 'li' && lists.length > 0 && lists.length <= MAX_LIST_DEPTH) {
      const current = lists[lists.length - 1]!;
      const value = integer(attrs.value);
      if (value !== null) current.next = value;
      const marker = listMarker(current.list.style, current.next++);
      const item: ListItem = { marker: marker === null ? null : leafOf(marker), children: [] };
      current.list.items.push(item);
      items.push(item.children);
      return 'item';
    }
    if (name === 'table' && !table && !layoutTable) {
      table = { table: { type: 'table', rows: [], boxes: [], source: 'native' }, row: null, container: container() };
      return 'table';
    }
    // "Effective Date" / "March 1, 2024" as <dt>/<dd>: a key/value form, as a PDF's would be.
    if (name === 'dl' && !table && (options.boldTitles ?? true)) {
      table = { table: { type: 'table', rows: [], boxes: [], source: 'native' }, row: null, container: container(), terms: true };
      return 'table';
    }
    if (table?.terms && (name === 'dt' || name === 'dd')) {
      if (name === 'dt' || !table.row) {
        table.row = { cells: [], boxes: [] };
        table.table.rows.push(table.row);
      }
      capture = 'cell';
      cell = { colspan: 1, rowspan: 1, role: name === 'dt' ? 'label' : 'value' };
      return 'cell';
    }
    if (table && name === 'tr') {
      table.row = { cells: [], boxes: [] };
      table.table.rows.push(table.row);
      return 'row';
    }
    if (table && (name === 'td' || name === 'th')) {
      if (!table.row) {
        table.row = { cells: [], boxes: [] };
        table.table.rows.push(table.row);
      }
      capture = 'cell';
      cell = { colspan: span(attrs.colspan), rowspan: span(attrs.rowspan) };
      return 'cell';
    }
    if (name === 'pre') {
      pre++;
      return 'pre';
    }
    return 'block';
  };

  const close = (frame: Frame) => {
    switch (frame) {
      case 'skip':
        skip--;
        return;
      case 'inline':
        return;
      case 'bold':
        weights.pop();
        return;
      case 'underline':
        underlines--;
        return;
      case 'sup': {
        // A note's mark raised after a word or a figure is not part of it: "revenue¹", "2023⁽¹⁾" read
        // "revenue 1", "2023 (1)". An ordinal's letters stay on their number ("1st"), a power on its
        // unit ("m²").
        const at = raised.pop()!;
        // A mark is a run or two; nested raised text (hostile or not) is not looked through.
        if (at > runs.length || runs.length - at > 4) return;
        const mark = runs.slice(at).map((r) => r.text).join('');
        const before = runs[at - 1]?.text ?? '';
        if (POWER.test(mark) && POWER_BASE.test(before)) {
          for (const r of runs.slice(at)) r.text = r.text.trim().replace(/[-−\d]/g, (c) => SUPERSCRIPT[c]!);
        } else if (RAISED_MARK.test(mark) && /\S$/.test(before) && !(ORDINAL.test(mark) && /\d$/.test(before))) {
          runs.splice(at, 0, { text: ' ', bold: false, size: size() });
        }
        return;
      }
      case 'heading': {
        capture = null;
        const text = takeText();
        if (text) sections.openSection(headingLevel * 100, leafOf(text), false);
        return;
      }
      case 'cell':
        capture = null;
        table?.row?.cells.push({ leaf: leafOf(takeText()), ...cell, boxes: [] });
        return;
    }
    flush();
    switch (frame) {
      case 'pre':
        pre--;
        break;
      case 'list': {
        const { list } = lists.pop()!;
        // A list of Word's notes leaves no list behind, only the notes.
        const at = list.items.length === 0 ? container().lastIndexOf(list) : -1;
        if (at >= 0) container().splice(at, 1);
        break;
      }
      case 'item':
        items.pop();
        break;
      case 'note': {
        items.pop();
        const { mark, body } = notes.pop()!;
        body.forEach((node, k) => {
          if (node.type !== 'paragraph') return container().push(node);
          container().push({ type: 'paragraph', structure: 'p', role: 'footnote', leaf: leafOf(k === 0 ? `[${mark}] ${node.leaf.text}` : node.leaf.text) });
        });
        break;
      }
      case 'row':
        if (table) table.row = null;
        break;
      case 'table':
        if (table) {
          table.table.rows = table.table.rows.filter((r) => r.cells.length > 0);
          const text = (options.boldTitles ?? true) && items.length === 0 ? hangingIndent(table.table) : null;
          if (text !== null) {
            table = null;
            runs = [{ text, bold: false, size: size() }];
            flush();
            break;
          }
          if (table.table.rows.length) table.container.push(table.table);
        }
        table = null;
        break;
    }
  };

  walkHtml(html, {
    open: openStyled,
    close: closeStyled,
    text(text) {
      if (skip) return;
      if (!pre) {
        runs.push({ text, bold: bold(), underline: underlines > 0, size: size() });
        return;
      }
      text.split('\n').forEach((line, i) => {
        if (i > 0) flush();
        runs.push({ text: line, bold: bold(), underline: underlines > 0, size: size() });
      });
    },
  });
  flush();
  return sections.finish();
}

const SELECT = /<select\b([^>]*)>([\s\S]*?)<\/select\s*>/gi;
const OPTION = /<option\b([^>]*)>([^<]*)/gi;
const MULTIPLE = /(?:^|\s)multiple(?:\s|=|$)/i;
const SELECTED = /(?:^|\s)selected(?:\s|=|$)/i;
/** A start tag's attributes without their quoted values, to look for one by name. */
const unquoted = (attrs: string) => attrs.replace(/"[^"]*"|'[^']*'/g, '""');

/**
 * A drop-down list as it shows: the option chosen, or the first when none is (what a browser
 * draws, and what a rendition prints), not every option it offers. A list box (`multiple`, or
 * `size` above 1) shows its options, so it keeps them all.
 */
function shownChoices(html: string): string {
  if (!/<select\b/i.test(html)) return html;
  return html.replace(SELECT, (whole: string, attrs: string, body: string) => {
    const size = /\bsize\s*=\s*["']?(\d+)/i.exec(attrs);
    if (MULTIPLE.test(unquoted(attrs)) || (size && Number(size[1]) > 1)) return whole;
    const options = [...body.matchAll(OPTION)].map(([, optionAttrs = '', text = '']) => ({
      chosen: SELECTED.test(unquoted(optionAttrs)),
      text: text.trim() || (/\blabel\s*=\s*"([^"]*)"/i.exec(optionAttrs)?.[1] ?? ''),
    }));
    const shown = options.find((o) => o.chosen) ?? options[0];
    return ` <span>${shown?.text ?? ''}</span> `;
  });
}

/**
 * The font size (pt) most of the page's shown text is set in, as its styles size it (unsized text at
 * the browsers' default). A second pass of the tokenizer, only for pages that size text at all.
 */
function bodyFontSize(html: string, styles: Stylesheet): number {
  if (!/font-size|font\s*:|<font\b/i.test(html)) return DEFAULT_PT;
  const chars = new Map<number, number>();
  const sizes: number[] = [];
  let skip = 0;
  walkHtml<{ skipped: boolean; sized: boolean }>(html, {
    open(name, attrs) {
      const style = skip > 0 ? null : styles.style(name, attrs);
      const skipped = !style || style.hidden || SKIPPED.has(name);
      if (skipped) skip++;
      const styled = skipped || !style.size ? null : resolveSize(style.size, sizes[sizes.length - 1] ?? DEFAULT_PT);
      if (styled !== null) sizes.push(styled);
      return { skipped, sized: styled !== null };
    },
    close({ skipped, sized }) {
      if (skipped) skip--;
      if (sized) sizes.pop();
    },
    text(text) {
      if (skip) return;
      const n = text.replace(/\s/g, '').length;
      if (!n) return;
      const at = sizes[sizes.length - 1] ?? DEFAULT_PT;
      chars.set(at, (chars.get(at) ?? 0) + n);
    },
  });
  let body = DEFAULT_PT;
  let most = 0;
  for (const [at, n] of chars) {
    if (n > most) {
      most = n;
      body = at;
    }
  }
  return body;
}

/** A paragraph that starts with Word's label: the label, the text after it, and both as one text. */
function wordLabel(para: Para): { label: string; rest: Para; inline: Para } | null {
  if (!para.text.startsWith(WORD_LABEL_START)) return null;
  const end = para.text.indexOf(WORD_LABEL_END);
  if (end < 0) return null;
  const label = para.text.slice(1, end);
  const from = para.text[end + 1] === ' ' ? end + 2 : end + 1;
  const rest = { text: para.text.slice(from), bold: para.bold.slice(from), underline: para.underline.slice(from), size: para.size };
  const gap = rest.text ? ' ' : '';
  const plain = new Array<boolean>(label.length + gap.length).fill(false);
  const inline = { text: label + gap + rest.text, bold: [...plain, ...rest.bold], underline: [...plain, ...rest.underline], size: para.size };
  return { label, rest, inline };
}

/** The runs' text with whitespace normalised, for each of its characters whether it is bold, and its smallest size. */
/**
 * Characters that show nothing, which PDF text drops too: a soft hyphen ("co&shy;operation" reads
 * "cooperation", also to a search), zero-width spaces and joiners, the word joiner, a stray BOM.
 */
const INVISIBLE = new Set(['\u00AD', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF']);

function collectRuns(runs: Run[]): Para {
  const chars: string[] = [];
  const bold: boolean[] = [];
  const underline: boolean[] = [];
  let space = false;
  let size = Infinity;
  for (const run of runs) {
    if (/\S/.test(run.text)) size = Math.min(size, run.size);
    for (const shown of run.text) {
      if (INVISIBLE.has(shown)) continue;
      // Word's non-breaking hyphen shows as a hyphen, and is searched for as one.
      const ch = shown === '\u2011' ? '-' : shown;
      if (/\s/.test(ch)) {
        space = true;
        continue;
      }
      if (space && chars.length) {
        chars.push(' ');
        bold.push(false);
        underline.push(false);
      }
      space = false;
      // Astral characters are two UTF-16 units: one flag per unit keeps indexes aligned with the text.
      for (let k = 0; k < ch.length; k++) {
        bold.push(run.bold);
        underline.push(run.underline ?? false);
      }
      chars.push(ch);
    }
  }
  return { text: chars.join(''), bold, underline, size: Number.isFinite(size) ? size : DEFAULT_PT };
}

/**
 * A numbered paragraph that opens a section: its title after the label is bold ("2. Onsite
 * Services.", "8.1 Company's Representation. Company represents…": the run-in title is the
 * heading, the rest its first paragraph), or it is a short unpunctuated line ("4. Hours of Operation").
 */
/** `bodySize`: the page's body text size, when titles are read by their look (null: Word's HTML). */
function inferHeading(para: Para, sections: SectionTree, bodySize: number | null): boolean {
  const { text, bold, underline } = para;
  const boldTitles = bodySize !== null;
  const label = headingLabel(text);
  if (!label) return boldTitles && (largerTitle(para, sections, bodySize) || boldTitle(para, sections));
  // The title follows the label after a space, or in a filing a dash between spaces ("PART I — FINANCIAL
  // INFORMATION"; a Word document's "EXHIBIT A – Floor Plan" lines are its list of exhibits).
  const dash = boldTitles ? LABEL_DASH.exec(text.slice(label.length)) : null;
  const titleStart = label.length + (dash?.[0].length ?? 1);
  // A label standing alone in bold ("ARTICLE I"), its title on the next line: a heading the title completes.
  if (boldTitles && titleStart >= text.length && bold.every((b, i) => b || text[i] === ' ')) {
    sections.openSection(sections.markupRank + headingRank(label), leafOf(text), true, { emptyIsParagraph: true });
    return true;
  }
  if (titleStart >= text.length || !/\p{Lu}/u.test(text[titleStart]!)) return false;
  let titleEnd = titleStart;
  while (titleEnd < text.length && (bold[titleEnd] || underline[titleEnd] || text[titleEnd] === ' ')) titleEnd++;
  let cut: number;
  if (titleEnd >= text.length) {
    if (wordsOf(text).length - 1 > MAX_TITLE_WORDS + 3) return false;
    cut = text.length;
  } else if (titleEnd > titleStart) {
    const title = text.slice(titleStart, titleEnd);
    const sentenceEnd = /[.:](?=\s|$)/.exec(title);
    cut = sentenceEnd ? titleStart + sentenceEnd.index + 1 : titleEnd;
    if (cut < text.length && text[cut] !== ' ') {
      // A bold run that ends inside a word: the title takes the word when only punctuation is left
      // of it ("**Property**."), else ends at the word before.
      const wordEnd = text.indexOf(' ', cut) < 0 ? text.length : text.indexOf(' ', cut);
      cut = /^\p{P}+$/u.test(text.slice(cut, wordEnd)) ? wordEnd : text.lastIndexOf(' ', cut);
    }
    if (cut <= titleStart) return false;
  } else if (wordsOf(text).length - 1 <= MAX_TITLE_WORDS && !/[.;,]$/.test(text)) {
    cut = text.length;
  } else {
    return false;
  }
  const heading = text.slice(0, cut).trim();
  if (wordsOf(heading).length - 1 > MAX_TITLE_WORDS) return false;
  sections.openSection(sections.markupRank + headingRank(label), leafOf(heading), true);
  const body = text.slice(cut).trim();
  if (body) sections.container.push(paragraphOf(body));
  return true;
}

const LABEL_DASH = /^\s+[—–-]\s+/;

const MAX_LEAD_IN_WORDS = 12;

/**
 * A bold or underlined run opening a paragraph and closed by "." or ":", with plain text after it:
 * the paragraph's run-in title and its text. A paragraph bold throughout has none.
 */
function runInTitle({ text, bold, underline }: Para): { title: string; rest: string } | null {
  const marked = (i: number): boolean => bold[i]! || underline[i]!;
  if (!marked(0)) return null;
  let end = 0;
  while (end < text.length && (marked(end) || text[end] === ' ')) end++;
  // The title ends at its first "." or ":", in the run or right after it ("Term." or "Term.").
  const sentenceEnd = /[.:](?=\s|$)/.exec(text.slice(0, end));
  const closing = /^\s*[.:](?=\s|$)/.exec(text.slice(end));
  if (!sentenceEnd && !closing) return null;
  const cut = sentenceEnd ? sentenceEnd.index + 1 : end + closing![0].length;
  const title = text.slice(0, cut).trim();
  const rest = text.slice(cut).trim();
  if (!/^[\p{Lu}\p{N}]/u.test(title) || title.replace(/[^\p{L}]/gu, '').length < 2 || wordsOf(title).length > MAX_LEAD_IN_WORDS) return null;
  // A defined term closing its quotes ("Permitted Assignee".) is not a title.
  if ((title.match(/["“”]/g) ?? []).length % 2 === 1) return null;
  // Plain words follow: the title leads into its text.
  for (let i = cut; i < text.length; i++) if (!marked(i) && /\p{L}/u.test(text[i]!)) return { title, rest };
  return null;
}

/**
 * A table of one row whose first cell holds only a list marker or a heading's label ("(1)", "•",
 * "Item 2.") and whose second holds the text: a hanging indent laid out with a table, as filings
 * do for their items and notes. Its text, to be read as a paragraph; null for a real table.
 */
function hangingIndent(table: Table): string | null {
  if (table.rows.length !== 1) return null;
  const cells = table.rows[0]!.cells.filter((c) => c.leaf.text);
  if (cells.length !== 2 || cells.some((c) => c.colspan !== 1 || c.rowspan !== 1)) return null;
  const [label, body] = cells.map((c) => c.leaf.text) as [string, string];
  const marker = parseMarker(`${label} `, () => false);
  const heading = headingLabel(`${label} x`);
  const isLabel = (marker !== null && marker.end === label.length) || (heading !== null && heading.length >= label.length - 1);
  return isLabel && /\p{L}/u.test(body) ? `${label} ${body}` : null;
}

/**
 * A paragraph set all in bold, short, and not ending like a sentence, a list entry or a label ("Fixed
 * rent:" over a table): a title without a number ("Business Seasonality and Product Introductions"),
 * as a PDF's bold line is. In capitals it is a title over the numbered headings ("FORM 10-Q");
 * otherwise it goes under them. One that nothing follows before the next title is a paragraph.
 */
function boldTitle(para: Para, sections: SectionTree): boolean {
  const { text, bold } = para;
  if (!readsAsTitle(text)) return false;
  for (let i = 0; i < text.length; i++) if (!bold[i] && text[i] !== ' ') return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  const kind = /\p{Ll}/u.test(letters) ? 'bold' : 'caps';
  sections.openSection(sections.markupRank + headingRank({ kind, depth: 1 }), leafOf(text), true, { emptyIsParagraph: true, titleOnly: true });
  return true;
}

/** Short, capitalised, not ending like a sentence, a list entry or a label, no list marker, brackets closed. */
function readsAsTitle(text: string): boolean {
  if (!/^[\p{Lu}\p{N}"“']/u.test(text) || /[.;,:]$/.test(text) || wordsOf(text).length > MAX_TITLE_WORDS) return false;
  if (!balancedBrackets(text) || parseMarker(`${text} `, () => false)) return false;
  return text.replace(/[^\p{L}]/gu, '').length >= 2;
}

/**
 * A paragraph set in type a quarter larger than the page's body text (its inline styles say so) is a
 * title, over the numbered headings and the titles in capitals; the larger, the outer.
 */
function largerTitle(para: Para, sections: SectionTree, bodySize: number): boolean {
  if (para.size < LARGER_TITLE * bodySize || !readsAsTitle(para.text)) return false;
  // Ranks between the markup's and a title in capitals (1 above it): larger type ranks outer.
  sections.openSection(sections.markupRank + 1 - Math.min(para.size, 999) / 1000, leafOf(para.text), true, { emptyIsParagraph: true, titleOnly: true });
  return true;
}

/** "STATE OF NEW YORK )" is one side of a bracket drawn over several lines, not a title. */
function balancedBrackets(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

function listStyle(tag: string, attrs: Record<string, string>, openLists: OpenList[], options: HtmlOptions): ListStyle {
  const css = /list-style(?:-type)?\s*:\s*([a-z-]+)/i.exec(attrs.style ?? '');
  if (css && CSS_STYLES[css[1]!.toLowerCase()]) return CSS_STYLES[css[1]!.toLowerCase()]!;
  if (tag === 'ul') return 'circle';
  const typed = TYPE_STYLES[attrs.type ?? ''];
  if (typed) return typed;
  if (!options.wordNumbering) return 'decimal';
  const orderedDepth = openLists.filter((l) => l.list.ordered).length;
  return WORD_LEVEL_STYLES[orderedDepth % WORD_LEVEL_STYLES.length]!;
}

function integer(value: string | undefined): number | null {
  if (value === undefined || !/^\s*-?\d{1,9}\s*$/.test(value)) return null;
  return Number(value);
}

/** A colspan or rowspan attribute, clamped as browsers do (1..1000; rowspan 0 counts as 1 here). */
function span(value: string | undefined): number {
  const n = integer(value);
  return n === null || n < 1 ? 1 : Math.min(n, 1000);
}

/**
 * Which tables, in the order they open, lay a page out rather than hold data: one with a heading
 * inside (a page's sections set in a table), or of a single cell (a box around content). Their
 * cells read as the page's own blocks; a table of data inside one is a table.
 */
function layoutTables(html: string): boolean[] {
  const layout: boolean[] = [];
  const open: { index: number; cells: number; heading: boolean }[] = [];
  walkHtml<number | null>(html, {
    open(name) {
      if (name === 'table') {
        open.push({ index: layout.length, cells: 0, heading: false });
        layout.push(false);
        return layout.length - 1;
      }
      const current = open[open.length - 1];
      if (current && (name === 'td' || name === 'th')) current.cells++;
      else if (current && /^h[1-6]$/.test(name)) current.heading = true;
      return null;
    },
    close(index) {
      if (index === null) return;
      const t = open.pop();
      if (!t) return;
      if (t.cells <= 1 || t.heading) layout[index] = true;
      // A heading anywhere inside a table makes it, and every table around it, a layout.
      const outer = open[open.length - 1];
      if (outer && t.heading) outer.heading = true;
    },
    text() {},
  });
  return layout;
}

interface TreeHandler<T> {
  open(name: string, attrs: Record<string, string>): T;
  close(opened: T): void;
  text(text: string): void;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const HEADINGS_P = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const P = new Set(['p']);
/** Start tags that end an open element first, as htmlparser2's Parser does (the top of the stack only). */
const OPEN_CLOSES = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])], ['li', new Set(['li'])],
  ['dd', new Set(['dd', 'dt'])], ['dt', new Set(['dd', 'dt'])], ['tbody', new Set(['thead', 'tbody'])], ['tfoot', new Set(['thead', 'tbody'])],
  ['option', new Set(['option'])], ['p', P], ['h1', HEADINGS_P], ['h2', HEADINGS_P], ['h3', HEADINGS_P], ['h4', HEADINGS_P],
  ['h5', HEADINGS_P], ['h6', HEADINGS_P],
  ...['address', 'article', 'aside', 'blockquote', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map(
    (tag): [string, Set<string>] => [tag, P],
  ),
]);

/**
 * The element tree of an HTML string as open/close/text events, from htmlparser2's Tokenizer. Its
 * Parser keeps the open elements with `unshift` and finds end tags with `indexOf`, quadratic on
 * deep nesting; here the stack is pushed and popped, and an end tag with no open element of its
 * name is dropped from a count, so every input costs linear time.
 */
function walkHtml<T>(html: string, handler: TreeHandler<T>): void {
  const stack: { name: string; opened: T }[] = [];
  const openCount = new Map<string, number>();
  let tag = '';
  let attrs: Record<string, string> = {};
  let attrName = '';
  let attrValue = '';
  const push = (name: string, attributes: Record<string, string>) => {
    const closes = OPEN_CLOSES.get(name);
    while (closes && stack.length && closes.has(stack[stack.length - 1]!.name)) pop();
    const opened = handler.open(name, attributes);
    if (VOID.has(name)) {
      handler.close(opened);
      return;
    }
    stack.push({ name, opened });
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const top = stack.pop()!;
    openCount.set(top.name, openCount.get(top.name)! - 1);
    handler.close(top.opened);
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        attrs = {};
      },
      onattribname(start, end) {
        attrName = html.slice(start, end).toLowerCase();
        attrValue = '';
      },
      onattribdata(start, end) {
        attrValue += html.slice(start, end);
      },
      onattribentity(codepoint) {
        attrValue += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (!(attrName in attrs)) attrs[attrName] = attrValue;
      },
      onopentagend() {
        push(tag, attrs);
      },
      // HTML ignores the slash of `<p/>`.
      onselfclosingtag() {
        push(tag, attrs);
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if ((openCount.get(name) ?? 0) > 0) {
          while (stack[stack.length - 1]!.name !== name) pop();
          pop();
        } else if (name === 'p' || name === 'br') {
          // `</p>` alone is an empty paragraph, `</br>` a line break.
          push(name, {});
          if (name === 'p') pop();
        }
      },
      ontext(start, end) {
        handler.text(html.slice(start, end));
      },
      ontextentity(codepoint) {
        handler.text(String.fromCodePoint(codepoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        while (stack.length) pop();
      },
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}
