import { isTagText, type PageModel, type TextItem } from '../../../document/pages.js';
import type { CellDraft, TableDraft } from './draft.js';
import { JOIN_TOLERANCE, pageLines, type Segment } from './rules.js';
import { CELL_GAP, cellLefts, cellWords, isTitleType, MAX_MEDIAN_WORDS, median, phraseColumns, phrases, textLines, type Column, type Phrase, type TextLine } from './text-lines.js';

/** A rule shorter than this share of the page's width underlines a word or a blank, not a table's row. */
const MIN_RULE_SHARE = 0.25;
/** Rules of one table's ruling start and end within this many pixels (≈ 2 pt) of each other. */
const END_SLACK = 25;
/** A row between two rules holds at most this many lines (its tallest cell, wrapped). */
const MAX_ROW_LINES = 12;
/** Column headings above the first rule: at most this many lines, set tight. */
const MAX_HEADER_LINES = 3;
/** A line this many times taller than the rows' median line is a title, not a row of the table. */
const MAX_HEIGHT_RATIO = 1.5;

/**
 * Tables whose rows drawn rules part, without rules between the columns: a premium schedule whose
 * rows are each a rule apart, their descriptions wrapping over up to eight lines ("PARKING - PUBLIC -
 * SHOPPING CENTERS - …" beside "TX | 6/9 | 46606 | Prem/Ops. | 22,445"), or a line of column headings
 * over a single ruled row ("PREMISES LOCATION NO. | BUILDING NO. | LIMITS OF INSURANCE" over
 * "2-13 | 2-19 | $9,038,112"). A stack of rules of one length makes the rows, each holding the text
 * between two of them; the lines set tight right above the first rule are the column headings. The
 * columns are where the rows' phrases (text without a wide gap) leave a gap that none crosses.
 * Strict: two rows or more with two cells or more (the headings count, also when column lines
 * frame them apart with one left blank), two columns or more, no more
 * than one of them of running text, every row's lines in the rows' type size (a title between two
 * rules ends the table) and no text crossing the rules' ends.
 */
export function rowRuledTables(page: PageModel, free: readonly boolean[]): TableDraft[] {
  if (!page.rules?.length) return [];
  const long = (pieces: readonly Segment[]) => pieces.length > 0 && Math.max(...pieces.map((r) => r.end)) - pieces[0]!.start >= MIN_RULE_SHARE * page.width;
  let byTop: ItemsAlongY | undefined;
  const rules: Segment[] = [];
  const lines = pageLines(page.rules);
  for (const pieces of piecesByHeight(lines.horizontal)) {
    // Leaving out underlines only shortens a line: a short one is out without looking.
    if (!long(pieces)) continue;
    byTop ??= new ItemsAlongY(page, page.items.map((_, i) => i), (it) => it.y);
    const kept = pieces.filter((r) => !underlines(page, byTop!, r));
    if (long(kept)) rules.push({ ...kept[0]!, end: Math.max(...kept.map((r) => r.end)) });
  }
  const vertical = lines.vertical;
  // A table needs two rules of one ruling at least.
  const ruled = closedByColumnRules(stacks(rules), rules, vertical).filter((stack) => stack.length >= 2);
  if (!ruled.length) return [];
  const indices = page.items.map((_, i) => i).filter((i) => free[i] && !isTagText(page.items[i]!) && !page.items[i]!.dir);
  return ruled.flatMap((stack) => stackTables(page, indices, stack, vertical));
}

/**
 * A ruling may close its last row under its first columns only: the rule under a schedule's
 * description stops where a column line drawn above it comes down to the ruling, and the limit
 * beside it is left open below ("Combined Direct Damage … endorsements)" over a rule that ends under
 * "LIMITS OF INSURANCE"'s frame, "$100,000" beside it). Such a rule, the next one under the stack
 * across its width, starting where the stack starts and ending at a vertical rule that meets the
 * stack's last rule, closes the stack.
 */
function closedByColumnRules(all: Segment[][], rules: readonly Segment[], vertical: readonly Segment[]): Segment[][] {
  return all.map((stack) => {
    const last = stack[stack.length - 1]!;
    const right = Math.max(...stack.map((r) => r.end));
    const next = rules.find((r) => r.pos > last.pos + JOIN_TOLERANCE && r.start < right && r.end > stack[0]!.start);
    if (!next || Math.abs(next.start - stack[0]!.start) > END_SLACK || next.end >= right - END_SLACK) return stack;
    // A rule that begins a ruling of its own heads that table, not this one's end.
    if (all.some((other) => other.length >= 2 && other.includes(next))) return stack;
    const column = vertical.some((v) => Math.abs(v.pos - next.end) <= END_SLACK && v.start <= last.pos + JOIN_TOLERANCE && v.end >= last.pos - JOIN_TOLERANCE);
    return column ? [...stack, next] : stack;
  });
}

/**
 * A rule through the lower part of a line of text, no longer than that text (and a line's height),
 * underlines it: a link, a caption on its blank. (A row's rule may touch its text, but runs on past it.)
 */
function underlines(page: PageModel, byTop: ItemsAlongY, r: Segment): boolean {
  let left = Infinity;
  let right = -Infinity;
  let height = 0;
  for (const i of byTop.between(r.pos - byTop.tallest, r.pos)) {
    const it = page.items[i]!;
    if (it.x < r.end && it.x + it.width > r.start && it.y + it.height / 4 < r.pos && it.y + it.height > r.pos) {
      left = Math.min(left, it.x);
      right = Math.max(right, it.x + it.width);
      height = Math.max(height, it.height);
    }
  }
  return height > 0 && r.start >= left - height && r.end <= right + height;
}

/**
 * Horizontal rules grouped by height, top to bottom, each group left to right: one line of the
 * table's ruling, from its first piece's start to its last one's end (a rule broken at the gutters).
 */
function piecesByHeight(horizontal: readonly Segment[]): Segment[][] {
  const sorted = [...horizontal].sort((a, b) => a.pos - b.pos);
  const out: Segment[][] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(s.pos - last[0]!.pos) <= JOIN_TOLERANCE) last.push(s);
    else out.push([s]);
  }
  for (const pieces of out) pieces.sort((a, b) => a.start - b.start);
  return out;
}

/** Runs of rules, top to bottom, that start and end where the run's first one does. */
function stacks(rules: readonly Segment[]): Segment[][] {
  const out: Segment[][] = [];
  for (const r of rules) {
    const stack = out.find((s) => Math.abs(s[0]!.start - r.start) <= END_SLACK && Math.abs(s[0]!.end - r.end) <= END_SLACK);
    if (stack) stack.push(r);
    else out.push([r]);
  }
  return out;
}

/** The text between two rules (or the headings above the first), and whether any of it crosses the rules' ends. */
interface Band {
  top: number;
  bottom: number;
  lines: TextLine[];
  across?: boolean;
}

/**
 * The tables a stack of rules makes: its rows, cut where a row does not belong (text crossing the
 * rules' ends, too many lines, a title's type, or text that leaves its row mostly blank: a page's
 * last rule far below the table).
 */
function stackTables(page: PageModel, indices: readonly number[], stack: Segment[], vertical: readonly Segment[]): TableDraft[] {
  const left = Math.min(...stack.map((r) => r.start));
  const right = Math.max(...stack.map((r) => r.end));
  const slack = JOIN_TOLERANCE * 4;
  const across = (i: number): boolean => {
    const it = page.items[i]!;
    return it.x < left - slack || it.x + it.width > right + slack;
  };
  const within = indices.filter((i) => {
    const it = page.items[i]!;
    return it.x + it.width > left && it.x < right;
  });
  const byMiddle = new ItemsAlongY(page, within, (it) => it.y + it.height / 2);
  const bands: Band[] = [];
  for (let k = 0; k + 1 < stack.length; k++) {
    const top = stack[k]!.pos;
    const bottom = stack[k + 1]!.pos;
    const held = byMiddle.between(top, bottom);
    // A blank row between ruled rows (a spacer) keeps a table going; none starts with one.
    if (held.length) bands.push({ top, bottom, lines: textLines(page, held), across: held.some(across) });
  }
  const heights = bands.flatMap((b) => b.lines.map((l) => l.bottom - l.top)).sort((a, b) => a - b);
  if (!heights.length) return [];
  // The lower median: with few rows, a title among them must not set the type size.
  const em = heights[Math.floor((heights.length - 1) / 2)]!;
  const drafts: TableDraft[] = [];
  let run: Band[] = [];
  const close = (): void => {
    const draft = run.length ? tableOf(page, { left, right, within, across, vertical }, run, em) : null;
    if (draft) drafts.push(draft);
    run = [];
  };
  for (const band of bands) {
    const fits = !band.across && band.lines.length <= MAX_ROW_LINES && fills(band) && band.lines.every((l) => l.bottom - l.top <= MAX_HEIGHT_RATIO * em && !isTitleType(page, l, em));
    if (fits) run.push(band);
    else close();
  }
  close();
  return drafts;
}

/** A row's text reaches to within two of its lines' heights of both its rules. */
function fills(band: Band): boolean {
  const first = band.lines[0]!;
  const last = band.lines[band.lines.length - 1]!;
  const em = Math.max(...band.lines.map((l) => l.bottom - l.top));
  return first.top - band.top <= 2 * em && band.bottom - last.bottom <= 2 * em;
}

/** A stack's extent, the items between its ends, and whether an item crosses them. */
interface Ruling {
  left: number;
  right: number;
  within: readonly number[];
  across: (i: number) => boolean;
  /** The page's vertical rules. */
  vertical: readonly Segment[];
}

/** The table of a run of ruled rows, with the column headings above its first rule, if it is one. */
function tableOf(page: PageModel, ruling: Ruling, rows: Band[], em: number): TableDraft | null {
  const header = headerAbove(page, ruling, rows[0]!.top, em);
  const body = rows.map((r) => r.lines.flatMap((l) => phrases(page, l, CELL_GAP)));
  const headerPhrases = header?.lines.flatMap((l) => phrases(page, l, CELL_GAP)) ?? [];
  const multi = body.filter((ps) => ps.length >= 2).length + (headerPhrases.length >= 2 || (header && framedApart(ruling, header)) ? 1 : 0);
  if (rows.length + (header ? 1 : 0) < 2 || multi < 2) return null;
  const columns = phraseColumns(body.flat());
  if (columns.length < 2) return null;
  const words = columns.map(() => [] as number[]);
  for (const p of body.flat()) words[columnAt(columns, p)]!.push(cellWords(p.text));
  if (words.filter((w) => median(w) > MAX_MEDIAN_WORDS).length > 1) return null;
  return draftOf(columns, ruling, header, headerPhrases, rows, body);
}

/** A vertical rule inside the ruling runs down the headings' band to the first rule: the headings are cells side by side, filled or not. */
function framedApart({ left, right, vertical }: Ruling, header: Band): boolean {
  const top = header.lines[0]!.top;
  return vertical.some((v) => v.pos > left + END_SLACK && v.pos < right - END_SLACK && v.start <= top + JOIN_TOLERANCE && Math.abs(v.end - header.bottom) <= JOIN_TOLERANCE);
}

/** The lines set tight right above the first rule, in the rows' type, none crossing the rules' ends: the column headings. */
function headerAbove(page: PageModel, { within, across }: Ruling, ruleAt: number, em: number): Band | null {
  const above = within.filter((i) => {
    const it = page.items[i]!;
    return it.y + it.height / 2 < ruleAt && it.y > ruleAt - 2 * MAX_HEADER_LINES * em;
  });
  const lines = textLines(page, above);
  const taken: TextLine[] = [];
  for (let k = lines.length - 1; k >= 0 && taken.length < MAX_HEADER_LINES; k--) {
    const line = lines[k]!;
    const h = line.bottom - line.top;
    const below = taken[0];
    const gap = below ? below.top - line.bottom : ruleAt - line.bottom;
    if (h > MAX_HEIGHT_RATIO * em || isTitleType(page, line, em) || gap > (below ? 0.6 : 1.5) * h || line.items.some(across)) break;
    taken.unshift(line);
  }
  return taken.length ? { top: taken[0]!.top, bottom: ruleAt, lines: taken } : null;
}

function draftOf(columns: Column[], { left, right }: Ruling, header: Band | null, headerPhrases: Phrase[], rows: Band[], body: Phrase[][]): TableDraft {
  // The first cell begins at the rules' left end when they start before its text.
  const lefts = cellLefts(columns);
  lefts[0] = Math.min(left, lefts[0]!);
  const edge = (col: number): number => lefts[col] ?? Math.max(right, columns[columns.length - 1]!.right);
  const bands = [...(header ? [{ top: header.top, bottom: header.bottom }] : []), ...rows.map((r) => ({ top: r.top, bottom: r.bottom }))];
  const cells: CellDraft[] = [];
  const cell = (row: number, first: number, last: number, items: number[]): void => {
    cells.push({ row, col: first, rowspan: 1, colspan: last - first + 1, box: { left: edge(first), right: edge(last + 1), ...bands[row]! }, items });
  };
  if (header) {
    // A heading over several columns spans them; headings stacked in one column join.
    const spans = headerPhrases
      .map((p) => ({ first: columnAt(columns, p), last: lastColumnAt(columns, p), items: p.items }))
      .sort((a, b) => a.first - b.first);
    const merged: typeof spans = [];
    for (const s of spans) {
      const last = merged[merged.length - 1];
      if (last && s.first <= last.last) {
        last.last = Math.max(last.last, s.last);
        last.items = [...last.items, ...s.items];
      } else merged.push({ ...s });
    }
    for (let col = 0, m = 0; col < columns.length; ) {
      const s = merged[m];
      if (s && s.first === col) {
        cell(0, s.first, s.last, s.items);
        col = s.last + 1;
        m++;
      } else {
        cell(0, col, col, []);
        col++;
      }
    }
  }
  const offset = header ? 1 : 0;
  body.forEach((ps, k) => {
    const byColumn = columns.map(() => [] as number[]);
    for (const p of ps) byColumn[columnAt(columns, p)]!.push(...p.items);
    byColumn.forEach((items, col) => cell(k + offset, col, col, items));
  });
  return { source: 'ruled', bounds: { left: edge(0), right: edge(columns.length), top: bands[0]!.top, bottom: bands[bands.length - 1]!.bottom }, rowBands: bands, cells };
}

/** The column a phrase starts in (the nearest one to its left when it starts in a gap). */
function columnAt(columns: readonly Column[], p: Phrase): number {
  let at = 0;
  for (let k = 1; k < columns.length; k++) if (columns[k]!.left <= p.left + 1) at = k;
  // A heading that starts in the gap before a column and reaches into it belongs to that column.
  const next = columns[at + 1];
  if (next && p.left > columns[at]!.right && p.right > next.left) return at + 1;
  return at;
}

/** The last column a phrase reaches into. */
function lastColumnAt(columns: readonly Column[], p: Phrase): number {
  let at = columnAt(columns, p);
  while (at + 1 < columns.length && p.right > columns[at + 1]!.left) at++;
  return at;
}

/** Items sorted by a height of theirs (top, middle), to find those between two heights on the page without a scan. */
class ItemsAlongY {
  private readonly order: number[];
  private readonly at: number[];
  /** The tallest item's height. */
  readonly tallest: number;

  constructor(page: PageModel, indices: readonly number[], y: (it: TextItem) => number) {
    this.order = [...indices].sort((a, b) => y(page.items[a]!) - y(page.items[b]!));
    this.at = this.order.map((i) => y(page.items[i]!));
    this.tallest = Math.max(0, ...indices.map((i) => page.items[i]!.height));
  }

  /** The items whose height lies strictly between `from` and `to`, top to bottom. */
  between(from: number, to: number): number[] {
    let lo = 0;
    let hi = this.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let k = lo; k < this.at.length && this.at[k]! < to; k++) out.push(this.order[k]!);
    return out;
  }
}
