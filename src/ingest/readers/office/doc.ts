import { IngestError } from '../../../document/pages.js';
import { normalizeSpace, type Paragraph, type ParagraphRole, type StructureNode, type Table } from '../../../document/structure.js';
import { leafOf } from '../blocks.js';
import { textStructure } from '../text/txt.js';
import { NOTE_MARK, WordExtractor } from './word-extractor-marks.js';
import { formatNumber } from './word-numbering.js';

/** The characters as Word has them: word-extractor's default turns curly quotes and dashes to ASCII. */
const AS_WRITTEN = { filterUnicode: false };

/**
 * The structure of a Word 97-2003 file. word-extractor gives text only (no styles, no automatic
 * numbers), so each paragraph is read like a text file's: headings by their look, lists by markers.
 * Its tables are tables (see withTables); text boxes follow the body; running headers and footers are furniture before and after it (each
 * text once, page numbers left out), footnotes and endnotes footnote paragraphs after it, as a
 * DOCX's are, their references marked in the text as a DOCX's are ("[1]"; see noteMarks).
 */
export async function readDoc(bytes: Buffer): Promise<StructureNode[]> {
  let doc: Awaited<ReturnType<InstanceType<typeof WordExtractor>['extract']>>;
  try {
    doc = await new WordExtractor().extract(bytes);
  } catch (err) {
    throw new IngestError('Corrupt DOC', `the document cannot be read (${(err as Error).message})`);
  }
  const marked = noteMarks({ body: doc.getBody(AS_WRITTEN), footnotes: doc.getFootnotes(AS_WRITTEN), endnotes: doc.getEndnotes(AS_WRITTEN) });
  const body = [...withTables(marked.body), ...lines(unmarked(doc.getTextboxes({ ...AS_WRITTEN, includeHeadersAndFooters: false, includeBody: true })))];
  const seen = new Set<string>();
  const furniture = (text: string, role: ParagraphRole): Paragraph[] =>
    lines(text)
      .filter((t) => /\p{L}/u.test(t) && !seen.has(t) && seen.add(t))
      .map((t) => ({ type: 'paragraph', structure: 'div', role, leaf: leafOf(t) }));
  const headers = furniture(unmarked(doc.getHeaders({ ...AS_WRITTEN, includeFooters: false })), 'header');
  const footers = furniture(unmarked(doc.getFooters(AS_WRITTEN)), 'footer');
  const notes: Paragraph[] = [...lines(marked.footnotes), ...lines(marked.endnotes)].map((t) => ({ type: 'paragraph', structure: 'p', role: 'footnote', leaf: leafOf(t) }));
  return [...headers, ...textStructure(body.map((p) => (typeof p === 'string' ? [p] : p))), ...notes, ...footers];
}

const unmarked = (text: string): string => text.replaceAll(NOTE_MARK, '');
const NOTE_LEAD = new RegExp(`${NOTE_MARK}\\s*`, 'g');

/**
 * Note references numbered as Word numbers them by default (footnotes 1, 2, 3…; endnotes i, ii,
 * iii…), in the body as "[1]" and at the head of each note as "[1] ", as the DOCX reader has them. A
 * note's own mark is the one it starts with. word-extractor does not say which of the body's marks
 * refer to footnotes and which to endnotes: with both kinds in a document, the body's marks are left
 * out rather than numbered wrongly.
 */
function noteMarks(text: { body: string; footnotes: string; endnotes: string }): { body: string; footnotes: string; endnotes: string } {
  const numbered = (part: string, mark: (n: number) => string): [string, number] => {
    let n = 0;
    return [part.replace(NOTE_LEAD, () => `[${mark(++n)}] `), n];
  };
  const footnote = (n: number): string => formatNumber(n, 'decimal');
  const endnote = (n: number): string => formatNumber(n, 'lowerRoman');
  const [footnotes, footCount] = numbered(text.footnotes, footnote);
  const [endnotes, endCount] = numbered(text.endnotes, endnote);
  const mark = footCount && endCount ? null : footCount ? footnote : endCount ? endnote : null;
  let n = 0;
  const body = mark ? text.body.replaceAll(NOTE_MARK, () => `[${mark(++n)}]`) : unmarked(text.body);
  return { body, footnotes, endnotes };
}

/**
 * The body's paragraphs, its tables as tables: word-extractor ends each cell of a table and the row
 * itself with a tab, so a line ending with a tab after one or more is a row (a paragraph with a tab
 * after its number, "1.\tDefinitions", does not end with one); consecutive rows make one table.
 */
function withTables(text: string): (string | Table)[] {
  const out: (string | Table)[] = [];
  let table: Table | null = null;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.replace(/ +$/, '');
    if (/\t$/.test(line) && line.indexOf('\t') < line.length - 1) {
      const cells = line.slice(0, -1).split('\t').map(normalizeSpace);
      if (!table) out.push((table = { type: 'table', rows: [], boxes: [], source: 'native' }));
      table.rows.push({ cells: cells.map((c) => ({ leaf: leafOf(c), colspan: 1, rowspan: 1, boxes: [] })), boxes: [] });
      continue;
    }
    table = null;
    const paragraph = normalizeSpace(line);
    if (paragraph) out.push(paragraph);
  }
  return out;
}

/** A part's paragraphs, whitespace-normalised, empty ones left out. */
function lines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(normalizeSpace)
    .filter((t) => t.length > 0);
}
