import { isFurniture, type Box, type ParagraphRole, type Table, type TableCell, type TableRow } from '../../../document/structure.js';
import { isFigure } from '../tables/stacked-headings.js';
import type { FlowElement, Line } from './lines.js';
import { joinAtBreak, type Vocabulary } from './text.js';

/** Column edges of two pages' tables this close (a share of the page's width) are the same columns. */
const COLUMN_SLACK = 0.02;

/**
 * A table that ends a page and one that starts the next page in the same columns (as many, the text
 * of each starting or ending at one place on both pages) are one table carried over: the second
 * one's rows join the first, which stays where it starts. The row the page break cut in two is
 * mended: when the new page's first row has no label and only words (no figures) under words of the
 * last row that go on ("BUILDINGS OR PREMISES -" at the foot of one page, "BANK OR OFFICE -" at the
 * head of the next), its cells go on from that row's. Only page furniture may stand between them
 * (the running footer, the page number). A table whose first rows repeat any of the first table's
 * first rows (its column headings again, or the next period's table under the same headings) is
 * left whole on its own page.
 */
export function joinCarriedTables(flows: FlowElement[][], furniture: ReadonlyMap<Line, ParagraphRole>, pageWidths: readonly number[], vocabulary?: Vocabulary): void {
  const body = (el: FlowElement): boolean => el.kind === 'table' || !isFurniture(furniture.get(el.line) ?? 'body');
  let open: Table | null = null;
  for (let p = 0; p < flows.length; p++) {
    const flow = flows[p]!;
    const first = flow.findIndex(body);
    const head = flow[first];
    if (open && head?.kind === 'table' && sameColumns(open, head.table, COLUMN_SLACK * (pageWidths[p] ?? 0)) && !repeatsHeadings(open, head.table)) {
      carryOver(open, head.table, vocabulary);
      flow.splice(first, 1);
      // The whole page was the table's: it may go on over the next one too.
      if (!flow.some(body)) continue;
    }
    const last = flow.findLast(body);
    open = last?.kind === 'table' ? last.table : null;
  }
}

/** The table's rows whose cells are one per grid column (no spans). */
function plainRows(table: Table): TableRow[] {
  const width = Math.max(...table.rows.map((r) => r.cells.reduce((n, c) => n + c.colspan, 0)));
  return table.rows.filter((r) => r.cells.length === width && r.cells.every((c) => c.colspan === 1 && c.rowspan === 1));
}

/** Rows looked at on each side of the page break to tell where the columns' text stands. */
const EDGE_ROWS = 3;

/**
 * As many columns, and in each, text of the rows next to the page break starting or ending at one
 * place on both pages (labels set flush left, figures flush right).
 */
function sameColumns(above: Table, below: Table, slack: number): boolean {
  const a = plainRows(above).slice(-EDGE_ROWS);
  const b = plainRows(below).slice(0, EDGE_ROWS);
  const width = a[0]?.cells.length ?? 0;
  if (width < 2 || !b.length || b[0]!.cells.length !== width) return false;
  const texts = (rows: TableRow[], k: number) => rows.flatMap((r) => (r.cells[k]!.leaf.text ? r.cells[k]!.leaf.boxes.slice(0, 1) : []));
  for (let k = 0; k < width; k++) {
    const upper = texts(a, k);
    const lower = texts(b, k);
    if (!upper.length || !lower.length) continue;
    const aligned = upper.some((x) => lower.some((y) => Math.abs(x.left - y.left) <= slack || Math.abs(x.left + x.width - y.left - y.width) <= slack));
    if (!aligned) return false;
  }
  return true;
}

function rowText(row: TableRow | undefined): string {
  return row ? row.cells.map((c) => c.leaf.text).join('|') : '';
}

/** Rows at the head of a table that may be its column headings. */
const HEADING_ROWS = 3;

/** The table on the new page has headings of its own: one of its first rows is one of the first table's. */
function repeatsHeadings(above: Table, below: Table): boolean {
  const headings = new Set(above.rows.slice(0, HEADING_ROWS).map(rowText));
  return below.rows.slice(0, HEADING_ROWS).some((r) => headings.has(rowText(r)));
}

function carryOver(into: Table, from: Table, vocabulary?: Vocabulary): void {
  const last = into.rows[into.rows.length - 1]!;
  const head = from.rows[0];
  let rows = from.rows;
  if (head && continuesRow(last, head)) {
    head.cells.forEach((cell, k) => {
      if (!cell.leaf.text) return;
      const to = last.cells[k]!;
      to.leaf = { ...to.leaf, text: joinAtBreak(to.leaf.text, cell.leaf.text, vocabulary), boxes: [...to.leaf.boxes, ...cell.leaf.boxes] };
      if (cell.leaf.spans?.length) to.leaf.spans = [...(to.leaf.spans ?? []), ...cell.leaf.spans.map((s) => ({ ...s, start: s.start + to.leaf.text.length - cell.leaf.text.length, end: s.end + to.leaf.text.length - cell.leaf.text.length }))];
      to.boxes = mergedBoxes(to.boxes, cell.boxes);
    });
    last.boxes = mergedBoxes(last.boxes, head.boxes);
    rows = rows.slice(1);
  }
  into.rows.push(...rows);
  into.boxes = mergedBoxes(into.boxes, from.boxes);
}

/** The first row of the new page goes on from `last`: no label, words only, each under words of `last` that go on, and the same cells. */
function continuesRow(last: TableRow, head: TableRow): boolean {
  const plain = (r: TableRow) => r.cells.every((c: TableCell) => c.colspan === 1 && c.rowspan === 1);
  if (!plain(last) || !plain(head) || last.cells.length !== head.cells.length) return false;
  if (head.cells[0]!.leaf.text || !last.cells[0]!.leaf.text) return false;
  const filled = head.cells.filter((c) => c.leaf.text);
  // Words under words that do not end a sentence: a figure under a total, or a date heading the next table, are no rest of a row.
  const goesOn = (above: string) => above !== '' && !isFigure(above) && !/[.!?:;]$/.test(above);
  return filled.length > 0 && head.cells.every((c, k) => !c.leaf.text || (!isFigure(c.leaf.text) && goesOn(last.cells[k]!.leaf.text)));
}

/** Boxes of both, one per page: the second's boxes on a page the first has no box on are added. */
function mergedBoxes(a: readonly Box[], b: readonly Box[]): Box[] {
  return [...a, ...b.filter((x) => !a.some((y) => y.page === x.page))];
}
