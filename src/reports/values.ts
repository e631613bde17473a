import type { ReportDocument, ReportItem, ReportValue } from '../model/projects.js';
import type { ReportInput } from './report.js';

/** The document's value for the item, or null. */
export function valueOf(doc: ReportDocument, item: ReportItem): string | null {
  return doc.values.get(item.propertyId)?.value ?? null;
}

export function entryOf(doc: ReportDocument, item: ReportItem): ReportValue | undefined {
  return doc.values.get(item.propertyId);
}

/** The `Document, items…, Link` table of TabularReport and SmartsheetExport, as text. */
export function* textTable(input: ReportInput): Generator<(string | null)[]> {
  yield ['Document', ...input.items.map((i) => i.label), 'Link'];
  for (const doc of input.documents) yield [doc.name, ...input.items.map((i) => valueOf(doc, i)), doc.url];
}

/**
 * Object keys for labels: a label repeated among the items gets ` (2)`, ` (3)`… so no value is lost
 * when values are keyed by label.
 */
export function labelKeys(items: readonly ReportItem[]): string[] {
  const seen = new Set<string>();
  return items.map((item) => {
    let key = item.label;
    for (let n = 2; seen.has(key); n++) key = `${item.label} (${n})`;
    seen.add(key);
    return key;
  });
}

/** What automation connectors receive for one document (workflow JSON, assembly data.json). */
export interface DocumentPayload {
  document: { id: string; name: string; url: string };
  docset: { id: string; name: string };
  values: Record<string, string | null>;
  extractedAt: string;
}

export function documentPayload(input: ReportInput, doc: ReportDocument): DocumentPayload {
  const keys = labelKeys(input.items);
  // A null-prototype object: a label such as "__proto__" stays an ordinary key.
  const values: Record<string, string | null> = Object.create(null);
  input.items.forEach((item, i) => {
    values[keys[i]!] = valueOf(doc, item);
  });
  return {
    document: { id: doc.id, name: doc.name, url: doc.url },
    docset: { id: input.docset.id, name: input.docset.name },
    values,
    extractedAt: input.generatedAt.toISOString(),
  };
}

export function jsonBuffer(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8');
}
