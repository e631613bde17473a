import { toCsv } from './csv.js';
import type { ReportGenerator } from './report.js';
import { textTable } from './values.js';

/** Smartsheet imports CSV: the same `Document, items…, Link` table as TabularReport's. */
export const smartsheetExport: ReportGenerator = async (input, sink) => {
  await sink.write({ name: 'sheet.csv', documentId: null }, toCsv(textTable(input)));
};
