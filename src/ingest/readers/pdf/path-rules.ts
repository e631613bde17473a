import type { Rule } from '../../../document/pages.js';

/*
 * Drawn rules from a page's paths, whichever engine walked them (pdf.js's operator list, PDFium's
 * path objects): each subpath arrives as device-space points, NaN marking where a curve broke it.
 * Also the share of the page an image covers, from the matrix it is drawn with.
 */

/** Near-axis-aligned within a pixel, so rotated or diagonal strokes are not rules. */
const AXIS_SLACK = 1;

export function addSubpathRules(rules: Rule[], xs: number[], ys: number[], curved: boolean, stroked: boolean, filled: boolean, strokePx: number, pageArea: number): void {
  // The box of the finite points (NaN marks a curve's gap); a page has thousands of subpaths, so no
  // intermediate arrays.
  let finite = 0;
  let left = Infinity;
  let right = -Infinity;
  for (const x of xs) {
    if (!Number.isFinite(x)) continue;
    finite++;
    if (x < left) left = x;
    if (x > right) right = x;
  }
  if (finite < 2) return;
  let top = Infinity;
  let bottom = -Infinity;
  for (const y of ys) {
    if (!Number.isFinite(y)) continue;
    if (y < top) top = y;
    if (y > bottom) bottom = y;
  }
  const width = right - left;
  const height = bottom - top;
  if (width * height > pageArea * 0.8) return;
  if (filled && !curved && isAxisRectangle(xs, ys)) {
    rules.push({ x: round(left), y: round(top), width: round(Math.max(width, 1)), height: round(Math.max(height, 1)) });
    return;
  }
  if (!stroked) return;
  const half = strokePx / 2;
  for (let k = 1; k < xs.length; k++) {
    const x0 = xs[k - 1]!;
    const y0 = ys[k - 1]!;
    const x1 = xs[k]!;
    const y1 = ys[k]!;
    // Comparisons with NaN (the gap a curve leaves) are false, so no rule crosses a curve.
    if (Math.abs(y1 - y0) <= AXIS_SLACK && Math.abs(x1 - x0) > AXIS_SLACK) {
      rules.push({ x: round(Math.min(x0, x1) - half), y: round(Math.min(y0, y1) - half), width: round(Math.abs(x1 - x0) + strokePx), height: round(strokePx) });
    } else if (Math.abs(x1 - x0) <= AXIS_SLACK && Math.abs(y1 - y0) > AXIS_SLACK) {
      rules.push({ x: round(Math.min(x0, x1) - half), y: round(Math.min(y0, y1) - half), width: round(strokePx), height: round(Math.abs(y1 - y0) + strokePx) });
    }
  }
}

/** Every segment horizontal or vertical: the path is a box (or a degenerate one, a line). */
function isAxisRectangle(xs: number[], ys: number[]): boolean {
  if (xs.length > 6) return false;
  for (let k = 1; k < xs.length; k++) {
    if (Math.abs(xs[k]! - xs[k - 1]!) > AXIS_SLACK && Math.abs(ys[k]! - ys[k - 1]!) > AXIS_SLACK) return false;
  }
  return true;
}

/** m1 × m2 as PDF composes them: a point goes through m2 first, then m1 (`multiply(viewport, ctm)`). */
export function multiply(m1: number[], m2: number[]): number[] {
  const a1 = m1[0]!, b1 = m1[1]!, c1 = m1[2]!, d1 = m1[3]!, e1 = m1[4]!, f1 = m1[5]!;
  const a2 = m2[0]!, b2 = m2[1]!, c2 = m2[2]!, d2 = m2[3]!, e2 = m2[4]!, f2 = m2[5]!;
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}

export function round(v: number): number {
  return Math.round(v * 100) / 100;
}

/** The share of the page (clipped to it) an image drawn with matrix `m` (its unit square) covers, to the percent. */
export function imageCover(m: number[], page: { width: number; height: number }): number {
  const xs = [m[4]!, m[0]! + m[4]!, m[2]! + m[4]!, m[0]! + m[2]! + m[4]!];
  const ys = [m[5]!, m[1]! + m[5]!, m[3]! + m[5]!, m[1]! + m[3]! + m[5]!];
  const w = Math.min(page.width, Math.max(...xs)) - Math.max(0, Math.min(...xs));
  const h = Math.min(page.height, Math.max(...ys)) - Math.max(0, Math.min(...ys));
  if (!(w > 0 && h > 0) || !(page.width > 0 && page.height > 0)) return 0;
  return Math.round((100 * w * h) / (page.width * page.height)) / 100;
}
