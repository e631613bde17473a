import WordExtractor from 'word-extractor';
import { IngestError } from '../model.js';
import type { StructureNode } from '../structure.js';
import { textStructure } from './txt.js';

/**
 * The structure of a Word 97-2003 file. word-extractor gives text only (no styles, no automatic
 * numbers), so each paragraph is read like a text file's: headings by their look, lists by markers.
 */
export async function readDoc(bytes: Buffer): Promise<StructureNode[]> {
  let body: string;
  try {
    body = (await new WordExtractor().extract(bytes)).getBody();
  } catch (err) {
    throw new IngestError('Corrupt DOC', `the document cannot be read (${(err as Error).message})`);
  }
  const paragraphs = body.replace(/\r\n?/g, '\n').split('\n').filter((t) => t.trim());
  return textStructure(paragraphs.map((p) => [p]));
}
