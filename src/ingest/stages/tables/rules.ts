import type { Rule } from '../../../document/pages.js';

/**
 * A horizontal (`pos` = y, `start`/`end` along x) or vertical (`pos` = x, `start`/`end` along y)
 * line segment. `pos` is the line's middle, `thickness` its extent across (thick bars keep theirs).
 */
export interface Segment {
  pos: number;
  thickness: number;
  start: number;
  end: number;
}

export interface PageLines {
  horizontal: Segment[];
  vertical: Segment[];
}

/** Thicker than this (≈ 5 pt) a filled rectangle is a box whose edges are rules, not a line itself. */
const MAX_LINE_THICKNESS = 20;
/** Shorter than this (≈ 2.5 pt) a segment is a tick, a dot or a glyph-like mark, not a rule. */
const MIN_LINE_LENGTH = 10;
/** Pieces this close along the line, or across it, are one rule. */
export const JOIN_TOLERANCE = 5;

/** Rules as merged horizontal and vertical segments: thin rectangles are lines, larger ones give their four edges. */
export function pageLines(rules: readonly Rule[]): PageLines {
  const horizontal: Segment[] = [];
  const vertical: Segment[] = [];
  for (const r of rules) {
    const right = r.x + r.width;
    const bottom = r.y + r.height;
    if (r.height <= MAX_LINE_THICKNESS && r.width >= Math.max(MIN_LINE_LENGTH, 3 * r.height)) {
      horizontal.push({ pos: r.y + r.height / 2, thickness: r.height, start: r.x, end: right });
    } else if (r.width <= MAX_LINE_THICKNESS && r.height >= Math.max(MIN_LINE_LENGTH, 3 * r.width)) {
      vertical.push({ pos: r.x + r.width / 2, thickness: r.width, start: r.y, end: bottom });
    } else if (r.width > MAX_LINE_THICKNESS && r.height > MAX_LINE_THICKNESS) {
      horizontal.push({ pos: r.y, thickness: 0, start: r.x, end: right }, { pos: bottom, thickness: 0, start: r.x, end: right });
      vertical.push({ pos: r.x, thickness: 0, start: r.y, end: bottom }, { pos: right, thickness: 0, start: r.y, end: bottom });
    }
  }
  return { horizontal: mergeCollinear(horizontal), vertical: mergeCollinear(vertical) };
}

/**
 * Joins segments on one line (positions within the tolerance, counting thickness) whose spans
 * touch or overlap. Sorting by position then span keeps it O(n log n) for typical pages.
 */
function mergeCollinear(segments: Segment[]): Segment[] {
  segments.sort((a, b) => a.pos - b.pos);
  const bands: Segment[][] = [];
  let band: Segment[] = [];
  let bandEdge = -Infinity;
  for (const s of segments) {
    if (s.pos - s.thickness / 2 - bandEdge > JOIN_TOLERANCE && band.length) {
      bands.push(band);
      band = [];
    }
    band.push(s);
    bandEdge = band.length === 1 ? s.pos + s.thickness / 2 : Math.max(bandEdge, s.pos + s.thickness / 2);
  }
  if (band.length) bands.push(band);
  const merged: Segment[] = [];
  for (const b of bands) {
    b.sort((x, y) => x.start - y.start);
    let cur: Segment | null = null;
    let lo = 0;
    let hi = 0;
    const close = (): void => {
      if (cur) merged.push({ ...cur, pos: (lo + hi) / 2, thickness: hi - lo });
    };
    for (const s of b) {
      if (cur && s.start <= cur.end + JOIN_TOLERANCE) {
        cur.end = Math.max(cur.end, s.end);
        lo = Math.min(lo, s.pos - s.thickness / 2);
        hi = Math.max(hi, s.pos + s.thickness / 2);
      } else {
        close();
        cur = { ...s };
        lo = s.pos - s.thickness / 2;
        hi = s.pos + s.thickness / 2;
      }
    }
    close();
  }
  return merged;
}
