import { toCsv } from './csv.js';
import type { ArtifactSink, ReportInput, ReportGenerator } from './report.js';
import type { ReportDocument } from '../model/projects.js';
import { textTable, valueOf } from './values.js';
import { escapeAttr, escapeText, XML_DECLARATION } from './xml.js';
import { writeXlsx, type Row } from './xlsx.js';

export const PR_NAMESPACE = 'http://www.docugami.com/2021/dgml/project';

/**
 * A document's values as the Docugami loaders read them (LangChain, LlamaIndex): `//pr:Entry`, each
 * with `pr:Heading` (the label) and `pr:Value`.
 */
export function reportValuesXml(input: ReportInput, doc: ReportDocument): string {
  const entries = input.items.map(
    (item) => `<pr:Entry><pr:Heading>${escapeText(item.label)}</pr:Heading><pr:Value>${escapeText(valueOf(doc, item) ?? '')}</pr:Value></pr:Entry>`,
  );
  return (
    `${XML_DECLARATION}\n` +
    `<pr:Report xmlns:pr="${PR_NAMESPACE}" pr:document="${escapeAttr(doc.name)}" pr:project="${escapeAttr(input.project.name)}">` +
    entries.join('') +
    '</pr:Report>\n'
  );
}

function* reportRows(input: ReportInput): Generator<Row> {
  for (const doc of input.documents) {
    yield { cells: [doc.name, ...input.items.map((i) => valueOf(doc, i)), { text: doc.url, hyperlink: doc.url }] };
  }
}

async function writeTabular(input: ReportInput, sink: ArtifactSink): Promise<void> {
  await writeXlsx(sink, { name: 'report.xlsx', documentId: null }, input.generatedAt, [
    { name: 'Report', header: ['Document', ...input.items.map((i) => i.label), 'Link'], rows: () => reportRows(input) },
  ]);
  await sink.write({ name: 'report.csv', documentId: null }, toCsv(textTable(input)));
  for (const doc of input.documents) {
    await sink.write({ name: 'report-values.xml', documentId: doc.id }, Buffer.from(reportValuesXml(input, doc), 'utf8'));
  }
}

export const tabularReport: ReportGenerator = writeTabular;
