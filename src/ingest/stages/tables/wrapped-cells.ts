import type { PageModel } from '../../../document/pages.js';
import { normalizeSpace } from '../../../document/structure.js';
import { joinRows, type CellDraft, type TableDraft } from './draft.js';
import { UNFINISHED_RE } from './label-column.js';
import { JOIN_TOLERANCE, pageLines } from './rules.js';
import { isFigure } from './stacked-headings.js';

/**
 * A row label too long for its column wraps onto the next line, which an aligned table first reads
 * as a row of its own: "Common stock withheld related to net share settlement of equity" over
 * "awards | (1,371) | (1,224)". That line joins the row above when its label goes on in small
 * letters ("awards", "and 15,943,425 shares…", "of incorporation…"; not "iPad", not an item "a."),
 * or after a word that cannot end it ("Covered Leasehold Interest – Undamaged Improvements &" over
 * "Betterments"), directly under the label (not outdented, no blank line between), and no column
 * has a value on both lines (the values sit on the label's first or its last line, or each in its
 * own column on either: "01. Applies at the following Building(s) | | $1,000,000" over
 * "numbered: | 07-13,18"). In a table ruled between its rows, a label's line with no values and no
 * rule above it goes on from the row above whatever its case ("…Destruction: Outside" over
 * "Premises"). A label ending with a colon heads the rows under it and is never continued. A line whose only text is in
 * one other column, and no figure, goes on from that column's cell above (an exhibit's description
 * wrapped, "…effective as of" over "September 25, 2022.").
 */
export function joinWrappedCells(page: PageModel, draft: TableDraft): TableDraft {
  const rows: CellDraft[][] = draft.rowBands.map(() => []);
  for (const c of draft.cells) rows[c.row]!.push(c);
  const text = (c: CellDraft | undefined): string => (c ? normalizeSpace(c.items.map((i) => page.items[i]!.text).join(' ')) : '');
  const label = (row: CellDraft[]) => row.find((c) => c.col === 0);
  const valueColumns = (row: CellDraft[]) => row.filter((c) => c.col > 0 && c.items.length > 0).map((c) => c.col);
  const simple = (row: CellDraft[]) => row.every((c) => c.colspan === 1 && c.rowspan === 1);
  // The rules drawn across the label column between one row and the next, if the table has any.
  let ruled: boolean[] | undefined;
  const ruledAfter = (): boolean[] => (ruled ??= rulesBetweenRows(page, draft));
  /**
   * In a table ruled between its rows, a label's line with no values and no rule above it goes on
   * from the row above ("Theft, Disappearance and Destruction: Outside | $1,000 | $10,000" over
   * "Premises"), unless it heads the rows under it ("Accounts Receivable:").
   */
  const ruledOnto = (k: number, next: CellDraft): boolean =>
    valueColumns(rows[k]!).length === 0 && joinedValues.size > 0 && !/:$/.test(text(next)) && !ruledAfter()[k - 1] && ruledAfter().filter(Boolean).length >= MIN_RULED_ROWS;
  /** Row k's target: the first row of the label it belongs to (itself when it stands alone). */
  const target = rows.map((_, k) => k);
  /** The columns in which the label joined so far (ending at row k - 1) has values on one of its lines. */
  let joinedValues = new Set(rows.length > 0 ? valueColumns(rows[0]!) : []);
  for (let k = 1; k < rows.length; k++) {
    const above = rows[k - 1]!;
    const row = rows[k]!;
    const joins = () => {
      if (!simple(above) || !simple(row)) return false;
      // The cell that goes on: the label, or a line's only cell when it has no label ("notes in Part I…" under an exhibit's description).
      const filled = row.filter((c) => c.items.length > 0);
      const next = label(row)?.items.length ? label(row) : filled.length === 1 ? filled[0] : undefined;
      const top = next && above.find((c) => c.col === next.col);
      if (!next || !top?.items.length) return false;
      if (ITEM.test(text(next)) || /[:.]$/.test(text(top))) return false;
      // A label goes on in small letters, or after a word that cannot end it ("Improvements &" over
      // "Betterments"); a description's line under it in any words that are no figures.
      if (next.col === 0 ? !GOES_ON.test(text(next)) && !UNFINISHED_RE.test(text(top)) && !ruledOnto(k, next) : isFigure(text(next)) || isFigure(text(top))) return false;
      // Values in one column on both lines: two rows.
      if (next.col === 0 && valueColumns(row).some((col) => joinedValues.has(col))) return false;
      const a = extent(page, top.items);
      const b = extent(page, next.items);
      // Directly under the cell's text, no blank line between: a label not outdented (or centred
      // under it), any other cell's line where the cell's text starts or a hanging indent from it,
      // in its type ("Part II" centred in bold under a table of contents' entry is a row).
      const under =
        next.col === 0
          ? b.left >= a.left - 0.5 * a.lineHeight || Math.abs(b.left + b.right - a.left - a.right) <= a.lineHeight
          : b.left >= a.left - 0.5 * a.lineHeight && b.left <= a.left + 2 * a.lineHeight && b.bold === a.bold;
      return under && b.top - a.bottom <= 0.8 * a.lineHeight;
    };
    if (joins()) {
      target[k] = target[k - 1]!;
      for (const col of valueColumns(row)) joinedValues.add(col);
    } else {
      joinedValues = new Set(valueColumns(row));
    }
  }
  return joinRows(draft, target);
}

/** Rules between this many rows make a table ruled between its rows. */
const MIN_RULED_ROWS = 2;

/** For each row but the last: a drawn rule runs across the first column's cells between it and the next row. */
function rulesBetweenRows(page: PageModel, draft: TableDraft): boolean[] {
  const horizontal = page.rules?.length ? pageLines(page.rules).horizontal : [];
  const labels = draft.cells.filter((c) => c.col === 0);
  if (!horizontal.length || !labels.length) return draft.rowBands.map(() => false);
  const left = Math.min(...labels.map((c) => c.box.left));
  const right = Math.max(...labels.map((c) => c.box.right));
  const middle = (k: number): number => (draft.rowBands[k]!.top + draft.rowBands[k]!.bottom) / 2;
  return draft.rowBands.map((_, k) => {
    if (k + 1 >= draft.rowBands.length) return false;
    const [from, to] = [middle(k), middle(k + 1)];
    return horizontal.some((r) => r.pos > from && r.pos < to && r.start <= left + JOIN_TOLERANCE && r.end >= right - JOIN_TOLERANCE);
  });
}

/** Text that goes on from a line above: it opens with a word in small letters ("awards", "and", "of"), not "iPad". */
const GOES_ON = /^[a-z][a-z'’-]*(?![\p{L}\p{N}])/u;
/** A list item's marker in small letters: "a.", "iv)". */
const ITEM = /^[a-z]{1,4}[.)](?:\s|$)/;

/** The items' left and right edges, top and bottom, the height of one of their lines, and whether all are bold. */
function extent(page: PageModel, items: readonly number[]): { left: number; right: number; top: number; bottom: number; lineHeight: number; bold: boolean } {
  let left = Infinity;
  let bold = true;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  let lineHeight = 0;
  for (const i of items) {
    const it = page.items[i]!;
    left = Math.min(left, it.x);
    right = Math.max(right, it.x + it.width);
    bold &&= it.bold === true;
    top = Math.min(top, it.y);
    bottom = Math.max(bottom, it.y + it.height);
    lineHeight = Math.max(lineHeight, it.height);
  }
  return { left, right, top, bottom, lineHeight, bold };
}
