import mammoth from 'mammoth';
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
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: bytes }, { styleMap: STYLE_MAP })).value;
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `the document cannot be read (${(err as Error).message})`);
  }
  return htmlStructure(html, { wordNumbering: true });
}
