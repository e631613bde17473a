import { normalizeSpace, type Table, type TableCell } from '../../../document/structure.js';
import { bareLabelWords } from '../../../document/form-fields.js';
import { leafOf } from '../blocks.js';

/**
 * Tables written one cell a line, as text taken from a PDF's table often is: a rent schedule's "First" /
 * "3/15/21 To 2/28/23" / "$26,000.00" / "$312,000.00" / "Second" / …, a schedule of forms' "001" / "10/13" /
 * "0" / "BUSINESS AUTO COVERAGE FORM" / "007" / …. Each line its own blank-line group; the rows are found as
 * a cycle of k lines whose kinds of text (an amount, a date, a code, words in capitals, …) repeat row
 * after row (the narrowest such cycle: a cycle of two repeats every four lines as well). The column heads
 * are the lines in capitals just before the first row.
 */

/** Rows a run needs to be a table (under column heads, and without), and the widest row looked for. */
const MIN_ROWS = 3;
const MIN_ROWS_UNHEADED = 4;
const MAX_COLUMNS = 8;
/** A cell is a few words, a class's description in capitals a few more; a longer line is text. */
const MAX_CELL_WORDS = 12;
const MAX_CAPITALS_CELL_WORDS = 20;
const SENTENCE_WORDS = 6;

type Kind = 'amount' | 'percent' | 'date' | 'number' | 'code' | 'capitals' | 'words';

const FIGURE_KINDS: ReadonlySet<Kind> = new Set(['amount', 'percent', 'date', 'number', 'code']);

function kindOf(cell: string): Kind | null {
  const text = cell.trim();
  const words = text.split(/\s+/u).length;
  // A field ("Start Date: 03/15/2021") or a label ("Building Rate:") is a form's, not a table cell.
  if (!text || text.includes(':') || words > MAX_CAPITALS_CELL_WORDS || (words > MAX_CELL_WORDS && /\p{Ll}/u.test(text))) return null;
  // A sentence ("The term is three years from the Effective Date.") is text under a heading, not a cell.
  if (words >= SENTENCE_WORDS && /[.!?]$/u.test(text)) return null;
  if (/^\(?[$€£¥]\s?-?[\d,]+(?:\.\d+)?\)?$/u.test(text)) return 'amount';
  if (/^-?[\d,]+(?:\.\d+)?\s?%$/u.test(text)) return 'percent';
  if (/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/u.test(text)) return 'date';
  if (/^[\d.,/ -]+$/u.test(text)) return 'number';
  if (/\d/u.test(text)) return 'code';
  return /\p{Ll}/u.test(text) ? 'words' : 'capitals';
}

/**
 * The groups with each run of one-cell lines that make a table replaced by the table. Groups of more than
 * one line, and tables found already, are left as they are.
 */
export function cellLineTables(groups: readonly (string[] | Table)[]): (string[] | Table)[] {
  const cells = groups.map((g) => (Array.isArray(g) && g.length === 1 ? normalizeSpace(g[0]!) : null));
  const kinds = cells.map((c) => (c === null ? null : kindOf(c)));
  const out: (string[] | Table)[] = [];
  let i = 0;
  while (i < groups.length) {
    const found = rowsAt(cells, kinds, i);
    const heads = found ? headLines(kinds, i, found.width, out) : 0;
    // Without heads, two columns are a form's labels and values (form-fields.ts), and three rows may be pairs of those read out of step.
    if (!found || found.labelled || (!heads && (found.width === 2 || found.rows < MIN_ROWS_UNHEADED))) {
      // A run of fields is passed over whole: looked at again from each of its lines, a long one would be read again and again.
      const skip = found && (found.labelled || found.width === 2) ? found.rows * found.width : 1;
      for (const end = Math.min(i + skip, groups.length); i < end; i++) out.push(groups[i]!);
      continue;
    }
    const { width, rows } = found;
    out.splice(out.length - heads, heads);
    const head = cells.slice(i - heads, i) as string[];
    const headRow = !heads ? [] : [heads === width ? head.map((text) => cellOf(text)) : [cellOf(head.join(' '), width)]];
    const body = Array.from({ length: rows }, (_, r) => (cells.slice(i + r * width, i + (r + 1) * width) as string[]).map((text) => cellOf(text)));
    out.push({ type: 'table', rows: [...headRow, ...body].map((row) => ({ cells: row, boxes: [] })), boxes: [], source: 'aligned' });
    i += rows * width;
  }
  return out;
}

/**
 * The narrowest cycle of one-cell lines from `start` that repeats MIN_ROWS times or more, with a figure and
 * two kinds of cell in it, and whether it is labelled (a form's fields, not a table); or null.
 */
function rowsAt(cells: readonly (string | null)[], kinds: readonly (Kind | null)[], start: number): { width: number; rows: number; labelled: boolean } | null {
  for (let width = 2; width <= MAX_COLUMNS; width++) {
    const first = kinds.slice(start, start + width);
    if (first.length < width || first.some((k) => k === null)) return null;
    if (!first.some((k) => FIGURE_KINDS.has(k!)) || new Set(first).size < 2) continue;
    let rows = 1;
    while (first.every((k, j) => kinds[start + rows * width + j] === k)) rows++;
    if (rows < MIN_ROWS) continue;
    // The same label in every row ("Policy Number" over each policy's number) makes each row a form of its own fields.
    const labelled = first.some((_, j) => bareLabelWords(cells[start + j]!) !== null && Array.from({ length: rows }, (_, r) => cells[start + r * width + j]).every((c) => c === cells[start + j]));
    return { width, rows, labelled };
  }
  return null;
}

/** Column heads wrapped over more lines than columns ("TERM" / "YEAR" / "PERIOD" / "MONTHLY" / "RENT" / …) are read as one, up to this many lines a column. */
const MAX_HEAD_LINES_PER_COLUMN = 3;

/**
 * How many lines just before the rows from `start` are their column heads: lines in capitals with no
 * figure, still lines in `out`. As many as the columns, a head each; more (heads wrapped over lines that
 * cannot be told apart), one head across the table; fewer, none (0).
 */
function headLines(kinds: readonly (Kind | null)[], start: number, width: number, out: readonly (string[] | Table)[]): number {
  const most = width * MAX_HEAD_LINES_PER_COLUMN;
  let count = 0;
  while (count <= most && count < out.length && count < start && kinds[start - count - 1] === 'capitals' && Array.isArray(out[out.length - count - 1])) count++;
  return count >= width && count <= most ? count : 0;
}

function cellOf(text: string, colspan = 1): TableCell {
  return { leaf: leafOf(text), colspan, rowspan: 1, boxes: [] };
}
