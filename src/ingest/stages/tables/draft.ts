import type { PageModel, TextItem } from '../../../document/pages.js';
import { normalizeSpace, type Box, type Table, type TableCell, type TableRow } from '../../../document/structure.js';
import { centerY, type Rect } from './geometry.js';
import { cleanItemText, joinAtBreak, spacedApart } from '../layout/text.js';

/** A cell before it becomes a TableCell: its grid position, its box and the page items it holds. */
export interface CellDraft {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
  box: Rect;
  items: number[];
  role?: 'label' | 'value';
}

export interface TableDraft {
  source: Table['source'];
  bounds: Rect;
  /** Top and bottom of each grid row (cells list the row they start in). */
  rowBands: { top: number; bottom: number }[];
  cells: CellDraft[];
  /** Items the table takes that belong to no cell: a drawn rule an OCR engine read as "|" between two cells. */
  ignored?: number[];
}

/**
 * Row bands for rows of text (top to bottom): each edge halfway between a row and the next, the
 * outer edges `pad` beyond the first and last rows.
 */
export function bandsBetween(rows: readonly { top: number; bottom: number }[], pad: number): TableDraft['rowBands'] {
  return rows.map((r, k) => ({
    top: k === 0 ? r.top - pad : (rows[k - 1]!.bottom + r.top) / 2,
    bottom: k === rows.length - 1 ? r.bottom + pad : (r.bottom + rows[k + 1]!.top) / 2,
  }));
}

/**
 * The draft with rows joined: row k goes into row `target[k]` (itself, or a row above it), cells of
 * one column joining; the rows that stay are numbered again top to bottom.
 */
export function joinRows(draft: TableDraft, target: readonly number[]): TableDraft {
  if (target.every((t, k) => t === k)) return draft;
  const renumber = new Map<number, number>();
  for (const t of target) if (!renumber.has(t)) renumber.set(t, renumber.size);
  const cells = new Map<string, CellDraft>();
  for (const c of [...draft.cells].sort((a, b) => a.row - b.row || a.col - b.col)) {
    const row = renumber.get(target[c.row]!)!;
    const key = `${row}:${c.col}`;
    const into = cells.get(key);
    if (into) {
      into.items = [...into.items, ...c.items];
      into.box = { ...into.box, bottom: Math.max(into.box.bottom, c.box.bottom) };
    } else {
      cells.set(key, { ...c, row });
    }
  }
  const rowBands: TableDraft['rowBands'] = [];
  target.forEach((t, k) => {
    const row = renumber.get(t)!;
    const band = draft.rowBands[k]!;
    rowBands[row] = rowBands[row] ? { top: rowBands[row]!.top, bottom: band.bottom } : { ...band };
  });
  return { ...draft, rowBands, cells: [...cells.values()] };
}

function toBox(rect: Rect, page: number): Box {
  return { page, left: round(rect.left), top: round(rect.top), width: round(rect.right - rect.left), height: round(rect.bottom - rect.top) };
}

export function buildTable(page: PageModel, draft: TableDraft): Table {
  const rows: TableRow[] = draft.rowBands.map((band) => ({
    cells: [],
    boxes: [toBox({ left: draft.bounds.left, right: draft.bounds.right, top: band.top, bottom: band.bottom }, page.number)],
  }));
  const ordered = [...draft.cells].sort((a, b) => a.row - b.row || a.col - b.col);
  for (const c of ordered) {
    const box = toBox(c.box, page.number);
    const cell: TableCell = { leaf: { text: readingText(c.items.map((i) => page.items[i]!)), boxes: [box] }, colspan: c.colspan, rowspan: c.rowspan, boxes: [box] };
    if (c.role) cell.role = c.role;
    rows[c.row]!.cells.push(cell);
  }
  return { type: 'table', rows, boxes: [toBox(draft.bounds, page.number)], source: draft.source };
}

/** Items' text in reading order: lines top to bottom (by vertical overlap), left to right within a line, joined across the breaks. */
export function readingText(items: TextItem[]): string {
  const byTop = [...items].sort((a, b) => a.y - b.y);
  const lines: TextItem[][] = [];
  let lineBottom = -Infinity;
  for (const it of byTop) {
    const line = lines[lines.length - 1];
    if (line && centerY(it) < lineBottom) {
      line.push(it);
      lineBottom = Math.max(lineBottom, it.y + it.height);
    } else {
      lines.push([it]);
      lineBottom = it.y + it.height;
    }
  }
  const texts = lines.map((l) => normalizeSpace(lineText(l.sort((a, b) => a.x - b.x)))).filter(Boolean);
  // A cell's lines join as a paragraph's do: "Medi-" over "Cog" is "Medi-Cog".
  return texts.reduce((text, line) => (text ? joinAtBreak(text, line) : line), '');
}

/** A line's items' text, left to right, a space only where the items leave a word's gap or carry one. */
function lineText(items: readonly TextItem[]): string {
  const texts = items.map((it) => cleanItemText(it.text));
  return texts.reduce((text, t, k) => (k && spacedApart(items[k - 1]!, texts[k - 1]!, items[k]!, t) ? `${text} ${t}` : text + t), '');
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
