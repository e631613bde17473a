import type { PageModel } from '../../../document/pages.js';
import { bandsBetween, readingText, type CellDraft, type TableDraft } from './draft.js';
import type { Segment } from './rules.js';
import { phrases, textLines, type Phrase, type TextLine } from './text-lines.js';

/** Rows of a form need at most this vertical gap between them, in line heights. */
const MAX_ROW_GAP = 2.5;
/** A gap wider than this many line heights separates a label from its value. */
export const PHRASE_GAP = 1;
/** Label columns start within this many pixels of each other. */
const COLUMN_SLACK = 15;
const MIN_ROWS = 3;
/** How far left of a value its cell starts, when a label and its value share a ruled box. */
const VALUE_MARGIN = 8;

/** "Accident Number:", "Date & Time:": a short phrase ending in a colon. */
export function isLabel(text: string): boolean {
  const t = text.trim();
  return t.endsWith(':') && t.length <= 60 && t.split(/\s+/).length <= 8;
}

/**
 * Ruled tables whose cells are mostly "Label:" cells followed by values are key/value forms: the
 * labels and the cells right after them get their roles.
 */
export function markFormRoles(page: PageModel, draft: TableDraft): void {
  const texts = new Map(draft.cells.map((c) => [c, readingText(c.items.map((i) => page.items[i]!))]));
  const filled = draft.cells.filter((c) => texts.get(c));
  const labels = filled.filter((c) => isLabel(texts.get(c)!));
  if (labels.length < 2 || labels.length < 0.3 * filled.length) return;
  draft.source = 'form';
  for (const c of labels) c.role = 'label';
  for (const c of labels) {
    const next = draft.cells.find((d) => d.row === c.row && d.col === c.col + c.colspan);
    if (next && !next.role) next.role = 'value';
  }
}

/**
 * Label/value pairs drawn inside one ruled box ("Location:   Jagel, Germany"): a vertical edge for
 * each, just left of the value, to be added to the grid's column lines. Only where no text of the
 * box crosses that edge.
 */
export function labelValueEdges(page: PageModel, draft: TableDraft): Segment[] {
  const edges: Segment[] = [];
  for (const cell of draft.cells) {
    const first = textLines(page, cell.items)[0];
    if (!first) continue;
    const ps = phrases(page, first, PHRASE_GAP);
    if (ps.length < 2 || !isLabel(ps[0]!.text) || isLabel(ps[1]!.text)) continue;
    const x = ps[1]!.left - Math.min(VALUE_MARGIN, (ps[1]!.left - ps[0]!.right) / 2);
    const apart = cell.items.every((i) => {
      const it = page.items[i]!;
      return it.x + it.width <= x || it.x >= x;
    });
    if (apart) edges.push({ pos: x, thickness: 0, start: cell.box.top, end: cell.box.bottom });
  }
  return edges;
}

/**
 * Unruled key/value forms: at least three consecutive lines made of "Label:" phrases each followed
 * by at most one value phrase, with labels starting at the same positions. Every label and value
 * column becomes a table column; a missing value is an empty cell.
 */
export function keyValueForms(page: PageModel, free: readonly boolean[]): TableDraft[] {
  // Labels and values read across; a note set sideways is neither.
  const indices = page.items.map((_, i) => i).filter((i) => free[i] && !page.items[i]!.dir);
  const rows: { line: TextLine; phrases: Phrase[] }[] = [];
  const drafts: TableDraft[] = [];
  const flush = (): void => {
    if (rows.length >= MIN_ROWS && !valuesRunOn(rows)) {
      const draft = formTable(rows);
      if (draft) drafts.push(draft);
    }
    rows.length = 0;
  };
  for (const line of textLines(page, indices)) {
    const ps = phrases(page, line, PHRASE_GAP);
    const prev = rows[rows.length - 1];
    const height = line.bottom - line.top;
    const continues = prev && line.top - prev.line.bottom <= MAX_ROW_GAP * height && Math.abs(ps[0]!.left - prev.phrases[0]!.left) <= COLUMN_SLACK;
    if (!continues) flush();
    if (isFormRow(ps)) rows.push({ line, phrases: ps });
    else flush();
  }
  flush();
  return drafts;
}

/** Values this long that run on into the next line's are a column of running text, not fields. */
const RUNNING_TEXT_WORDS = 6;

/**
 * The lines' last values read on from one line to the next ("… public health in-" / "tive. Both
 * agencies…"): they are the lines of a paragraph set beside a column of labels (a sidebar's "Lead
 * Agency:" entries), not the values of a form.
 */
function valuesRunOn(rows: { phrases: Phrase[] }[]): boolean {
  const value = (ps: Phrase[]): string | null => {
    const last = ps[ps.length - 1]!;
    return ps.length > 1 && !isLabel(last.text) ? last.text : null;
  };
  for (let k = 0; k + 1 < rows.length; k++) {
    const a = value(rows[k]!.phrases);
    const b = value(rows[k + 1]!.phrases);
    if (a && b && a.split(/\s+/).length >= RUNNING_TEXT_WORDS && /[\p{Ll},-]$/u.test(a) && /^\p{Ll}/u.test(b)) return true;
  }
  return false;
}

/** Label, optional value, label, optional value…; never two values in a row. */
function isFormRow(ps: Phrase[]): boolean {
  if (!isLabel(ps[0]!.text)) return false;
  for (let k = 1; k < ps.length; k++) {
    if (!isLabel(ps[k]!.text) && !isLabel(ps[k - 1]!.text)) return false;
  }
  return true;
}

function formTable(rows: { line: TextLine; phrases: Phrase[] }[]): TableDraft | null {
  // Column starts: label positions, and for each label column the leftmost value start after it.
  const labelStarts = clusterStarts(rows.flatMap((r) => r.phrases.filter((p) => isLabel(p.text)).map((p) => p.left)));
  const columns: number[] = [];
  labelStarts.forEach((start, k) => {
    columns.push(start);
    const nextLabel = labelStarts[k + 1] ?? Infinity;
    const valueStarts = rows.flatMap((r) =>
      r.phrases.filter((p, j) => j > 0 && !isLabel(p.text) && isLabel(r.phrases[j - 1]!.text) && p.left > start && p.left < nextLabel).map((p) => p.left),
    );
    if (valueStarts.length) columns.push(Math.min(...valueStarts));
  });
  const pad = Math.min(...rows.map((r) => r.line.bottom - r.line.top)) / 2;
  const lefts = columns.map((x) => x - pad);
  const right = Math.max(...rows.flatMap((r) => r.phrases.map((p) => p.right))) + pad;
  const columnOf = (x: number): number => {
    let k = 0;
    while (k < lefts.length - 1 && x >= lefts[k + 1]!) k++;
    return k;
  };
  const bands = bandsBetween(rows.map((r) => r.line), pad);
  const cells: CellDraft[] = [];
  rows.forEach((r, row) => {
    const byColumn = new Map<number, Phrase[]>();
    for (const p of r.phrases) {
      const c = columnOf(p.left);
      byColumn.set(c, [...(byColumn.get(c) ?? []), p]);
    }
    for (let col = 0; col < columns.length; ) {
      const ps = byColumn.get(col) ?? [];
      const reach = Math.max(...ps.map((p) => p.right));
      let colspan = 1;
      while (col + colspan < columns.length && !byColumn.has(col + colspan) && reach > lefts[col + colspan]!) colspan++;
      const cell: CellDraft = {
        row,
        col,
        rowspan: 1,
        colspan,
        box: { left: lefts[col]!, right: lefts[col + colspan] ?? right, top: bands[row]!.top, bottom: bands[row]!.bottom },
        items: ps.flatMap((p) => p.items),
      };
      if (ps.length) cell.role = isLabel(ps[0]!.text) ? 'label' : 'value';
      cells.push(cell);
      col += colspan;
    }
  });
  if (columns.length < 2) return null;
  return { source: 'form', bounds: { left: lefts[0]!, right, top: bands[0]!.top, bottom: bands[bands.length - 1]!.bottom }, rowBands: bands, cells };
}

/** Sorted positions, near ones (within the slack) merged to their leftmost. */
function clusterStarts(xs: number[]): number[] {
  const out: number[] = [];
  for (const x of [...xs].sort((a, b) => a - b)) {
    if (!out.length || x - out[out.length - 1]! > COLUMN_SLACK) out.push(x);
  }
  return out;
}
