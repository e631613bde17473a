import WordExtractor from 'word-extractor';
import { IngestError } from '../model.js';
import { normalizeSpace, type Paragraph, type ParagraphRole, type StructureNode, type Table } from '../structure.js';
import { leafOf } from './blocks.js';
import { textStructure } from './txt.js';

/** The characters as Word has them: word-extractor's default turns curly quotes and dashes to ASCII. */
const AS_WRITTEN = { filterUnicode: false };

/**
 * The structure of a Word 97-2003 file. word-extractor gives text only (no styles, no automatic
 * numbers), so each paragraph is read like a text file's: headings by their look, lists by markers.
 * Its tables are tables (see withTables); text boxes follow the body; running headers and footers are furniture before and after it (each
 * text once, page numbers left out), footnotes and endnotes footnote paragraphs after it, as a
 * DOCX's are.
 */
export async function readDoc(bytes: Buffer): Promise<StructureNode[]> {
  let doc: Awaited<ReturnType<WordExtractor['extract']>>;
  try {
    doc = await new WordExtractor().extract(bytes);
  } catch (err) {
    throw new IngestError('Corrupt DOC', `the document cannot be read (${(err as Error).message})`);
  }
  const body = [...withTables(doc.getBody(AS_WRITTEN)), ...lines(doc.getTextboxes({ ...AS_WRITTEN, includeHeadersAndFooters: false, includeBody: true }))];
  const seen = new Set<string>();
  const furniture = (text: string, role: ParagraphRole): Paragraph[] =>
    lines(text)
      .filter((t) => /\p{L}/u.test(t) && !seen.has(t) && seen.add(t))
      .map((t) => ({ type: 'paragraph', structure: 'div', role, leaf: leafOf(t) }));
  const headers = furniture(doc.getHeaders({ ...AS_WRITTEN, includeFooters: false }), 'header');
  const footers = furniture(doc.getFooters(AS_WRITTEN), 'footer');
  const notes: Paragraph[] = [...lines(doc.getFootnotes(AS_WRITTEN)), ...lines(doc.getEndnotes(AS_WRITTEN))].map((t) => ({ type: 'paragraph', structure: 'p', role: 'footnote', leaf: leafOf(t) }));
  return [...headers, ...textStructure(body.map((p) => (typeof p === 'string' ? [p] : p))), ...notes, ...footers];
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
