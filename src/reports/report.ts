import type { Readable } from 'node:stream';
import type { StructureModel } from '../document/structure.js';
import type { ProjectType, ReportDocument, ReportItem } from '../model/projects.js';

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
