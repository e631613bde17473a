export interface Format {
  /** Extension without the dot, also the format's name. */
  ext: string;
  contentType: string;
}

export const FORMATS: readonly Format[] = [
  { ext: 'pdf', contentType: 'application/pdf' },
  { ext: 'docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  { ext: 'doc', contentType: 'application/msword' },
  { ext: 'txt', contentType: 'text/plain; charset=utf-8' },
  { ext: 'html', contentType: 'text/html; charset=utf-8' },
  { ext: 'zip', contentType: 'application/zip' },
];

export const ALLOWED_EXTENSIONS = FORMATS.map((f) => `.${f.ext}`);

/** The format a file name declares by its extension; `null` when it has none; `undefined` when not allowed. */
export function formatOfName(name: string): Format | null | undefined {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = base.slice(dot + 1).toLowerCase();
  const alias = ext === 'htm' ? 'html' : ext;
  return FORMATS.find((f) => f.ext === alias);
}

/**
 * The format of content without a usable name (clients that send raw bytes name the part `upload`),
 * told from its first bytes. Ingestion verifies every format again from the whole content.
 */
export function sniffFormat(head: Buffer): Format | undefined {
  const find = (ext: string) => FORMATS.find((f) => f.ext === ext);
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return find('pdf');
  if (head.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) return find('doc');
  if (head.subarray(0, 4).equals(Buffer.from('504b0304', 'hex'))) {
    return head.includes('word/') || head.includes('[Content_Types].xml') ? find('docx') : find('zip');
  }
  const text = head.subarray(0, 1024).toString('utf8').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return find('html');
  const bom = head.subarray(0, 2).toString('hex');
  if (bom === 'fffe' || bom === 'feff') return find('txt');
  if (head.length > 0 && !head.subarray(0, 4096).includes(0)) return find('txt');
  return undefined;
}
