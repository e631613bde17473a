import { isTagText, type PageModel } from '../../../document/pages.js';
import { normalizeSpace } from '../../../document/structure.js';
import { bandsBetween, type CellDraft, type TableDraft } from './draft.js';
import { pageLines, type Segment } from './rules.js';
import type { Rect } from './geometry.js';
import { isFigure, mergeStackedHeadings } from './stacked-headings.js';
import { mergeWrappedRows } from './wrapped-rows.js';
import { joinWrappedCells } from './wrapped-cells.js';
import { CELL_GAP, cellLefts, cellWords, CURRENCY_SIGN, isTitleType, MAX_MEDIAN_WORDS, median, phraseColumns, phrases, textLines, type Column, type Phrase, type TextLine } from './text-lines.js';

/** Lines of one table are at most this many line heights apart. */
const MAX_LINE_GAP = 2;
const MIN_ROWS = 3;
const MIN_MULTI_CELL_SHARE = 0.5;
/** More places where bold column headings start than this are no table's headings. */
const MAX_HEADING_STARTS = 32;
/** A run of underscores is a blank to fill in ("By: ________"). */
const UNDERSCORE_BLANK = /_{4,}/;

interface Row {
  line: TextLine;
  phrases: Phrase[];
}

/**
 * Unruled tables: runs of lines whose phrases (text separated by wide gaps) fall into common columns
 * (the x-projection of all phrases leaves gaps that no phrase crosses) with at most one phrase per
 * column per line. Deliberately strict: at least three rows with two or more cells, and no more than
 * one column of long text and at least two of short cells, so the columns of a two-column page and
 * numbered clauses never pass. Two columns of fill-in blanks (signature blocks) pass on their blanks,
 * cut into blocks where one column goes blank for longer than a gap that ends a table.
 */
export function alignedTables(page: PageModel, free: readonly boolean[]): TableDraft[] {
  // An invisible anchor or tag is not a cell, nor is a note set sideways beside the columns.
  const indices = page.items.map((_, i) => i).filter((i) => free[i] && !isTagText(page.items[i]!) && !page.items[i]!.dir);
  const candidates: Row[][] = [];
  let block: Row[] = [];
  let blanks: Segment[] | undefined;
  const keepIfTable = (): void => {
    const rows = withoutSingleEdges(block);
    if (isTable(page, rows)) candidates.push([...rows, ...hangingTail(block, rows)]);
    // A form's one-cell lines at its edges ("WITNESSES:", the last blank's caption) are part of it.
    else if (isBlankForm(block, () => (blanks ??= drawnBlanks(page)))) candidates.push(...cutAtColumnGaps(page, block));
  };
  // The columns of `block`, kept as lines are added (rebuilding them for every line was quadratic).
  let columns = new BlockColumns();
  const lines = textLines(page, indices);
  const starts = headingStarts(page, lines);
  for (const [n, line] of lines.entries()) {
    let row: Row = { line, phrases: phrases(page, line, CELL_GAP, starts) };
    const prev = block[block.length - 1];
    const height = line.bottom - line.top;
    if ((prev && line.top - prev.line.bottom > MAX_LINE_GAP * height) || isTitleAfter(page, row, block, lines[n + 1])) {
      keepIfTable();
      block = [];
      columns = new BlockColumns();
    }
    let added = columns.add(row, true);
    if (added === 'collision') {
      // Two cells read as one phrase across a column's edge, where the columns sit close ("visualization
      // with" and "Conclusion of" a scan's narrow gutter apart): the line split at the block's column edges.
      const split = splitAtColumns(page, row, columns.lefts());
      if (split && columns.add(split, true) === 'added') {
        row = split;
        added = 'added';
      }
    }
    if (added !== 'added') {
      keepIfTable();
      // Leading lines (a caption, the sentence before) may be what breaks alignment: drop them.
      block = block.slice(longestAlignedTail(block, row));
      columns = new BlockColumns();
      for (const r of [...block, row]) columns.add(r, false);
    }
    block.push(row);
  }
  keepIfTable();
  const chosen = chooseDisjoint(candidates);
  const used = new Set(chosen.flatMap((rows) => rows.map((r) => r.line)));
  return chosen.map((found) => {
    const { rows, ignored } = withInnerColumnsSplit(page, found);
    const columns = withCurrencyMerged(rows, columnsOf(rows));
    const draft = draftOf(page, rows, columns, headerRowsAbove(page, rows, columns, lines, used));
    return ignored.length ? { ...draft, ignored } : draft;
  });
}

/**
 * A line that titles what follows rather than a row: one phrase, all in bold, in larger type than
 * every row of the block so far and than the line after it. Two schedules set one under the other,
 * each under its own title ("Crime Additional Coverages DX T4 15" between "Electronic vandalism" and
 * its rows), are two tables; a bold row label in the rows' type ("Business Income from Dependent
 * Property" under small-type headings) is a row.
 */
function isTitleAfter(page: PageModel, row: Row, block: readonly Row[], next: TextLine | undefined): boolean {
  // Bold first: most one-phrase lines are not, and then the block need not be looked at.
  if (row.phrases.length !== 1 || block.length === 0 || !row.line.items.every((i) => page.items[i]!.bold)) return false;
  const rows = block.filter((r) => r.phrases.length > 1);
  if (rows.length === 0) return false;
  const around = Math.max(...rows.map((r) => r.line.bottom - r.line.top), next ? next.bottom - next.top : 0);
  return isTitleType(page, row.line, around);
}

interface BlockColumn {
  left: number;
  right: number;
  /** The lines with a phrase in this column. */
  rows: Set<Row>;
}

/**
 * The columns of a growing block of lines as `columnsOf` finds them (overlapping or touching phrase
 * spans join), each with the lines that have a phrase in it, so adding a line costs what the line
 * touches rather than the whole block.
 */
class BlockColumns {
  private columns: BlockColumn[] = [];
  private rowCount = 0;

  /** Where the columns start, left to right. */
  lefts(): number[] {
    return this.columns.map((c) => c.left);
  }

  /** `aligned`'s test: at least two columns, unless there is at most one line. */
  get aligned(): boolean {
    return this.columns.length >= 2 || this.rowCount < 2;
  }

  /**
   * Adds `row` unless that puts two phrases of one line in one column ('collision') or, with
   * `mustAlign`, leaves the block unaligned ('unaligned'); either way nothing changes then.
   */
  add(row: Row, mustAlign: boolean): 'added' | 'collision' | 'unaligned' {
    if (this.withinColumns(row)) {
      // The usual line of a table: each phrase inside a column of its own, which it may widen
      // without reaching the next one. The number of columns stays.
      if (mustAlign && this.columns.length < 2 && this.rowCount + 1 >= 2) return 'unaligned';
      for (const p of row.phrases) {
        const c = this.columns[this.columnAt(p)]!;
        c.left = Math.min(c.left, p.left);
        c.right = Math.max(c.right, p.right);
        c.rows.add(row);
      }
      this.rowCount++;
      return 'added';
    }
    // The columns and the row's phrases, swept left to right into groups of touching spans.
    const spans = [
      ...this.columns.map((column) => ({ left: column.left, right: column.right, column })),
      ...row.phrases.map((p) => ({ left: p.left, right: p.right, column: undefined })),
    ].sort((a, b) => a.left - b.left);
    const groups: { left: number; right: number; columns: BlockColumn[]; phrases: number }[] = [];
    for (const s of spans) {
      const last = groups[groups.length - 1];
      const group = last && s.left <= last.right ? last : { left: s.left, right: s.right, columns: [], phrases: 0 };
      if (group !== last) groups.push(group);
      group.right = Math.max(group.right, s.right);
      if (s.column) group.columns.push(s.column);
      else if (++group.phrases > 1) return 'collision';
    }
    if (mustAlign && groups.length < 2 && this.rowCount + 1 >= 2) return 'unaligned';
    // Columns joined by this line must not share a line.
    for (const g of groups) {
      if (g.columns.length < 2) continue;
      g.columns.sort((a, b) => b.rows.size - a.rows.size);
      const seen = new Set<Row>();
      for (const c of g.columns.slice(1)) {
        for (const r of c.rows) {
          if (g.columns[0]!.rows.has(r) || seen.has(r)) return 'collision';
          seen.add(r);
        }
      }
    }
    this.columns = groups.map((g) => {
      const rows = g.columns[0]?.rows ?? new Set<Row>();
      for (const c of g.columns.slice(1)) for (const r of c.rows) rows.add(r);
      if (g.phrases) rows.add(row);
      return { left: g.left, right: g.right, rows };
    });
    this.rowCount++;
    return 'added';
  }

  /** The column `p` overlaps, if it overlaps exactly one (columns are sorted and apart), else -1. */
  private columnAt(p: Phrase): number {
    const cs = this.columns;
    for (let j = 0; j < cs.length; j++) {
      const c = cs[j]!;
      if (c.right < p.left) continue;
      if (c.left > p.right) return -1;
      const next = cs[j + 1];
      return next && next.left <= p.right ? -1 : j;
    }
    return -1;
  }

  /** Each phrase of `row` overlaps one column, a different one each, and widened to it stays apart from its neighbours. */
  private withinColumns(row: Row): boolean {
    let previous = -1;
    for (const p of row.phrases) {
      const j = this.columnAt(p);
      if (j <= previous) return false;
      const c = this.columns[j]!;
      const before = this.columns[j - 1];
      const after = this.columns[j + 1];
      if ((before && before.right >= Math.min(c.left, p.left)) || (after && after.left <= Math.max(c.right, p.right))) return false;
      previous = j;
    }
    return true;
  }
}

/**
 * The rows with a column found inside a wider one: where the phrases of at least three lines start
 * (a cell's wrapped lines, "awareness;", "abdominal") and every phrase running across that place has
 * a word starting there after a blank, two cells a narrow gutter apart read as one phrase ("Chair-based
 * yoga Natural breath"). Each such phrase is split there.
 */
function withInnerColumnsSplit(page: PageModel, rows: Row[]): { rows: Row[]; ignored: number[] } {
  const heights = rows.map((r) => r.line.bottom - r.line.top).sort((a, b) => a - b);
  const height = heights[heights.length >> 1]!;
  const starts = rows.flatMap((r) => r.phrases.map((p) => p.left)).sort((a, b) => a - b);
  const places: number[] = [];
  for (let i = 0; i < starts.length; ) {
    let j = i;
    while (j + 1 < starts.length && starts[j + 1]! - starts[i]! <= 0.5 * height) j++;
    if (j - i + 1 >= MIN_ROWS) places.push(starts[(i + j) >> 1]!);
    i = j + 1;
  }
  let out = rows;
  const ignored: number[] = [];
  for (const x of places) {
    const crossing = out.flatMap((r) => r.phrases.filter((p) => p.left < x - 0.5 * height && p.right > x + 0.5 * height));
    if (!crossing.length || !crossing.every((p) => splitItem(page, p, x, height) >= 0)) continue;
    out = out.map((r) => {
      if (!r.phrases.some((p) => crossing.includes(p))) return r;
      return {
        line: r.line,
        phrases: r.phrases.flatMap((p) => {
          if (!crossing.includes(p)) return [p];
          const k = splitItem(page, p, x, height);
          // The gutter's rule read as a glyph of its own: in neither cell.
          const rule = RULE_GLYPH.test(page.items[p.items[k]!]!.text.trim()) && k + 1 < p.items.length;
          if (rule) ignored.push(p.items[k]!);
          return [phraseOf(page, p.items.slice(0, k)), phraseOf(page, p.items.slice(rule ? k + 1 : k))];
        }),
      };
    });
  }
  return { rows: out, ignored };
}

/** A vertical rule as an OCR engine reads it. */
const RULE_GLYPH = /^[|¦]$/;

/** The index of the item of `p` that starts at `x` (within half a line height) after a blank of a third of one; -1 for none. */
function splitItem(page: PageModel, p: Phrase, x: number, height: number): number {
  for (let k = 1; k < p.items.length; k++) {
    const it = page.items[p.items[k]!]!;
    const before = page.items[p.items[k - 1]!]!;
    if (Math.abs(it.x - x) <= 0.5 * height && it.x - (before.x + before.width) >= height / 3) return k;
  }
  return -1;
}

function phraseOf(page: PageModel, items: number[]): Phrase {
  const its = items.map((i) => page.items[i]!);
  return { items, left: Math.min(...its.map((it) => it.x)), right: Math.max(...its.map((it) => it.x + it.width)), text: normalizeSpace(its.map((it) => it.text).join(' ')) };
}

/**
 * `row` with each phrase that runs across a column's left edge split there, when one of its items
 * starts at that edge (within a line height) after more than half a line height of blank; null when
 * no phrase splits.
 */
function splitAtColumns(page: PageModel, row: Row, lefts: readonly number[]): Row | null {
  const height = row.line.bottom - row.line.top;
  const groups: number[][] = [];
  for (const p of row.phrases) {
    let right = -Infinity;
    p.items.forEach((i, k) => {
      const it = page.items[i]!;
      const edge = k > 0 && it.x - right > 0.5 * height && lefts.some((x) => x > p.left + height && Math.abs(it.x - x) <= height);
      if (k === 0 || edge) groups.push([]);
      groups[groups.length - 1]!.push(i);
      right = it.x + it.width;
    });
  }
  return groups.length === row.phrases.length ? null : { line: row.line, phrases: groups.map((g) => phraseOf(page, g)) };
}

/**
 * Where the longest tail of `block` begins that is aligned with `row` after it (`block.length` for
 * none). Built from the end: once a line has two phrases in one column, so has every longer tail.
 */
function longestAlignedTail(block: Row[], row: Row): number {
  let from = block.length;
  const columns = new BlockColumns();
  columns.add(row, false);
  for (let i = block.length - 1; i >= 0; i--) {
    if (columns.add(block[i]!, false) === 'collision') break;
    if (columns.aligned) from = i;
  }
  return from;
}

/** Without the one-phrase lines at either end: the tail of a paragraph, a note, a caption. */
function withoutSingleEdges(rows: Row[]): Row[] {
  let from = 0;
  let to = rows.length;
  while (from < to && rows[from]!.phrases.length < 2) from++;
  while (to > from && rows[to - 1]!.phrases.length < 2) to--;
  return rows.slice(from, to);
}

/**
 * The one-phrase lines after a table's last row that go on from a cell of it other than the first:
 * directly under that cell's text or hanging from it, no figure ("Inline XBRL Document Set." ending
 * the last exhibit's description). They join that row once the table is drafted.
 */
function hangingTail(block: Row[], rows: Row[]): Row[] {
  const tail: Row[] = [];
  for (let k = block.indexOf(rows[rows.length - 1]!) + 1; k < block.length; k++) {
    const prev = block[k - 1]!;
    const row = block[k]!;
    const height = prev.line.bottom - prev.line.top;
    const p = row.phrases[0];
    if (row.phrases.length !== 1 || !p || isFigure(p.text) || row.line.top - prev.line.bottom > 0.8 * height) break;
    const above = prev.phrases.slice(1).find((q) => p.left >= q.left - 0.5 * height && p.left <= q.left + 2 * height);
    if (!above && !(tail.length && Math.abs(p.left - prev.phrases[0]!.left) <= 0.5 * height)) break;
    tail.push(row);
  }
  return tail;
}

function columnsOf(rows: Row[]): Column[] {
  return phraseColumns(rows.flatMap((r) => r.phrases));
}

function columnIndex(columns: Column[], p: Phrase): number {
  return columns.findIndex((c) => p.left >= c.left && p.left <= c.right);
}

function isTable(page: PageModel, rows: Row[]): boolean {
  // Records fill several cells of most rows; side-by-side lists and captions leave most rows single.
  const multiCell = rows.filter((r) => r.phrases.length >= 2).length;
  if (multiCell < MIN_ROWS || multiCell < MIN_MULTI_CELL_SHARE * rows.length) return false;
  const columns = columnsOf(rows);
  if (columns.length < 2) return false;
  const texts: string[][] = columns.map(() => []);
  for (const r of rows) for (const p of r.phrases) texts[columnIndex(columns, p)]!.push(p.text);
  const words = texts.map((column) => column.map(cellWords));
  // Row labels may be long, but a table has at least two columns of short cells (a numbered list has
  // one), unless bold column headings name its columns (an exhibit index: numbers and descriptions)
  // or its last column is of figures beside its labels ("Due after 5 years … | 14,243").
  const longColumns = words.filter((w) => median(w) > MAX_MEDIAN_WORDS).length;
  const shortColumns = words.filter((w) => w.length >= MIN_ROWS && median(w) <= MAX_MEDIAN_WORDS).length;
  const last = texts[texts.length - 1]!;
  const figuresLast = last.length >= MIN_ROWS && last.filter(isFigure).length >= 0.75 * last.length && median(words[0]!) > MAX_MEDIAN_WORDS;
  const named = (): boolean => headedColumns(page, rows, columns) || labelledColumns(page, rows, columns);
  if (longColumns > 1 || (shortColumns < 2 && !(shortColumns === 1 && (named() || figuresLast)))) return false;
  // Two columns of names side by side are a list laid out in columns unless one side holds numbers.
  const numeric = rows.filter((r) => r.phrases.length >= 2 && /\d/.test(r.phrases[1]!.text)).length;
  return columns.length > 2 || numeric >= multiCell / 2;
}

/**
 * Where the cells of bold lines of three or more column headings start on the page (none when there
 * are more such places than a page has columns: bold text everywhere, not a table's headings).
 */
function headingStarts(page: PageModel, lines: readonly TextLine[]): number[] {
  const starts = new Set<number>();
  for (const line of lines) {
    if (!line.items.every((i) => page.items[i]!.bold)) continue;
    const cells = phrases(page, line, CELL_GAP);
    if (cells.length >= 3) for (const p of cells) starts.add(Math.round(p.left));
    if (starts.size > MAX_HEADING_STARTS) return [];
  }
  return [...starts];
}

/**
 * One of the block's first two lines is a row of bold column headings over at least three columns,
 * the first two among them: "Exhibit Number | Exhibit Description | Form | Exhibit | Filing Date".
 */
function headedColumns(page: PageModel, rows: Row[], columns: Column[]): boolean {
  return rows.slice(0, 2).some((r) => {
    if (r.phrases.length < 3 || !r.line.items.every((i) => page.items[i]!.bold)) return false;
    const named = new Set(r.phrases.map((p) => columnIndex(columns, p)));
    return named.size >= 3 && named.has(0) && named.has(1);
  });
}

/**
 * The block's first line names every column in small capitals, set smaller than the rows under it:
 * "DESCRIPTION | FORM NUMBER" over a schedule of forms.
 */
function labelledColumns(page: PageModel, rows: Row[], columns: Column[]): boolean {
  const [head, ...body] = rows;
  if (!head || columns.length < 2 || head.phrases.length !== columns.length) return false;
  if (new Set(head.phrases.map((p) => columnIndex(columns, p))).size !== columns.length) return false;
  const letters = head.phrases.map((p) => p.text).join('').replace(/[^\p{L}]/gu, '');
  if (letters.length < 4 || letters !== letters.toUpperCase()) return false;
  const size = (r: Row): number => Math.max(...r.line.items.map((i) => page.items[i]!.fontSize));
  return size(head) <= median(body.map(size)) - 1;
}

/**
 * Signature blocks and other fill-in forms set side by side ("WITNESSES: ____ | LANDLORD: By: ____"):
 * two columns of short cells, each column holding blanks to fill in (underscores or drawn lines
 * nothing is written on). The blanks are what tells them from two columns of short lines such as a
 * side-by-side list; fields stacked in one column stay text.
 */
function isBlankForm(rows: Row[], drawn: () => readonly Segment[]): boolean {
  if (rows.filter((r) => r.phrases.length >= 2).length < 2) return false;
  const columns = columnsOf(rows);
  if (columns.length !== 2) return false;
  // A signature line is drawn above its caption: the first one may lie above the block's text.
  const top = rows[0]!.line.top - (rows[0]!.line.bottom - rows[0]!.line.top);
  const bottom = rows[rows.length - 1]!.line.bottom;
  return columns.every((column, k) => {
    const cells = rows.flatMap((r) => r.phrases.filter((p) => columnIndex(columns, p) === k));
    if (median(cells.map((p) => p.text.split(' ').length)) > MAX_MEDIAN_WORDS) return false;
    if (cells.some((p) => UNDERSCORE_BLANK.test(p.text))) return true;
    // A blank belongs to the column it starts in, up to where the next one begins ("By: ______").
    const end = columns[k + 1]?.left ?? Infinity;
    return drawn().some((l) => l.start >= column.left && l.start < end && l.pos >= top && l.pos <= bottom);
  });
}

/**
 * The columns of a fill-in form set side by side are separate stacks of fields (the witnesses'
 * blanks | the party, the space it signs in, "By:", "Title:"), not records read across. So a blank
 * stretch running down one column, taller than the gap that ends a table when it crosses the whole
 * width, separates two blocks of the form even while the other column goes on: the form is cut at
 * the widest gap between its lines within that stretch. A part that would not be a form by itself
 * (two lines with a cell in each column) is not cut off: it stays with the part below it.
 */
function cutAtColumnGaps(page: PageModel, rows: Row[]): Row[][] {
  const columns = columnsOf(rows);
  const cuts = new Set<number>();
  columns.forEach((_, k) => {
    // The column's own text in each line that has some: where its blank stretches start and end.
    const spans = rows.flatMap((r, i) => {
      const items = r.phrases.filter((p) => columnIndex(columns, p) === k).flatMap((p) => p.items.map((j) => page.items[j]!));
      if (!items.length) return [];
      return [{ i, top: Math.min(...items.map((it) => it.y)), bottom: Math.max(...items.map((it) => it.y + it.height)) }];
    });
    for (let n = 1; n < spans.length; n++) {
      const above = spans[n - 1]!;
      const below = spans[n]!;
      const height = above.bottom - above.top;
      if (below.top - above.bottom <= MAX_LINE_GAP * height) continue;
      let cut = above.i;
      for (let i = above.i + 1; i < below.i; i++) if (lineGap(rows, i) > lineGap(rows, cut)) cut = i;
      cuts.add(cut);
    }
  });
  const parts: Row[][] = [];
  let part: Row[] = [];
  rows.forEach((r, i) => {
    part.push(r);
    if (cuts.has(i) || i === rows.length - 1) {
      parts.push(part);
      part = [];
    }
  });
  const isForm = (p: Row[]): boolean => p.filter((r) => r.phrases.length >= 2).length >= 2;
  const kept: Row[][] = [];
  let pending: Row[] = [];
  for (const p of parts) {
    pending.push(...p);
    if (isForm(pending)) {
      kept.push(pending);
      pending = [];
    }
  }
  // A last part too small to stand alone stays with the one above it.
  if (pending.length) {
    if (kept.length) kept[kept.length - 1]!.push(...pending);
    else kept.push(pending);
  }
  return kept;
}

/** The blank height between line `i` and the next. */
function lineGap(rows: Row[], i: number): number {
  return rows[i + 1]!.line.top - rows[i]!.line.bottom;
}

/** Horizontal rules with no text standing on them: blanks of a form, not underlines or borders. */
function drawnBlanks(page: PageModel): Segment[] {
  if (!page.rules?.length) return [];
  return pageLines(page.rules).horizontal.filter(
    (l) => !page.items.some((it) => it.x < l.end && it.x + it.width > l.start && it.y < l.pos && it.y + it.height > l.pos - it.height / 2),
  );
}

/** The candidates with the most cells first, skipping any that share a line with one already chosen. */
function chooseDisjoint(candidates: Row[][]): Row[][] {
  const cellCount = (rows: Row[]): number => rows.reduce((n, r) => n + r.phrases.length, 0);
  const used = new Set<TextLine>();
  const chosen: Row[][] = [];
  for (const c of [...candidates].sort((a, b) => cellCount(b) - cellCount(a))) {
    if (c.some((r) => used.has(r.line))) continue;
    chosen.push(c);
    for (const r of c) used.add(r.line);
  }
  return chosen;
}

function draftOf(page: PageModel, rows: Row[], columns: Column[], header: HeaderRow[]): TableDraft {
  // Cell edges halfway between neighbouring columns and lines.
  const lefts = cellLefts(columns);
  const right = columns[columns.length - 1]!.right;
  const bands = bandsBetween([...header, ...rows.map((r) => r.line)], 0);
  const box = (row: number, col: number, colspan: number): Rect => ({
    left: lefts[col]!,
    right: lefts[col + colspan] ?? right,
    top: bands[row]!.top,
    bottom: bands[row]!.bottom,
  });
  const cells: CellDraft[] = [];
  header.forEach((h, row) => {
    for (let col = 0; col < columns.length; ) {
      const cell = h.cells.find((c) => c.first === col);
      const colspan = cell ? cell.last - cell.first + 1 : 1;
      cells.push({ row, col, rowspan: 1, colspan, box: box(row, col, colspan), items: cell?.items ?? [] });
      col += colspan;
    }
  });
  rows.forEach((r, k) => {
    const row = header.length + k;
    columns.forEach((_, col) => {
      cells.push({ row, col, rowspan: 1, colspan: 1, box: box(row, col, 1), items: r.phrases.filter((p) => columnIndex(columns, p) === col).flatMap((p) => p.items) });
    });
  });
  const draft: TableDraft = { source: 'aligned', bounds: { left: lefts[0]!, right, top: bands[0]!.top, bottom: bands[bands.length - 1]!.bottom }, rowBands: bands, cells };
  return joinWrappedCells(page, mergeWrappedRows(page, mergeStackedHeadings(page, draft)));
}

/** A cell of a header line: the table columns it spans (first to last) and its items. */
interface HeaderCell {
  first: number;
  last: number;
  items: number[];
}

interface HeaderRow {
  top: number;
  bottom: number;
  cells: HeaderCell[];
}

/** Header lines above a table are at most this many. */
const MAX_HEADER_LINES = 4;
/** Words in one header cell at most: more is a caption or a sentence. */
const MAX_HEADER_WORDS = 6;

/**
 * The heading rows made of the lines right above an aligned table: financial statements set "Three
 * Months / Ended" centred over the two columns it spans, and headings of several lines over narrow
 * columns of figures, which the columns found from the figures do not hold. Nearest first up: a line
 * joins when it is close, not another table's, and its text falls into the columns (see
 * `headerCells`); the first line that does not stops the search.
 */
function headerRowsAbove(page: PageModel, rows: Row[], columns: Column[], lines: TextLine[], used: ReadonlySet<TextLine>): HeaderRow[] {
  const out: HeaderRow[] = [];
  let below = rows[0]!.line;
  const tallest = Math.max(...rows.map((r) => r.line.bottom - r.line.top));
  for (let i = lines.indexOf(below) - 1; i >= 0 && out.length < MAX_HEADER_LINES; i--) {
    const line = lines[i]!;
    if (used.has(line) || below.top - line.bottom > MAX_LINE_GAP * (line.bottom - line.top) || isTitleType(page, line, tallest)) break;
    const cells = headerCells(page, line, columns);
    if (!cells) break;
    out.unshift({ top: line.top, bottom: line.bottom, cells });
    below = line;
  }
  return joinedHeaderRows(out);
}

/**
 * A line's items as header cells of the table's columns, or null when the line is not a header:
 * an item counts in a column when a quarter of its width lies in the column's cell (edges halfway
 * between columns); items sharing a column make one cell. Not a header: text outside the table,
 * a cell over the row labels' column and others (a caption, a sentence), nothing over the figures'
 * columns, or a cell of more than a few words.
 */
function headerCells(page: PageModel, line: TextLine, columns: Column[]): HeaderCell[] | null {
  const edges = [...cellLefts(columns), columns[columns.length - 1]!.right];
  const height = line.bottom - line.top;
  const cells: HeaderCell[] = [];
  for (const i of line.items) {
    const it = page.items[i]!;
    const left = it.x;
    const right = it.x + it.width;
    if (left < edges[0]! - height || right > edges[edges.length - 1]! + height) return null;
    let first = -1;
    let last = -1;
    for (let k = 0; k < columns.length; k++) {
      const overlap = Math.min(right, edges[k + 1]!) - Math.max(left, edges[k]!);
      if (overlap > 0.25 * (right - left) || (k === 0 && right <= edges[1]!) || (k === columns.length - 1 && left >= edges[k]!)) {
        if (first < 0) first = k;
        last = k;
      }
    }
    if (first < 0) return null;
    const prev = cells[cells.length - 1];
    // Words a word space apart are one heading, whatever columns they reach into.
    if (prev && (first <= prev.last || left - rightOf(page, prev) < WORD_SPACE * height)) {
      prev.last = Math.max(prev.last, last);
      prev.items.push(i);
    } else cells.push({ first, last, items: [i] });
  }
  if (!cells.some((c) => c.first > 0)) return null;
  if (cells.some((c) => c.first === 0 && c.last > 0)) return null;
  const words = (c: HeaderCell): number => c.items.reduce((n, i) => n + page.items[i]!.text.trim().split(/\s+/).length, 0);
  if (cells.some((c) => words(c) > MAX_HEADER_WORDS)) return null;
  return cells;
}

/** Less blank than this many line heights between two words is a space within a phrase. */
const WORD_SPACE = 0.5;

function rightOf(page: PageModel, cell: HeaderCell): number {
  return Math.max(...cell.items.map((i) => page.items[i]!.x + page.items[i]!.width));
}

/** Header lines whose cells span the same columns, one under the other, are one row of several-line cells. */
function joinedHeaderRows(lines: HeaderRow[]): HeaderRow[] {
  const rows: HeaderRow[] = [];
  const spans = (cells: HeaderCell[]): string => cells.map((c) => `${c.first}-${c.last}`).join(' ');
  for (const line of lines) {
    const prev = rows[rows.length - 1];
    if (prev && spans(prev.cells) === spans(line.cells)) {
      prev.bottom = line.bottom;
      prev.cells.forEach((c, k) => c.items.push(...line.cells[k]!.items));
    } else rows.push(line);
  }
  return rows;
}

/** Columns of nothing but currency signs joined to the amounts after them, so a cell reads "$ 96,388". */
function withCurrencyMerged(rows: Row[], columns: Column[]): Column[] {
  const phrasesIn = columns.map(() => [] as Phrase[]);
  for (const r of rows) for (const p of r.phrases) phrasesIn[columnIndex(columns, p)]!.push(p);
  const merged: Column[] = [];
  columns.forEach((c, k) => {
    const prev = merged[merged.length - 1];
    const prevIsCurrency = k > 0 && phrasesIn[k - 1]!.every((p) => CURRENCY_SIGN.test(p.text));
    if (prev && prevIsCurrency) prev.right = c.right;
    else merged.push({ ...c });
  });
  return merged;
}
