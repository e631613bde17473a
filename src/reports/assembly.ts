import type { ReportDocument } from '../model/projects.js';
import type { ReportGenerator, ReportInput } from './report.js';
import { documentPayload, jsonBuffer, valueOf } from './values.js';
import { escapeAttr, escapeText, XML_DECLARATION } from './xml.js';

/** The document's values as the assembly bots' XML data source. A missing value is an empty element with `missing="true"`. */
export function assemblyXml(input: ReportInput, doc: ReportDocument): string {
  const values = input.items.map((item) => {
    const attrs = `label="${escapeAttr(item.label)}" labelId="${escapeAttr(item.labelId)}"`;
    const value = valueOf(doc, item);
    return value === null ? `<Value ${attrs} missing="true"/>` : `<Value ${attrs}>${escapeText(value)}</Value>`;
  });
  return (
    `${XML_DECLARATION}\n` +
    `<Document id="${escapeAttr(doc.id)}" name="${escapeAttr(doc.name)}" url="${escapeAttr(doc.url)}">` +
    `<Docset id="${escapeAttr(input.docset.id)}" name="${escapeAttr(input.docset.name)}"/>` +
    `<Values>${values.join('')}</Values>` +
    '</Document>\n'
  );
}

/** UiPath and Automation Anywhere document assembly: per document `data.json` and `data.xml`. */
export const documentAssembly: ReportGenerator = async (input, sink) => {
  for (const doc of input.documents) {
    await sink.write({ name: 'data.json', documentId: doc.id }, jsonBuffer(documentPayload(input, doc)));
    await sink.write({ name: 'data.xml', documentId: doc.id }, Buffer.from(assemblyXml(input, doc), 'utf8'));
  }
};
