import { xmlSafe } from './xml.js';

const MAX_LENGTH = 120;
const DOCUMENT_EXTENSION = /\.(pdf|docx?|dotx?|rtf|odt|txt|md|html?|xml|xlsx?|csv|pptx?|png|jpe?g|tiff?|gif|bmp|webp)$/i;
// Windows refuses these as file names whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A file name stem from a document name, safe on every file system clients unpack artifacts to:
 * its extension dropped, path separators, reserved and control characters replaced, length capped.
 */
export function safeFileStem(documentName: string): string {
  let stem = documentName.normalize('NFC');
  stem = stem.replace(DOCUMENT_EXTENSION, '');
  stem = xmlSafe(stem)
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[. ]+|[. ]+$/g, '');
  if ([...stem].length > MAX_LENGTH) stem = [...stem].slice(0, MAX_LENGTH).join('').trimEnd();
  if (!stem) stem = 'document';
  if (RESERVED.test(stem)) stem = `${stem}_`;
  return stem;
}

/**
 * File names for several documents, unique case-insensitively: among documents whose safe stems
 * collide, the smallest id keeps the stem and the others get ` (2)`, ` (3)`… in id order (skipping
 * names another document already has), so the result does not depend on the input order.
 */
export function uniqueFileNames(docs: readonly { id: string; name: string }[], extension: string): Map<string, string> {
  const groups = new Map<string, { id: string; stem: string }[]>();
  for (const d of docs) {
    const stem = safeFileStem(d.name);
    const key = stem.toLowerCase();
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push({ id: d.id, stem });
  }
  const byId = new Map<string, string>();
  const taken = new Set<string>();
  const rest: { id: string; stem: string }[] = [];
  for (const g of groups.values()) {
    g.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const [first, ...others] = g;
    byId.set(first!.id, first!.stem);
    taken.add(first!.stem.toLowerCase());
    rest.push(...others);
  }
  rest.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const r of rest) {
    let n = 2;
    while (taken.has(`${r.stem} (${n})`.toLowerCase())) n++;
    const name = `${r.stem} (${n})`;
    taken.add(name.toLowerCase());
    byId.set(r.id, name);
  }
  return new Map([...byId].map(([id, stem]) => [id, `${stem}.${extension}`]));
}
