import { docxBuffer, heading, HeadingLevel, paragraph, runs } from './docx.js';
import type { ReportGenerator, ReportInput } from './report.js';
import { bodyTexts, firstSentence, summarize, topSections } from './sections.js';
import { valueOf } from './values.js';
import { writeXlsx, type Row } from './xlsx.js';

interface SectionSummary {
  heading: string;
  summary: string;
  first: string;
}

/**
 * Per document, an abstract: its items, then each top-level section with the first sentence or two
 * of its body (extractive: nothing is made up). Docset-wide, a workbook of the items and the first
 * sentences of each section.
 */
export const abstractReport: ReportGenerator = async (input: ReportInput, sink) => {
  // Only the short summaries are kept across documents; structures are read one at a time.
  const summaries = new Map<string, string>();
  for (const doc of input.documents) {
    const structure = await input.structureOf(doc.id);
    const sections: SectionSummary[] = [];
    for (const s of structure ? topSections(structure.nodes) : []) {
      const body = bodyTexts(s.children, true).join(' ');
      sections.push({ heading: s.heading.text, summary: summarize(body), first: firstSentence(body) });
    }
    summaries.set(doc.id, sections.map((s) => s.first).filter(Boolean).join(' '));

    const paragraphs = [heading(doc.name, HeadingLevel.TITLE)];
    for (const item of input.items) {
      paragraphs.push(paragraph([...runs(`${item.label}: `, { bold: true }), ...runs(valueOf(doc, item) ?? '')]));
    }
    for (const s of sections) {
      paragraphs.push(heading(s.heading, HeadingLevel.HEADING_1));
      if (s.summary) paragraphs.push(paragraph(runs(s.summary)));
    }
    await sink.write({ name: 'abstract.docx', documentId: doc.id }, await docxBuffer(doc.name, paragraphs));
  }

  function* rows(): Generator<Row> {
    for (const doc of input.documents) {
      yield { cells: [doc.name, ...input.items.map((i) => valueOf(doc, i)), summaries.get(doc.id) ?? null] };
    }
  }
  await writeXlsx(sink, { name: 'abstracts.xlsx', documentId: null }, input.generatedAt, [
    { name: 'Abstracts', header: ['Document', ...input.items.map((i) => i.label), 'Summary'], rows },
  ]);
};
