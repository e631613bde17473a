import { normalizeSpace, wordsOf, type List, type ListStyle, type StructureNode, type Table } from '../../../document/structure.js';
import { bareLabelLines, loneLabelWords, mayBeStackedValue } from '../../../document/form-fields.js';
import { parseMarker, repeatsNumberInWords } from '../../../document/markers.js';
import { SectionTree, headingLabel, headingRank, leafOf, newList, paragraphOf, type Block } from '../blocks.js';
import { htmlStructure } from '../html/html.js';
import { looksLikeMarkdown, markdownHtml } from './markdown.js';
import { cellLineTables } from './cell-lines.js';
import { splitTextTable } from './text-tables.js';

function textLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n').split('\n');
}

/** One block per line: a text file's line breaks are its layout (tabs stop every 8 columns). */
export function readTxt(text: string): Block[] {
  const lines = textLines(text);
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  return lines.map((line) => ({ kind: 'line', text: expandTabs(line).trimEnd() }));
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : ch;
  return out;
}

const TAB_STOP = 8;

/**
 * The structure of a text file: paragraphs are separated by blank lines. A run of lines longer than
 * a paragraph usually is (a file saved from Word, one paragraph a line and no blank lines; text
 * copied out of a PDF) is cut into paragraphs where a line ends short of the file's width. A file
 * written in Markdown is read by its marks: "#" headings, lists, tables, paragraphs.
 */
export function txtStructure(text: string): StructureNode[] {
  const lines = textLines(text);
  if (looksLikeMarkdown(lines)) return htmlStructure(markdownHtml(lines));
  const groups: string[][] = [];
  let group: string[] = [];
  for (const line of lines) {
    if (line.trim()) group.push(line);
    else if (group.length) {
      groups.push(group);
      group = [];
    }
  }
  if (group.length) groups.push(group);
  const width = wrapWidth(groups);
  // A table laid out with spaces is a table; the lines around it in its group read as text.
  const blocks = groups.flatMap((g): (string[] | Table)[] => {
    const split = splitTextTable(g);
    return split ? [split.before, split.table, split.after].filter((b) => !Array.isArray(b) || b.length > 0) : [g];
  });
  return textStructure(cellLineTables(blocks.flatMap((g) => (Array.isArray(g) && g.length > LONGEST_GROUP ? paragraphsOf(g, width) : [g]))));
}

/** Blank-line groups longer than this are not one paragraph each. */
const LONGEST_GROUP = 8;
/** Text wrapped wider than this is not wrapped: each line is a paragraph. */
const WIDEST_WRAP = 200;
/**
 * A line that had room for the next word within this share of the width ended on purpose when it
 * ends a sentence or a clause, or is shorter than half the width (a title, a label, an address line);
 * otherwise it is a line of text copied out of a page set in a proportional font, shorter only
 * because its letters were wider.
 */
const SHORT_LINE = 0.8;
const HALF_LINE = 0.5;
const ENDS_CLAUSE = /[.:;!?)"”’]$/;

/**
 * The width the file's lines are wrapped at (the 90th percentile of their lengths), or null when they
 * are not wrapped. Counted by length, not sorted: a file may have millions of lines.
 */
function wrapWidth(groups: readonly string[][]): number | null {
  const counts = new Uint32Array(WIDEST_WRAP + 2);
  let lines = 0;
  for (const group of groups) {
    for (const line of group) {
      counts[Math.min(line.trimEnd().length, WIDEST_WRAP + 1)]!++;
      lines++;
    }
  }
  if (lines === 0) return null;
  const rank = Math.floor(0.9 * (lines - 1));
  let seen = 0;
  for (let width = 0; width <= WIDEST_WRAP; width++) {
    seen += counts[width]!;
    if (seen > rank) return width;
  }
  return null;
}

/** A group's lines as paragraphs: a line ends one when the next word would have fitted on it (see SHORT_LINE). */
function paragraphsOf(lines: readonly string[], width: number | null): string[][] {
  if (width === null) return lines.map((l) => [l]);
  const out: string[][] = [];
  let current: string[] = [];
  lines.forEach((line, i) => {
    current.push(line);
    const next = lines[i + 1];
    const nextWord = next?.trim().split(/\s/, 1)[0] ?? '';
    const length = line.trimEnd().length;
    const roomLeft = length + 1 + nextWord.length <= SHORT_LINE * width;
    if (next === undefined || (roomLeft && (ENDS_CLAUSE.test(line.trimEnd()) || length <= HALF_LINE * width))) {
      out.push(current);
      current = [];
    }
  });
  return out;
}

/** A line ending in a ZIP code: an address's last line. */
const US_ZIP_END = /\b[A-Z]{2},?\s+\d{5}(?:-\d{4})?$/u;
const HEADING_MAX_WORDS = 12;
const HEADING_MAX_CHARS = 100;
const LIST_MARKER = /^(?:[-*•‣◦▪●–]|\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)])(?=\s)/i;

/**
 * Sections, paragraphs and lists from groups of lines (a text file's blank-line paragraphs, a Word
 * file's paragraphs). A group's first line is a heading when it is short, does not end a sentence,
 * is numbered ("1.", "2.1", "ARTICLE I", "Section 2") or ALL CAPS, and text follows it; lines that
 * start with a list marker ("-", "•", "1.", "(a)") are list items, the lines after one its body.
 */
export function textStructure(groups: (string[] | Table)[]): StructureNode[] {
  const sections = new SectionTree();
  let list: List | null = null;
  let lastCapital = '';
  // A form's labels without colons over their values ("Risk Type" / "INCLUDING RENTAL"): the values in capitals are no headings.
  const bareLabels = bareLabelLines(groups.map((lines) => (Array.isArray(lines) && lines.length === 1 ? lines[0] : undefined)));
  groups.forEach((lines, g) => {
    if (!Array.isArray(lines)) {
      sections.container.push(lines);
      list = null;
      return;
    }
    let i = 0;
    const hasBody = lines.length > 1 || g + 1 < groups.length;
    const first = normalizeSpace(lines[0]!);
    const lettered = /^[A-Z]\.(?=\s)/u.exec(first)?.[0];
    // A line under a form's label alone on its line ("Registration:" over "N141CD") is the field's value, not a heading.
    const previous = groups[g - 1];
    const underLabel = bareLabels.has(g - 1) || (Array.isArray(previous) && previous.length === 1 && loneLabelWords(previous[0]!) !== null && mayBeStackedValue(lines[0]!));
    const heading = hasBody && !underLabel && !(lettered && isInitial(lettered, first, lastCapital)) ? headingKind(lines[0]!, lines.length > 1 ? lines[1] : (groups[g + 1] as string[] | undefined)?.[0]) : null;
    if (heading && lettered) lastCapital = lettered[0]!;
    if (heading) {
      sections.openSection(headingRank(heading), leafOf(normalizeSpace(lines[0]!)), true, { titleOnly: heading.kind === 'caps' });
      list = null;
      i = 1;
    }
    while (i < lines.length) {
      let end = i + 1;
      while (end < lines.length && !opensItem(lines, end)) end++;
      const text = normalizeSpace(lines.slice(i, end).join(' '));
      const found = LIST_MARKER.exec(text);
      const marker = found && !isInitial(found[0], text, lastCapital) ? found : null;
      if (marker) {
        if (/^[A-Z]\.$/u.test(marker[0])) lastCapital = marker[0][0]!;
        const style = markerStyle(marker[0]);
        if (!list || list.style !== style) {
          list = newList(style);
          sections.container.push(list);
        }
        const body = text.slice(marker[0].length).trim();
        list.items.push({ marker: leafOf(marker[0]), children: body ? [paragraphOf(body)] : [] });
      } else {
        sections.container.push(paragraphOf(text));
        list = null;
      }
      i = end;
    }
  });
  return sections.finish();
}

/**
 * "J. Servodidio Executive Vice President": a capital and a stop opening a line before a capitalised word is a name's
 * initial, not an item, unless it is the letter that comes next in the text's lettered items ("A." opens a list; "I.", "V." and "X." are numerals too).
 */
function isInitial(marker: string, text: string, lastCapital: string): boolean {
  const letter = /^([A-Z])\.$/u.exec(marker)?.[1];
  if (!letter || /^[AIVX]$/u.test(letter)) return false;
  const next = lastCapital !== '' && letter.charCodeAt(0) === lastCapital.charCodeAt(0) + 1;
  return !next && /^[A-Z]\.\s+\p{Lu}\p{Ll}+\b/u.test(text);
}

const never = (): boolean => false;
const ENDS_SENTENCE = /[.!?:;]["'”’)]?$/;
/** Share of a group's longest line a line must fill for a marker under it to be the sentence's next words. */
const FULL_LINE = 0.6;

/**
 * Line `k` of a group opens a list item: it starts with a marker that is not the next words of a sentence wrapped
 * there ("… and Gordon" / "A. Davies (the …)", "within thirty" / "(30) days"). A sentence runs on over a full line
 * that ends without a stop (and not on "and"/"or", after which enumerations start their items on new lines), unless
 * the marker is the one after a marker of an earlier line ("(ii)" under "(i) …").
 */
function opensItem(lines: readonly string[], k: number): boolean {
  const line = lines[k]!.trim();
  if (!LIST_MARKER.test(line)) return false;
  const prev = lines[k - 1]!.trim();
  if (repeatsNumberInWords(prev, line)) return false;
  if (ENDS_SENTENCE.test(prev) || /\b(?:and|or)$/iu.test(prev)) return true;
  const longest = Math.max(...lines.map((l) => l.trim().length));
  if (prev.length < FULL_LINE * longest) return true;
  const marker = parseMarker(line, never);
  return !!marker && lines.slice(0, k).some((l) => {
    const own = parseMarker(l.trim(), never);
    return own !== null && own.key === marker.key && (marker.ordered ? own.value === marker.value - 1 : true);
  });
}

function headingKind(line: string, next?: string): { kind: string; depth: number } | null {
  const text = normalizeSpace(line);
  if (text.length > HEADING_MAX_CHARS || wordsOf(text).length > HEADING_MAX_WORDS) return null;
  const label = headingLabel(text);
  if (label) {
    const title = text.slice(label.length).trim();
    // "2. Onsite Services." over "2.1 Onsite visits …": a numbered title over its own subclauses is a heading, its stop and all.
    const number = /^(\d{1,3})\.$/u.exec(text.slice(0, label.length).trim())?.[1];
    const overSubclauses = number !== undefined && next !== undefined && new RegExp(`^${number}\\.1\\b`, 'u').test(next.trim()) && /^[\p{Lu}][^.;:]*\.$/u.test(title);
    if (title && !overSubclauses && (!/^\p{Lu}/u.test(title) || /[.;,:]$/.test(title))) return null;
    return { kind: label.kind, depth: label.depth };
  }
  const letters = text.replace(/[^\p{L}]/gu, '');
  // A code or an address in capitals ("CG D1 42 02 19", a form's number; "… HOUSTON, TX, 77042") names nothing below it.
  const code = text.replace(/[^\p{N}]/gu, '').length > letters.length || US_ZIP_END.test(text);
  if (letters.length >= 2 && !code && !/\p{Ll}/u.test(letters) && !/[.;,]$/.test(text) && !LIST_MARKER.test(text)) return { kind: 'caps', depth: 1 };
  return null;
}

function markerStyle(marker: string): ListStyle {
  const symbol = marker.replace(/[().]/g, '');
  if (/^\d+$/.test(symbol)) return 'decimal';
  if (/^(?:[ivxlc]{2,}|i)$/.test(symbol)) return 'lower-roman';
  if (/^(?:[IVXLC]{2,}|I)$/.test(symbol)) return 'upper-roman';
  if (/^[a-z]$/.test(symbol)) return 'lower-alpha';
  if (/^[A-Z]$/.test(symbol)) return 'upper-alpha';
  return 'circle';
}
