/**
 * Reads DGML the way the open-source DGML readers do (dgml-utils' `get_chunks`, which the LangChain
 * and LlamaIndex loaders call), so tests see Quire's output as those readers will
 * (../shared/docs/DGML.md, "How readers chunk it"):
 * 1. Walk the tree from the root. An element is a chunk when it is an `xhtml:table`, or it has a
 *    `structure` attribute and no descendant with one, or it has a structural ancestor and no
 *    structural descendant. Otherwise only its child elements are visited, and text sitting directly
 *    in it is lost (reported in `textInNonLeaf`).
 * 2. Chunk text: the element's text pieces joined by single spaces, whitespace-normalised as Python's
 *    `str.split()` does; a table is a grid of its rows' cells (tabulate's "grid" layout, cells as
 *    written); an element without text makes no chunk.
 * 3. A `lim` chunk is merged into the next chunk; so is a chunk shorter than the minimum length
 *    (after a line break). Merging joins texts with a space, keeps the shorter xpath and concatenates
 *    the structures.
 * 4. xpaths are `/prefix:local` steps, with `[n]` where the parent has several children of that name.
 * It also checks what would break a reader: unprefixed elements and boxes it rejects.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { Box } from '../../src/document/structure.js';

const XHTML = 'http://www.w3.org/1999/xhtml';

export interface ReaderChunk {
  text: string;
  /** Structures of the merged elements, space-separated ("lim h1"). */
  structure: string;
  xpath: string;
  /** Every valid box of the merged elements' styles. */
  boxes: Box[];
  /** The words of the document in this chunk: a table's cell words, without its grid's borders. */
  words: string[];
}

export interface DgmlReading {
  chunks: ReaderChunk[];
  /** xpaths of elements without a prefix (readers build broken xpaths from them). */
  unprefixed: string[];
  /** Boxes DGML.md forbids or readers reject, with the element's xpath. */
  badBoxes: string[];
  /** Text no chunk reads (directly in a non-leaf element, or in a table outside its cells), with the xpath of its parent. */
  textInNonLeaf: string[];
  hasBom: boolean;
}

export interface ReadOptions {
  /** Chunks shorter than this are merged into the next one: 8 by default, 32 in the LangChain loader. */
  minLength?: number;
  /** Longer chunk texts are cut every `maxLength` characters (readers' `max_text_length`); no cut by default. */
  maxLength?: number;
}

interface Element {
  prefix: string;
  local: string;
  uri: string;
  /** Clark name: what makes siblings "the same element" for xpath indexes. */
  key: string;
  structure: string | undefined;
  style: string | undefined;
  parent: Element | null;
  children: (Element | string)[];
  hasStructuralDescendant: boolean;
  /** 1-based position among same-named siblings, 0 when it has none. */
  index: number;
}

export function readDgml(xml: string, options: ReadOptions = {}): DgmlReading {
  const hasBom = xml.charCodeAt(0) === 0xfeff;
  const root = parse(hasBom ? xml.slice(1) : xml);
  const reading: DgmlReading = { chunks: [], unprefixed: [], badBoxes: [], textInNonLeaf: [], hasBom };
  checkElements(root, reading);
  const chunker = new Chunker(reading, options.minLength ?? 8, options.maxLength ?? Infinity);
  chunker.visit(root, false);
  chunker.finish();
  return reading;
}

function parse(xml: string): Element {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: Element[] = [];
  let root: Element | undefined;
  parser.on('opentag', (tag: SaxesTagNS) => {
    const parent = stack.at(-1) ?? null;
    const plain = (name: string): string | undefined => {
      const a = tag.attributes[name];
      return a && a.prefix === '' ? a.value : undefined;
    };
    const el: Element = {
      prefix: tag.prefix,
      local: tag.local,
      uri: tag.uri,
      key: `{${tag.uri}}${tag.local}`,
      structure: plain('structure'),
      style: plain('style'),
      parent,
      children: [],
      hasStructuralDescendant: false,
      index: 0,
    };
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  const text = (t: string): void => {
    stack.at(-1)?.children.push(t);
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', () => {
    const el = stack.pop()!;
    if (el.parent && (el.structure !== undefined || el.hasStructuralDescendant)) el.parent.hasStructuralDescendant = true;
    const counts = new Map<string, number>();
    for (const c of el.children) if (typeof c !== 'string') counts.set(c.key, (counts.get(c.key) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const c of el.children) {
      if (typeof c === 'string' || counts.get(c.key)! < 2) continue;
      const n = (seen.get(c.key) ?? 0) + 1;
      seen.set(c.key, n);
      c.index = n;
    }
  });
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

function xpathOf(el: Element): string {
  const steps: string[] = [];
  for (let e: Element | null = el; e; e = e.parent) {
    steps.push((e.prefix ? `${e.prefix}:${e.local}` : e.local) + (e.index ? `[${e.index}]` : ''));
  }
  return '/' + steps.reverse().join('/');
}

function checkElements(el: Element, reading: DgmlReading): void {
  if (!el.prefix) reading.unprefixed.push(xpathOf(el));
  if (el.style !== undefined) {
    for (const problem of boxProblems(el.style)) reading.badBoxes.push(`${xpathOf(el)}: ${problem}`);
  }
  for (const c of el.children) if (typeof c !== 'string') checkElements(c, reading);
}

/** Python's `str.split()` separators (JavaScript's `\s` differs: it has U+FEFF, lacks U+001C–U+001F and U+0085). */
const PY_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

function pyWords(text: string): string[] {
  return text.split(PY_SPACE).filter(Boolean);
}

class Chunker {
  private pending: ReaderChunk | null = null;

  constructor(
    private readonly reading: DgmlReading,
    private readonly minLength: number,
    private readonly maxLength: number,
  ) {}

  visit(el: Element, underStructural: boolean): void {
    const isTable = el.uri === XHTML && el.local === 'table';
    const isLeaf = !el.hasStructuralDescendant && (el.structure !== undefined || underStructural);
    if (isTable || isLeaf) {
      this.chunk(el, isTable);
      return;
    }
    for (const c of el.children) {
      if (typeof c === 'string') this.lost(el, c);
      else this.visit(c, underStructural || el.structure !== undefined);
    }
  }

  /** End of document: a merged chunk still waiting is kept. */
  finish(): void {
    if (this.pending) this.reading.chunks.push(this.pending);
    this.pending = null;
  }

  private lost(parent: Element, text: string): void {
    if (pyWords(text).length) this.reading.textInNonLeaf.push(`${xpathOf(parent)}: ${JSON.stringify(text.trim().slice(0, 80))}`);
  }

  private chunk(el: Element, isTable: boolean): void {
    let text: string;
    let words: string[];
    if (isTable) {
      const rows = this.tableRows(el);
      words = rows.flat().flatMap(pyWords);
      text = grid(rows);
    } else {
      words = pyWords(itertext(el).join(' '));
      text = words.join(' ');
    }
    const codePoints = [...text];
    const boxes = el.style === undefined ? [] : parseBoxes(el.style).filter((b): b is Box => boxProblem(b) === null);
    for (let i = 0; i < codePoints.length; i += this.maxLength) {
      const piece = codePoints.slice(i, i + this.maxLength).join('');
      // A cut inside a word splits it, as it does for readers; the words then follow the pieces.
      const own: ReaderChunk = { text: piece, structure: el.structure?.trim() ?? '', xpath: xpathOf(el), boxes, words: this.maxLength === Infinity ? words : pyWords(piece) };
      let c = this.pending ? merge(this.pending, own) : own;
      this.pending = null;
      if (el.structure === 'lim') {
        this.pending = c;
      } else if ([...c.text].length < this.minLength) {
        c = { ...c, text: c.text + '\n' };
        this.pending = c;
      } else {
        this.reading.chunks.push(c);
      }
    }
  }

  /** `.//xhtml:tr` then `.//xhtml:td` in each; text elsewhere in the table is not read. */
  private tableRows(table: Element): string[][] {
    const rows: string[][] = [];
    const walk = (el: Element, row: string[] | null): void => {
      for (const c of el.children) {
        if (typeof c === 'string') {
          this.lost(el, c);
        } else if (c.uri === XHTML && c.local === 'tr') {
          const cells: string[] = [];
          rows.push(cells);
          walk(c, cells);
        } else if (c.uri === XHTML && c.local === 'td' && row) {
          row.push(pyWords(itertext(c).join(' ')).join(' '));
        } else {
          walk(c, row);
        }
      }
    };
    walk(table, null);
    return rows;
  }
}

function itertext(el: Element, out: string[] = []): string[] {
  for (const c of el.children) {
    if (typeof c === 'string') out.push(c);
    else itertext(c, out);
  }
  return out;
}

function merge(a: ReaderChunk, b: ReaderChunk): ReaderChunk {
  return {
    text: `${a.text} ${b.text}`,
    structure: `${a.structure} ${b.structure}`.trim(),
    xpath: a.xpath.length <= b.xpath.length ? a.xpath : b.xpath,
    boxes: [...a.boxes, ...b.boxes],
    words: [...a.words, ...b.words],
  };
}

/** tabulate's "grid" format: rows padded to the longest, cells left-aligned in columns. */
function grid(rows: string[][]): string {
  if (!rows.length) return '';
  const columns = Math.max(...rows.map((r) => r.length));
  if (!columns) return '';
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  const border = '+' + widths.map((w) => '-'.repeat(w + 2)).join('+') + '+';
  const line = (r: string[]): string => '| ' + widths.map((w, i) => (r[i] ?? '') + ' '.repeat(w - [...(r[i] ?? '')].length)).join(' | ') + ' |';
  return [border, ...rows.flatMap((r) => [line(r), border])].join('\n');
}

// ---- boxes ----

const BOX = /boundingBox:\{([^}]*)\}/g;

function parseBoxes(style: string): Partial<Box>[] {
  const boxes: Partial<Box>[] = [];
  for (const m of style.matchAll(BOX)) {
    const box: Record<string, number> = {};
    for (const part of m[1]!.split(';')) {
      const [key, value, extra] = part.split(':');
      if (key === undefined || value === undefined || extra !== undefined) continue;
      box[key.trim().toLowerCase()] = value.trim() === '' ? NaN : Number(value.trim());
    }
    boxes.push(box);
  }
  return boxes;
}

function boxProblem(b: Partial<Box>): string | null {
  const { left, top, width, height, page } = b;
  if (left === undefined || top === undefined || width === undefined || height === undefined || page === undefined) return 'left, top, width, height and page are required';
  if (![left, top, width, height, page].every(Number.isFinite)) return 'not a finite number';
  if (!Number.isInteger(page) || page < 1) return `page ${page}`;
  if (width <= 0 || height <= 0) return `size ${width} × ${height}`;
  return null;
}

function boxProblems(style: string): string[] {
  const problems: string[] = [];
  if (style.includes('boundingBox') && !parseBoxes(style).length) problems.push(`unreadable style ${JSON.stringify(style)}`);
  for (const b of parseBoxes(style)) {
    const problem = boxProblem(b);
    if (problem) problems.push(problem);
  }
  if (!pythonBoxValid(style)) problems.push(`rejected by readers: ${JSON.stringify(style)}`);
  return problems;
}

/**
 * dgml-utils' `BoundingBox.from_style` then its validity check, which raises (and so fails the whole
 * document) on page 0 or right ≤ left or bottom ≤ top. It reads all `key: value` pairs of the style
 * at once, so with several boxes the last one's values win, except `left` that only the first has.
 */
function pythonBoxValid(style: string): boolean {
  if (!style.includes(';') || !style.includes(':')) return true;
  const values = new Map<string, number>();
  const body = style.replaceAll('boundingBox:', '').replace(/^[{} \t\n]+|[{} \t\n]+$/g, '');
  for (const part of body.split(';')) {
    const kv = part.split(':');
    if (kv.length !== 2) continue;
    const value = pythonFloat(kv[1]!);
    if (value !== null) values.set(kv[0]!.trim().toLowerCase(), value);
  }
  const [left, top, width, height] = ['left', 'top', 'width', 'height'].map((k) => values.get(k));
  if (left === undefined || top === undefined || width === undefined || height === undefined) return true;
  const right = Math.round((left + width) * 10) / 10;
  const bottom = Math.round((top + height) * 10) / 10;
  const page = values.get('page');
  if (page !== undefined && (!Number.isFinite(page) || Math.trunc(page) === 0)) return false;
  if (left === 0 && right === 0 && top === 0 && bottom === 0) return true;
  return left < right && top < bottom;
}

function pythonFloat(s: string): number | null {
  const t = s.trim().toLowerCase().replaceAll('_', '');
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return Number(t);
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  return null;
}
