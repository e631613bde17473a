import { isUtf8 } from 'node:buffer';
import { TextDecoder, getBOMEncoding } from '@exodus/bytes/encoding.js';
import htmlEncodingSniffer from 'html-encoding-sniffer';

/*
 * The text of TXT and HTML files, decoded by the WHATWG Encoding Standard (@exodus/bytes, which jsdom
 * uses) in the order a browser decides: a byte order mark first, then what the transport said, then
 * (HTML) a <meta charset> or <meta http-equiv="Content-Type"> found by the standard's prescan
 * (html-encoding-sniffer), then a guess.
 *
 * The guess: valid UTF-8 is UTF-8; anything else is Windows-1252. Windows-1252 is the WHATWG default
 * for unlabelled legacy content in English and most Western locales, and it is what "Latin-1" text
 * from Windows really is (0x80-0x9F are its curly quotes, dashes and the euro sign, not the C1
 * controls ISO-8859-1 puts there). A statistical detector was not taken: it has to guess among
 * dozens of single-byte code pages from letter frequencies, which a short English text with a few
 * quotes does not give it, and a wrong guess turns every accented letter into another one, where
 * this rule's worst case is the same text with the wrong accented letters only for files that are
 * neither UTF-8 nor Western.
 */

/** Bytes the <meta> prescan reads: a browser changes encoding at a <meta> met later too, so more than the standard's 1,024. */
const META_PRESCAN_BYTES = 64 * 1024;

/** The encoding of a text file without a label: UTF-8 when its bytes are valid UTF-8, else Windows-1252. */
function guessedEncoding(bytes: Uint8Array): string {
  return isUtf8(bytes) ? 'utf-8' : 'windows-1252';
}

function decode(bytes: Uint8Array, encoding: string): string {
  // The decoder drops a BOM of its own encoding; malformed bytes become U+FFFD (never an exception).
  // A page may name an encoding no decoder exists for ("replacement", which stands for ISO-2022-KR
  // and others the standard refuses): it is read as if it had named none.
  const decoder = knownEncoding(encoding) ? new TextDecoder(encoding) : new TextDecoder(guessedEncoding(bytes));
  return decoder.decode(bytes);
}

/** A plain-text file's text: UTF-8 or UTF-16 (LE, BE) by its BOM, else UTF-8 when valid, else Windows-1252. */
export function decodeText(bytes: Uint8Array): string {
  return decode(bytes, getBOMEncoding(bytes) ?? guessedEncoding(bytes));
}

/**
 * An HTML page's text, decoded as a browser decodes it: BOM, the transport's charset (a Content-Type's
 * charset label, when the caller has one: an upload's own Content-Type is not kept today), the page's
 * own <meta> declaration (the WHATWG prescan), else as a text file is guessed.
 */
export function decodeHtml(bytes: Uint8Array, transportCharset?: string): string {
  const label = transportCharset && knownEncoding(transportCharset) ? transportCharset : undefined;
  const encoding = htmlEncodingSniffer(bytes, { transportLayerEncodingLabel: label, defaultEncoding: guessedEncoding(bytes), maxPrescanBytes: META_PRESCAN_BYTES });
  return decode(bytes, encoding);
}

/** The encoding a label names, or null for a label the Encoding Standard does not know. */
function knownEncoding(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}
