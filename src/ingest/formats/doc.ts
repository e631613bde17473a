import WordExtractor from 'word-extractor';
import { IngestError } from '../model.js';
import { normalizeSpace, type Paragraph, type ParagraphRole, type StructureNode } from '../structure.js';
import { leafOf } from './blocks.js';
import { textStructure } from './txt.js';

/** The characters as Word has them: word-extractor's default turns curly quotes and dashes to ASCII. */
const AS_WRITTEN = { filterUnicode: false };

/**
 * The structure of a Word 97-2003 file. word-extractor gives text only (no styles, no automatic
 * numbers), so each paragraph is read like a text file's: headings by their look, lists by markers.
 * Text boxes follow the body; running headers and footers are furniture before and after it (each
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
  const body = [...lines(doc.getBody(AS_WRITTEN)), ...lines(doc.getTextboxes({ ...AS_WRITTEN, includeHeadersAndFooters: false, includeBody: true }))];
  const seen = new Set<string>();
  const furniture = (text: string, role: ParagraphRole): Paragraph[] =>
    lines(text)
      .filter((t) => /\p{L}/u.test(t) && !seen.has(t) && seen.add(t))
      .map((t) => ({ type: 'paragraph', structure: 'div', role, leaf: leafOf(t) }));
  const headers = furniture(doc.getHeaders({ ...AS_WRITTEN, includeFooters: false }), 'header');
  const footers = furniture(doc.getFooters(AS_WRITTEN), 'footer');
  const notes: Paragraph[] = [...lines(doc.getFootnotes(AS_WRITTEN)), ...lines(doc.getEndnotes(AS_WRITTEN))].map((t) => ({ type: 'paragraph', structure: 'p', role: 'footnote', leaf: leafOf(t) }));
  return [...headers, ...textStructure(body.map((p) => [p])), ...notes, ...footers];
}

/** A part's paragraphs, whitespace-normalised, empty ones left out. */
function lines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(normalizeSpace)
    .filter((t) => t.length > 0);
}
