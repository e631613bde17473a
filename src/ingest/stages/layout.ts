import type { PageModel } from '../../document/pages.js';
import { wordsOf, type StructureNode, type Table } from '../../document/structure.js';
import { groupBlocks } from './layout/blocks.js';
import { joinCarriedTables } from './layout/carried-tables.js';
import { findFootnotes, findFurniture } from './layout/furniture.js';
import { pageFlow, type Line } from './layout/lines.js';
import { labelName, TreeBuilder } from './layout/sections.js';
import { Vocabulary } from './layout/text.js';
import type { PageTables } from './tables.js';

/**
 * A paginated document's structure from its positioned text: words, lines and blocks in reading
 * order, furniture (headers, footers, page numbers) recognised, headings nested into sections,
 * lists, and the tables found before (`tables[i]` belongs to `pages[i]`; their consumed items are
 * not text of the page any more).
 */
export function pdfStructure(pages: PageModel[], tables: PageTables[]): StructureNode[] {
  let column = 0;
  const nextColumn = (): number => ++column;
  // A table spanning pages may be listed with each of them: it is placed once, on its first page.
  const placed = new Set<Table>();
  const flows = pages.map((page, i) => {
    const own = (tables[i]?.tables ?? []).filter((t) => !placed.has(t));
    for (const t of own) placed.add(t);
    return pageFlow(page, tables[i]?.consumed ?? new Set(), own, nextColumn);
  });
  // Invisible tags and lines set sideways are kept, as text of their own, but say nothing about the page's layout.
  const linesByPage = flows.map((flow) => flow.flatMap((el) => (el.kind === 'line' && !el.line.tag && !el.line.sideways ? [el.line] : [])));
  const furniture = findFurniture(pages, linesByPage);
  for (const flow of flows) {
    for (const el of flow) {
      if (el.kind !== 'line') continue;
      if (el.line.tag) furniture.set(el.line, 'tag');
      else if (el.line.sideways) furniture.set(el.line, 'sideways');
    }
  }
  const running = linesByPage.flat().filter((l) => !furniture.has(l));
  const sized = running.map((l) => ({ size: l.size, chars: l.text.length }));
  // A document that is mostly tables (a scanned schedule under its title) has its body text in them.
  if (sized.reduce((n, s) => n + s.chars, 0) < SCARCE_TEXT_CHARS) sized.push(...tableText(pages, tables));
  const bodySize = bodyFontSize(sized);
  findFootnotes(pages, linesByPage, bodySize, furniture);
  const vocabulary = new Vocabulary(() => linesByPage.flatMap((lines) => lines.map((l) => l.text)));
  joinCarriedTables(flows, furniture, pages.map((p) => p.width), vocabulary);
  const labelNames = recurringLabels(running);
  const tree = new TreeBuilder(bodySize, { coverPage: isCoverPage(linesByPage, furniture), textSpans: textSpans(linesByPage, furniture), vocabulary, labelNames });
  for (const block of groupBlocks(flows.flat(), furniture, (line) => labelNames.has(labelName(line.text)))) tree.add(block);
  return tree.nodes();
}

/** A line that is a label's name and its colon, nothing after it. */
const LABEL_LINE = /^[^:]{2,80}:\s*$/;
const RECURRING_LABEL = 3;

/**
 * The names of the document's recurring labels: set with their colon on lines of their own three
 * times or more, and more often with it than without ("Stakeholder(s):" 57 times, "Stakeholder(s)"
 * 5). A name that stands alone as often as it labels ("Allies", "Allies :") is no label by itself.
 */
function recurringLabels(lines: readonly Line[]): Set<string> {
  // Per name: how often it is set with its colon, and how often without.
  const counts = new Map<string, { withColon: number; without: number }>();
  for (const l of lines) {
    const name = labelName(l.text);
    const c = counts.get(name) ?? { withColon: 0, without: 0 };
    if (LABEL_LINE.test(l.text)) c.withColon++;
    else c.without++;
    counts.set(name, c);
  }
  return new Set([...counts].filter(([, c]) => c.withColon >= RECURRING_LABEL && c.withColon > c.without).map(([name]) => name));
}

const COVER_LINES = 8;
const COVER_WORDS = 60;

/** The first of several pages holds a few lines only: a title page. */
function isCoverPage(linesByPage: readonly Line[][], furniture: ReadonlyMap<Line, unknown>): boolean {
  if (linesByPage.length < 2) return false;
  const lines = linesByPage[0]!.filter((l) => !furniture.has(l));
  return lines.length > 0 && lines.length <= COVER_LINES && lines.reduce((n, l) => n + wordsOf(l.text).length, 0) <= COVER_WORDS;
}

/** Where each page's text runs across (furniture aside): the measure a centred title is centred in. */
function textSpans(linesByPage: readonly Line[][], furniture: ReadonlyMap<Line, unknown>): Map<number, { left: number; right: number }> {
  const spans = new Map<number, { left: number; right: number }>();
  for (const lines of linesByPage) {
    for (const l of lines) {
      if (furniture.has(l)) continue;
      const span = spans.get(l.page);
      if (!span) spans.set(l.page, { left: l.left, right: l.right });
      else {
        span.left = Math.min(span.left, l.left);
        span.right = Math.max(span.right, l.right);
      }
    }
  }
  return spans;
}

/** Sizes set in at least this share of the most common size's characters are about as common. */
const NEAR_TIE = 0.8;

/** Fewer characters of running text than this leave the body's type to be told by the tables' text as well. */
const SCARCE_TEXT_CHARS = 400;

/** The size and length of each text item the tables took. */
function tableText(pages: readonly PageModel[], tables: readonly PageTables[]): { size: number; chars: number }[] {
  return pages.flatMap((page, i) => [...(tables[i]?.consumed ?? [])].map((k) => ({ size: page.items[k]!.fontSize, chars: page.items[k]!.text.trim().length })));
}

/**
 * The font size (pt, to the half point) most of the text is set in; of two about as common, the
 * smaller (a report's narrative and its boilerplate must not make the body flip between them).
 */
function bodyFontSize(text: readonly { size: number; chars: number }[]): number {
  const chars = new Map<number, number>();
  for (const t of text) {
    const key = Math.round(t.size * 2) / 2;
    chars.set(key, (chars.get(key) ?? 0) + t.chars);
  }
  let most = 0;
  for (const n of chars.values()) most = Math.max(most, n);
  let best = Infinity;
  for (const [size, n] of chars) if (n >= NEAR_TIE * most && size < best) best = size;
  return Number.isFinite(best) ? best : 0;
}
