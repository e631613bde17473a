/** The formats a reader exists for, plus 'zip' (expanded before reading) and 'unknown'. */
export type DetectedFormat = 'pdf' | 'docx' | 'zip' | 'doc' | 'html' | 'txt' | 'unknown';

const CFB_MAGIC = Buffer.from('d0cf11e0a1b11ae1', 'hex');

/** The real format of `bytes`, from their magic bytes and content, whatever the name says. */
export function detectFormat(bytes: Buffer): DetectedFormat {
  if (isPdf(bytes)) return 'pdf';
  if (bytes.subarray(0, 8).equals(CFB_MAGIC)) return 'doc';
  if ((bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) || isEmptyZip(bytes)) {
    // Central directory names are stored uncompressed, so the name is found in the raw bytes.
    return bytes.includes('word/document.xml') ? 'docx' : 'zip';
  }
  if (hasTextBom(bytes)) return looksLikeHtml(decodeHead(bytes)) ? 'html' : 'txt';
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return 'unknown';
  return looksLikeHtml(head.toString('latin1')) ? 'html' : 'txt';
}

function isPdf(bytes: Buffer): boolean {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return true;
  // Some producers put junk before the header (pdf.js accepts it within the first KB); a text that
  // merely mentions "%PDF-" is told apart by the missing end-of-file marker.
  return bytes.subarray(0, 1024).includes('%PDF-') && bytes.subarray(-2048).includes('%%EOF');
}

function isEmptyZip(bytes: Buffer): boolean {
  return bytes.length >= 22 && bytes.readUInt32LE(0) === 0x06054b50;
}

function hasTextBom(bytes: Buffer): boolean {
  const b = bytes.subarray(0, 3).toString('hex');
  return b === 'efbbbf' || b.startsWith('fffe') || b.startsWith('feff');
}

function decodeHead(bytes: Buffer): string {
  const head = bytes.subarray(0, 8192);
  if (head[0] === 0xff) return head.subarray(2).toString('utf16le');
  if (head[0] === 0xfe) return Buffer.from(head.subarray(2)).swap16().toString('utf16le');
  return head.subarray(3).toString('utf8');
}

function looksLikeHtml(head: string): boolean {
  const t = head.trimStart().toLowerCase();
  if (t.startsWith('<!doctype html') || t.startsWith('<html')) return true;
  // A fragment without doctype: an HTML tag near the start.
  return /^(<!--[\s\S]*?-->\s*)*<(head|body|meta|title|div|p|h[1-6]|table|ul|ol)[\s>]/.test(t);
}

const NAMES: Record<DetectedFormat, string> = {
  pdf: 'PDF',
  docx: 'DOCX',
  zip: 'a ZIP archive',
  doc: 'a Word 97-2003 (DOC) file',
  html: 'HTML',
  txt: 'plain text',
  unknown: 'not a supported document format',
};

export function describeFormat(f: DetectedFormat): string {
  return NAMES[f];
}
