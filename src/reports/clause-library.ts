import { docxBuffer, heading, HeadingLevel, paragraph, runs } from './docx.js';
import type { ReportGenerator, ReportInput } from './report.js';
import { allSections, bodyTexts } from './sections.js';
import { jsonBuffer } from './values.js';

const ROMAN = '[ivxlcdm]+';
const NUMBER = `(?:[0-9]+(?:\\.[0-9]+)*|${ROMAN}|[a-z])`;
const SUB = '(?:\\([a-z0-9]+\\))*';
// Numbering in front of a heading: "Article IV", "Section 3(b)", "§ 4.2", "1.", "1.2.3", "(a)", "IV.", "A)".
const NUMBERING = [
  new RegExp(`^(?:article|section|clause|schedule|exhibit|annex|appendix|part|chapter)\\s+${NUMBER}\\.?${SUB}(?=[\\s.:)\\-–—]|$)`, 'i'),
  new RegExp(`^§+\\s*[0-9]+(?:\\.[0-9]+)*[a-z]?${SUB}`, 'i'),
  new RegExp(`^\\(?[0-9]+(?:\\.[0-9]+)*\\.?${SUB}[.)]?(?=\\s|$)`),
  new RegExp(`^\\((?:${ROMAN}|[a-z])\\)(?=\\s|$)`, 'i'),
  new RegExp(`^(?:${ROMAN}|[a-z])[.)](?=\\s|$)`, 'i'),
];

/** The heading without its numbering, surrounding punctuation and extra spaces (case kept). */
export function stripNumbering(headingText: string): string {
  let s = headingText.normalize('NFKC').replace(/\s+/g, ' ').trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const re of NUMBERING) {
      const m = re.exec(s);
      if (m && m[0]) {
        s = s.slice(m[0].length).replace(/^[\s.:\-–—)]+/, '');
        changed = true;
      }
    }
  }
  return s.replace(/[\s.:;,\-–—]+$/, '').trim();
}

/** The grouping key of a heading: numbering stripped, case-folded, spaces collapsed. */
export function clauseKey(headingText: string): string {
  return stripNumbering(headingText).toLowerCase();
}

export interface ClauseVariant {
  text: string;
  documents: string[];
  count: number;
}
export interface Clause {
  label: string;
  /** Ids of the documents with at least one section of this label. */
  documents: string[];
  variants: ClauseVariant[];
}
export interface ClauseLibrary {
  docset: { id: string; name: string };
  version: string;
  clauses: Clause[];
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Section labels across the docset, each with its distinct wordings and who uses them, most used first. */
export async function buildClauseLibrary(input: ReportInput): Promise<ClauseLibrary> {
  interface Acc {
    forms: Map<string, number>;
    documents: Set<string>;
    variants: Map<string, Set<string>>;
  }
  const byKey = new Map<string, Acc>();
  for (const doc of input.documents) {
    const structure = await input.structureOf(doc.id);
    if (!structure) continue;
    for (const section of allSections(structure.nodes)) {
      const form = stripNumbering(section.heading.text);
      const key = form.toLowerCase();
      // Its own text, not its subsections' (they are clauses of their own).
      const text = bodyTexts(section.children, false).join(' ').normalize('NFC').replace(/\s+/g, ' ').trim();
      if (!key || !text) continue;
      let acc = byKey.get(key);
      if (!acc) byKey.set(key, (acc = { forms: new Map(), documents: new Set(), variants: new Map() }));
      acc.forms.set(form, (acc.forms.get(form) ?? 0) + 1);
      acc.documents.add(doc.id);
      let docs = acc.variants.get(text);
      if (!docs) acc.variants.set(text, (docs = new Set()));
      docs.add(doc.id);
    }
  }
  const clauses: Clause[] = [...byKey.values()].map((acc) => {
    // The label shown is the heading's most frequent spelling.
    const [label] = [...acc.forms].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]!;
    const variants = [...acc.variants]
      .map(([text, docs]) => ({ text, documents: [...docs], count: docs.size }))
      .sort((a, b) => b.count - a.count || byText(a.text, b.text));
    return { label, documents: [...acc.documents], variants };
  });
  clauses.sort((a, b) => b.documents.length - a.documents.length || byText(a.label.toLowerCase(), b.label.toLowerCase()));
  return { docset: { id: input.docset.id, name: input.docset.name }, version: input.version, clauses };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export const clauseLibrary: ReportGenerator = async (input, sink) => {
  const library = await buildClauseLibrary(input);
  await sink.write({ name: 'clause-library.json', documentId: null }, jsonBuffer(library));

  const title = `Clause library: ${input.docset.name}`;
  const paragraphs = [heading(title, HeadingLevel.TITLE)];
  for (const clause of library.clauses) {
    paragraphs.push(heading(clause.label, HeadingLevel.HEADING_1));
    paragraphs.push(paragraph(runs(`Used in ${plural(clause.documents.length, 'document')}; ${plural(clause.variants.length, 'variant')}.`, { italics: true })));
    clause.variants.forEach((v, i) => {
      paragraphs.push(heading(`Variant ${i + 1} (${plural(v.count, 'document')})`, HeadingLevel.HEADING_2));
      paragraphs.push(paragraph(runs(v.text)));
    });
  }
  await sink.write({ name: 'clause-library.docx', documentId: null }, await docxBuffer(title, paragraphs));
};
