import { normalizeSpace, type Table } from '../../../document/structure.js';
import { leafOf } from '../blocks.js';

/**
 * Tables laid out with spaces in a text file (a filing saved as text, a report printed to a file):
 * lines whose cells, set apart by two spaces or more, fall into columns that no cell of any line
 * crosses. Ruling lines ("-----", "=====") are dropped. Prose never passes: its words cover every
 * position of the lines, so it leaves no column gap.
 */

/** Lines with two cells or more a table needs, and their share of its lines. */
const MIN_ROWS = 3;
const MIN_MULTI_CELL_SHARE = 0.5;
/** Cells are set apart by this many spaces at least. */
const CELL_SPACES = /\S+(?: \S+)*/g;
const RULING = /^[\s\-=_+|]*$/;
const CURRENCY = /^[$€£¥]$/;
const LIST_MARKER = /^(?:[-*•‣◦▪●–]|\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)])$/i;

interface Cell {
  start: number;
  end: number;
  text: string;
}

/**
 * A group of lines (a text file's blank-line group) split into its parts: lines before a table,
 * the table, lines after it; or null when the group holds no table.
 */
export function splitTextTable(lines: readonly string[]): { before: string[]; table: Table; after: string[] } | null {
  const expanded = lines.map((l) => l.replace(/\t/g, '    '));
  const cells = expanded.map(cellsOf);
  // The table's lines: from the first line of two cells or more to the last, ruling lines within.
  const multi = cells.map((c) => c.length >= 2);
  const first = multi.indexOf(true);
  const last = multi.lastIndexOf(true);
  if (first < 0) return null;
  const body = [];
  for (let k = first; k <= last; k++) if (!RULING.test(expanded[k]!)) body.push(k);
  const multiCell = body.filter((k) => multi[k]).length;
  if (multiCell < MIN_ROWS || multiCell < MIN_MULTI_CELL_SHARE * body.length) return null;
  const columns = columnsOf(body.map((k) => cells[k]!));
  if (columns.length < 2) return null;
  // Each line's cells in distinct columns (cells and columns both left to right: one walk per line).
  const rows: string[][] = [];
  for (const k of body) {
    const row: string[] = columns.map(() => '');
    let col = 0;
    for (const cell of cells[k]!) {
      while (col < columns.length && columns[col]!.end < cell.start) col++;
      if (col === columns.length || cell.start < columns[col]!.start || cell.end > columns[col]!.end || row[col]) return null;
      row[col] = cell.text;
    }
    rows.push(row);
  }
  // Items typed with a marker and two spaces ("1.  Definitions") are a list, not a table.
  const firsts = rows.map((r) => r[0]!).filter(Boolean);
  if (firsts.length && firsts.every((t) => LIST_MARKER.test(t))) return null;
  const table: Table = {
    type: 'table',
    rows: rows.map((row) => ({ cells: row.map((text) => ({ leaf: leafOf(text), colspan: 1, rowspan: 1, boxes: [] })), boxes: [] })),
    boxes: [],
    source: 'aligned',
  };
  return { before: lines.slice(0, first), table, after: lines.slice(last + 1).filter((l) => !RULING.test(l)) };
}

/** A line's cells: runs of text with single spaces inside, a currency sign joined to its amount. */
function cellsOf(line: string): Cell[] {
  const out: Cell[] = [];
  CELL_SPACES.lastIndex = 0;
  for (let m = CELL_SPACES.exec(line); m; m = CELL_SPACES.exec(line)) {
    const cell = { start: m.index, end: m.index + m[0].length, text: m[0] };
    const previous = out[out.length - 1];
    if (previous && CURRENCY.test(previous.text)) {
      previous.end = cell.end;
      previous.text = normalizeSpace(`${previous.text} ${cell.text}`);
    } else {
      out.push(cell);
    }
  }
  return out;
}

/** The columns: spans of positions some cell covers, apart from each other by positions none covers. */
function columnsOf(lines: readonly Cell[][]): { start: number; end: number }[] {
  const spans = lines.flat().sort((a, b) => a.start - b.start);
  const columns: { start: number; end: number }[] = [];
  for (const s of spans) {
    const last = columns[columns.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else columns.push({ start: s.start, end: s.end });
  }
  return columns;
}
