import type { PageModel, Rule } from '../../../document/pages.js';
import type { CellDraft, TableDraft } from './draft.js';
import { labelValueEdges } from './form.js';
import { centerX, centerY } from './geometry.js';
import { JOIN_TOLERANCE, pageLines, type Segment } from './rules.js';

/** A grid line: the segments at one position, drawn over parts of the grid. */
interface GridLine {
  pos: number;
  segments: Segment[];
}

/** A boundary counts as drawn when rules cover at least this share of it. */
const MIN_COVERAGE = 0.5;

/**
 * Ruled tables: groups of horizontal and vertical rules that cross each other, read as a grid whose
 * regions are cells. A missing rule between grid regions merges them (colspan/rowspan), except
 * between two regions that both hold text none of which crosses the gap (row shading draws its
 * column edges only on shaded rows). Grid columns and rows holding no text are folded into a
 * neighbour, so decorative bars and spacer columns do not become empty cells.
 */
export function ruledTables(page: PageModel, free: readonly boolean[]): TableDraft[] {
  if (!page.rules?.length) return [];
  const { horizontal, vertical } = pageLines(page.rules);
  const groups = crossingGroups(horizontal, vertical).filter((g) => g.h.length >= 2 && g.v.length >= 2);
  // Largest grids first: a grid drawn inside another one's cell stays part of that cell (no nesting).
  groups.sort((a, b) => extent(b.h) * extent(b.v) - extent(a.h) * extent(a.v));
  const available = [...free];
  const drafts: TableDraft[] = [];
  for (const { h, v } of groups) {
    const rowLines = gridLines(h);
    let draft = gridTable(page, available, rowLines, gridLines(v));
    if (!draft) continue;
    const edges = labelValueEdges(page, draft);
    if (edges.length) draft = gridTable(page, available, rowLines, gridLines([...v, ...edges])) ?? draft;
    drafts.push(draft);
    for (const c of draft.cells) for (const i of c.items) available[i] = false;
  }
  return drafts;
}

/**
 * The rules that make whole lattices: crossing groups in which every line is drawn without a break
 * from one crossing line to another (the frame's sides included; a merged cell's edge stops at the
 * lines around it). Lines found in a scan's image are kept only so: a faint scan loses pieces of its
 * rules, and a grid with holes merges rows and columns that the text's own alignment reads right.
 */
export function latticeRules(rules: readonly Rule[]): Rule[] {
  if (!rules.length) return [];
  const { horizontal, vertical } = pageLines(rules);
  const kept: Segment[] = [];
  for (const { h, v } of crossingGroups(horizontal, vertical)) {
    if (h.length < 2 || v.length < 2) continue;
    const rows = gridLines(h);
    const cols = gridLines(v);
    if (rows.length < 2 || cols.length < 2) continue;
    const whole = rows.every((line) => unbroken(line, cols)) && cols.every((line) => unbroken(line, rows));
    if (whole) kept.push(...h, ...v);
  }
  const horizontalSet = new Set(horizontal);
  return kept.map((s) =>
    horizontalSet.has(s)
      ? { x: s.start, y: s.pos - s.thickness / 2, width: s.end - s.start, height: s.thickness }
      : { x: s.pos - s.thickness / 2, y: s.start, width: s.thickness, height: s.end - s.start },
  );
}

/** Ends this close (px) to a crossing line stop at it. */
const END_TOLERANCE = 3 * JOIN_TOLERANCE;

/** A grid line drawn in one piece that starts and ends at crossing lines. */
function unbroken(line: GridLine, crossing: GridLine[]): boolean {
  const segments = [...line.segments].sort((a, b) => a.start - b.start);
  let end = segments[0]!.end;
  for (const s of segments.slice(1)) {
    if (s.start > end + JOIN_TOLERANCE) return false;
    end = Math.max(end, s.end);
  }
  const atCrossing = (at: number) => crossing.some((c) => Math.abs(c.pos - at) <= END_TOLERANCE);
  const first = Math.max(segments[0]!.start, crossing[0]!.pos);
  const last = Math.min(end, crossing[crossing.length - 1]!.pos);
  return atCrossing(first) && atCrossing(last);
}

/** How far a group's lines reach along their direction. */
function extent(segments: Segment[]): number {
  return Math.max(...segments.map((s) => s.end)) - Math.min(...segments.map((s) => s.start));
}

/** Connected groups of crossing rules (union-find; quadratic in the page's rules, which are few after merging). */
function crossingGroups(horizontal: Segment[], vertical: Segment[]): { h: Segment[]; v: Segment[] }[] {
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const crossed = new Array<boolean>(parent.length).fill(false);
  const tol = JOIN_TOLERANCE;
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      const crosses =
        v.pos >= h.start - tol - v.thickness / 2 && v.pos <= h.end + tol + v.thickness / 2 && h.pos >= v.start - tol - h.thickness / 2 && h.pos <= v.end + tol + h.thickness / 2;
      if (!crosses) return;
      const k = horizontal.length + j;
      parent[find(i)] = find(k);
      crossed[i] = crossed[k] = true;
    });
  });
  const groups = new Map<number, { h: Segment[]; v: Segment[] }>();
  const groupOf = (i: number): { h: Segment[]; v: Segment[] } => {
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { h: [], v: [] }));
    return g;
  };
  horizontal.forEach((h, i) => {
    if (crossed[i]) groupOf(i).h.push(h);
  });
  vertical.forEach((v, j) => {
    if (crossed[horizontal.length + j]) groupOf(horizontal.length + j).v.push(v);
  });
  return [...groups.values()];
}

/** Segments at (nearly) the same position form one grid line. */
function gridLines(segments: Segment[]): GridLine[] {
  const sorted = [...segments].sort((a, b) => a.pos - b.pos);
  const lines: GridLine[] = [];
  for (const s of sorted) {
    const last = lines[lines.length - 1];
    if (last && s.pos - last.pos <= Math.max(2 * JOIN_TOLERANCE, s.thickness / 2)) last.segments.push(s);
    else lines.push({ pos: s.pos, segments: [s] });
  }
  return lines;
}

function coverage(line: GridLine, from: number, to: number): number {
  let covered = 0;
  for (const s of line.segments) covered += Math.max(0, Math.min(to, s.end) - Math.max(from, s.start));
  return to > from ? covered / (to - from) : 0;
}

function gridTable(page: PageModel, free: readonly boolean[], rowLines: GridLine[], colLines: GridLine[]): TableDraft | null {
  const top = rowLines[0]!.pos;
  const bottom = rowLines[rowLines.length - 1]!.pos;
  const left = colLines[0]!.pos;
  const right = colLines[colLines.length - 1]!.pos;
  const inside: number[] = [];
  page.items.forEach((it, i) => {
    const x = centerX(it);
    const y = centerY(it);
    if (free[i] && x >= left && x < right && y >= top && y < bottom) inside.push(i);
  });
  if (inside.length === 0) return null;
  const xs = withoutEmptyBands(colLines, inside.map((i) => centerX(page.items[i]!)));
  const ys = withoutEmptyBands(rowLines, inside.map((i) => centerY(page.items[i]!)));
  const cols = xs.length - 1;
  const rows = ys.length - 1;
  if (rows < 2 || cols < 2) return null;
  const cellItems: number[][][] = Array.from({ length: rows }, () => Array.from({ length: cols }, () => []));
  for (const i of inside) {
    const it = page.items[i]!;
    cellItems[bandIndex(ys, centerY(it))]![bandIndex(xs, centerX(it))]!.push(i);
  }
  const hasVertical = (c: number, r: number): boolean => coverage(xs[c]!, ys[r]!.pos, ys[r + 1]!.pos) >= MIN_COVERAGE;
  const hasHorizontal = (r: number, c: number): boolean => coverage(ys[r]!, xs[c]!.pos, xs[c + 1]!.pos) >= MIN_COVERAGE;
  // Text on both sides of an undrawn column edge, none of it crossing the edge: still two cells.
  const textSeparated = (r: number, spanItems: number[], c: number): boolean => {
    const next = cellItems[r]![c]!;
    if (spanItems.length === 0 || next.length === 0) return false;
    const edge = xs[c]!.pos;
    return [...spanItems, ...next].every((i) => {
      const it = page.items[i]!;
      return it.x + it.width <= edge + JOIN_TOLERANCE || it.x >= edge - JOIN_TOLERANCE;
    });
  };
  const taken: boolean[][] = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(false));
  const cells: CellDraft[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (taken[r]![c]) continue;
      const items = [...cellItems[r]![c]!];
      let colspan = 1;
      while (c + colspan < cols && !taken[r]![c + colspan] && !hasVertical(c + colspan, r) && !textSeparated(r, items, c + colspan)) {
        items.push(...cellItems[r]![c + colspan]!);
        colspan++;
      }
      let rowspan = 1;
      while (r + rowspan < rows && range(c, colspan).every((k) => !hasHorizontal(r + rowspan, k) && !taken[r + rowspan]![k])) {
        for (const k of range(c, colspan)) items.push(...cellItems[r + rowspan]![k]!);
        rowspan++;
      }
      for (let dr = 0; dr < rowspan; dr++) for (const k of range(c, colspan)) taken[r + dr]![k] = true;
      cells.push({
        row: r,
        col: c,
        rowspan,
        colspan,
        box: { left: xs[c]!.pos, right: xs[c + colspan]!.pos, top: ys[r]!.pos, bottom: ys[r + rowspan]!.pos },
        items,
      });
    }
  }
  if (cells.length < 3) return null;
  return {
    source: 'ruled',
    bounds: { left: xs[0]!.pos, right: xs[cols]!.pos, top: ys[0]!.pos, bottom: ys[rows]!.pos },
    rowBands: range(0, rows).map((r) => ({ top: ys[r]!.pos, bottom: ys[r + 1]!.pos })),
    cells,
  };
}

/** Grid lines without those opening a band that holds none of `centers` (the band joins its neighbour). */
function withoutEmptyBands(lines: GridLine[], centers: number[]): GridLine[] {
  const filled = new Array<boolean>(lines.length - 1).fill(false);
  for (const x of centers) filled[bandIndex(lines, x)] = true;
  const drop = new Set<number>();
  filled.forEach((f, band) => {
    if (!f) drop.add(band === 0 ? 1 : band);
  });
  drop.delete(lines.length - 1);
  return lines.filter((_, k) => !drop.has(k));
}

function bandIndex(lines: GridLine[], v: number): number {
  let k = 0;
  while (k < lines.length - 2 && v >= lines[k + 1]!.pos) k++;
  return k;
}

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, k) => from + k);
}
