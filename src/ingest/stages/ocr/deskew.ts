/**
 * Pages fed into a scanner at a slant. A degree or two is enough to run the end of one line into the
 * next: the engine drops words and the layout reads lines across each other. The slant is measured
 * from the image (the angle at which its rows of text line up best), the image is turned straight
 * before it is read, and the words' boxes are turned back onto the page as it is afterwards.
 */
import { paperLevel, type GrayImage } from './image-rules.js';

/** Slants are looked for up to this many degrees either way. */
const MAX_DEGREES = 5;
/** Smaller slants are left as they are: the engine and the layout take them in their stride. */
const MIN_DEGREES = 0.3;
/** The image is sampled every this many pixels each way to measure the slant. */
const SAMPLE = 4;
/** Darker than this share of the paper's level, a sampled pixel is ink. */
const INK = 0.75;
/** A page more than this share ink is a picture, not lines of text. */
const MAX_INK = 0.4;
/** The coarse search for the angle scores every this many ink points. */
const COARSE_STEP = 4;
/** The best angle must line the rows up this much better than the page as it is. */
const MIN_GAIN = 1.1;

/**
 * The page's slant in degrees (positive: its lines of text run down to the right), or 0 when it is
 * under MIN_DEGREES, when the page has too little ink to tell, or when its lines run up or down the
 * page (a page scanned sideways is turned upright from its words instead).
 */
export function measureSkew({ data, width, height }: GrayImage): number {
  // Ink sampled every SAMPLE pixels along the direction the profile adds up, every pixel across it.
  const sampled = (alongRows: boolean): Float64Array => {
    const points: number[] = [];
    for (let y = 0; y < height; y += alongRows ? 1 : SAMPLE) {
      const row = y * width;
      for (let x = 0; x < width; x += alongRows ? SAMPLE : 1) if (data[row + x]! < 255 * INK) points.push(x, y);
    }
    return Float64Array.from(points);
  };
  const rowInk = sampled(true);
  // Too little ink to tell, or so much that the page is a picture or a dark scan rather than text.
  const looked = height * Math.ceil(width / SAMPLE);
  if (rowInk.length < 2 * 200 * SAMPLE || rowInk.length / 2 > MAX_INK * looked) return 0;
  const columnInk = sampled(false);
  // Rows of text that line up give a profile of high peaks and empty gaps: its sum of squares is
  // highest at the angle that undoes the slant.
  // The coarse search looks at every COARSE_STEP-th point; the fine one at all of them.
  const score = (degrees: number, across: boolean, step = 1): number => {
    const t = Math.tan((degrees * Math.PI) / 180);
    const ink = across ? columnInk : rowInk;
    const offset = Math.ceil(Math.abs(t) * (across ? height : width));
    const bins = new Float64Array((across ? width : height) + 2 * offset + 2);
    for (let i = 0; i < ink.length; i += 2 * step) {
      const x = ink[i]!;
      const y = ink[i + 1]!;
      bins[Math.floor((across ? x - y * t : y - x * t) + offset)]!++;
    }
    let sum = 0;
    for (const b of bins) sum += b * b;
    return sum;
  };
  const best = (across: boolean): { degrees: number; score: number } => {
    let coarse = { degrees: 0, score: score(0, across, COARSE_STEP) };
    for (let d = -MAX_DEGREES; d <= MAX_DEGREES; d += 0.25) {
      const s = score(d, across, COARSE_STEP);
      if (s > coarse.score) coarse = { degrees: d, score: s };
    }
    let found = { degrees: coarse.degrees, score: score(coarse.degrees, across) };
    for (let d = coarse.degrees - 0.25; d <= coarse.degrees + 0.25; d += 0.05) {
      const s = score(d, across);
      if (s > found.score) found = { degrees: d, score: s };
    }
    return found;
  };
  const rows = best(false);
  // A page whose text runs up or down it lines up better in columns than in rows.
  if (best(true).score > rows.score) return 0;
  if (Math.abs(rows.degrees) < MIN_DEGREES || rows.score < MIN_GAIN * score(0, false)) return 0;
  return Math.round(rows.degrees * 100) / 100;
}

/** The image turned by `degrees` about its centre (clockwise for positive, y running down), paper where it had none. */
export function rotateImage({ data, width, height }: GrayImage, degrees: number): GrayImage {
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const out = new Uint8Array(width * height).fill(paperLevel({ data, width, height }));
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    // Each output pixel takes the source pixel it came from (turned back by the angle), bilinear.
    let sx = cx - cx * cos + dy * sin;
    let sy = cy + cx * sin + dy * cos;
    const row = y * width;
    for (let x = 0; x < width; x++, sx += cos, sy -= sin) {
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * width + x0;
      const top = data[i]! + (data[i + 1]! - data[i]!) * fx;
      const bottom = data[i + width]! + (data[i + width + 1]! - data[i + width]!) * fx;
      out[row + x] = top + (bottom - top) * fy;
    }
  }
  return { data: out, width, height };
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A box of the page straightened (turned by `-skew`) on the page as it is (`width` × `height`): its
 * corners turned by `skew` about the centre, and the box around them.
 */
export function unskewBox(box: Box, skew: number, width: number, height: number): Box {
  const a = (skew * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = width / 2;
  const cy = height / 2;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ] as const) {
    const dx = x - cx;
    const dy = y - cy;
    const px = cx + dx * cos - dy * sin;
    const py = cy + dx * sin + dy * cos;
    x0 = Math.min(x0, px);
    y0 = Math.min(y0, py);
    x1 = Math.max(x1, px);
    y1 = Math.max(y1, py);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
