/**
 * Text lines of a page in reading order: items of one reading unit that share a baseline, left to
 * right, with spaces where the gap between two items is a word space. Tables found earlier take
 * their place in the same order, by their box.
 */
import { isTagText, type PageModel, type TextItem } from '../../../document/pages.js';
import type { Table } from '../../../document/structure.js';
import { readingOrder, type Rect } from './reading-order.js';
import { cleanItemText, spacedApart } from './text.js';

/** A run of a line's text that comes from one item, with that item's box and font. */
export interface Piece extends Rect {
  /** [start, end) offsets into `Line.text`. */
  start: number;
  end: number;
  bold: boolean;
  italic: boolean;
  size: number;
}

export interface Line extends Rect {
  page: number;
  /** Single-spaced, trimmed. */
  text: string;
  pieces: Piece[];
  /** The font size (pt) most of its characters use. */
  size: number;
  /** It has letters, all of them bold. */
  bold: boolean;
  /** It has letters, all of them italic. */
  italic: boolean;
  /** The reading-order column the line sits in (unique across the document). */
  column: number;
  /** Only invisible tag text (see `isTagText`). */
  tag: boolean;
  /** Set sideways on a page read across (a note up the margin): one item, a line of its own. */
  sideways: boolean;
  /** The names of a grid's row the line runs together, each as a line of its own (see `gridCells`). */
  cells?: Line[];
}

/**
 * Lines centred on one axis (within half an em), at least one of them inset on both sides by more
 * than an em against the widest: a centred title, not a justified paragraph (whose lines share both
 * edges).
 */
export function isCentredTitle(lines: readonly Line[], em: number): boolean {
  if (lines.length < 2) return false;
  const axis = (l: Line): number => (l.left + l.right) / 2;
  const centre = axis(lines[0]!);
  if (lines.some((l) => Math.abs(axis(l) - centre) > em / 2)) return false;
  const widest = lines.reduce((w, l) => (l.right - l.left > w.right - w.left ? l : w));
  return lines.some((l) => l.left > widest.left + em && l.right < widest.right - em);
}

export type FlowElement = { kind: 'line'; line: Line } | { kind: 'table'; table: Table; rect: Rect };

export function pageFlow(page: PageModel, consumed: ReadonlySet<number>, tables: readonly Table[], nextColumn: () => number): FlowElement[] {
  const items: TextItem[] = [];
  const texts: string[] = [];
  page.items.forEach((it, i) => {
    if (consumed.has(i)) return;
    const text = cleanItemText(it.text).replace(/\s+/g, ' ');
    if (!text.trim()) return;
    items.push(it);
    texts.push(text);
  });
  const rects: Rect[] = items.map((it) => ({ left: it.x, top: it.y, right: it.x + it.width, bottom: it.y + it.height }));
  rects.push(...tables.map((t) => tableRect(t, page.number)));
  const flow: FlowElement[] = [];
  for (const unit of readingOrder(rects, nextColumn)) {
    const itemMembers: number[] = [];
    for (const m of unit.members) {
      if (m >= items.length) flow.push({ kind: 'table', table: tables[m - items.length]!, rect: rects[m]! });
      else itemMembers.push(m);
    }
    for (const group of baselineGroups(items, itemMembers)) {
      const members = spliceRaised(items, texts, group);
      const line = buildLine(page.number, items, texts, members, unit.column);
      const cells = gridCells(items, texts, members);
      if (cells.length > 1) line.cells = cells.map((cell) => buildLine(page.number, items, texts, cell, unit.column));
      flow.push({ kind: 'line', line });
    }
  }
  return flow;
}

/** How far (characters) from its estimated place a raised mark may find the gap left for it. */
const SPLICE_REACH = 4;

/**
 * Marks set raised inside another item's run ("AirPods , Apple TV" with a "®" over each gap): the
 * run holds a space where each goes, so the mark takes the space nearest its position (estimated
 * from its x along the run) instead of following the whole run. Changes `texts` of the hosts;
 * returns the group without the spliced marks.
 */
function spliceRaised(items: readonly TextItem[], texts: string[], group: number[]): number[] {
  const spliced = new Set<number>();
  for (const host of group) {
    const h = items[host]!;
    const marks = group.filter((m) => m !== host && !spliced.has(m) && isRaisedInside(items[m]!, h));
    if (!marks.length) continue;
    const text = texts[host]!;
    // Right to left, so each splice leaves the positions of the marks left of it as they were.
    const placed = marks
      .map((m) => ({ m, at: nearestSpace(text, Math.round(((items[m]!.x - h.x) / h.width) * text.length)) }))
      .filter((p): p is { m: number; at: number } => p.at >= 0)
      .sort((a, b) => b.at - a.at);
    let out = text;
    for (const { m, at } of placed) {
      // The space before punctuation was left for the mark ("AirPods , Apple"); a word space stays.
      const replace = /[,.;:)]/.test(out[at + 1] ?? '');
      out = out.slice(0, at) + texts[m]!.trim() + out.slice(replace ? at + 1 : at);
      spliced.add(m);
    }
    texts[host] = out;
  }
  return spliced.size ? group.filter((m) => !spliced.has(m)) : group;
}

function isRaisedInside(mark: TextItem, host: TextItem): boolean {
  return mark.height < host.height && mark.y < host.y && mark.x > host.x && mark.x + mark.width < host.x + host.width;
}

/** The space nearest `at`: first one left before punctuation (a gap for a mark), else any. */
function nearestSpace(text: string, at: number): number {
  for (const gap of [/[,.;:)]/, /./]) {
    for (let d = 0; d <= SPLICE_REACH; d++) {
      for (const k of [at - d, at + d]) if (text[k] === ' ' && gap.test(text[k + 1] ?? '')) return k;
    }
  }
  return -1;
}

/** A gap this many of its text's heights wide sets two names of a grid apart (a word space is a fraction of one). */
const GRID_GAP_HEIGHTS = 6;
/** A grid's name: a few words opening with a capital, no figure, no label's colon. */
const GRID_NAME_RE = /^\p{Lu}[^\d:]*$/u;
const MAX_GRID_NAME_WORDS = 6;

/**
 * The names of a grid's row: short names set far apart along one baseline, as agency reports set their
 * stakeholders two to a row ("U.S. Leaders", then "Foreign Leaders" two inches to the right). Run
 * together they read as one name ("U.S. Leaders Foreign Leaders"). A label and its value ("Gross
 * Premium: $67,797"), a figure, or a sentence's words are no grid's names. Whether the line is read as
 * its names is the list's to say (blocks.ts): a running header set the same way stays one line.
 */
function gridCells(items: readonly TextItem[], texts: readonly string[], members: number[]): number[][] {
  if (members.length < 2) return [members];
  const cells: number[][] = [[members[0]!]];
  for (let k = 1; k < members.length; k++) {
    const prev = items[members[k - 1]!]!;
    const it = items[members[k]!]!;
    if (!it.dir && it.x - (prev.x + prev.width) > GRID_GAP_HEIGHTS * Math.min(prev.height, it.height)) cells.push([]);
    cells[cells.length - 1]!.push(members[k]!);
  }
  if (cells.length === 1) return cells;
  const names = cells.map((cell) => cell.map((m) => texts[m]!.trim()).join(' ').replace(/\s+/g, ' '));
  return names.every((n) => GRID_NAME_RE.test(n) && n.split(' ').length <= MAX_GRID_NAME_WORDS) ? cells : [members];
}

function tableRect(table: Table, page: number): Rect {
  const b = table.boxes.find((x) => x.page === page) ?? table.boxes[0];
  if (!b) return { left: 0, top: 0, right: 1, bottom: 1 };
  return { left: b.left, top: b.top, right: b.left + b.width, bottom: b.top + b.height };
}

/**
 * Items whose vertical extents mostly overlap form one line; lines come top to bottom. Invisible
 * tags make lines of their own, so that they neither join nor split the visible text beside them;
 * so does each item set sideways, whose tall box would otherwise join the lines it stands beside.
 */
function baselineGroups(items: readonly TextItem[], members: number[]): number[][] {
  const sorted = members.slice().sort((a, b) => items[a]!.y + items[a]!.height / 2 - (items[b]!.y + items[b]!.height / 2));
  const groups: { top: number; bottom: number; tag: boolean; members: number[] }[] = [];
  const open = { text: -1, tag: -1 };
  for (const i of sorted) {
    const it = items[i]!;
    if (it.dir) {
      groups.push({ top: it.y, bottom: it.y + it.height, tag: false, members: [i] });
      continue;
    }
    const tag = isTagText(it);
    const at = tag ? open.tag : open.text;
    const g = groups[at];
    if (g) {
      const overlap = Math.min(g.bottom, it.y + it.height) - Math.max(g.top, it.y);
      if (overlap >= 0.5 * Math.min(g.bottom - g.top, it.height)) {
        g.members.push(i);
        continue;
      }
    }
    if (tag) open.tag = groups.length;
    else open.text = groups.length;
    groups.push({ top: it.y, bottom: it.y + it.height, tag, members: [i] });
  }
  return groups.map((g) => g.members.sort((a, b) => items[a]!.x - items[b]!.x));
}

function buildLine(page: number, items: readonly TextItem[], texts: readonly string[], members: number[], column: number): Line {
  let text = '';
  const pieces: Piece[] = [];
  const sizeChars = new Map<number, number>();
  let letters = false;
  let allBold = true;
  let allItalic = true;
  let prev: TextItem | undefined;
  let prevText = '';
  for (const i of members) {
    const it = items[i]!;
    const raw = texts[i]!;
    const body = raw.trim();
    if (prev && spacedApart(prev, prevText, it, raw)) text += ' ';
    const start = text.length;
    text += body;
    pieces.push({ start, end: text.length, left: it.x, top: it.y, right: it.x + it.width, bottom: it.y + it.height, bold: !!it.bold, italic: !!it.italic, size: it.fontSize });
    sizeChars.set(it.fontSize, (sizeChars.get(it.fontSize) ?? 0) + body.length);
    if (/\p{L}/u.test(body)) {
      letters = true;
      if (!it.bold) allBold = false;
      if (!it.italic) allItalic = false;
    }
    prev = it;
    prevText = raw;
  }
  let size = 0;
  let most = -1;
  for (const [s, n] of sizeChars) {
    if (n > most) {
      most = n;
      size = s;
    }
  }
  const rect = {
    left: Math.min(...pieces.map((p) => p.left)),
    top: Math.min(...pieces.map((p) => p.top)),
    right: Math.max(...pieces.map((p) => p.right)),
    bottom: Math.max(...pieces.map((p) => p.bottom)),
  };
  const tag = members.every((i) => isTagText(items[i]!));
  return { page, text, pieces, size, bold: letters && allBold, italic: letters && allItalic, column, tag, sideways: members.every((i) => items[i]!.dir !== undefined), ...rect };
}
