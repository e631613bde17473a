import { IngestError } from '../model.js';
import type { StructureNode } from '../structure.js';
import { htmlStructure } from './html.js';
import { zipEntryNames } from './zip.js';

/**
 * Word's title styles on top of mammoth's defaults (which already map Heading 1..6 to h1..h6 and
 * numbered paragraphs to nested ol/ul).
 */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/** The structure of a DOCX: its heading styles, numbering and tables, through mammoth's HTML. */
export async function readDocx(bytes: Buffer): Promise<StructureNode[]> {
  let names: string[];
  try {
    names = await zipEntryNames(bytes);
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `not a readable ZIP package (${(err as Error).message})`);
  }
  if (!names.includes('word/document.xml')) throw new IngestError('Corrupt DOCX', 'no word/document.xml');
  // Loaded on the first DOCX: a thread reading only PDFs does not carry it (~9 MiB).
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: bytes }, { styleMap: STYLE_MAP })).value;
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `word/document.xml cannot be read: ${xmlProblem((err as Error).message)}`);
  }
  return htmlStructure(html, { wordNumbering: true });
}

/**
 * The parser's message in a user's words: XML entity declarations (never expanded: no entity bombs,
 * no external files) and malformed XML, without the parser's internals (positions it does not know).
 */
function xmlProblem(message: string): string {
  if (/entity not found|<!ENTITY|DOCTYPE/i.test(message)) return 'it uses XML entities, which Word never writes and Quire does not expand.';
  const first = message
    .replace(/\[xmldom [a-z]+\]\s*/gi, '')
    .replace(/@#\[line:[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return first && !/undefined|null|\[object/.test(first) ? `it is not well-formed XML (${first.slice(0, 200)}).` : 'it is not well-formed XML.';
}
