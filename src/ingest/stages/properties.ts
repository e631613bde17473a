import type { Box, StructureModel } from '../../document/structure.js';
import { formCellFindings } from './properties/form-cells.js';
import { labelLineFindings } from './properties/label-lines.js';
import { applyLearning, evidenceOfValue, learnedFor } from './properties/learning.js';
import { EXACT_LABEL_SCORE, makeQuery } from './properties/query.js';
import { rankCandidates } from './properties/ranking.js';
import { sectionFindings } from './properties/sections.js';
import { tagValues } from '../../document/tag.js';
import { proseCandidates } from './properties/prose.js';
import { definedTermCandidates } from './properties/typed.js';
import { DocView } from '../../document/view.js';

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
  kind: 'form-cell' | 'label-line' | 'section' | 'typed' | 'defined-term' | 'prose' | 'learned';
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

/**
 * Below this confidence there is no best value, only candidates. The property's own label (or a
 * reordered, abbreviated one) in a structural place (a form cell, `Label: value`, a heading) scores
 * 0.65–0.97; a label sharing only part of its words scores 0.4 + 0.3 × coverage before the place's
 * weight (about 0.53 for "Certificate" beside "Airworthiness Certificate:"), and a value of the
 * label's type alone 0.4–0.55 (0.7 when it is the document's only one and sits after the label's
 * other words, up to 0.95 when the label's head word names it, as in "a term of two (2) years"). 0.6 keeps the former and turns the guesses down: precision first, no value
 * rather than a wrong one. On the NTSB bench (bench/extract) right values score 0.93 and more, the
 * surest wrong candidate 0.45.
 */
export const BEST_THRESHOLD = 0.6;
/** The document shows the property's label with nothing beside it: whatever else was found is capped below the threshold. */
const BLANK_FIELD_CAP = 0.45;
/** A candidate this sure comes from the property's own label, beside a value: it outweighs a blank copy of the label. */
const LABELLED = 0.85;
const MAX_OTHERS = 5;
/** How far below a labelled find a guess stays. */
const OUTRANKED = 0.06;
/** Finds that rest on a value's kind and the words around it, not on a label beside it: a blank copy of the label outweighs them. */
const GUESSES: ReadonlySet<Evidence['kind']> = new Set(['typed', 'prose']);

/**
 * Finds each property's value in one document's structure. Deterministic, no network. Evidence, in
 * order of strength: form cells and `Label: value` lines, sections whose heading names the property,
 * defined terms in quotes, values of the type the label implies; then what the docset already knows
 * (`knowledge`) favours values found the same way as in its other documents.
 */
export function extractProperties(structure: StructureModel, properties: PropertyDef[], knowledge: DocsetKnowledge): ExtractedValue[] {
  const view = new DocView(structure);
  return properties.map((def) => {
    const learned = learnedFor(knowledge, def.id);
    const query = makeQuery(def, learned?.aliases ?? []);
    const labelled = [formCellFindings(view, query), labelLineFindings(view, query), sectionFindings(view, query)];
    let found = [...labelled.flatMap((f) => f.candidates), ...definedTermCandidates(view, query), ...proseCandidates(view, query)];
    if (learned) found = applyLearning(view, found, learned);
    // The property's own label beside a value outranks any guess from the words around another one
    // ("Agreement number: AG-1" over the "1" of "Agreement 1.").
    const labelledBest = Math.max(0, ...found.filter((c) => !GUESSES.has(c.evidence.kind)).map((c) => c.confidence));
    if (labelledBest >= LABELLED) found = found.map((c) => (GUESSES.has(c.evidence.kind) ? { ...c, confidence: Math.min(c.confidence, labelledBest - OUTRANKED) } : c));
    let ranked = rankCandidates(found);
    const blank = Math.max(...labelled.map((f) => f.blank));
    if (blank >= EXACT_LABEL_SCORE && !found.some((c) => c.confidence >= LABELLED && !GUESSES.has(c.evidence.kind))) {
      ranked = ranked.map((c) => ({ ...c, confidence: Math.min(c.confidence, BLANK_FIELD_CAP) }));
    }
    const best = ranked[0] && ranked[0].confidence >= BEST_THRESHOLD ? ranked[0] : null;
    return { propertyId: def.id, best, candidates: ranked.slice(best ? 1 : 0, (best ? 1 : 0) + MAX_OTHERS) };
  });
}

/**
 * The evidence of a value set by hand in a document (where it sits, the label beside it, its shape),
 * so that the docset learns from it as from an extracted one; null when the document does not hold
 * the value. Meant to be stored as the value's `extraction.evidence` when a user sets it.
 */
export function evidenceOfManualValue(structure: StructureModel, value: string): Evidence | null {
  return evidenceOfValue(new DocView(structure), value);
}

/** A value to tag in the DGML: found by extraction (anchor known) or set by hand (located by its text). */
export interface ValueToTag {
  labelId: string;
  /** Kept on the span (`InlineTag.propertyId`) when given. */
  propertyId?: string;
  value: string;
  anchor: ValueAnchor | null;
}

/**
 * Adds `{kind: 'property'}` spans for the values to the structure's leaves (whole words; entity spans
 * they overlap give way), and returns the label cells to tag as `docset:{labelId}-cell` (leaf index to
 * labelId). A value without anchor is looked for by its text.
 */
export function tagProperties(structure: StructureModel, values: ValueToTag[]): Map<number, string> {
  return tagValues(structure, values);
}
