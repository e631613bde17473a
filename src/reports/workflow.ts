import type { ReportGenerator } from './report.js';
import { uniqueFileNames } from './names.js';
import { documentPayload, jsonBuffer } from './values.js';

/** Zapier, UiPath, Power Automate, Automation Anywhere: one JSON per document, named after it. */
export const workflowExport: ReportGenerator = async (input, sink) => {
  const names = uniqueFileNames(input.documents, 'json');
  for (const doc of input.documents) {
    await sink.write({ name: names.get(doc.id)!, documentId: doc.id }, jsonBuffer(documentPayload(input, doc)));
  }
};
