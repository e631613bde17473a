import type { StructureModel } from '../../document/structure.js';
import type { DocsetKnowledge, Evidence, ExtractedValue, PropertyDef } from '../../document/properties.js';
import { formCellFindings } from './properties/form-cells.js';
import { labelLineFindings } from './properties/label-lines.js';
import { applyLearning, evidenceOfValue, learnedFor } from './properties/learning.js';
import { EXACT_LABEL_SCORE, makeQuery } from './properties/query.js';
import { rankCandidates } from './properties/ranking.js';
import { sectionFindings } from './properties/sections.js';
import { proseCandidates } from './properties/prose.js';
import { definedTermCandidates } from './properties/typed.js';
import { foundLabelCandidates } from './properties/found-labels.js';
import { DocView } from '../../document/view.js';

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
    let found = [...labelled.flatMap((f) => f.candidates), ...definedTermCandidates(view, query), ...foundLabelCandidates(view, query), ...proseCandidates(view, query)];
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
