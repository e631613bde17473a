import type { Readable } from 'node:stream';
import type { StructureModel } from '../document/structure.js';

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

/** Everything a generator may read. Generators are pure: no database, no HTTP. */
export interface ReportInput {
  project: { id: string; name: string; type: ProjectType; url: string };
  docset: { id: string; name: string; url: string };
  /** The version being published ("1", "2", …). */
  version: string;
  generatedAt: Date;
  /** The project's items in their order. */
  items: readonly ReportItem[];
  /** Every property of the docset, in creation order (ExcelExport). */
  properties: readonly ReportItem[];
  /** The confirmed Ready documents of the docset, by name then id. */
  documents: readonly ReportDocument[];
  /** A document's structure model (Abstract, AssistedAuthoring); null when it has none. */
  structureOf(documentId: string): Promise<StructureModel | null>;
}

export interface ArtifactSpec {
  /** File name, with the extension that gives its Content-Type (`report.xlsx`, `{document name}.json`). */
  name: string;
  /** The document this artifact is about, or null for docset-wide artifacts. */
  documentId: string | null;
}

/** Where a generator writes its files; each `write` resolves once the bytes are stored. */
export interface ArtifactSink {
  write(spec: ArtifactSpec, body: Buffer | Readable): Promise<void>;
}

/** Writes every artifact of one version of a project of its type. */
export type ReportGenerator = (input: ReportInput, sink: ArtifactSink) => Promise<void>;
