import { Parser } from 'htmlparser2';
import type { Paragraph } from '../../../document/structure.js';
import { leafOf } from '../blocks.js';

const PART_RE = /^word\/(header|footer)\d*\.xml$/;

/** Whether a DOCX package entry is one of its headers or footers. */
export function isHeaderOrFooter(name: string): boolean {
  return PART_RE.test(name);
}

/**
 * A DOCX's running headers and footers ("Document ID: 123-456-7890"), which mammoth leaves out, as
 * furniture paragraphs: each distinct text once, headers first. Page numbers (Word's PAGE fields,
 * digits only) say nothing without their page and are left out.
 */
export function headersAndFooters(parts: ReadonlyMap<string, string>): { headers: Paragraph[]; footers: Paragraph[] } {
  const seen = new Set<string>();
  const found = { headers: [] as Paragraph[], footers: [] as Paragraph[] };
  for (const name of [...parts.keys()].filter(isHeaderOrFooter).sort()) {
    const role = PART_RE.exec(name)![1] === 'header' ? 'header' : 'footer';
    for (const text of paragraphTexts(parts.get(name)!)) {
      if (!/\p{L}/u.test(text) || seen.has(text)) continue;
      seen.add(text);
      found[role === 'header' ? 'headers' : 'footers'].push({ type: 'paragraph', structure: 'div', role, leaf: leafOf(text) });
    }
  }
  return found;
}

/** The text of each paragraph of a WordprocessingML part (tabs and breaks as spaces). */
function paragraphTexts(xml: string): string[] {
  const out: string[] = [];
  let current: string | null = null;
  let inText = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'w:p') current = '';
        else if (name === 'w:t') inText = true;
        else if ((name === 'w:tab' || name === 'w:br') && current !== null) current += ' ';
      },
      ontext(text) {
        if (inText && current !== null) current += text;
      },
      onclosetag(name) {
        if (name === 'w:t') inText = false;
        else if (name === 'w:p' && current !== null) {
          const text = current.replace(/\s+/g, ' ').trim();
          if (text) out.push(text);
          current = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return out;
}
