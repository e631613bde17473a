import type { PageModel } from '../../../document/pages.js';
import { normalizeSpace } from '../../../document/structure.js';
import { joinRows, type CellDraft, type TableDraft } from './draft.js';
import { isFigure } from './stacked-headings.js';

/** Rows (keys in the first column) a table needs before its unkeyed lines count as wrapped text. */
const MIN_KEYED_ROWS = 3;

/**
 * A table of text whose rows are keyed in the first column ("Week 1", "Week 2"…) and whose cells wrap
 * over several lines: each line without a key belongs to the row above, its cells joining the cells
 * of their column, and so do the lines of its column headings. Only without figures (a statement's
 * unlabelled line of totals is a row), without fill-in blanks (signature blocks), and when most lines
 * are keyless continuations of keyed rows.
 */
export function mergeWrappedRows(page: PageModel, draft: TableDraft): TableDraft {
  const rows: CellDraft[][] = draft.rowBands.map(() => []);
  for (const c of draft.cells) rows[c.row]!.push(c);
  const text = (c: CellDraft): string => normalizeSpace(c.items.map((i) => page.items[i]!.text).join(' '));
  if (draft.cells.some((c) => isFigure(text(c)) || /_{3,}/.test(text(c)))) return draft;
  const keyed = rows.map((row) => row.some((c) => c.col === 0 && text(c)));
  const firstKey = keyed.indexOf(true);
  const keys = keyed.filter(Boolean).length;
  if (firstKey < 0 || keys < MIN_KEYED_ROWS || rows.length - firstKey - keys < keys) return draft;
  if (draft.cells.some((c) => c.row >= firstKey && (c.colspan !== 1 || c.rowspan !== 1))) return draft;
  // Each row from the first key on joins the keyed row at or above it; above the first key, a line of
  // column headings whose every cell goes on from a heading right above it ("Yoga physical" over
  // "practice") joins that row.
  const target = rows.map((_, k) => (k < firstKey ? k : keyed.lastIndexOf(true, k)));
  const filled = (k: number): number[] => rows[k]!.filter((c) => text(c)).map((c) => c.col);
  for (let k = 1; k < firstKey; k++) {
    const above = new Set(filled(target[k - 1]!));
    const cols = filled(k);
    if (cols.length && cols.every((col) => above.has(col))) target[k] = target[k - 1]!;
  }
  return joinRows(draft, target);
}
