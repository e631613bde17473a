/** Project types and what a report generator reads of a docset (src/reports/ has one generator per type). */

/** Project types: the eleven of the seed, plus two the official SDK knows. */
export const PROJECT_TYPES = [
  'TabularReport',
  'Abstract',
  'ExcelExport',
  'AssistedAuthoring',
  'AutomationAnywhereDocumentAssembly',
  'AutomationAnywhereWorkFlow',
  'ZapierWorkFlow',
  'UiPathWorkFlow',
  'UiPathDocumentAssembly',
  'PowerAutomateWorkFlow',
  'SmartsheetExport',
  'DiligenceReport',
  'Chat',
] as const;

export type ProjectType = (typeof PROJECT_TYPES)[number];

/** A property as a report column: the project's items, or every property of the docset. */
export interface ReportItem {
  propertyId: string;
  label: string;
  labelId: string;
}

/** One document's value for one property. */
export interface ReportValue {
  value: string | null;
  /** `manual` (set by a person), `extracted`, or null when there is no value. */
  source: 'manual' | 'extracted' | null;
  /** 0..1; 1 for manual values; null when there is no value. */
  confidence: number | null;
  /** 1-based page where the value was found, when known. */
  page: number | null;
}

export interface ReportDocument {
  id: string;
  name: string;
  /** Absolute API URL of the document (`{base}/documents/{id}`). */
  url: string;
  pageCount: number | null;
  /** By property id; a property without an entry has no value. */
  values: ReadonlyMap<string, ReportValue>;
}
