import type { PageModel } from '../../model.js';
import { normalizeSpace } from '../../structure.js';
import { centerY } from './geometry.js';

/** A currency sign standing alone before an amount. */
export const CURRENCY_SIGN = /^[$€£¥]$/;

/** Items sharing a baseline band, left to right. */
export interface TextLine {
  items: number[];
  top: number;
  bottom: number;
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

/** Splits a line where the gap between items exceeds `gapFactor` times the line's height. */
export function phrases(page: PageModel, line: TextLine, gapFactor: number): Phrase[] {
  const maxGap = gapFactor * (line.bottom - line.top);
  const out: Phrase[] = [];
  for (const i of line.items) {
    const it = page.items[i]!;
    const last = out[out.length - 1];
    // A currency sign right after an amount opens the next column's amount, however close.
    const opensAmount = CURRENCY_SIGN.test(it.text.trim()) && /[\d)%]$/.test(last?.text ?? '');
    if (last && it.x - last.right <= maxGap && !opensAmount) {
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
