/**
 * Page furniture: running headers and footers (the same text, digits aside, at the top or bottom of
 * many pages) and page numbers. They stay in the structure as their own paragraphs, out of the body
 * text.
 */
import type { PageModel } from '../../model.js';
import type { ParagraphRole } from '../../structure.js';
import type { Line } from './lines.js';

/** How many lines at each end of a page may be furniture (wherever they are: footers sit high on short pages). */
const EDGE_LINES = 2;
/**
 * Repeated text without a number in it ("Strategic Plan") is furniture only this close to the top or
 * bottom of the page: further in, it is more likely a heading every page repeats ("Performance Indicators").
 */
const MARGIN_BAND = 0.12;

const PAGE_NUMBER_RE = /^(?:page\s*[|:]?\s*)?(?:#+|[ivxlc]+)(?:\s*(?:of|\/)\s*#+)?$|^[-–—]\s*#+\s*[-–—]$/;

function furnitureKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

interface Candidate {
  line: Line;
  key: string;
  top: boolean;
  inMargin: boolean;
}

/** The lines at the top and bottom edges of a page (they may be anywhere in reading order). */
function edgeLines(lines: readonly Line[], height: number): Candidate[] {
  const byTop = lines.slice().sort((a, b) => a.top - b.top);
  const head = byTop.slice(0, EDGE_LINES).map((line) => ({ line, key: furnitureKey(line.text), top: true, inMargin: line.bottom <= MARGIN_BAND * height }));
  const tail = byTop
    .slice(Math.max(EDGE_LINES, byTop.length - EDGE_LINES))
    .map((line) => ({ line, key: furnitureKey(line.text), top: false, inMargin: line.top >= (1 - MARGIN_BAND) * height }));
  return [...head, ...tail];
}

export function findFurniture(pages: readonly PageModel[], linesByPage: readonly Line[][]): Map<Line, ParagraphRole> {
  const candidates = linesByPage.flatMap((lines, p) => edgeLines(lines, pages[p]!.height));
  const pagesWithKey = new Map<string, Set<number>>();
  for (const c of candidates) {
    let seen = pagesWithKey.get(c.key);
    if (!seen) pagesWithKey.set(c.key, (seen = new Set()));
    seen.add(c.line.page);
  }
  const minPages = Math.max(2, Math.ceil(0.3 * pages.length));
  const roles = new Map<Line, ParagraphRole>();
  for (const { line, key, top, inMargin } of candidates) {
    if (PAGE_NUMBER_RE.test(key)) roles.set(line, 'page-number');
    else if (pagesWithKey.get(key)!.size >= minPages && (inMargin || key.includes('#'))) roles.set(line, top ? 'header' : 'footer');
  }
  return roles;
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
