import mammoth from 'mammoth';
import { IngestError } from '../model.js';
import type { Block } from './blocks.js';
import { readHtml } from './html.js';
import { zipEntryNames } from './zip.js';

/** Paragraphs, headings, list items and table rows of a DOCX, through mammoth's HTML. */
export async function readDocx(bytes: Buffer): Promise<Block[]> {
  let names: string[];
  try {
    names = await zipEntryNames(bytes);
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `not a readable ZIP package (${(err as Error).message})`);
  }
  if (!names.includes('word/document.xml')) throw new IngestError('Corrupt DOCX', 'no word/document.xml');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch (err) {
    throw new IngestError('Corrupt DOCX', `the document cannot be read (${(err as Error).message})`);
  }
  return readHtml(html);
}
