/**
 * Paragraph-like blocks from lines in reading order: a block ends at a wider-than-usual line gap, a
 * change of font size or weight, a line that starts with a list marker or heading number, a first-line
 * indent after a finished sentence, or a jump to another column or page (unless the sentence runs on).
 */
import { wordsOf, type ParagraphRole } from '../../../document/structure.js';
import { FOOTNOTE_MARK_RE } from './furniture.js';
import { FIELD_LABEL_RE } from './headings.js';
import { isCentredTitle, type FlowElement, type Line } from './lines.js';
import { parseHeadingNumber, parseMarker, repeatsNumberInWords } from '../../../document/markers.js';

export type Block =
  /**
   * `runInTitle`: a lone line set flush over a paragraph whose first line is indented (a title in body type).
   * `unmarkedItem`: an item of a list printed without markers (see `unmarkedListLines`); `itemLeft`: where
   * its list's items start, when the item itself stands further right (a grid's second name).
   */
  | { kind: 'text'; lines: Line[]; runInTitle?: boolean; unmarkedItem?: boolean; itemLeft?: number }
  | { kind: 'furniture'; lines: Line[]; role: ParagraphRole }
  | Extract<FlowElement, { kind: 'table' }>;

const ENDS_SENTENCE_RE = /[.!?:;]["'”’)]?$/;
/** A table of contents entry ends with leader dots and its page number ("Vision ........ 3"). */
export const TOC_ENTRY_RE = /(?:\.{4,}|(?:\. ){4,}|…{2,})\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;
const never = (): boolean => false;

/** A name over a title: "Apple Inc.", "Exhibit A". */
const MAX_NAME_WORDS = 3;

function startsItem(text: string): boolean {
  return parseMarker(text, never) !== null || parseHeadingNumber(text) !== null;
}

/**
 * `recurringLabel`: the line is one of the labels the document sets again and again ("Stakeholder(s):"),
 * under which a single name is a list of one, as its siblings are lists of several.
 */
export function groupBlocks(flow: readonly FlowElement[], furniture: ReadonlyMap<Line, ParagraphRole>, recurringLabel: (line: Line) => boolean = () => false): Block[] {
  const leading = typicalLeading(flow, furniture);
  const { listed, wrapped } = unmarkedListLines(flow, furniture, recurringLabel);
  const blocks: Block[] = [];
  let open: Line[] | null = null;
  let held: Block[] = [];
  const close = (): void => {
    const first = open?.[0];
    // A grid's row in a list is one item for each of its names, set in the list's place.
    if (first && listed.has(first) && first.cells) for (const cell of first.cells) blocks.push({ kind: 'text', lines: [cell], unmarkedItem: true, itemLeft: first.left });
    else if (open) blocks.push(listed.has(open[0]!) ? { kind: 'text', lines: open, unmarkedItem: true } : { kind: 'text', lines: open });
    open = null;
    blocks.push(...held);
    held = [];
  };
  for (const el of flow) {
    if (el.kind === 'table') {
      close();
      blocks.push(el);
      continue;
    }
    const line = el.line;
    const role = furniture.get(line);
    if (role) {
      const into = open ? held : blocks;
      const last = into[into.length - 1];
      // A footnote runs on over lines until the next note mark.
      if (role === 'footnote' && last?.kind === 'furniture' && last.role === 'footnote' && !FOOTNOTE_MARK_RE.test(line.text)) last.lines.push(line);
      else into.push({ kind: 'furniture', lines: [line], role });
      continue;
    }
    if (open && (wrapped.has(line) || (!listed.has(line) && !listed.has(open[open.length - 1]!) && continues(open, line, leading)))) {
      open.push(line);
      continue;
    }
    close();
    open = [line];
  }
  close();
  markRunInTitles(blocks);
  return blocks;
}

/** An item of a list without markers is a name or a short phrase. */
const MAX_UNMARKED_ITEM_WORDS = 6;
/** Words that cannot end a list's item: the line goes on. */
const UNFINISHED_END_RE = /(?:[,;:–—-]|\b(?:and|or|of|the|to|for|in|on|a|an|with|by))$/i;

/**
 * The lines of lists without markers: two or more short lines one under another, each opening with
 * a capital and none ending a sentence or running on, in one type and one indent, under a line that
 * introduces them with a colon ("Coverage is provided for the following:" over "Water Supply",
 * "Communication Supply", "Power Supply"). Each is an item of its own, not words of one paragraph;
 * so is each name of a grid's row (`Line.cells`: "U.S. Leaders" and "Foreign Leaders" side by side).
 * An authoring tool's invisible tag between the lines does not end the list. Under a label the document
 * sets again and again, one such line is a list of one.
 */
function unmarkedListLines(
  flow: readonly FlowElement[],
  furniture: ReadonlyMap<Line, ParagraphRole>,
  recurringLabel: (line: Line) => boolean,
): { listed: Set<Line>; wrapped: Set<Line> } {
  const lines = flow.flatMap((el) => (el.kind === 'table' ? [null] : furniture.get(el.line) === 'tag' ? [] : furniture.has(el.line) ? [null] : [el.line]));
  const out = new Set<Line>();
  for (let k = 0; k < lines.length; k++) {
    const intro = lines[k];
    if (!intro || !intro.text.endsWith(':') || isFormField(intro.text)) continue;
    const em = intro.bottom - intro.top;
    const items: Line[] = [];
    const isItemText = (line: Line): boolean =>
      sizeKey(line.size) === sizeKey(intro.size) &&
      line.bold === intro.bold &&
      /^\p{Lu}/u.test(line.text) &&
      !ENDS_SENTENCE_RE.test(line.text) &&
      !UNFINISHED_END_RE.test(line.text) &&
      !startsItem(line.text) &&
      wordsOf(line.text).length <= MAX_UNMARKED_ITEM_WORDS;
    for (let j = k + 1; j < lines.length; j++) {
      const line = lines[j];
      const prev = items[items.length - 1] ?? intro;
      const item =
        line &&
        line.page === prev.page &&
        line.column === prev.column &&
        line.top - prev.bottom < em &&
        line.left >= intro.left - 0.5 * em &&
        (items.length === 0 || Math.abs(line.left - items[0]!.left) <= 0.5 * em) &&
        (line.cells ?? [line]).every(isItemText);
      if (!item) break;
      items.push(line);
    }
    if (items.length >= 2 || (items.length === 1 && recurringLabel(intro))) for (const line of items) out.add(line);
  }
  const stacked = namesStacked(
    flow.flatMap((el): (Line | null | 'table')[] => (el.kind === 'table' ? ['table'] : furniture.get(el.line) === 'tag' ? [] : furniture.has(el.line) ? [null] : [el.line])),
    recurringLabel,
  );
  for (const line of stacked.items) out.add(line);
  return { listed: out, wrapped: new Set(stacked.wrapped) };
}

/** A column of names is at least this long: two or three such lines are a title's, an address's or a signature's. */
const MIN_STACKED_NAMES = 4;
/** Words a name in capitals may hold in lower case ("Department of Health and Human Services"). */
const NAME_SMALL_WORDS = new Set(['of', 'and', 'the', 'for', 'on', 'in', 'to', 'a', 'an', 'at', 'by', 'with', 'de', '&']);

/** The head of a name that wrapped, alone on its line under the rest ("U.S. International Development Finance" / "Corporation"). */
const NAME_HEAD_RE = /^(?:Corporation|Company|Foundation|Agency|Administration|Commission|Bank|Board|Council|Institute|Service|Services|Office|Authority|Fund|Group|Association|Trust|Partnership|Department|Bureau|Committee|Center|Centre|Organization|Organisation)$/u;

/** "Department of Defense", "U.S. Export-Import Bank": a line that is a name, each word but the small ones capitalised. */
function isNameLine(line: Line): boolean {
  const words = wordsOf(line.text);
  return (
    words.length <= MAX_UNMARKED_ITEM_WORDS &&
    /^\p{Lu}/u.test(line.text) &&
    !ENDS_SENTENCE_RE.test(line.text) &&
    !UNFINISHED_END_RE.test(line.text) &&
    !startsItem(line.text) &&
    words.every((w) => NAME_SMALL_WORDS.has(w.toLowerCase()) || /^\p{Lu}/u.test(w))
  );
}

/**
 * Names set one to a line in a column (an agency plan's "Department of Defense", "Department of the Treasury", …
 * under "partners … include, but are not limited to"): four or more such lines one under another, in one type and one
 * indent, with no line of other text between them, are each an item of a list, not words of one paragraph. Under one of
 * the document's recurring labels three are enough; names carried on to the next column or page, two.
 */
function namesStacked(lines: readonly (Line | null | 'table')[], recurringLabel: (line: Line) => boolean): { items: Line[]; wrapped: Line[] } {
  const items: Line[] = [];
  const wrapped: Line[] = [];
  let run: Line[] = [];
  let runWrapped: Line[] = [];
  // The run's last line, an item's or a wrapped head's: the next name is measured from it.
  let prev: Line | undefined;
  // The last run was a column of names, and only page furniture came after it: a run of two or three goes on with it (the
  // names carried to the next column or page).
  let carried = false;
  // Under one of the document's recurring labels ("Stakeholder(s):"), up to a line set larger than it: entries are names
  // there, and three in a column are already a list of them.
  let label: Line | undefined;
  const flush = (): void => {
    if (run.length >= MIN_STACKED_NAMES || (carried && run.length >= 2) || (label && run.length >= 3)) {
      items.push(...run);
      wrapped.push(...runWrapped);
      carried = true;
    } else if (run.length) carried = false;
    run = [];
    runWrapped = [];
    prev = undefined;
  };
  for (const line of lines) {
    // A table between ends the names; page furniture (null) does not.
    if (line === 'table') {
      flush();
      carried = false;
      continue;
    }
    if (line && recurringLabel(line)) label = line;
    else if (line && label && line.size > 1.15 * label.size) label = undefined;
    const em = prev ? prev.bottom - prev.top : 0;
    const under =
      !!line &&
      !!prev &&
      line.page === prev.page &&
      line.column === prev.column &&
      line.top - prev.bottom < em &&
      line.top > prev.top &&
      Math.abs(line.size - prev.size) <= 0.15 * Math.max(line.size, prev.size) &&
      line.bold === prev.bold &&
      line.italic === prev.italic;
    if (line && under && NAME_HEAD_RE.test(line.text)) {
      runWrapped.push(line);
      prev = line;
      continue;
    }
    if (!(under && Math.abs(line!.left - run[0]!.left) <= 0.5 * em)) flush();
    if (line && !line.cells && isNameLine(line)) {
      run.push(line);
      prev = line;
    } else {
      flush();
      if (line) carried = false;
    }
  }
  flush();
  return { items, wrapped };
}

const MAX_INDENT_EMS = 8;

/**
 * "Participant Engagement" on a line of its own, then "      In the experimental group, …" with
 * the paragraph's further lines flush under the title: the title's line is no sentence of its own.
 */
function markRunInTitles(blocks: Block[]): void {
  for (let i = 0; i + 1 < blocks.length; i++) {
    const title = blocks[i]!;
    const next = blocks[i + 1]!;
    if (title.kind !== 'text' || next.kind !== 'text' || title.lines.length !== 1 || next.lines.length < 2) continue;
    const line = title.lines[0]!;
    const [first, second] = next.lines as [Line, Line];
    const em = line.bottom - line.top;
    if (startsItem(line.text) || /[.,;:!?]$/.test(line.text) || !/^\p{Lu}/u.test(line.text)) continue;
    const indent = first.left - line.left;
    const right = Math.max(...next.lines.map((l) => l.right));
    // An indent of a few ems under a title that does not fill the line (not a form's value column beside a label).
    if (indent > em && indent <= MAX_INDENT_EMS * em && line.right < right - 2 * em && Math.abs(second.left - line.left) <= 0.5 * em) title.runInTitle = true;
  }
}

function sizeKey(size: number): number {
  return Math.round(size * 2);
}

/** The usual white space between consecutive lines of one paragraph, per font size. */
function typicalLeading(flow: readonly FlowElement[], furniture: ReadonlyMap<Line, ParagraphRole>): Map<number, number> {
  const samples = new Map<number, number[]>();
  let prev: Line | null = null;
  for (const el of flow) {
    if (el.kind !== 'line' || furniture.has(el.line)) continue;
    const line = el.line;
    if (prev && prev.page === line.page && prev.column === line.column && sizeKey(prev.size) === sizeKey(line.size)) {
      const h = prev.bottom - prev.top;
      const gap = line.top - prev.bottom;
      if (gap > -0.5 * h && gap < 1.5 * h) {
        const list = samples.get(sizeKey(line.size)) ?? [];
        list.push(gap);
        samples.set(sizeKey(line.size), list);
      }
    }
    prev = line;
  }
  const out = new Map<number, number>();
  for (const [k, gaps] of samples) {
    gaps.sort((a, b) => a - b);
    // The lower quartile: paragraph gaps are frequent in short-paragraph documents.
    out.set(k, gaps[Math.floor(gaps.length / 4)]!);
  }
  return out;
}

/**
 * A line that starts with "(i)" or "2." in the middle of a sentence that fills the previous line
 * (and does not stop at "and"/"or", as enumerations do) is wrapped text, not a new item.
 */
function markerInSentence(block: Line[], next: Line, runsOn: boolean): boolean {
  const prev = block[block.length - 1]!;
  const left = Math.min(...block.map((l) => l.left));
  const em = prev.bottom - prev.top;
  return runsOn && prev.text.length >= 50 && !/\b(?:and|or)$/.test(prev.text) && next.left <= left + 0.5 * em;
}

/**
 * The next line opens the item after one a line of the block opens ("2." under a long "1. …" line,
 * or the same bullet at the same place): not a wrapped sentence.
 */
function nextItemOf(block: Line[], next: Line): boolean {
  const marker = parseMarker(next.text, never);
  if (!marker) return false;
  const em = next.bottom - next.top;
  return block.some((l) => {
    const own = parseMarker(l.text, never);
    if (!own || marker.key !== own.key || marker.depth !== own.depth) return false;
    return marker.ordered ? marker.value === own.value + 1 : Math.abs(l.left - next.left) <= 0.5 * em;
  });
}

/** "Name: Alan Black", "By: ____": short labelled lines of a form, one field each. */
function isFormField(text: string): boolean {
  return FIELD_LABEL_RE.test(text) && text.split(' ').length <= 8;
}

function startsBold(line: Line): boolean {
  const first = line.pieces.find((p) => /\p{L}/u.test(line.text.slice(p.start, p.end)));
  return !!first?.bold;
}

/**
 * The next line continues a bold title centred over several lines ("National Transportation Safety
 * Board" over "Aviation Accident Final Report"): inset on both sides, not a paragraph's indent.
 */
function centredTitleLine(block: Line[], next: Line, em: number): boolean {
  return next.bold && block.every((l) => l.bold) && isCentredTitle([...block, next], em);
}

function continues(block: Line[], next: Line, leading: ReadonlyMap<number, number>): boolean {
  const prev = block[block.length - 1]!;
  if (sizeKey(prev.size) !== sizeKey(next.size)) return false;
  // One entry of a table of contents per line, however long its leader dots make it.
  if (TOC_ENTRY_RE.test(prev.text)) return false;
  const runsOn = !ENDS_SENTENCE_RE.test(prev.text);
  // A bold label ("Stakeholder(s):") ends at its colon: the bold line under it is what it labels.
  if (prev.bold && block.every((l) => l.bold) && prev.text.endsWith(':')) return false;
  // A bold label on a line of its own starts a block, also under a sentence left without its stop.
  if (next.bold && !prev.bold && next.text.endsWith(':')) return false;
  const fullLine = prev.text.length >= 50;
  // A change of weight inside a sentence that fills its line is a bold term or the end of a bold passage, not a heading.
  if (prev.bold !== next.bold && !(runsOn && fullLine && (!prev.bold || startsBold(next)))) return false;
  // A short line all in italics over roman type is a title or a note of its own, not the paragraph's first line.
  if (prev.italic && !next.italic && block.length === 1 && !fullLine) return false;
  // "SECTION 906 OF THE SARBANES-OXLEY ACT" as the last line of a centred title is not a new section.
  const title = centredTitleLine(block, next, prev.bottom - prev.top);
  const figure = repeatsNumberInWords(prev.text, next.text);
  if (startsItem(next.text) && !title && !figure && (!markerInSentence(block, next, runsOn) || nextItemOf(block, next))) return false;
  // A field ends where the next one starts, also after a value that wrapped ("Official Title: …" over two lines, then "Grant Number: …").
  if (isFormField(next.text) && (isFormField(prev.text) || FIELD_LABEL_RE.test(block[0]!.text))) return false;
  const em = prev.bottom - prev.top;
  const lone = block.length === 1 && !startsItem(prev.text);
  if (prev.page !== next.page || prev.column !== next.column) {
    // A lone line above an indented first line is a run-in title, also across a page ("… (secondary outcome)" / "    HRQOL was…").
    if (lone && next.left > prev.left + em && !/^[\p{Ll}\d(]/u.test(next.text)) return false;
    // A paragraph carried over to the next column or page.
    return runsOn && (fullLine || /^[\p{Ll}\d(]/u.test(next.text) || /[,-]$/.test(prev.text));
  }
  const h = prev.bottom - prev.top;
  const gap = next.top - prev.bottom;
  const usual = leading.get(sizeKey(prev.size)) ?? 0.3 * h;
  if (gap < -0.5 * h) return false;
  // A short bold line centred a blank line over a bold title names what the title is of ("Apple Inc."
  // over "CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)"): one heading, not an empty section.
  if (gap > usual + 0.5 * h) return title && lone && wordsOf(prev.text).length <= MAX_NAME_WORDS && gap <= 1.5 * h;
  let left = Infinity;
  let right = -Infinity;
  for (const l of block) {
    left = Math.min(left, l.left);
    right = Math.max(right, l.right);
  }
  if (next.left > right) return false;
  // A first-line indent starts a new paragraph: after a finished sentence, or after a lone line (a run-in title).
  // A bold title centred over two lines is one title, though its second line looks indented.
  if ((!runsOn || lone) && next.left > Math.max(prev.left, left) + em && !title) return false;
  // A short line ending a sentence closes its paragraph.
  if (!runsOn && block.length > 1 && prev.right < right - 0.25 * (right - left)) return false;
  return true;
}
