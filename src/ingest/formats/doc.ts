import WordExtractor from 'word-extractor';
import { IngestError } from '../model.js';
import type { Block } from './blocks.js';

/** Paragraphs of a Word 97-2003 file (word-extractor gives text only: no heading styles). */
export async function readDoc(bytes: Buffer): Promise<Block[]> {
  let body: string;
  try {
    body = (await new WordExtractor().extract(bytes)).getBody();
  } catch (err) {
    throw new IngestError('Corrupt DOC', `the document cannot be read (${(err as Error).message})`);
  }
  return body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => t)
    .map((text) => ({ kind: 'paragraph', text }));
}
