import type { PageModel } from '../../../document/pages.js';
import { normalizeSpace } from '../../../document/structure.js';
import { centerY } from './geometry.js';

/** A gap wider than this many line heights separates two cells of a line. */
export const CELL_GAP = 1;
/** Cells of a short column are this long at most, in median words: running text is longer. */
export const MAX_MEDIAN_WORDS = 4;

/** A currency sign standing alone before an amount. */
export const CURRENCY_SIGN = /^[$€£¥]$/;

/** Items sharing a baseline band, left to right. */
export interface TextLine {
  items: number[];
  top: number;
  bottom: number;
}

/** A line in bold set taller than this times the rows around it is a title, not a row. */
const TITLE_SIZE = 1.15;

/** All the line's items are bold and it is set taller than `TITLE_SIZE` times `height` (the rows' type). */
export function isTitleType(page: PageModel, line: TextLine, height: number): boolean {
  return line.items.every((i) => page.items[i]!.bold) && line.bottom - line.top > TITLE_SIZE * height;
}

/** A run of a line's items with no wide gap inside: one cell's worth of text. */
export interface Phrase {
  items: number[];
  left: number;
  right: number;
  text: string;
}

/** Groups the given items into lines, top to bottom (an item joins a line its vertical centre falls in). */
export function textLines(page: PageModel, indices: readonly number[]): TextLine[] {
  const byTop = [...indices].sort((a, b) => page.items[a]!.y - page.items[b]!.y);
  const lines: TextLine[] = [];
  for (const i of byTop) {
    const it = page.items[i]!;
    const line = lines[lines.length - 1];
    if (line && centerY(it) < line.bottom) {
      line.items.push(i);
      line.bottom = Math.max(line.bottom, it.y + it.height);
    } else {
      lines.push({ items: [i], top: it.y, bottom: it.y + it.height });
    }
  }
  for (const l of lines) l.items.sort((a, b) => page.items[a]!.x - page.items[b]!.x);
  return lines;
}

/**
 * Splits a line where the gap between items exceeds `gapFactor` times the line's height, and where
 * an item starts, after more than a word space, right where a column heading starts (`columnStarts`:
 * a description filling its column up to the next one, "…dated as of May 10," then "8-K").
 */
export function phrases(page: PageModel, line: TextLine, gapFactor: number, columnStarts: readonly number[] = []): Phrase[] {
  const height = line.bottom - line.top;
  const maxGap = gapFactor * height;
  const out: Phrase[] = [];
  for (const i of line.items) {
    const it = page.items[i]!;
    const last = out[out.length - 1];
    // A currency sign right after an amount opens the next column's amount, however close.
    const opensAmount = CURRENCY_SIGN.test(it.text.trim()) && /[\d)%]$/.test(last?.text ?? '');
    const opensColumn = last !== undefined && it.x - last.right > 0.5 * height && columnStarts.some((x) => Math.abs(x - it.x) <= 0.1 * height);
    if (last && it.x - last.right <= maxGap && !opensAmount && !opensColumn) {
      last.items.push(i);
      last.right = Math.max(last.right, it.x + it.width);
      last.text += ' ' + it.text;
    } else {
      out.push({ items: [i], left: it.x, right: it.x + it.width, text: it.text });
    }
  }
  for (const p of out) p.text = normalizeSpace(p.text);
  return out;
}

/** A column of a table: the span its cells' phrases cover. */
export interface Column {
  left: number;
  right: number;
}

/** Columns where the phrases leave a gap none of them crosses (overlapping or touching spans join), left to right. */
export function phraseColumns(ps: readonly Phrase[]): Column[] {
  const spans = ps.map((p) => ({ left: p.left, right: p.right })).sort((a, b) => a.left - b.left);
  const columns: Column[] = [];
  for (const s of spans) {
    const last = columns[columns.length - 1];
    if (last && s.left <= last.right) last.right = Math.max(last.right, s.right);
    else columns.push({ ...s });
  }
  return columns;
}

/** Where each column's cells begin: the first column's text, else halfway from the column before. */
export function cellLefts(columns: readonly Column[]): number[] {
  return columns.map((c, k) => (k === 0 ? c.left : (columns[k - 1]!.right + c.left) / 2));
}

/**
 * A cell's length in words, its groups of figures counted as one: a form number ("DX 00 01 07 94"), a
 * date ("March 1, 2024") or an account ("123 456 789") is one short value, not five words of text.
 */
export function cellWords(text: string): number {
  let words = 0;
  let figures = 0;
  for (const token of text.split(' ')) {
    if (/\p{L}/u.test(token)) words++;
    else if (/\d/.test(token)) figures = 1;
    else words++;
  }
  return Math.max(1, words + figures);
}

/** The median (the upper one of an even count), 0 for none. */
export function median(xs: readonly number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
