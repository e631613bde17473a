import type { Box } from './structure.js';

/**
 * The vocabulary of property values in a document: the properties looked for, where a value sits
 * (its anchor in the structure), how it was found (evidence) and the values to tag in the DGML.
 * Shared by the finders (src/ingest/stages/properties/), the tagging writer (tag.ts) and the domain.
 */

/** A docset property as extraction sees it. */
export interface PropertyDef {
  id: string;
  /** As the user wrote it ("Accident Number"). */
  label: string;
  /** The DGML element name derived from the label ("AccidentNumber"). */
  labelId: string;
}

/** Where a value sits in the structure: the leaf (index in `leaves()` order) and its characters. */
export interface ValueAnchor {
  leaf: number;
  start: number;
  end: number;
  /** For form tables: the leaf of the label cell ("Accident Number:"), tagged `docset:{labelId}-cell`. */
  labelLeaf?: number;
  /** For values that run over several leaves (a whole section): the last one; `end` is then in it. */
  lastLeaf?: number;
}

/**
 * How a value was found, kept with it so that other documents of the docset can prefer values found
 * the same way (step 4 of the issue: documents of one docset share a layout). Opaque to storage.
 */
export interface Evidence {
  kind: 'form-cell' | 'label-line' | 'section' | 'typed' | 'defined-term' | 'prose' | 'found-label' | 'learned';
  /** The label text as it appears in the document ("Accident Number:"), normalised. */
  labelText?: string;
  /** Page and position of the value, for position-based learning. */
  page?: number;
  box?: Box;
  /** A coarse description of the value's shape (e.g. "AAA00AA000"), for shape-based learning. */
  shape?: string;
  /** The sentence (or line) the value stands in, as the document writes it: what a person checks it against. */
  context?: string;
}

export interface Candidate {
  value: string;
  confidence: number;
  location: { page: number; boundingBox: Box } | null;
  anchor: ValueAnchor | null;
  evidence: Evidence;
}

export interface ExtractedValue {
  propertyId: string;
  /** The best candidate, or null when nothing plausible was found. */
  best: Candidate | null;
  /** Other plausible values, best first (at most 5). */
  candidates: Candidate[];
}

/** What the docset already knows: values set by hand or extracted with high confidence, with their evidence. */
export interface DocsetKnowledge {
  byProperty: Map<string, { value: string; source: 'extracted' | 'manual'; evidence: Evidence | null }[]>;
}

/** A value to tag in the DGML: found by extraction (anchor known) or set by hand (located by its text). */
export interface ValueToTag {
  labelId: string;
  /** Kept on the span (`InlineTag.propertyId`) when given. */
  propertyId?: string;
  value: string;
  anchor: ValueAnchor | null;
}
