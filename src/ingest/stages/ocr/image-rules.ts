/**
 * Lines drawn in a scanned page's image: a ruled table's borders, a form's boxes. A scan has no
 * drawing operators, so its rules are found in its pixels, as long, thin runs darker than what lies
 * beside them; the ruled-table finder then reads them as it reads a PDF's drawn rules.
 */
import type { Rule } from '../../../document/pages.js';

/** A grayscale image, one byte a pixel (0 black), row after row. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A run this long (inches) along a row or column may be part of a rule; letters' strokes are shorter. */
const MIN_RUN_IN = 0.3;
/** A rule is at least this long (inches). */
const MIN_LINE_IN = 0.4;
/** Thicker than this (inches, ≈ 3 pt) a dark band is a filled area or a picture, not a line. */
const MAX_THICKNESS_IN = 0.04;
/**
 * A line's pixels are darker than both pixels just beyond MAX_THICKNESS across it (paper, or the
 * shading of a header row: the edge of a shaded area is darker than one side only) by this much on
 * average over WINDOW_IN along it. Scanned
 * rules are often faint and broken (a thin gray line ~30 levels under the paper, text ~150).
 */
const MIN_CONTRAST = 16;
const WINDOW_IN = 0.025;
/** Pixels a run may bridge, in pixels (a scanned line is broken here and there). */
const GAP = 1;
/** A line may climb this many pixels per hundred along its length (a scan's skew, ≈ 1.7°). */
const MAX_SLOPE = 0.03;
/** The share of a line's length that must be dark, unaveraged: dotted leaders have gaps. */
const MIN_SOLID = 0.9;
/** How far (inches) beside a line its sides are looked at. */
const SIDE_IN = 0.015;
/**
 * Text is this much darker than the paper (shading is lighter). A run through the middle of a line
 * of text has text on both sides at many places (the letters' stems); a rule has paper there, but
 * where text touches it.
 */
const TEXT_BELOW_PAPER = 128;
const MAX_SIDE_TEXT = 0.25;
/** Following a line past its ends: steps of this many inches, up to this many without its ink in a row. */
const STEP_IN = 0.05;
const MAX_MISSES = 3;
/** On a line being followed, the line is this much darker than its sides. */
const FOLLOW_CONTRAST = 8;

interface Piece {
  /** Row (horizontal) or column (vertical) of the run. */
  at: number;
  start: number;
  end: number;
}

interface Group {
  first: number;
  last: number;
  start: number;
  end: number;
  pieces: Piece[];
  /** Its pieces in its last row (column), and in the one before: the runs of the next row join the first, of the same row the second. */
  lastRow: Piece[];
  rowBefore: Piece[];
}

/** The image seen along rows (horizontal lines) or along columns (vertical ones). */
interface View {
  value(along: number, across: number): number;
  along: number;
  across: number;
}

/**
 * The rules of a page image rendered at `dpi`, in pixels at `scale` times the image's (300-DPI page
 * pixels for `300 / dpi`). Horizontal rules come out as wide, thin rectangles, vertical ones as tall,
 * thin ones.
 */
export function imageRules(image: GrayImage, dpi: number, scale: number): Rule[] {
  const paper = paperLevel(image);
  const reach = Math.ceil(MAX_THICKNESS_IN * dpi) + 2;
  const window = 2 * Math.max(1, Math.round((WINDOW_IN * dpi) / 2)) + 1;
  const [rows, columns] = runs(image, { minRun: Math.round(MIN_RUN_IN * dpi), window, reach, dark: paper - MIN_CONTRAST });
  const limits = { minLength: MIN_LINE_IN * dpi, maxThickness: MAX_THICKNESS_IN * dpi };
  const { data, width, height } = image;
  const views: [View, Piece[]][] = [
    [{ value: (x, y) => data[y * width + x]!, along: width, across: height }, rows],
    [{ value: (y, x) => data[y * width + x]!, along: height, across: width }, columns],
  ];
  const rules: Rule[] = [];
  for (const [view, pieces] of views) {
    const horizontal = view.along === width;
    for (const g of lines(pieces, limits)) {
      const sides = { side: Math.max(2, Math.round(SIDE_IN * dpi)), dark: paper - MIN_CONTRAST, text: paper - TEXT_BELOW_PAPER };
      if (!solidAndClear(g, view, sides)) continue;
      const length = g.end - g.start;
      const thickness = g.pieces.reduce((sum, p) => sum + p.end - p.start, 0) / length;
      const [start, end] = followed(g, view, { side: sides.side + Math.ceil(thickness / 2), text: sides.text, step: Math.max(4, Math.round(STEP_IN * dpi)) });
      const mid = (g.first + g.last + 1) / 2 - thickness / 2;
      rules.push(scaled(horizontal ? { x: start, y: mid, width: end - start, height: thickness } : { x: mid, y: start, width: thickness, height: end - start }, scale));
    }
  }
  return rules;
}

function scaled(r: Rule, scale: number): Rule {
  const round = (v: number) => Math.round(v * scale * 100) / 100;
  return { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) };
}

/** The paper's gray level: the most common level of the lighter half. */
export function paperLevel({ data }: GrayImage): number {
  const histogram = new Uint32Array(256);
  // Every third pixel is plenty for a histogram.
  for (let i = 0; i < data.length; i += 3) histogram[data[i]!]!++;
  let paper = 255;
  for (let v = 128; v < 256; v++) if (histogram[v]! > histogram[paper]!) paper = v;
  return paper;
}

/**
 * The runs at least `minRun` long of every row and of every column, each list in order of row
 * (column). A pixel is a line's when, averaged over `window` along the run, it is MIN_CONTRAST
 * darker than both pixels `reach` off on either side across it; a faint line one
 * pixel thick wanders between neighbouring rows, so a row's pixel is the darker of itself and the
 * one below (a column's, of itself and the one to its right). A run bridges GAP other pixels, and
 * up to `reach` dark ones that are not a line's here (a line crossing it, a shaded area's edge).
 * One pass over the pixels, row after row.
 */
function runs({ data, width, height }: GrayImage, o: { minRun: number; window: number; reach: number; dark: number }): [Piece[], Piece[]] {
  const { minRun, window, reach, dark } = o;
  const half = window >> 1;
  const limit = MIN_CONTRAST * window;
  const goesOn = (at: number, last: number, lastDark: number) => at - Math.max(last, lastDark) <= GAP + 1 && at - last <= reach + GAP + 1;
  const rows: Piece[] = [];
  // Per column: the last `window` rows' contrasts (a ring) and their sum, where its current run
  // started (-1: none), its last row of a line and its last dark row.
  const ring = new Uint8Array(width * window);
  const colSum = new Int32Array(width);
  const colStart = new Int32Array(width).fill(-1);
  const colLast = new Int32Array(width).fill(-1);
  const colLastDark = new Int32Array(width).fill(-1);
  const columnRuns: Piece[][] = Array.from({ length: width }, () => []);
  const endColumnRun = (x: number) => {
    if (colStart[x]! >= 0 && colLast[x]! - colStart[x]! + 1 >= minRun) columnRuns[x]!.push({ at: x, start: colStart[x]!, end: colLast[x]! + 1 });
  };
  const darker = new Uint8Array(width);
  const contrast = new Uint8Array(width + window);
  const columnContrast = new Uint8Array(width);
  // A stretch that is not a line's may be bridged only this soon after a line's pixel.
  const bridge = reach + GAP + 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const below = y + 1 < height ? row + width : row;
    const above = Math.max(0, y - reach) * width;
    const beyond = Math.min(height - 1, y + 1 + reach) * width;
    for (let x = 0; x < width; x++) {
      const here = data[row + x]!;
      const under = data[below + x]!;
      const d = here < under ? here : under;
      darker[x] = d;
      const a = data[above + x]!;
      const b = data[beyond + x]!;
      const side = a < b ? a : b;
      contrast[x + half] = side > d ? side - d : 0;
      const right = x + 1 < width ? data[row + x + 1]! : here;
      const v = here < right ? here : right;
      const l = data[row + (x >= reach ? x - reach : 0)]!;
      const r = data[row + (x + 1 + reach < width ? x + 1 + reach : width - 1)]!;
      const across = l < r ? l : r;
      columnContrast[x] = across > v ? across - v : 0;
    }
    let sum = 0;
    for (let k = 0; k < window - 1; k++) sum += contrast[k]!;
    let start = -1;
    let last = -1;
    let lastDark = -1;
    for (let x = 0; x < width; x++) {
      // The row's window is centred on x (`contrast` is shifted by half a window).
      sum += contrast[x + window - 1]!;
      if (sum >= limit) {
        if (start < 0 || !goesOn(x, last, lastDark)) {
          if (start >= 0 && last - start + 1 >= minRun) rows.push({ at: y, start, end: last + 1 });
          start = x;
        }
        last = x;
      } else if (start >= 0 && x - last <= bridge && darker[x]! < dark) {
        lastDark = x;
      }
      sum -= contrast[x]!;
    }
    if (start >= 0 && last - start + 1 >= minRun) rows.push({ at: y, start, end: last + 1 });
    // The column's window ends at y: its runs are at `at`, half a window up.
    const slot = (y % window) * width;
    const at = y - half;
    for (let x = 0; x < width; x++) {
      const c = columnContrast[x]!;
      const old = ring[slot + x]!;
      if (c !== old) {
        colSum[x] = colSum[x]! + c - old;
        ring[slot + x] = c;
      }
      if (at < 0) continue;
      if (colSum[x]! >= limit) {
        if (colStart[x]! < 0 || !goesOn(at, colLast[x]!, colLastDark[x]!)) {
          endColumnRun(x);
          colStart[x] = at;
        }
        colLast[x] = at;
      } else if (colStart[x]! >= 0 && at - colLast[x]! <= bridge && data[at * width + x]! < dark) {
        colLastDark[x] = at;
      }
    }
  }
  const columns: Piece[] = [];
  for (let x = 0; x < width; x++) {
    endColumnRun(x);
    for (const p of columnRuns[x]!) columns.push(p);
  }
  return [rows, columns];
}

/**
 * Runs of neighbouring rows (columns) that overlap joined into lines; those long and thin enough.
 * A slanted line is a staircase of runs, each overlapping the next.
 */
function lines(pieces: Piece[], limits: { minLength: number; maxThickness: number }): Group[] {
  const done: Group[] = [];
  let open: Group[] = [];
  let at = -1;
  const overlaps = (row: Piece[], p: Piece) => row.some((t) => t.start < p.end && p.start < t.end);
  for (const p of pieces) {
    if (p.at !== at) {
      // Groups not continued for more than GAP rows (columns) are finished.
      at = p.at;
      const still: Group[] = [];
      for (const g of open) (at - g.last > GAP + 1 ? done : still).push(g);
      open = still;
    }
    const g = open.find((o) => overlaps(o.last === p.at ? o.rowBefore : o.lastRow, p));
    if (!g) {
      open.push({ first: p.at, last: p.at, start: p.start, end: p.end, pieces: [p], lastRow: [p], rowBefore: [] });
      continue;
    }
    if (g.last !== p.at) {
      g.rowBefore = g.lastRow;
      g.lastRow = [];
      g.last = p.at;
    }
    g.start = Math.min(g.start, p.start);
    g.end = Math.max(g.end, p.end);
    g.pieces.push(p);
    g.lastRow.push(p);
  }
  done.push(...open);
  return done.filter((g) => {
    const length = g.end - g.start;
    if (length < limits.minLength) return false;
    const thickness = g.pieces.reduce((sum, p) => sum + p.end - p.start, 0) / length;
    return thickness <= limits.maxThickness && g.last - g.first + 1 <= limits.maxThickness + MAX_SLOPE * length;
  });
}

/**
 * Whether the line is solid and stands free of the text around it. Averaged along a run, dotted
 * leaders and letters side by side read as a line: a line is dark at nearly every place along it.
 * Just off its edges there must be no text at most places on either side (strokes attached to a run
 * make it part of letters: a serif face's baseline, "minimum"), and `side` pixels off, none on at
 * least one side (a run through the middle of a line of text has the letters' stems on both).
 */
function solidAndClear(g: Group, view: View, o: { side: number; dark: number; text: number }): boolean {
  const length = g.end - g.start;
  const top = new Int32Array(length).fill(view.across);
  const bottom = new Int32Array(length).fill(-1);
  for (const p of g.pieces) {
    for (let i = p.start - g.start; i < p.end - g.start; i++) {
      if (p.at < top[i]!) top[i] = p.at;
      if (p.at > bottom[i]!) bottom[i] = p.at;
    }
  }
  let solid = 0;
  for (let i = 0; i < length; i++) {
    if (bottom[i]! < 0) continue;
    for (let at = Math.max(0, top[i]! - 1); at <= Math.min(view.across - 1, bottom[i]! + 1); at++) {
      if (view.value(g.start + i, at) < o.dark) {
        solid++;
        break;
      }
    }
  }
  if (solid < MIN_SOLID * length) return false;
  let looked = 0;
  const touching = [0, 0];
  const beside = [0, 0];
  for (let i = 0; i < length; i += 2) {
    if (bottom[i]! < 0) continue;
    // Runs count a pixel's neighbour below (right): the line itself may end a pixel further.
    const edges = [top[i]! - 1, bottom[i]! + 2];
    const off = [top[i]! - o.side, bottom[i]! + 1 + o.side];
    if (off[0]! < 0 || off[1]! >= view.across) continue;
    looked++;
    for (const k of [0, 1]) {
      if (view.value(g.start + i, edges[k]!) < o.text) touching[k]!++;
      if (view.value(g.start + i, off[k]!) < o.text) beside[k]!++;
    }
  }
  if (looked === 0) return true;
  const limit = MAX_SIDE_TEXT * looked;
  return touching[0]! <= limit && touching[1]! <= limit && (beside[0]! <= limit || beside[1]! <= limit);
}

/**
 * A scanned line fades in places: its ends followed on along its slant, a step at a time, while
 * most of each step is darker on the line than beside it, with no text beside it, across gaps of
 * up to MAX_MISSES steps. The line's extent [start, end).
 */
function followed(g: Group, view: View, o: { side: number; text: number; step: number }): [number, number] {
  // The line's slant: least squares over its pieces' middles, weighted by their lengths.
  let w = 0;
  let sa = 0;
  let sp = 0;
  let saa = 0;
  let sap = 0;
  for (const p of g.pieces) {
    const n = p.end - p.start;
    const a = (p.start + p.end - 1) / 2;
    w += n;
    sa += n * a;
    sp += n * p.at;
    saa += n * a * a;
    sap += n * a * p.at;
  }
  const variance = saa - (sa * sa) / w;
  const slope = variance > 0 ? (sap - (sa * sp) / w) / variance : 0;
  const posAt = (a: number) => Math.round(sp / w + slope * (a - sa / w));
  const follow = (from: number, dir: 1 | -1): number => {
    let reached = from;
    let misses = 0;
    for (let a = from; a >= 0 && a < view.along && misses < MAX_MISSES; ) {
      let looked = 0;
      let onLine = 0;
      let text = 0;
      for (let k = 0; k < o.step && a >= 0 && a < view.along; k++, a += dir) {
        const pos = posAt(a);
        if (pos - o.side < 0 || pos + o.side >= view.across) return reached;
        looked++;
        let darkest = 255;
        for (let q = pos - 2; q <= pos + 2; q++) darkest = Math.min(darkest, view.value(a, q));
        const before = view.value(a, pos - o.side);
        const after = view.value(a, pos + o.side);
        if (darkest <= Math.min(before, after) - FOLLOW_CONTRAST) onLine++;
        if (before < o.text || after < o.text) text++;
      }
      if (looked && onLine >= 0.6 * looked && text <= 0.5 * looked) {
        reached = a;
        misses = 0;
      } else {
        misses++;
      }
    }
    return reached;
  };
  const end = follow(g.end, 1);
  const start = follow(g.start - 1, -1);
  return [Math.min(g.start, start + 1), Math.max(g.end, end)];
}

/**
 * A rule is text when words it runs through, this far inside their boxes across it, cover this share
 * of it. An underline runs near its words' lower edge; nothing runs down through a word.
 */
const INSIDE_WORD = { horizontal: 0.2, vertical: 0.05 };
const MAX_THROUGH_WORDS = 0.3;

/**
 * The rules that do not run through the middle of the page's words: a run along the strokes of a
 * line of letters ("information sharing" in a serif italic) looks like a line to the pixels alone.
 * An underline runs along the words' lower edge, a table's border between them.
 */
export function outsideWords(rules: readonly Rule[], words: readonly { x: number; y: number; width: number; height: number }[]): Rule[] {
  return rules.filter((r) => {
    const horizontal = r.width >= r.height;
    const [pos, start, end] = horizontal ? [r.y + r.height / 2, r.x, r.x + r.width] : [r.x + r.width / 2, r.y, r.y + r.height];
    let through = 0;
    for (const w of words) {
      const [lo, hi, from, to] = horizontal ? [w.y, w.y + w.height, w.x, w.x + w.width] : [w.x, w.x + w.width, w.y, w.y + w.height];
      const margin = (horizontal ? INSIDE_WORD.horizontal : INSIDE_WORD.vertical) * (hi - lo);
      if (pos <= lo + margin || pos >= hi - margin) continue;
      through += Math.max(0, Math.min(end, to) - Math.max(start, from));
    }
    return through <= MAX_THROUGH_WORDS * (end - start);
  });
}
