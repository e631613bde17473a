/**
 * Headings: a short block set apart by its font (larger than the body text, bold, or all capitals),
 * or a bold (or, after a number, capitalised) lead-in at the start of a block, as contracts write
 * "1.1 Landlord. Menlo Group…" and "Disclosing Party: Widget Corp.…".
 */
import { wordsOf } from '../../../document/structure.js';
import { rangeText, type TextRange } from './leaf.js';
import { isCentredTitle } from './lines.js';

export interface HeadingSplit {
  heading: TextRange[];
  /** What follows the heading in the same block (empty for a heading on its own). */
  body: TextRange[];
  /** Orders headings for nesting: a weaker heading after a stronger one is its subsection. */
  strength: number;
  /** The heading leads into its block's text instead of standing on its own. */
  leadIn: boolean;
  /** A form field with its value on its line ("Document Date: March 2022"): its section holds nothing after that line. */
  field?: boolean;
  /** Set apart by italics alone: a title only if text comes under it (else a line of text in italics). */
  weak?: boolean;
}

const MAX_HEADING_WORDS = 16;
/** Points under the body size from which type is set smaller (a caption, a column label). */
const SMALLER_TYPE = 1.5;
const MAX_LEAD_IN_WORDS = 12;
const MAX_TITLE_WORDS = 32;
const MAX_TITLE_LINES = 6;
const MAX_FIELD_LINES = 3;

/** A form field's label at the start of a line: "Name:", "Grant Number:", "Occurrence #1:". */
export const FIELD_LABEL_RE = /^\s*\p{Lu}[\p{L}'’ ]{0,30}(?:#?\d{1,3})?\*?:(?=\s|$)/u;

export interface HeadingContext {
  /** The block starts with a heading number ("1.2", "Article IV") or a list marker. */
  numbered: boolean;
  /** A lone line set flush over a paragraph whose first line is indented (a title in body type). */
  runInTitle?: boolean;
  /** The block is the document's first text and stands apart (larger type, or a cover page of its own): its title. */
  opening?: boolean;
}

export function findHeading(ranges: readonly TextRange[], bodySize: number, context: HeadingContext): HeadingSplit | null {
  if (ranges.length === 0) return null;
  return standaloneHeading(ranges, bodySize, context) ?? largerLeadIn(ranges, bodySize) ?? boldLeadIn(ranges) ?? (context.numbered ? capitalLeadIn(ranges) : fieldLabel(ranges));
}

function isCaps(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 4 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/** What standing on its own adds to a heading's strength (a lead-in of the same type has this much less). */
export const STANDALONE_BONUS = 5;

function strength(size: number, bold: boolean, caps: boolean, standalone: boolean, italic = false): number {
  return size * 10 + (standalone ? STANDALONE_BONUS : 0) + (bold ? 2 : italic ? 1 : 0) + (caps ? 1 : 0);
}

/** Words in a title set apart by italics alone: a short name ("iPhone", "Wearables, Home and Accessories"). */
const MAX_ITALIC_TITLE_WORDS = 6;

/**
 * A line of its own in italics of the body's size, short, with no sentence's punctuation and not in
 * brackets: a run-in title such as a 10-Q's "iPhone" over its paragraph (an italic sentence or note is longer).
 */
function italicTitle(ranges: readonly TextRange[], text: string, words: number): boolean {
  return ranges.length === 1 && ranges[0]!.line.italic && words <= MAX_ITALIC_TITLE_WORDS && !/^[(\[]|[.,;:!?)\]]$/.test(text);
}

function standaloneHeading(ranges: readonly TextRange[], bodySize: number, { numbered, runInTitle = false, opening = false }: HeadingContext): HeadingSplit | null {
  if (ranges.length > MAX_TITLE_LINES) return null;
  const text = ranges.map(rangeText).join(' ').trim();
  const words = wordsOf(text).length;
  const first = ranges[0]!.line;
  const bold = ranges.every((r) => r.line.bold);
  const caps = isCaps(text);
  // A title may run longer: in bold capitals centred over its lines ("CERTIFICATIONS OF … PURSUANT
  // TO 18 U.S.C. …"), or opening the document (a protocol's cover).
  const title = (bold && caps && isCentredTitle(ranges.map((r) => r.line), first.bottom - first.top)) || opening;
  if (ranges.length > 3 && !title) return null;
  const [maxWords, maxChars] = title ? [MAX_TITLE_WORDS, 300] : [MAX_HEADING_WORDS, 150];
  if (words === 0 || words > maxWords || text.length > maxChars || !/\p{L}/u.test(text)) return null;
  // A title has a capital or a number somewhere ("iPhone", "2. scope"); a line all in small letters
  // ("ujjayii", the end of a cell's text read off a scan) is none.
  if (!/[\p{Lu}\p{Lt}\p{N}]/u.test(text) && /\p{Ll}/u.test(text)) return null;
  if (/[,;]$/.test(text)) return null;
  const italic = !bold && italicTitle(ranges, text, words);
  if (first.size < bodySize + 1 && !bold && !caps && !runInTitle && !opening && !italic) return null;
  // Capitals in type smaller than the body are a label ("AGGREGATE LIMITS OF INSURANCE" over a column of figures), not a title.
  if (caps && !bold && first.size <= bodySize - SMALLER_TYPE && !opening) return null;
  if (ranges.some(spreadApart)) return null;
  // A sentence is not a heading, unless a number or bold type says so ("1. Definitions.").
  if (/\.$/.test(text) && !numbered && words > 3) return null;
  const weak = italic && !caps && first.size < bodySize + 1 && !runInTitle && !opening;
  return { heading: [...ranges], body: [], strength: strength(first.size, bold, caps, true, italic), leadIn: false, weak };
}

/** Words this far apart (in ems of the line) stand in columns: entries side by side, not one title. */
const COLUMN_GAP_EMS = 6;

/** "Mothers" and, far to its right, "Children": two entries of a list set in columns on one line. */
function spreadApart({ line, start, end }: TextRange): boolean {
  const em = line.bottom - line.top;
  const pieces = line.pieces.filter((p) => p.end > start && p.start < end);
  for (let i = 1; i < pieces.length; i++) if (pieces[i]!.left - pieces[i - 1]!.right > COLUMN_GAP_EMS * em) return true;
  return false;
}

function splitAt(ranges: readonly TextRange[], end: number): { heading: TextRange[]; body: TextRange[] } {
  const first = ranges[0]!;
  const rest = { ...first, start: end };
  const body = rangeText(rest).trim() ? [rest, ...ranges.slice(1)] : ranges.slice(1);
  return { heading: [{ ...first, end }], body };
}

/** Type this much larger than the body sets a title apart from the text that runs on after it. */
const LARGER_LEAD_IN = 1.4;

/**
 * "Causes of Loss – Earthquake – aggregate in any one policy year…": a title set much larger than
 * the body, with the block's text running on after it on its line in body type.
 */
function largerLeadIn(ranges: readonly TextRange[], bodySize: number): HeadingSplit | null {
  const first = ranges[0]!;
  const { line } = first;
  let end = -1;
  let size = 0;
  let bold = true;
  let after: number | null = null;
  for (const p of line.pieces) {
    if (p.end <= first.start || !/\S/.test(line.text.slice(Math.max(p.start, first.start), p.end))) continue;
    if (p.size < LARGER_LEAD_IN * bodySize) {
      after = p.size;
      break;
    }
    end = p.end;
    size = Math.max(size, p.size);
    bold &&= p.bold;
  }
  // The text after it is in body type (not a title in two sizes), and the title ends at a word's end (no drop capital).
  if (end <= first.start || after === null || after > bodySize + 1 || !/^\s/.test(line.text.slice(end, end + 1))) return null;
  const heading = line.text.slice(first.start, end).trim();
  if (!/^[\p{Lu}\p{N}]/u.test(heading) || heading.replace(/[^\p{L}]/gu, '').length < 3 || wordsOf(heading).length > MAX_HEADING_WORDS) return null;
  // Set apart by its type as a title on its own line is.
  return { ...splitAt(ranges, end), strength: strength(size, bold, isCaps(heading), true), leadIn: true };
}

/** A bold run from the start of the block, with the "." or ":" right after it, followed by plain text. */
function boldLeadIn(ranges: readonly TextRange[]): HeadingSplit | null {
  const first = ranges[0]!;
  const { line } = first;
  let end = -1;
  for (const p of line.pieces) {
    if (p.end <= first.start) continue;
    // A note mark before the heading ("*Gross Rent Credit") is part of it.
    if (end < 0 && /^[*†‡]+$/.test(line.text.slice(Math.max(p.start, first.start), p.end))) continue;
    if (!p.bold) {
      if (/\p{L}/u.test(line.text.slice(Math.max(p.start, first.start), p.end))) break;
      // A plain "." or ":" closing the bold run belongs to the heading.
      if (end < 0 || !/^\s*[.:,]\s*$/.test(line.text.slice(p.start, p.end))) break;
    }
    end = p.end;
  }
  if (end <= first.start) return null;
  const punct = /^\s*[.:,]/.exec(line.text.slice(end, first.end));
  if (punct) end += punct[0].length;
  // A wholly bold line is a heading on its own, or bold text: not a lead-in.
  if (end >= first.end) return null;
  if (!/[\s.:;,)"'”]/.test(line.text[end]!) && !/[.:,]$/.test(line.text.slice(0, end))) return null;
  const heading = line.text.slice(first.start, end);
  if (!/\p{L}/u.test(heading) || wordsOf(heading).length > MAX_LEAD_IN_WORDS) return null;
  // A defined term closing its quotes ("Permitted Assignee".) is not a heading.
  if ((heading.match(/["“”]/g) ?? []).length % 2 === 1) return null;
  const size = line.pieces.find((p) => p.end > first.start)!.size;
  return { ...splitAt(ranges, end), strength: strength(size, true, isCaps(heading), false), leadIn: true };
}

/** "1. DEFINITIONS. The following terms…": a capitalised first sentence after a number. */
function capitalLeadIn(ranges: readonly TextRange[]): HeadingSplit | null {
  const first = ranges[0]!;
  const m = /^\s*([^\p{Ll}.]{3,80}?[.:])(?=\s)/u.exec(rangeText(first));
  if (!m || !isCaps(m[1]!)) return null;
  return { ...splitAt(ranges, first.start + m[0].length), strength: strength(first.line.size, false, true, false), leadIn: true };
}

/**
 * A form field on a line of its own: "Name: Alan Black", "By: ______", "Occurrence #1: …"; or with
 * a value that wraps over a few lines and is no sentence ("Official Title: Access-H20: Sensor driven…").
 */
function fieldLabel(ranges: readonly TextRange[]): HeadingSplit | null {
  if (ranges.length > MAX_FIELD_LINES) return null;
  const first = ranges[0]!;
  const text = rangeText(first);
  const m = FIELD_LABEL_RE.exec(text);
  if (!m || wordsOf(m[0]).length > 3) return null;
  if (ranges.length === 1 ? wordsOf(text).length > 8 : /[.!?]["'”’)]?$/.test(rangeText(ranges[ranges.length - 1]!).trim())) return null;
  const split = splitAt(ranges, first.start + m[0].length);
  return { ...split, strength: strength(first.line.size, false, false, false), leadIn: true, field: split.body.length > 0 };
}
