import type { Block } from './blocks.js';

/** Text of a plain-text file: UTF-8/UTF-16 by BOM, else UTF-8 when valid, else Latin-1. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const body = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    return body.swap16().toString('utf16le');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** One block per line: a text file's line breaks are its layout. */
export function readTxt(bytes: Buffer): Block[] {
  const lines = decodeText(bytes).replace(/\r\n?/g, '\n').replace(/\f/g, '\n').split('\n');
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  return lines.map((text) => ({ kind: 'line', text: text.trimEnd() }));
}
