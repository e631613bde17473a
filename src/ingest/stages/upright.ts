/**
 * Pages set sideways: a landscape table fed through the scanner upright (OCR reads its words, each in
 * a tall box), or a text layer whose author turned the content a quarter turn on a portrait page
 * (the readers say which way each item's baseline runs). Lines and tables run down or up the page.
 * Pages scanned upside down (OCR tells, see ocr.ts). The layout reads such a page turned upright,
 * and its boxes are turned back to the page as it is (DGML boxes match its image).
 */
import type { PageModel, Rule, TextDirection, TextItem } from '../../document/pages.js';
import type { Box, StructureNode } from '../../document/structure.js';
import { detectTables, type PageTables } from './tables.js';

/**
 * Which way the page's text runs: down (the content is turned clockwise), up (counter-clockwise), or
 * over (upside down: a page fed into the scanner the wrong way round).
 */
export type Turn = 'down' | 'up' | 'over';

/** At least this share of the words of three characters or more stand in tall boxes. */
const MIN_SIDEWAYS_SHARE = 0.6;
const MIN_WORDS = 10;

/**
 * How a page's OCR words (in the engine's reading order) run, when most of them are sideways; null
 * for an upright page. The direction comes from consecutive words of one line: down or up the page.
 */
export function sidewaysTurn(items: readonly TextItem[]): Turn | null {
  const words = items.filter((it) => it.text.length >= 3);
  if (words.length < MIN_WORDS) return null;
  const tall = words.filter((it) => it.height > it.width).length;
  if (tall < MIN_SIDEWAYS_SHARE * words.length) return null;
  let down = 0;
  let up = 0;
  for (let k = 0; k + 1 < items.length; k++) {
    const a = items[k]!;
    const b = items[k + 1]!;
    const overlap = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
    // The next word of the same sideways line: the same column, just below or above.
    if (overlap < 0.5 * Math.min(a.width, b.width)) continue;
    if (b.y >= a.y + a.height - 1 && b.y - (a.y + a.height) < 2 * a.width) down++;
    else if (b.y + b.height <= a.y + 1 && a.y - (b.y + b.height) < 2 * a.width) up++;
  }
  if (down === up) return null;
  return down > up ? 'down' : 'up';
}

/**
 * How a text layer runs when most of its characters are set sideways, one way: the way most of them
 * run; null for a page read across (a sideways note in the margin does not turn the page).
 */
export function sidewaysTextTurn(items: readonly TextItem[]): Turn | null {
  const chars: Record<TextDirection | 'across', number> = { across: 0, down: 0, up: 0, over: 0 };
  for (const it of items) chars[it.dir ?? 'across'] += it.text.length;
  const all = chars.across + chars.down + chars.up + chars.over;
  for (const turn of ['down', 'up', 'over'] as const) if (chars[turn] >= MIN_SIDEWAYS_SHARE * all && chars[turn] > 0) return turn;
  return null;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A rectangle of the page as it is, in the upright page (width and height swap on a quarter turn). */
function toUpright(r: Rect, page: { width: number; height: number }, turn: Turn): Rect {
  if (turn === 'over') return halfTurn(r, page);
  return turn === 'down'
    ? { x: r.y, y: page.width - (r.x + r.width), width: r.height, height: r.width }
    : { x: page.height - (r.y + r.height), y: r.x, width: r.height, height: r.width };
}

/** A rectangle turned upside down on its page (its own inverse). */
function halfTurn(r: Rect, page: { width: number; height: number }): Rect {
  return { x: page.width - (r.x + r.width), y: page.height - (r.y + r.height), width: r.width, height: r.height };
}

/** The inverse of `toUpright`: a rectangle of the upright page on the page as it is. */
function fromUpright(r: Rect, page: { width: number; height: number }, turn: Turn): Rect {
  if (turn === 'over') return halfTurn(r, page);
  return turn === 'down'
    ? { x: page.width - (r.y + r.height), y: r.x, width: r.height, height: r.width }
    : { x: r.y, y: page.height - (r.x + r.width), width: r.height, height: r.width };
}

/** Which way an item's baseline runs once its page is turned upright (a quarter turn against `turn`). */
function turnedDirection(dir: TextDirection | undefined, turn: Turn): TextDirection | undefined {
  if (dir === turn) return undefined;
  const quarter: Record<TextDirection | 'across', TextDirection | undefined> =
    turn === 'over' ? { across: 'over', down: 'up', up: 'down', over: undefined }
    : turn === 'down' ? { across: 'up', down: undefined, up: 'over', over: 'down' }
    : { across: 'down', up: undefined, down: 'over', over: 'up' };
  return quarter[dir ?? 'across'];
}

/** The page turned upright: its words and rules turned with it. */
export function uprightPage(page: PageModel, turn: Turn): PageModel {
  const items = page.items.map((it) => {
    const { dir, ...rest } = it;
    const turned: TextItem = { ...rest, ...toUpright(it, page, turn) };
    // OCR words carry no direction: upright, they are read across.
    const after = page.ocr ? undefined : turnedDirection(dir, turn);
    if (after) turned.dir = after;
    return turned;
  });
  const rules = page.rules?.map((r): Rule => toUpright(r, page, turn));
  const [width, height] = turn === 'over' ? [page.width, page.height] : [page.height, page.width];
  return { ...page, width, height, items, ...(rules ? { rules } : {}) };
}

/** Turns every box of `page` in the structure back from the upright page to the page as it is. */
export function turnBoxesBack(nodes: StructureNode[], page: PageModel, turn: Turn): void {
  mapPageBoxes(nodes, page.number, (r) => fromUpright(r, page, turn));
}

/** Moves every box of page `pageNumber` in the structure (each once) to where `place` puts it. */
export function mapPageBoxes(nodes: StructureNode[], pageNumber: number, place: (r: Rect) => Rect): void {
  const seen = new Set<object>();
  const back = (boxes: Box[]): void => {
    for (const b of boxes) {
      if (b.page !== pageNumber || seen.has(b)) continue;
      seen.add(b);
      const r = place({ x: b.left, y: b.top, width: b.width, height: b.height });
      b.left = round(r.x);
      b.top = round(r.y);
      b.width = round(r.width);
      b.height = round(r.height);
    }
  };
  const stack: unknown[] = [...nodes];
  while (stack.length) {
    const value = stack.pop();
    if (!value || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'boxes' && Array.isArray(child)) back(child as Box[]);
      else if (child && typeof child === 'object') stack.push(child);
    }
  }
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Fewer items than this set one way on a page read across are notes, not a table. */
const MIN_SIDEWAYS_ITEMS = 6;

/**
 * Tables set sideways on a page read across (a landscape table turned beside upright text): found
 * among the page's sideways items laid out upright, their boxes turned back to the page, and added
 * to the page's tables (`found`), their items consumed.
 */
export function withSidewaysTables(page: PageModel, found: PageTables): PageTables {
  let result = found;
  for (const turn of ['down', 'up', 'over'] as const) {
    const indices: number[] = [];
    page.items.forEach((it, i) => {
      if (it.dir === turn && !result.consumed.has(i)) indices.push(i);
    });
    if (indices.length < MIN_SIDEWAYS_ITEMS) continue;
    const sideways = detectTables(uprightPage({ ...page, items: indices.map((i) => page.items[i]!) }, turn));
    if (!sideways.tables.length) continue;
    turnBoxesBack(sideways.tables, page, turn);
    const consumed = new Set(result.consumed);
    for (const k of sideways.consumed) consumed.add(indices[k]!);
    const tables = [...result.tables, ...sideways.tables].sort((a, b) => (a.boxes[0]?.top ?? 0) - (b.boxes[0]?.top ?? 0));
    result = { tables, consumed };
  }
  return result;
}
