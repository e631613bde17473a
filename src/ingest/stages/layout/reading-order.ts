/**
 * Reading order by recursive XY-cut: a region splits at a vertical white gap (columns, sidebars)
 * when it has one, else under its first line when columns start there, else at its widest horizontal
 * white gaps; the parts are read left to right, top to bottom. A region with no gap left is one
 * reading unit (usually one line).
 */

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface ReadingUnit {
  /** Indices into the rects, in no particular order. */
  members: number[];
  /** Which column-like region the unit belongs to; units of one column share it. */
  column: number;
}

interface Band {
  lo: number;
  hi: number;
}

/** Horizontal projections use the middle of each box, so tall ascenders/descenders of tightly set lines do not touch. */
const CORE = 0.2;
/** Rows split at the white gaps at least this share as tall as the tallest, keeping paragraphs and columns whole. */
const WIDE_GAP = 0.8;

export function readingOrder(rects: readonly Rect[], nextColumn: () => number): ReadingUnit[] {
  if (rects.length === 0) return [];
  const heights = rects.map((r) => r.bottom - r.top).sort((a, b) => a - b);
  const lineHeight = Math.max(1, heights[heights.length >> 1]!);
  const units: ReadingUnit[] = [];
  const cut = (members: number[], column: number): void => {
    if (members.length > 1) {
      const split = columnSplit(rects, members, lineHeight);
      if (split) {
        cut(split[0], nextColumn());
        cut(split[1], nextColumn());
        return;
      }
      const rows = rowSplit(rects, members, WIDE_GAP);
      if (rows) {
        // Columns under a line that spans them (a sentence above a two-column signature block).
        const [top, ...rest] = rowSplit(rects, members, 0)!;
        const under = rest.flat();
        if (rows.length > 2 && columnSplit(rects, under, lineHeight)) {
          cut(top!, column);
          cut(under, column);
          return;
        }
        for (const r of columnsAcrossRows(rects, rows, lineHeight)) cut(r, column);
        return;
      }
    }
    units.push({ members, column });
  };
  cut(rects.map((_, i) => i), nextColumn());
  return units;
}

/**
 * Rows cut at paragraph gaps that happen to line up across two columns ("… tively." beside "…
 * founded.", then "International Institutions :" beside "Foreign Publics :") are one region again
 * when the columns run on through them: rows that split at a gutter both share, and a row of
 * several lines on one side of it set as close under its column as the column's own blocks are (a
 * column running longer than its neighbour), are read column by column with the rows above them.
 * A row set off further ("Performance Indicators" under a column of names) is not.
 */
function columnsAcrossRows(rects: readonly Rect[], rows: number[][], lineHeight: number): number[][] {
  const out: number[][] = [];
  let group: number[] | null = null;
  for (const row of rows) {
    const split = columnSplit(rects, row, lineHeight);
    if (group && (split || (severalLines(rects, row) && continuesItsColumn(rects, group, row)) || acrossGutter(rects, group, row, lineHeight))) {
      const merged: number[] = [...group, ...row];
      if (columnSplit(rects, merged, lineHeight)) {
        group = merged;
        out[out.length - 1] = merged;
        continue;
      }
    }
    out.push(row);
    group = split ? row : null;
  }
  return out;
}

/**
 * A row with lines on both sides of the group's gutter and none across it: where the columns' lines
 * happen to share a baseline ("Department of Labor" beside "Inter-American Foundation" in two
 * columns of names whose lines were staggered above), the columns run on through it.
 */
function acrossGutter(rects: readonly Rect[], group: number[], row: number[], lineHeight: number): boolean {
  const gutter = gutterOf(rects, group, lineHeight);
  if (!gutter) return false;
  const left = row.filter((i) => rects[i]!.right <= gutter.lo);
  const right = row.filter((i) => rects[i]!.left >= gutter.hi);
  return left.length > 0 && right.length > 0 && left.length + right.length === row.length;
}

/** The white band down the middle of a group read as two columns, or null. */
function gutterOf(rects: readonly Rect[], group: number[], lineHeight: number): Band | null {
  let hi = -Infinity;
  let lo = Infinity;
  const sides = columnSplit(rects, group, lineHeight);
  if (!sides) return null;
  for (const i of sides[0]) hi = Math.max(hi, rects[i]!.right);
  for (const i of sides[1]) lo = Math.min(lo, rects[i]!.left);
  return hi < lo ? { lo: hi, hi: lo } : null;
}

/** The row starts no further under the column above it (what of the group it overlaps across) than that column's blocks stand apart. */
function continuesItsColumn(rects: readonly Rect[], group: number[], row: number[]): boolean {
  let left = Infinity;
  let right = -Infinity;
  for (const i of row) {
    left = Math.min(left, rects[i]!.left);
    right = Math.max(right, rects[i]!.right);
  }
  const column = group.filter((i) => rects[i]!.right > left && rects[i]!.left < right);
  if (column.length < 2) return false;
  const within = gaps(column.map((i) => core(rects[i]!)), 0);
  if (within.length === 0) return false;
  const widest = Math.max(...within.map((g) => g.hi - g.lo));
  const bottom = Math.max(...column.map((i) => core(rects[i]!).hi));
  const top = Math.min(...row.map((i) => core(rects[i]!).lo));
  return top - bottom <= 1.1 * widest;
}

/** The middle of a box, top to bottom (see CORE). */
function core(r: Rect): Band {
  const h = r.bottom - r.top;
  return { lo: r.top + CORE * h, hi: r.bottom - CORE * h };
}

/** White gaps in the projection of the bands, as [end of content before, start of content after]. */
function gaps(bands: Band[], minGap: number): Band[] {
  bands.sort((a, b) => a.lo - b.lo);
  const out: Band[] = [];
  let reach = bands[0]!.hi;
  for (let i = 1; i < bands.length; i++) {
    const b = bands[i]!;
    if (b.lo - reach > minGap) out.push({ lo: reach, hi: b.lo });
    if (b.hi > reach) reach = b.hi;
  }
  return out;
}

/**
 * The widest vertical gap that separates two real columns: both sides several lines tall and wide
 * enough to hold text (a column of list markers or numbers beside its text is not a column).
 */
function columnSplit(rects: readonly Rect[], members: number[], lineHeight: number): [number[], number[]] | null {
  let left = Infinity;
  let right = -Infinity;
  for (const i of members) {
    left = Math.min(left, rects[i]!.left);
    right = Math.max(right, rects[i]!.right);
  }
  const minSide = Math.max(4 * lineHeight, 0.2 * (right - left));
  const candidates = gaps(
    members.map((i) => ({ lo: rects[i]!.left, hi: rects[i]!.right })),
    0.8 * lineHeight,
  )
    .filter((g) => g.lo - left >= minSide && right - g.hi >= minSide)
    .sort((a, b) => b.hi - b.lo - (a.hi - a.lo));
  for (const g of candidates) {
    const before = members.filter((i) => rects[i]!.right <= g.lo);
    const after = members.filter((i) => rects[i]!.left >= g.hi);
    if (severalLines(rects, before) && severalLines(rects, after)) return [before, after];
  }
  return null;
}

/** The rects reach down two lines or more of their own type (tightly set lines overlap). */
function severalLines(rects: readonly Rect[], members: number[]): boolean {
  if (members.length < 2) return false;
  const heights = members.map((i) => rects[i]!.bottom - rects[i]!.top).sort((a, b) => a - b);
  return extent(rects, members) >= 1.8 * heights[heights.length >> 1]!;
}

function extent(rects: readonly Rect[], members: number[]): number {
  let top = Infinity;
  let bottom = -Infinity;
  for (const i of members) {
    top = Math.min(top, rects[i]!.top);
    bottom = Math.max(bottom, rects[i]!.bottom);
  }
  return bottom - top;
}

/**
 * Splits at the horizontal gaps at least `share` as tall as the tallest one (all of them when line
 * spacing is even, whatever the share).
 */
function rowSplit(rects: readonly Rect[], members: number[], share: number): number[][] | null {
  const found = gaps(members.map((i) => core(rects[i]!)), 0);
  if (found.length === 0) return null;
  const widest = Math.max(...found.map((g) => g.hi - g.lo));
  const cuts = found.filter((g) => g.hi - g.lo >= share * widest).map((g) => g.hi);
  const rows: number[][] = cuts.map(() => []);
  rows.push([]);
  for (const i of members) {
    const lo = core(rects[i]!).lo;
    let k = 0;
    while (k < cuts.length && lo >= cuts[k]!) k++;
    rows[k]!.push(i);
  }
  return rows;
}
