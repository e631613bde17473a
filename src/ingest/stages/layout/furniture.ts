/**
 * Page furniture: running headers and footers (the same text, digits aside, at the top or bottom of
 * many pages, or word for word in one place atop a few) and page numbers. They stay in the structure
 * as their own paragraphs, out of the body text.
 */
import type { PageModel } from '../../../document/pages.js';
import type { ParagraphRole } from '../../../document/structure.js';
import type { Line } from './lines.js';

/**
 * How many rows of lines at each end of a page may be furniture (wherever they are: footers sit high
 * on short pages). Lines side by side ("U.S. Department of State …" left, "Strategic Plan" right) are one row.
 */
const EDGE_ROWS = 2;
/**
 * Repeated text without a number in it ("Strategic Plan") is furniture only this close to the top or
 * bottom of the page: further in, it is more likely a heading every page repeats ("Performance Indicators").
 */
const MARGIN_BAND = 0.12;
/**
 * A line with a figure in it, printed the same, word for word and figure for figure, at the same
 * height in the margin of this many pages is a running header or footer even when it runs over too
 * few pages for the document as a whole: the header of one form in a package of forms ("Policy
 * Number 630-001" atop four of twenty pages). Without a figure ("Performance Indicators") it may as
 * well be a heading a few pages repeat.
 */
const MIN_SAME_PLACE_PAGES = 3;
/** Same height: within this share of the page's height. */
const SAME_PLACE = 0.005;
/** Lines closer than this many line heights, in one size and weight, are one title. */
const TITLE_LINE_GAP = 1.5;
/** A blank this many line heights wide parts a line's text into phrases set apart ("Strategic Plan" across from the title). */
const PHRASE_GAP = 2;

const PAGE_NUMBER_RE = /^(?:page\s*[|:]?\s*)?(?:#+|[ivxlc]+)(?:\s*(?:of|\/)\s*#+)?$|^[-–—]\s*#+\s*[-–—]$/;
/** A line saying the text goes on overleaf: "— continued next page", "(Continued on page 12)". */
const CONTINUED_OVERLEAF_RE = /^[\s\p{Pd}>»→(]*continued\s+(?:on\s+)?(?:(?:the\s+)?(?:next|following)\s+page|(?:page|p\.)\s*\d+)\W*$/iu;
/** A page's first line taking up a title from the page before: "Stakeholders (continued)", "Table 3 (cont'd)". */
const CONTINUED_TITLE_RE = /^\p{Lu}.*[(\[](?:continued|cont[’']?d\.?)[)\]]$/iu;
const MAX_CONTINUED_TITLE_WORDS = 10;

function furnitureKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

interface Candidate {
  line: Line;
  /** The keys of its phrases (one, for most lines). */
  keys: string[];
  top: boolean;
  inMargin: boolean;
  /** The height of its page. */
  pageHeight: number;
  /**
   * No line in its size and weight follows it closely towards the body: it is not the first line of
   * a title ("Apple Inc." over "CONDENSED CONSOLIDATED BALANCE SHEETS" on every statement's page).
   */
  setApart: boolean;
}

/** The line's text parted where a blank of PHRASE_GAP line heights separates two of its pieces. */
function phrases(line: Line): string[] {
  const gap = PHRASE_GAP * (line.bottom - line.top);
  const out: string[] = [];
  let start = 0;
  line.pieces.forEach((piece, k) => {
    const prev = line.pieces[k - 1];
    if (prev && piece.left - prev.right > gap) {
      out.push(line.text.slice(start, piece.start));
      start = piece.start;
    }
  });
  out.push(line.text.slice(start));
  return out;
}

/** The lines of a page in rows, top to bottom: lines that overlap in height share a row. */
function rows(lines: readonly Line[]): Line[][] {
  const out: Line[][] = [];
  let bottom = -Infinity;
  for (const line of lines.slice().sort((a, b) => a.top - b.top)) {
    const row = out[out.length - 1];
    if (row && (line.top + line.bottom) / 2 < bottom) {
      row.push(line);
      bottom = Math.max(bottom, line.bottom);
    } else {
      out.push([line]);
      bottom = line.bottom;
    }
  }
  return out;
}

/** The lines in the rows at the top and bottom edges of a page (they may be anywhere in reading order). */
function edgeLines(lines: readonly Line[], height: number): Candidate[] {
  const all = rows(lines);
  const setApart = (line: Line, k: number, top: boolean): boolean => {
    const next = all[top ? k + 1 : k - 1]?.[0];
    if (!next) return true;
    const gap = top ? next.top - line.bottom : line.top - next.bottom;
    return !(gap < TITLE_LINE_GAP * (line.bottom - line.top) && Math.abs(next.size - line.size) < 0.5 && next.bold === line.bold);
  };
  const candidate = (line: Line, top: boolean, k: number): Candidate => ({
    line,
    keys: phrases(line).map(furnitureKey),
    top,
    inMargin: top ? line.bottom <= MARGIN_BAND * height : line.top >= (1 - MARGIN_BAND) * height,
    pageHeight: height,
    setApart: setApart(line, k, top),
  });
  // On a page of few rows (a table's page, its text taken by the table) a row among both the first
  // and the last ones is at the edge of the half of the page it stands in: a footer is no header.
  const edge = all.map((row, k) => {
    const head = k < EDGE_ROWS;
    const tail = k >= all.length - EDGE_ROWS;
    return head && tail ? (row[0]!.top + row[0]!.bottom < height ? 'head' : 'tail') : head ? 'head' : tail ? 'tail' : null;
  });
  return all.flatMap((row, k) => (edge[k] ? row.map((line) => candidate(line, edge[k] === 'head', k)) : []));
}

/**
 * Running headers and footers (every phrase of the line repeated at the top or bottom of enough pages,
 * however the line is cut: a header read as one line on one page and as two on the next is still one
 * header), page numbers, and the lines that say a page's text goes on overleaf.
 */
export function findFurniture(pages: readonly PageModel[], linesByPage: readonly Line[][]): Map<Line, ParagraphRole> {
  const candidates = linesByPage.flatMap((lines, p) => edgeLines(lines, pages[p]!.height));
  const pagesWithKey = new Map<string, Set<number>>();
  for (const c of candidates) {
    for (const key of c.keys) {
      let seen = pagesWithKey.get(key);
      if (!seen) pagesWithKey.set(key, (seen = new Set()));
      seen.add(c.line.page);
    }
  }
  const minPages = Math.max(2, Math.ceil(0.3 * pages.length));
  const inMarginByText = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (!c.inMargin) continue;
    const same = inMarginByText.get(c.line.text);
    if (same) same.push(c);
    else inMarginByText.set(c.line.text, [c]);
  }
  const repeatedInPlace = (c: Candidate): boolean => {
    if (!c.inMargin || !c.setApart || !/\d/.test(c.line.text)) return false;
    const pagesThere = new Set<number>();
    for (const o of inMarginByText.get(c.line.text)!) {
      if (o.top === c.top && Math.abs(o.line.top - c.line.top) <= SAME_PLACE * c.pageHeight) pagesThere.add(o.line.page);
    }
    return pagesThere.size >= MIN_SAME_PLACE_PAGES;
  };
  const roles = new Map<Line, ParagraphRole>();
  for (const c of candidates) {
    const { line, keys, top, inMargin } = c;
    const key = furnitureKey(line.text);
    if (PAGE_NUMBER_RE.test(key)) roles.set(line, 'page-number');
    else if (keys.every((k) => pagesWithKey.get(k)!.size >= minPages) && (inMargin || key.includes('#'))) roles.set(line, top ? 'header' : 'footer');
    else if (repeatedInPlace(c)) roles.set(line, top ? 'header' : 'footer');
  }
  markContinuations(linesByPage, roles);
  return roles;
}

/**
 * "— continued next page" under a column and "Stakeholders (continued)" as the next page's first line
 * are furniture too: out of the text they stand in, a paragraph cut by the page turn reads on across it.
 */
function markContinuations(linesByPage: readonly Line[][], roles: Map<Line, ParagraphRole>): void {
  linesByPage.forEach((lines, p) => {
    // A column's note may stand above the end of another column.
    for (const line of lines) if (!roles.has(line) && CONTINUED_OVERLEAF_RE.test(line.text)) roles.set(line, 'footer');
    const first = lines.filter((l) => !roles.has(l)).sort((a, b) => a.top - b.top)[0];
    if (p > 0 && first && CONTINUED_TITLE_RE.test(first.text) && first.text.split(' ').length <= MAX_CONTINUED_TITLE_WORDS) roles.set(first, 'header');
  });
}

export const FOOTNOTE_MARK_RE = /^(?:\d{1,3}|[*†‡§])(?=\s|\p{L})/u;

/**
 * Footnotes: the run of lines at the bottom of a page's body set smaller than the body text, when
 * the first of them starts with a note mark ("1 See…", "* Includes…").
 */
export function findFootnotes(pages: readonly PageModel[], linesByPage: readonly Line[][], bodySize: number, roles: Map<Line, ParagraphRole>): void {
  linesByPage.forEach((lines, p) => {
    const body = lines.filter((l) => !roles.has(l)).sort((a, b) => a.top - b.top);
    let first = body.length;
    while (first > 1 && body[first - 1]!.size <= bodySize - 1 && body[first - 1]!.top > 0.5 * pages[p]!.height) first--;
    // No footnote, or no body text above it.
    if (first === body.length || body[first - 1]!.size <= bodySize - 1) return;
    if (!FOOTNOTE_MARK_RE.test(body[first]!.text)) return;
    for (const line of body.slice(first)) roles.set(line, 'footnote');
  });
}
