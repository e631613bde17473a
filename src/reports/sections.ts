import type { Section, StructureNode } from '../document/structure.js';

/** The outermost sections: those not inside another section (top-level, even when a list or nothing wraps them). */
export function topSections(nodes: readonly StructureNode[]): Section[] {
  const out: Section[] = [];
  const visit = (ns: readonly StructureNode[]): void => {
    for (const n of ns) {
      if (n.type === 'section') out.push(n);
      else if (n.type === 'list') for (const item of n.items) visit(item.children);
    }
  };
  visit(nodes);
  return out;
}

/** Every section, outer before inner, in document order. */
export function allSections(nodes: readonly StructureNode[]): Section[] {
  const out: Section[] = [];
  const visit = (ns: readonly StructureNode[]): void => {
    for (const n of ns) {
      if (n.type === 'section') {
        out.push(n);
        visit(n.children);
      } else if (n.type === 'list') for (const item of n.items) visit(item.children);
    }
  };
  visit(nodes);
  return out;
}

/**
 * A section's body text in reading order: body paragraphs and list items (page furniture left out);
 * tables are left out too (a summary of cells reads badly). With `nested`, subsections' bodies count
 * too (their headings do not).
 */
export function bodyTexts(nodes: readonly StructureNode[], nested: boolean): string[] {
  const out: string[] = [];
  const visit = (ns: readonly StructureNode[]): void => {
    for (const n of ns) {
      switch (n.type) {
        case 'paragraph':
          if (n.role === 'body' && n.leaf.text) out.push(n.leaf.text);
          break;
        case 'list':
          for (const item of n.items) {
            const before = out.length;
            visit(item.children);
            if (item.marker?.text && out.length > before) out[before] = `${item.marker.text} ${out[before]}`;
          }
          break;
        case 'section':
          if (nested) visit(n.children);
          break;
        case 'table':
          break;
      }
    }
  };
  visit(nodes);
  return out;
}

// Abbreviations whose period does not end a sentence.
const ABBREVIATIONS = new Set(
  ['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'no', 'nos', 'inc', 'ltd', 'co', 'corp', 'llc', 'jr', 'sr', 'vs', 'v', 'etc', 'e.g', 'i.e', 'u.s', 'sec', 'art', 'para', 'approx', 'fig', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'],
);

/** The text split into sentences (a period after a known abbreviation or a single letter does not end one). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const re = /[.!?]+["'”’)\]]*\s+(?=["“'‘(\[]?[A-Z0-9])/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(start, m.index);
    const lastWord = /([A-Za-z.]+)$/.exec(before)?.[1]?.toLowerCase() ?? '';
    if (text[m.index] === '.' && (ABBREVIATIONS.has(lastWord) || /^[a-z]$/.test(lastWord) || /^([a-z]\.)+[a-z]$/.test(lastWord))) continue;
    const end = m.index + m[0].trimEnd().length;
    out.push(text.slice(start, end).trim());
    start = m.index + m[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

export const SUMMARY_MAX = 300;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** An extractive summary: the first sentence, and the second when both fit in SUMMARY_MAX characters. */
export function summarize(text: string): string {
  const [first, second] = sentences(text.replace(/\s+/g, ' ').trim());
  if (!first) return '';
  if (second && first.length + 1 + second.length <= SUMMARY_MAX) return `${first} ${second}`;
  return clip(first, SUMMARY_MAX);
}

/** The first sentence only (clipped). */
export function firstSentence(text: string): string {
  const [first] = sentences(text.replace(/\s+/g, ' ').trim());
  return first ? clip(first, SUMMARY_MAX) : '';
}
