/** Leaves from ranges of line text: the text joined across line breaks (mending hyphenated words) and one box per page. */
import { boxesPerPage, normalizeSpace, type Box, type Leaf } from '../../../document/structure.js';
import type { Line } from './lines.js';
import { joinAtBreak, type Vocabulary } from './text.js';

/** `[start, end)` of one line's text. */
export interface TextRange {
  line: Line;
  start: number;
  end: number;
}

export function wholeLines(lines: readonly Line[]): TextRange[] {
  return lines.map((line) => ({ line, start: 0, end: line.text.length }));
}

/** The ranges from character `offset` of the first one on (ranges that end up empty are dropped). */
export function rangesFrom(ranges: readonly TextRange[], offset: number): TextRange[] {
  const [first, ...rest] = ranges;
  if (!first) return [];
  const start = Math.min(first.end, first.start + offset);
  return first.end > start ? [{ ...first, start }, ...rest] : rest;
}

export function rangeText(r: TextRange): string {
  return r.line.text.slice(r.start, r.end);
}

/** `vocabulary`: the document's words, which tell a word broken at a line's end from a compound. */
export function makeLeaf(ranges: readonly TextRange[], vocabulary?: Vocabulary): Leaf {
  let text = '';
  for (const r of ranges) {
    const part = rangeText(r).trim();
    if (!part) continue;
    text = text ? joinAtBreak(text, part, vocabulary) : part;
  }
  const boxes: Box[] = [];
  for (const r of ranges) {
    const b = rangeBox(r);
    if (b) boxes.push(b);
  }
  return { text: normalizeSpace(text), boxes: boxesPerPage(boxes) };
}

/** The box of a range: its pieces, cut proportionally where the range starts or ends inside one. */
function rangeBox(r: TextRange): Box | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const p of r.line.pieces) {
    if (p.end <= r.start || p.start >= r.end) continue;
    const perChar = (p.right - p.left) / Math.max(1, p.end - p.start);
    left = Math.min(left, p.left + Math.max(0, r.start - p.start) * perChar);
    right = Math.max(right, p.right - Math.max(0, p.end - r.end) * perChar);
    top = Math.min(top, p.top);
    bottom = Math.max(bottom, p.bottom);
  }
  if (left === Infinity) return null;
  return { page: r.line.page, left: round(left), top: round(top), width: Math.max(1, round(right - left)), height: Math.max(1, round(bottom - top)) };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
