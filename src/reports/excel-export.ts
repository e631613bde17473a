import type { ReportGenerator, ReportInput } from './report.js';
import { valueOf } from './values.js';
import { writeXlsx, type Row } from './xlsx.js';

function* propertyRows(input: ReportInput): Generator<Row> {
  for (const doc of input.documents) {
    yield { cells: [doc.name, ...input.properties.map((p) => valueOf(doc, p)), { text: doc.url, hyperlink: doc.url }] };
  }
}

function* detailRows(input: ReportInput): Generator<Row> {
  for (const doc of input.documents) {
    for (const p of input.properties) {
      const v = doc.values.get(p.propertyId);
      yield { cells: [doc.name, p.label, v?.value ?? null, v?.page ?? null, v?.value == null ? null : (v.confidence ?? null), v?.source ?? null] };
    }
  }
}

/** Every property of the docset: one row per document, and one row per (document, property) with its provenance. */
export const excelExport: ReportGenerator = async (input, sink) => {
  await writeXlsx(sink, { name: 'spreadsheet.xlsx', documentId: null }, input.generatedAt, [
    { name: 'Properties', header: ['Document', ...input.properties.map((p) => p.label), 'Link'], rows: () => propertyRows(input) },
    { name: 'Details', header: ['Document', 'Property', 'Value', 'Page', 'Confidence', 'Source'], rows: () => detailRows(input) },
  ]);
};
