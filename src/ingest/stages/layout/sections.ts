/**
 * The structure tree from blocks in reading order. Headings open sections that run until a heading
 * at least as strong; numbered and bulleted blocks become list items, nested by their numbering
 * (1. > 1.1 > 1.1.1) or their indent. As in the reference DGML, a numbered block that leads with a
 * heading ("1.1 Landlord. Menlo Group…") is a list item holding a section.
 */
import type { Leaf, List, ListItem, Paragraph, Section, StructureNode } from '../../../document/structure.js';
import { isFurniture, wordsOf } from '../../../document/structure.js';
import { TOC_ENTRY_RE, type Block } from './blocks.js';
import { findHeading, STANDALONE_BONUS, type HeadingSplit } from './headings.js';
import { makeLeaf, rangesFrom, wholeLines, type TextRange } from './leaf.js';
import type { Vocabulary } from './text.js';
import type { Line } from './lines.js';
import { parseHeadingNumber, parseMarker, type Marker } from '../../../document/markers.js';

type Frame =
  | { kind: 'root'; children: StructureNode[] }
  | SectionFrame
  | { kind: 'list'; marker: Marker; x: number; last: number; list: List }
  | { kind: 'item'; marker: Marker; x: number; heading: HeadingSplit | null; children: StructureNode[]; number: string | null };

interface SectionFrame {
  kind: 'section';
  strength: number;
  field: boolean;
  left: number;
  standalone: boolean;
  children: StructureNode[];
  /** The blank between its heading and the text under it, in line heights (undefined until that text came). */
  firstGap?: number;
  /** Its heading ends in a colon, with nothing after it on its line: a label ("Stakeholder(s):") over what it introduces. */
  label: boolean;
  /** Its heading ends in a colon, with text under it or not ("U.S. Partners : The State Department will …"). */
  colon: boolean;
  /** A label the document sets again and again (`PageFacts.labelNames`): its entries may stand a blank line under it. */
  recurring: boolean;
  /** A label: the strength of the first entry it holds (see `introduces`), and where its entries start. */
  entries?: number;
  entryLefts?: number[];
  /** An entry: the label that holds it. */
  entryOf?: SectionFrame;
  /** Where the headings in its own type that it holds stand, indented under its heading (see `indentedUnder`). */
  indent?: number;
  /** It came tight under an empty label in its own type, beside it (see `entryBesideLabel`). */
  besideLabel?: SectionFrame;
}

/** A label in the type of the empty label just above it, opened beside it: its first entry if text comes tight under it. */
interface PendingEntry {
  label: SectionFrame;
  frame: SectionFrame;
  section: Section;
}

/** Article and Section headings outrank styled headings of the same font (bold and capitals add 3 at most). */
const ARTICLE_BONUS = 4;
const SECTION_BONUS = 3.5;
/** A numbered note ("Note 2 – Revenue") holds the unnumbered headings of its type up to the next note, inside its item. */
const NOTE_BONUS = 3;
/** Strength difference of one point of font size: a numbered heading holds unnumbered ones only when they are set smaller. */
const LARGER_FONT = 10;
/** A blank of at least a line height sets a block off; under half of one, text sits tight on what is above it. */
const BLANK_LINE = 1;
const TIGHT = 0.5;
/** How far under a recurring label (in line heights) its first entry may stand. */
const RECURRING_LABEL_GAP = 3;
/** A list item's marker that is a dotted number ("1.1."), and the number. */
const DOTTED_MARKER = /^(\d+(?:\.\d+)*)\.?$/;
/** A heading that names a dotted number after a word or three: "Strategy 1.1.1. COVID-19", "Key Performance Goal 1.2.1". */
const NAMED_NUMBER = /^(?:\p{L}+\s+){1,3}(\d+(?:\.\d+)+)\.?(?:\s|$)/u;
/** What capitals add to a heading's strength (see headings.ts). */
const CAPITALS = 1;
/** A heading that ends so labels what follows it. */
const LABEL_END = /:\s*$/;
/** How far (px) right of a list item's marker a table may start and still belong to the item. */
const TABLE_TOLERANCE = 75;

/** A centred opening title: its lines, and how far (in ems) inside both edges of the page's text each stands. */
const MAX_CENTRED_OPENING_LINES = 3;
/** The marker of the items of a list printed without markers: one list of its own per indent. */
const UNMARKED: Marker = { end: 0, key: 'unmarked', style: 'none', ordered: false, depth: 1, value: 0 };
const CENTRED_INSET_EMS = 3;

export interface PageFacts {
  /** The first page holds only a few lines (a title, a date) before the document proper. */
  coverPage?: boolean;
  /** Where each page's text runs across, furniture aside (by page number). */
  textSpans?: ReadonlyMap<number, { left: number; right: number }>;
  /** The document's words, for mending words broken at a line's end. */
  vocabulary?: Vocabulary;
  /**
   * The names the document gives its labels: lines that end in a colon ("Stakeholder(s):"), without
   * it. A heading of the same name without its colon is the same label.
   */
  labelNames?: ReadonlySet<string>;
}

/** A label's name as `PageFacts.labelNames` holds it: without its colon, spaces and case aside. */
export function labelName(text: string): string {
  return text.replace(/\s*:\s*$/, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

export class TreeBuilder {
  private readonly root: StructureNode[] = [];
  private readonly stack: Frame[] = [{ kind: 'root', children: this.root }];
  /** Where the last text block of each reading-order column ended. */
  private readonly columnBottom = new Map<number, number>();
  /** Sections whose headings only italics set apart, with their frames (the blank under the heading). */
  private readonly weak = new WeakMap<Section, SectionFrame>();
  /** Sections list items open with a heading on its own line. */
  private readonly titleItems = new WeakSet<Section>();
  /** The blank above the text block being added, in its line heights (-1: the first of its column). */
  private gapAbove = -1;
  /** The last line of the latest text block, and of the one before it (the block being added comes between). */
  private lastLine: Line | null = null;
  private previousLine: Line | null = null;
  /** A section opened by the last text block, waiting to learn how far below it its text starts. */
  private opened: SectionFrame | null = null;
  /** No text block has been added yet: the next one opens the document. */
  private beforeText = true;
  /** The first line of the latest item of a list without markers. */
  private lastUnmarkedLine: Line | null = null;
  /** Set by the block that opened it, for the next block only. */
  private pendingEntry: PendingEntry | null = null;

  constructor(
    private readonly bodySize: number,
    private readonly page: PageFacts = {},
  ) {}

  add(block: Block): void {
    const pending = this.pendingEntry;
    this.pendingEntry = null;
    const tightUnderPending = pending !== null && block.kind === 'text' && this.tightUnderLast(block.lines[0]!);
    this.addBlock(block);
    // Text set tight under the pending entry went inside it: it is the label's entry, with that text.
    if (tightUnderPending && pending.section.children.some((n) => !furniture(n))) this.nestUnderLabel(pending);
  }

  private addBlock(block: Block): void {
    if (block.kind !== 'furniture' && !(block.kind === 'text' && block.unmarkedItem)) this.closeUnmarkedList();
    switch (block.kind) {
      case 'furniture':
        this.append({ type: 'paragraph', structure: block.role === 'footnote' ? 'p' : 'div', role: block.role, leaf: this.leaf(wholeLines(block.lines)) });
        break;
      case 'table':
        this.closePlainItems(block.rect.left, TABLE_TOLERANCE);
        this.append(block.table);
        break;
      case 'text':
        if (block.unmarkedItem) this.addUnmarkedItem(block.lines, block.itemLeft);
        else this.addText(block.lines, block.runInTitle ?? false);
        break;
    }
  }

  nodes(): StructureNode[] {
    weakHeadingsHeadNothing(this.root, this.weak);
    itemTitlesHeadNothing(this.root, this.titleItems);
    lastHeadingsHeadNothing(this.root);
    termRunsHeadNothing(this.root);
    return this.root;
  }

  /** Notes where a text block sits: the blank above it, and the gap under a heading opened just before. */
  private place(lines: readonly Line[]): void {
    const first = lines[0]!;
    const above = this.columnBottom.get(first.column);
    this.gapAbove = above === undefined ? -1 : (first.top - above) / lineHeight(first);
    this.columnBottom.set(first.column, lines[lines.length - 1]!.bottom);
    this.previousLine = this.lastLine;
    this.lastLine = lines[lines.length - 1]!;
    if (this.opened) this.opened.firstGap = this.gapAbove;
    this.opened = null;
  }

  private addText(lines: Line[], runInTitle: boolean): void {
    const first = lines[0]!;
    this.place(lines);
    const ranges = wholeLines(lines);
    // The document's first text stands apart as its title when set larger than its body, alone on a
    // cover page, or centred over the text below it ("Study Protocol" over a protocol set flush left).
    const opening = this.beforeText && (this.page.coverPage === true || lines.every((l) => l.size >= this.bodySize + 1) || this.centredInPage(lines));
    this.beforeText = false;
    const tolerance = 1.5 * lineHeight(first);
    // A table of contents entry ("Strategy 1.1.1. COVID-19 ….. 11") names a heading; it is none.
    const tocEntry = TOC_ENTRY_RE.test(lines[lines.length - 1]!.text);
    const headingIn = (of: TextRange[], numbered: boolean, runIn = false): HeadingSplit | null =>
      tocEntry ? null : findHeading(of, this.bodySize, { numbered, runInTitle: runIn, opening });
    const number = parseHeadingNumber(first.text);
    if (number) {
      const split = headingIn(ranges, true);
      const lone = wordsOf(first.text.slice(number.end)).length === 0;
      if (split || lone) {
        const heading = split ? split.heading : ranges;
        const base = split ? split.strength : first.size * 10 + 5;
        const strength = base + { article: ARTICLE_BONUS, section: SECTION_BONUS, note: NOTE_BONUS }[number.rank];
        this.openSection({ heading, body: split?.body ?? [], strength, leadIn: split?.leadIn ?? false }, first.left, tolerance);
        return;
      }
    }
    const marker = this.marker(first, lines.length > 1);
    if (marker) {
      const after = skipSpaces(ranges, marker.end);
      const split = headingIn(after, true);
      this.addItem(marker, { ...ranges[0]!, end: marker.end }, split, after, first.left, tolerance);
      return;
    }
    const split = headingIn(ranges, false, runInTitle);
    if (split) {
      this.openSection(split, first.left, tolerance);
      return;
    }
    this.closePlainItems(first.left, tolerance);
    this.append(paragraph(ranges, this.page.vocabulary));
  }

  /** An item of a list printed without markers: its line is the item's text. */
  private addUnmarkedItem(lines: Line[], left = lines[0]!.left): void {
    const first = lines[0]!;
    const top = this.top();
    // Names under an entry with nothing under it ("Stateless Persons", then a column of names over the page), or under one
    // whose text has ended its sentence, are more entries of its label, not the entry's; so are names under a title with
    // nothing but a page turn under it. (A label's list is its own: "Stakeholder(s):" at a page's foot.)
    const empty = top.kind === 'section' && top.children.every(furniture) && (!!top.entryOf || (!top.label && top.children.length > 0));
    if (top.kind === 'section' && (empty || ((top.entryOf || top.colon) && endsSentence(top.children)))) this.stack.pop();
    // Names set in two columns, or carried to the next page: the next column's are the same list's, not nested in its last item.
    const previous = this.lastUnmarkedLine;
    const list = this.stack[this.stack.length - 2];
    if (top.kind === 'item' && top.marker === UNMARKED && list?.kind === 'list' && previous && (first.column !== previous.column || first.page !== previous.page)) {
      list.x = left;
      top.x = left;
    }
    this.lastUnmarkedLine = first;
    this.place(lines);
    this.beforeText = false;
    this.addItem(UNMARKED, null, null, wholeLines(lines), left, 1.5 * lineHeight(first));
  }

  /** A few lines each centred in their page's text span and well inside both of its edges. */
  private centredInPage(lines: readonly Line[]): boolean {
    if (lines.length > MAX_CENTRED_OPENING_LINES) return false;
    return lines.every((l) => {
      const span = this.page.textSpans?.get(l.page);
      const em = lineHeight(l);
      if (!span) return false;
      const inset = Math.min(l.left - span.left, span.right - l.right);
      return inset > CENTRED_INSET_EMS * em && Math.abs(l.left - span.left - (span.right - l.right)) <= em;
    });
  }

  private leaf(ranges: readonly TextRange[]): Leaf {
    return makeLeaf(ranges, this.page.vocabulary);
  }

  private marker(line: Line, more: boolean): Marker | null {
    const marker = parseMarker(line.text, (key, value) => this.stack.some((f) => f.kind === 'list' && f.marker.key === key && f.last === value - 1));
    if (!marker) return null;
    const rest = line.text.slice(marker.end).trim();
    if (!rest && !more) return null;
    return marker;
  }

  private top(): Frame {
    return this.stack[this.stack.length - 1]!;
  }

  private append(node: StructureNode): void {
    if (node.type !== 'section') this.closeFields();
    const top = this.top();
    if (top.kind === 'list') throw new Error('a list frame is always topped by an item');
    top.children.push(node);
  }

  /** A field's section is its label and value: text, lists and tables after it are not inside it. */
  private closeFields(): void {
    for (let top = this.top(); top.kind === 'section' && top.field; top = this.top()) this.stack.pop();
  }

  private sectionDepth(): number {
    return this.stack.filter((f) => f.kind === 'section' || (f.kind === 'item' && f.heading !== null)).length;
  }

  /** Plain list items end at a block that starts left of their text. */
  /** A list without markers holds its names and nothing more: what comes after it, wherever it stands, is not in its last item. */
  private closeUnmarkedList(): void {
    const top = this.top();
    if (top.kind === 'item' && top.marker === UNMARKED) this.stack.length -= 2;
  }

  private closePlainItems(left: number, tolerance: number): void {
    for (;;) {
      const top = this.top();
      if (top.kind === 'item' && !top.heading && left <= top.x + 0.5 * tolerance) {
        this.stack.pop();
        this.stack.pop();
      } else return;
    }
  }

  private openSection(split: HeadingSplit, left: number, tolerance: number): void {
    const previous = this.top();
    // The section that holds the new one as an entry under its label, or as a heading indented under its own.
    let label: SectionFrame | undefined;
    let indentedUnder: SectionFrame | undefined;
    for (;;) {
      const top = this.top();
      if (top.kind === 'section') {
        if (this.introduces(top, split, left, tolerance)) label = top;
        else if (this.indentedUnder(top, split, left, tolerance)) indentedUnder = top;
        const pop = top.strength <= split.strength || this.peerOf(top, split, left, tolerance) || this.setOffLikeIt(top, split, left, tolerance) || closesLabel(top, split);
        if (label || indentedUnder || !pop) break;
      } else if (top.kind === 'root' || (top.kind === 'item' && (this.holds(top, split) || left > top.x + tolerance))) break;
      this.stack.pop();
    }
    if (label) {
      label.entries ??= split.strength;
      (label.entryLefts ??= []).push(left);
    }
    if (indentedUnder) indentedUnder.indent ??= left;
    const beside = this.top() === previous ? undefined : this.entryBesideLabel(previous, split, left, tolerance);
    const section: Section = { type: 'section', level: this.sectionDepth() + 1, heading: this.leaf(split.heading), children: [] };
    if (split.body.length) section.children.push(paragraph(split.body, this.page.vocabulary));
    const recurring = !split.body.length && this.page.labelNames?.has(labelName(section.heading.text)) === true;
    this.append(section);
    const frame: SectionFrame = {
      kind: 'section',
      strength: split.strength,
      field: split.field ?? false,
      left,
      standalone: !split.leadIn,
      label: !split.body.length && (LABEL_END.test(section.heading.text) || recurring),
      colon: LABEL_END.test(section.heading.text),
      recurring,
      entryOf: label,
      besideLabel: beside,
      children: section.children,
    };
    this.stack.push(frame);
    if (beside) this.pendingEntry = { label: beside, frame, section };
    if (split.weak) this.weak.set(section, frame);
    if (!split.body.length) this.opened = frame;
  }

  /**
   * A label heading with nothing under it yet ("Stakeholder(s):") holds the heading set right under it,
   * not left of it, however that one is set: "Public Buildings Service :" in a larger type is the
   * stakeholder it introduces, not a section beside it; so are the entries that follow as tight. A
   * label followed by a lead-in ("Objectives:" then "Design: …"), or by a label in its own type or a
   * lesser one (a form's empty fields), is one of a run of entries.
   */
  private introduces(top: SectionFrame, next: HeadingSplit, left: number, tolerance: number): boolean {
    if (!top.label || next.leadIn || left < top.left - 0.5 * tolerance) return false;
    // Right under the block before it (or beside it, in a column of its own), on the same page: what
    // is set off by a blank line is not an entry; at the top of the next page, one named as a label
    // where the entries before it start still is.
    if (!this.tightUnderPrevious(next) && !this.entryOverPage(top, next, left, tolerance)) return false;
    // Entries after the first are in its type or a lesser one down to the label's: the lead
    // agencies' names, then the other stakeholders'. A name in capitals ("NATO :") is in its type.
    if (top.entries !== undefined) return next.strength <= top.entries + CAPITALS || this.leadAgencyAfter(top, next);
    if (!top.children.every(furniture)) return false;
    return next.strength > top.strength || !LABEL_END.test(this.leaf(next.heading).text);
  }

  /**
   * A lead agency named as a label, set up to a point larger than the label, is one of its entries
   * even after the others (in a column of its own, read after theirs). One in the label's own type is
   * the label's peer, and an entry named as a label ("Samantha Power :" over "USAID Administrator")
   * holds no such one.
   */
  private leadAgencyAfter(top: SectionFrame, next: HeadingSplit): boolean {
    if (top.entryOf || next.strength <= top.strength || next.strength > top.strength + LARGER_FONT + CAPITALS) return false;
    return LABEL_END.test(this.leaf(next.heading).text);
  }

  /**
   * A label in the type of the empty label just above it, set tight under it, was opened beside it (a
   * form's empty fields: "Name:", "Title:"); but when text comes tight under it, it is the first of
   * the label's entries: "Stakeholder(s):" then "U.S. Elected Leaders :" over a sentence about them.
   * The label that stands first in its run only: in a run of empty fields, the third is no entry of the second.
   * Under one of the document's recurring labels, the first entry may stand a blank line or two lower
   * ("Stakeholder(s):", then "Marginalized Populations :" over its sentence).
   */
  private entryBesideLabel(previous: Frame, next: HeadingSplit, left: number, tolerance: number): SectionFrame | undefined {
    if (previous.kind !== 'section' || !previous.label || previous.besideLabel || previous.entries !== undefined) return undefined;
    if (next.leadIn || next.body.length || next.strength !== previous.strength || !LABEL_END.test(this.leaf(next.heading).text)) return undefined;
    if (left < previous.left - 0.5 * tolerance || !previous.children.every(furniture)) return undefined;
    const setOffBelow = previous.recurring && this.underPrevious(next, RECURRING_LABEL_GAP);
    if (!setOffBelow && !this.tightUnderPrevious(next) && !this.entryOverPage(previous, next, left, tolerance)) return undefined;
    return previous;
  }

  /** The pending entry goes inside its label, which holds the entries that follow as it holds any. */
  private nestUnderLabel({ label, frame, section }: PendingEntry): void {
    const index = this.stack.indexOf(frame);
    const parent = this.stack[index - 1];
    if (index < 1 || !parent || parent.kind === 'list') return;
    const siblings = parent.children;
    const at = siblings.lastIndexOf(section);
    const labelSection = siblings[at - 1];
    if (at < 1 || labelSection?.type !== 'section' || labelSection.children !== label.children) return;
    siblings.splice(at, 1);
    label.children.push(section);
    deepen(section, labelSection.level + 1 - section.level);
    frame.entryOf = label;
    frame.besideLabel = undefined;
    label.entries = frame.strength;
    label.entryLefts = [frame.left];
    this.stack.splice(index, 0, label);
  }

  /** The line starts less than half a line under the last text block's, on its page. */
  private tightUnderLast(first: Line): boolean {
    const last = this.lastLine;
    return last !== null && last.page === first.page && first.top - last.bottom < TIGHT * lineHeight(first);
  }

  /**
   * A heading with nothing under it yet holds a heading in its own type set tight under it and
   * indented ("Performance Indicators" over "Performance Goal 1.1.1 COVID-19 Pandemic"), and the
   * headings in that type at that indent after it ("Performance Goal 1.1.2 …" after the first goal's table).
   */
  private indentedUnder(top: SectionFrame, next: HeadingSplit, left: number, tolerance: number): boolean {
    if (next.leadIn || !top.standalone || next.strength !== top.strength) return false;
    if (top.indent !== undefined) return left > top.left + 0.3 * tolerance && Math.abs(left - top.indent) <= 0.25 * tolerance;
    if (!top.children.every(furniture) || !this.tightUnderPrevious(next)) return false;
    return left >= top.left + 0.3 * tolerance && left <= top.left + 2 * tolerance;
  }

  /**
   * The label's entries go on over a page turn: the next page's first text is named as one, where one
   * started (where the label starts, for a label that ends its page with nothing under it yet).
   */
  private entryOverPage(top: SectionFrame, next: HeadingSplit, left: number, tolerance: number): boolean {
    const before = this.previousLine;
    if (!top.label || !before || before.page >= next.heading[0]!.line.page) return false;
    const lefts = top.entryLefts ?? (top.children.every(furniture) ? [top.left] : []);
    return LABEL_END.test(this.leaf(next.heading).text) && lefts.some((x) => Math.abs(x - left) <= 0.25 * tolerance);
  }

  /** The heading starts less than a blank line under the text block before it (or beside it), on its page. */
  private tightUnderPrevious(next: HeadingSplit): boolean {
    return this.underPrevious(next, BLANK_LINE);
  }

  /** The heading starts less than `blank` line heights under the text block before it (or beside it), on its page. */
  private underPrevious(next: HeadingSplit, blank: number): boolean {
    const first = next.heading[0]!.line;
    const before = this.previousLine;
    return before !== null && before.page === first.page && first.top - before.bottom < blank * lineHeight(first);
  }

  /**
   * A lead-in set off by a blank line, after a heading of its type that sits tight on its own text,
   * is the next entry like that heading, not inside it: "Objectives:" over its bulleted objectives,
   * then, after a blank line, "Study design: Interventional study…".
   */
  private setOffLikeIt(top: SectionFrame, next: HeadingSplit, left: number, tolerance: number): boolean {
    return leadInOfItsType(top, next, left, tolerance) && !top.children.every(furniture) && top.firstGap !== undefined && top.firstGap < TIGHT && this.gapAbove >= BLANK_LINE;
  }

  /**
   * A heading standing alone with nothing under it yet, in the type of the lead-in that follows at
   * its place, is an entry like it: "Trust" then "Collaboration: COLLABORATE ~ …" are two values.
   */
  private peerOf(top: SectionFrame, next: HeadingSplit, left: number, tolerance: number): boolean {
    // Page furniture between them (a page turn) does not count.
    return leadInOfItsType(top, next, left, tolerance) && top.children.every(furniture);
  }

  /**
   * Whether a numbered clause's heading keeps an unnumbered heading inside the clause: when it is set
   * a point larger, or both lead into their text ("1.10 Base Rent. …" then "Gross Rent Credit. …").
   * A bulleted item's lead-in ("- Primary objective: …") holds no lead-in after the list ("Study design: …").
   * A heading named with a number under the item's ("Strategy 1.1.1. COVID-19" after "1.1. Health")
   * is inside it, however it is set.
   */
  private holds(item: Extract<Frame, { kind: 'item' }>, next: HeadingSplit): boolean {
    const heading = item.heading;
    if (!heading) return false;
    const named = item.number ? NAMED_NUMBER.exec(next.heading.map((r) => r.line.text.slice(r.start, r.end)).join(' ')) : null;
    if (named && named[1]!.startsWith(`${item.number}.`)) return true;
    return heading.strength >= next.strength + LARGER_FONT || (item.marker.ordered && heading.leadIn && next.leadIn && heading.strength >= next.strength);
  }

  private addItem(marker: Marker, markerRange: TextRange | null, split: HeadingSplit | null, after: TextRange[], x: number, tolerance: number): void {
    const sameList = (f: Frame): boolean =>
      f.kind === 'list' && f.marker.key === marker.key && (marker.key === 'dec' ? f.marker.depth === marker.depth : Math.abs(f.x - x) <= tolerance);
    let at = -1;
    for (let i = this.stack.length - 1; i > 0 && at < 0; i--) if (sameList(this.stack[i]!)) at = i;
    const found = at > 0 ? (this.stack[at] as Extract<Frame, { kind: 'list' }>) : null;
    if (found && (!marker.ordered || (marker.value > found.last && marker.value <= found.last + 2))) {
      this.stack.length = at + 1;
    } else {
      if (found) this.stack.length = at;
      // A numbered heading set stronger than the open section ("1. Real Estate" after "Values") is not inside it.
      for (let top = this.top(); split && top.kind === 'section' && top.strength < split.strength; top = this.top()) this.stack.pop();
      while (!this.contains(this.top(), marker, x, tolerance)) this.stack.pop();
      const list: List = { type: 'list', ordered: marker.ordered, style: marker.style, items: [] };
      this.append(list);
      this.stack.push({ kind: 'list', marker, x, last: 0, list });
    }
    const listFrame = this.top() as Extract<Frame, { kind: 'list' }>;
    listFrame.last = marker.value;
    const item: ListItem = { marker: markerRange ? this.leaf([markerRange]) : null, children: [] };
    listFrame.list.items.push(item);
    let children = item.children;
    if (split) {
      const section: Section = { type: 'section', level: this.sectionDepth() + 1, heading: this.leaf(split.heading), children: [] };
      item.children.push(section);
      children = section.children;
      if (!split.leadIn) this.titleItems.add(section);
    }
    const body = split ? split.body : after;
    if (body.length) children.push(paragraph(body, this.page.vocabulary));
    const number = markerRange ? (DOTTED_MARKER.exec(item.marker!.text)?.[1] ?? null) : null;
    this.stack.push({ kind: 'item', marker, x, heading: split, children, number });
  }

  /** Whether a new list with this marker nests inside the frame. */
  private contains(frame: Frame, marker: Marker, x: number, tolerance: number): boolean {
    switch (frame.kind) {
      case 'root':
      case 'section':
        return true;
      case 'list':
        return false;
      case 'item':
        if (frame.marker.key === 'dec' && marker.key === 'dec') return frame.marker.depth < marker.depth;
        return frame.heading !== null || x > frame.x + tolerance;
    }
  }
}

/**
 * A heading heads what follows it: one that the document ends under with nothing but page furniture
 * ("IRB No. 0206/66" centred under the signature, a publisher's colophon on the last page) is a line
 * of text. The deepest last section is looked at first, then the one holding it.
 */
function lastHeadingsHeadNothing(nodes: StructureNode[]): void {
  let at = nodes.length - 1;
  while (at >= 0 && furniture(nodes[at]!)) at--;
  const last = nodes[at];
  if (!last || last.type !== 'section') return;
  lastHeadingsHeadNothing(last.children);
  if (last.children.every(furniture)) nodes.splice(at, 1, ...asText(last));
}

/**
 * A line in italics is a title only over text that follows right under it, in its column: with
 * nothing under it ("Contributing Program" under a stakeholder's name), or with the next text set
 * off by a blank line or in another column, it is a line of text.
 */
function weakHeadingsHeadNothing(nodes: StructureNode[], weak: WeakMap<Section, SectionFrame>): void {
  for (let at = nodes.length - 1; at >= 0; at--) {
    const node = nodes[at]!;
    if (node.type === 'list') for (const item of node.items) weakHeadingsHeadNothing(item.children, weak);
    if (node.type !== 'section') continue;
    weakHeadingsHeadNothing(node.children, weak);
    const frame = weak.get(node);
    const gap = frame?.firstGap ?? -1;
    if (frame && (node.children.every(furniture) || gap < 0 || gap >= BLANK_LINE)) nodes.splice(at, 1, ...asText(node));
  }
}

/**
 * List items set as titles on lines of their own head the text under them ("1. DEFINITIONS" over its
 * clauses; an article "31. RESERVED." among such is one too). When none of a list's titles has
 * anything under it, the titles are the items' text, as in a list of findings ("1. (C) DIRECTIONAL
 * CONTROL - NOT MAINTAINED", "2. (F) TERRAIN CONDITION - ROUGH/UNEVEN").
 */
function itemTitlesHeadNothing(nodes: StructureNode[], titleItems: WeakSet<Section>): void {
  for (const node of nodes) {
    if (node.type === 'section') itemTitlesHeadNothing(node.children, titleItems);
    if (node.type !== 'list') continue;
    for (const item of node.items) itemTitlesHeadNothing(item.children, titleItems);
    const titles = node.items.map((item) => item.children[0]).filter((n): n is Section => n?.type === 'section' && titleItems.has(n));
    if (titles.length === 0 || !titles.every((t) => t.children.every(furniture))) continue;
    for (const item of node.items) {
      const first = item.children[0];
      if (first?.type === 'section' && titleItems.has(first)) item.children.splice(0, 1, ...asText(first));
    }
  }
}

/** Headings in a row over nothing, this many or more, are the items of a list ("Values": "Security", "Prosperity", …). */
const MIN_TERM_RUN = 3;
/** A term of such a list: a few words, no figures, no label's colon, no sentence's end. */
const MAX_TERM_WORDS = 5;
const isTerm = (text: string): boolean => wordsOf(text).length <= MAX_TERM_WORDS && !/\p{N}|[:;.!?]\s*$/u.test(text);

/**
 * Short lines set as titles one under another, none with anything under it but page furniture, are
 * a list of terms, not headings: a plan's values ("Security", "Prosperity", "Democracy" …) or its
 * stakeholders ("State Governments", "Local Governments", "Tribal Governments"). Each would be an
 * empty section named by its own words; they become the items of an unmarked list, each item keeping
 * the furniture its section held. A run next to a section is left: among titles with text under them
 * ("Public Service: NARA values …", "Openness", "Transparency", "Trust", "Collaboration: …") a title
 * with none is an entry like the others. Titles with figures or a colon ("Exhibit 10.2", "Start Date:
 * 2019-10-01") are a document's title lines and fields, not terms, and stay.
 */
function termRunsHeadNothing(nodes: StructureNode[]): void {
  for (const node of nodes) {
    if (node.type === 'section') termRunsHeadNothing(node.children);
    else if (node.type === 'list') for (const item of node.items) termRunsHeadNothing(item.children);
  }
  const empty = (n: StructureNode | undefined): n is Section => n?.type === 'section' && n.children.every(furniture) && isTerm(n.heading.text);
  for (let at = 0; at < nodes.length; at++) {
    const first = nodes[at];
    if (!empty(first)) continue;
    let end = at + 1;
    while (empty(nodes[end]) && (nodes[end] as Section).level === first.level) end++;
    // Beside titles of the same kind with text under them, they are entries like those (a value with no description among values with one).
    if (end - at < MIN_TERM_RUN || nodes[at - 1]?.type === 'section' || nodes[end]?.type === 'section') continue;
    const items: ListItem[] = (nodes.slice(at, end) as Section[]).map((s) => ({ marker: null, children: asText(s) }));
    nodes.splice(at, end - at, { type: 'list', ordered: false, style: 'none', items });
  }
}

/** A section's heading as a line of text, followed by what the section held (page furniture). */
function asText(section: Section): StructureNode[] {
  const text = section.heading.text;
  const running = wordsOf(text).length >= 8 && /[.!?:;]["'”’)]?$/.test(text);
  return [{ type: 'paragraph', structure: running ? 'p' : 'div', role: 'body', leaf: section.heading }, ...section.children];
}

/** Moves a section and the sections inside it `by` levels down. */
function deepen(section: Section, by: number): void {
  section.level += by;
  const walk = (nodes: StructureNode[]): void => {
    for (const n of nodes) {
      if (n.type === 'section') deepen(n, by);
      else if (n.type === 'list') for (const item of n.items) walk(item.children);
    }
  };
  walk(section.children);
}

/** The last text under an entry finished its sentence ("… and social and youth movements."): it introduces nothing after it. */
function endsSentence(children: readonly StructureNode[]): boolean {
  const last = children.findLast((n) => !furniture(n));
  return last?.type === 'paragraph' && /[.!?]["'”’)]?$/u.test(last.leaf.text.trim());
}

function furniture(node: StructureNode): boolean {
  return node.type === 'paragraph' && isFurniture(node.role);
}

/**
 * An entry ends at a heading in its label's type or a stronger one: the next entry, or what ends the
 * label too ("Performance Indicators" after the stakeholders).
 */
function closesLabel(top: SectionFrame, next: HeadingSplit): boolean {
  return top.entryOf !== undefined && top.entryOf.strength <= next.strength;
}

/** `next` leads into its text in the type of the standalone heading `top`, at its place on the page. */
function leadInOfItsType(top: SectionFrame, next: HeadingSplit, left: number, tolerance: number): boolean {
  return top.standalone && next.leadIn && top.strength === next.strength + STANDALONE_BONUS && Math.abs(top.left - left) <= 0.5 * tolerance;
}

function lineHeight(line: Line): number {
  return line.bottom - line.top;
}

function skipSpaces(ranges: TextRange[], offset: number): TextRange[] {
  const first = ranges[0]!;
  const lead = /^\s*/.exec(first.line.text.slice(first.start + offset))![0].length;
  return rangesFrom(ranges, offset + lead);
}

function paragraph(ranges: TextRange[], vocabulary?: Vocabulary): Paragraph {
  const leaf = makeLeaf(ranges, vocabulary);
  const lines = new Set(ranges.map((r) => r.line)).size;
  const running = lines > 1 || (wordsOf(leaf.text).length >= 8 && /[.!?:;]["'”’)]?$/.test(leaf.text));
  return { type: 'paragraph', structure: running ? 'p' : 'div', role: 'body', leaf };
}
