/**
 * What a generated sample document says, independent of its file format: the PDF and DOCX writers
 * render the same description.
 */
export type SampleBlock =
  | { kind: 'heading'; level: 1 | 2; text: string }
  | { kind: 'paragraph'; text: string }
  /** A "Key: value" line, the key in bold. */
  | { kind: 'field'; key: string; value: string }
  /** The first row is the header; every row has as many cells as the header. */
  | { kind: 'table'; rows: string[][] };

export interface SampleDocumentContent {
  title: string;
  blocks: SampleBlock[];
}

/** Amounts, counts and percentages: table cells the writers right-align. */
export function isNumericCell(cell: string): boolean {
  return /^(?:[A-Z]{3} )?[-+$€£]?[\d.,]+%?$/.test(cell.trim());
}

export interface SampleDocument {
  fileName: string;
  format: 'pdf' | 'docx';
  content: SampleDocumentContent;
  /** Each suggested property's value in this document, exactly as the document writes it. */
  truth: Record<string, string>;
}

/** One entry of the sample catalogue: a docset's worth of generated documents. */
export interface SampleSet {
  /** Stable id clients create samples from. */
  id: string;
  name: string;
  description: string;
  /**
   * The entry's version ("1", "2", …) and when it was first shipped and last changed (ISO 8601):
   * bump the version and `updatedAt` whenever `generate()` makes other documents.
   */
  version: string;
  createdAt: string;
  updatedAt: string;
  /** Property labels worth extracting from these documents; every document's truth has each. */
  suggestedProperties: readonly string[];
  /** The documents, the same on every call. */
  generate(): SampleDocument[];
}

/** A name as the start of a file name: "Acme Inc." + ".pdf" would give "Acme Inc..pdf". */
export function fileStem(name: string): string {
  return name.replace(/\.+$/, '');
}

/** Every third document is a DOCX, the rest PDFs: a set of six has four PDFs and two DOCX files. */
export function formatAt(index: number): 'pdf' | 'docx' {
  return index % 3 === 2 ? 'docx' : 'pdf';
}
