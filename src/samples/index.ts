import type { SampleDocument, SampleSet } from './document.js';
import { renderSampleDocx } from './docx-writer.js';
import { INVOICE_SET } from './invoices.js';
import { LEASE_SET } from './leases.js';
import { NDA_SET } from './nda.js';
import { renderSamplePdf } from './pdf-writer.js';

/** The sample catalogue shipped with Quire, in id order (the order lists page through). */
export const SAMPLE_CATALOG: readonly SampleSet[] = [LEASE_SET, INVOICE_SET, NDA_SET].sort((a, b) => (a.id < b.id ? -1 : 1));

export function findSampleSet(id: string): SampleSet | undefined {
  return SAMPLE_CATALOG.find((s) => s.id === id);
}

/** The file bytes of a generated document, in its own format. */
export function renderSampleDocument(doc: SampleDocument): Buffer {
  return doc.format === 'pdf' ? renderSamplePdf(doc.content) : renderSampleDocx(doc.content);
}

/**
 * What each document of a sample set says for each suggested property, known by construction: the
 * reference an extraction benchmark scores against. Keyed by file name.
 */
export function sampleTruth(id: string): Map<string, Record<string, string>> | undefined {
  const set = findSampleSet(id);
  return set && new Map(set.generate().map((d) => [d.fileName, d.truth]));
}

export type { SampleDocument, SampleSet } from './document.js';
