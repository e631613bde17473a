import type { ReportDocument, ReportItem } from '../model/projects.js';
import type { ReportGenerator, ReportInput } from './report.js';
import { writeXlsx, type Cell, type Row } from './xlsx.js';

/** Below this confidence an extracted value needs a person's look. */
export const LOW_CONFIDENCE = 0.5;
const MISSING_FILL = 'FFFFC7CE'; // red
const LOW_FILL = 'FFFFEB9C'; // amber

export type Flag = 'missing' | 'low';

/** Why a value needs review, or null: no value (blank counts as none), or an extraction below LOW_CONFIDENCE. */
export function flagOf(doc: ReportDocument, item: ReportItem): Flag | null {
  const v = doc.values.get(item.propertyId);
  if (!v || v.value === null || v.value.trim() === '') return 'missing';
  if (v.confidence !== null && v.confidence < LOW_CONFIDENCE) return 'low';
  return null;
}

function* reportRows(input: ReportInput): Generator<Row> {
  for (const doc of input.documents) {
    const cells: Cell[] = [doc.name];
    const fills: (string | undefined)[] = [undefined];
    const flags: string[] = [];
    for (const item of input.items) {
      const flag = flagOf(doc, item);
      cells.push(doc.values.get(item.propertyId)?.value ?? null);
      fills.push(flag === 'missing' ? MISSING_FILL : flag === 'low' ? LOW_FILL : undefined);
      if (flag === 'missing') flags.push(`${item.label}: missing`);
      else if (flag === 'low') flags.push(`${item.label}: low confidence (${doc.values.get(item.propertyId)!.confidence!.toFixed(2)})`);
    }
    cells.push(flags.join('; ') || null);
    yield { cells, fills };
  }
}

function* summaryRows(input: ReportInput): Generator<Row> {
  for (const item of input.items) {
    let missing = 0;
    let low = 0;
    for (const doc of input.documents) {
      const flag = flagOf(doc, item);
      if (flag === 'missing') missing++;
      else if (flag === 'low') low++;
    }
    const total = input.documents.length;
    yield { cells: [item.label, total, total - missing, missing, low] };
  }
}

/** The items per document with what needs review flagged, and per item how complete the docset is. */
export const diligenceReport: ReportGenerator = async (input, sink) => {
  await writeXlsx(sink, { name: 'diligence-report.xlsx', documentId: null }, input.generatedAt, [
    { name: 'Report', header: ['Document', ...input.items.map((i) => i.label), 'Flags'], rows: () => reportRows(input) },
    { name: 'Summary', header: ['Item', 'Documents', 'With value', 'Missing', 'Low confidence'], rows: () => summaryRows(input) },
  ]);
};
