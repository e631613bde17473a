import type { Box, StructureModel } from '../structure.js';

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
}

/**
 * How a value was found, kept with it so that other documents of the docset can prefer values found
 * the same way (step 4 of the issue: documents of one docset share a layout). Opaque to storage.
 */
export interface Evidence {
  kind: 'form-cell' | 'label-line' | 'section' | 'typed' | 'defined-term' | 'learned';
  /** The label text as it appears in the document ("Accident Number:"), normalised. */
  labelText?: string;
  /** Page and position of the value, for position-based learning. */
  page?: number;
  box?: Box;
  /** A coarse description of the value's shape (e.g. "AAA00AA000"), for shape-based learning. */
  shape?: string;
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

/** Finds each property's value in one document's structure. Deterministic, no network. */
export function extractProperties(structure: StructureModel, properties: PropertyDef[], knowledge: DocsetKnowledge): ExtractedValue[] {
  void structure;
  void knowledge;
  return properties.map((p) => ({ propertyId: p.id, best: null, candidates: [] }));
}

/** A value to tag in the DGML: found by extraction (anchor known) or set by hand (located by its text). */
export interface ValueToTag {
  labelId: string;
  value: string;
  anchor: ValueAnchor | null;
}

/**
 * Adds `{kind: 'property'}` spans for the values to the structure's leaves (whole words; entity spans
 * they overlap give way), and returns the label cells to tag as `docset:{labelId}-cell` (leaf index to
 * labelId). A value without anchor is looked for by its text.
 */
export function tagProperties(structure: StructureModel, values: ValueToTag[]): Map<number, string> {
  void structure;
  void values;
  return new Map();
}
