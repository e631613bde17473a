import type { PageModel } from '../../../document/pages.js';
import { normalizeSpace } from '../../../document/structure.js';
import type { CellDraft, TableDraft } from './draft.js';

/**
 * A figure of a table's body: an amount, a count, a percentage, a dash for nil. Years ("2022") are
 * not: they head the columns of financial statements.
 */
const FIGURE = /^(?:[-–—]|[($€£¥-]*\s*\d[\d.,]*\s*%?\)?)$/;
const YEAR = /^(?:19|20)\d{2}$/;

export function isFigure(text: string): boolean {
  return FIGURE.test(text) && !YEAR.test(text);
}

/**
 * Column headings set over several lines (each line its own row so far) as one row of several-line
 * cells: "June 25," over "2022" is "June 25, 2022"; "Number of" / "RSUs" / "(in thousands)" is one
 * heading; a lease's "Period" set between the two lines of the other headings joins them. The
 * heading rows are the table's first rows, down to the last one before the first figure that has
 * words over the figure columns (a "Net sales:" label after them is the body's). A heading's lines
 * end at its bottom, so upward each row fills no figure column that the nearest row under it with
 * such words leaves empty; one row at most names the label column. A row with a cell over several
 * columns ("Three Months Ended") stays a row of its own, as does everything above it. A table without
 * figures (a list set in columns) is left alone: nothing tells its headings from its rows.
 */
export function mergeStackedHeadings(page: PageModel, draft: TableDraft): TableDraft {
  const rows: CellDraft[][] = draft.rowBands.map(() => []);
  for (const c of draft.cells) rows[c.row]!.push(c);
  for (const row of rows) row.sort((a, b) => a.col - b.col);
  const text = (c: CellDraft): string => normalizeSpace(c.items.map((i) => page.items[i]!.text).join(' '));
  const headed = (row: CellDraft[]): Set<number> => new Set(row.filter((c) => c.col > 0 && text(c)).map((c) => c.col));
  const labelled = (row: CellDraft[]): boolean => row.some((c) => c.col === 0 && text(c));
  const figures = rows.findIndex((row) => row.some((c) => c.col > 0 && isFigure(text(c))));
  // Without figures, bold over plain type tells the headings from the rows (an exhibit index).
  const bold = (row: CellDraft[]): boolean => row.some((c) => c.items.length > 0) && row.every((c) => c.items.every((i) => page.items[i]!.bold));
  const firstBody = figures >= 0 ? figures : bold(rows[0] ?? []) ? rows.findIndex((row) => row.some((c) => c.items.length > 0) && !bold(row)) : -1;
  if (firstBody <= 0) return draft;
  let last = firstBody - 1;
  while (last >= 0 && headed(rows[last]!).size === 0) last--;
  const simple = (row: CellDraft[]): boolean => row.every((c) => c.colspan === 1 && c.rowspan === 1);
  if (last < 1 || !simple(rows[last]!)) return draft;
  let first = last;
  let below = headed(rows[last]!);
  let labels = labelled(rows[last]!) ? 1 : 0;
  while (first > 0) {
    const above = rows[first - 1]!;
    const cols = headed(above);
    if (!simple(above) || [...cols].some((col) => !below.has(col))) break;
    // One row at most names the label column, unless they are bold headings ("Exhibit" over "Number").
    if (labelled(above) && ++labels > 1 && !(bold(above) && bold(rows[last]!))) break;
    if (cols.size) below = cols;
    first--;
  }
  if (first === last) return draft;
  const merged = rows[last]!.map((c) => ({
    ...c,
    row: first,
    box: { ...c.box, top: rows[first]!.find((a) => a.col === c.col)!.box.top },
    items: rows.slice(first, last + 1).flatMap((row) => row.find((a) => a.col === c.col)!.items),
  }));
  const gone = last - first;
  const cells = [
    ...draft.cells.filter((c) => c.row < first),
    ...merged,
    ...draft.cells.filter((c) => c.row > last).map((c) => ({ ...c, row: c.row - gone })),
  ];
  const rowBands = [...draft.rowBands.slice(0, first), { top: draft.rowBands[first]!.top, bottom: draft.rowBands[last]!.bottom }, ...draft.rowBands.slice(last + 1)];
  return { ...draft, rowBands, cells };
}
