import type { Candidate } from '../../../document/properties.js';
import { candidateAt, evidenceLabel, trimValue, type Findings } from './found.js';
import { labelScore, MIN_LABEL_SCORE, type PropertyQuery } from './query.js';
import { typedPart } from './typed.js';
import type { DocView, LeafInfo, SectionInfo } from '../../../document/view.js';

/** A heading that ends with a colon is a label ("Disclosing Party:"), its body the value. */
const LABEL_HEADING = 0.9;
/** A heading naming the property ("Governing Law", "1.2 Tenant."). */
const NAMED_SECTION = 0.82;
/** The typed label found no value of its type in the section: the paragraph may still be it, or prose about it. */
const UNTYPED_BODY = 0.7;
/** The typed value is inside the first sentence rather than opening it ("A term … for 96 full calendar months"). */
const INSIDE_SENTENCE = 0.92;
/** First paragraphs up to this many words are values ("Shorebucks LLC"); longer ones are clauses. */
const SHORT_VALUE_WORDS = 20;

/** The section's body paragraphs (tables, list markers and page furniture are not values). */
function bodyParagraphs(view: DocView, s: SectionInfo): LeafInfo[] {
  return view.leaves.slice(s.firstBody, s.end).filter((l) => l.kind === 'paragraph' && l.role === 'body');
}

/**
 * Sections whose heading names the property. The value is the first paragraph, narrowed to a value of
 * the expected type for typed labels (the organisation for "Landlord"); for clause-like sections
 * (long prose under a plain heading, like "Termination") the whole section.
 */
export function sectionFindings(view: DocView, query: PropertyQuery): Findings {
  const candidates: Candidate[] = [];
  let blank = 0;
  for (const s of view.sections) {
    const heading = view.leaves[s.heading]!.leaf.text;
    const score = labelScore(query, heading);
    if (score < MIN_LABEL_SCORE) continue;
    const isLabel = /:\s*$/.test(heading);
    const body = bodyParagraphs(view, s);
    const first = body[0];
    // Only the section's own first paragraph: one under a sub-heading belongs to the sub-section.
    const range = first && !view.sections.some((o) => o !== s && o.heading > s.heading && o.heading < first.index && o.end > first.index) ? trimValue(first.leaf.text, 0, first.leaf.text.length) : null;
    if (!first || !range) {
      if (isLabel) blank = Math.max(blank, score);
      continue;
    }
    const evidence = { kind: isLabel ? ('label-line' as const) : ('section' as const), labelText: evidenceLabel(heading) };
    const weight = (isLabel ? LABEL_HEADING : NAMED_SECTION) * score;
    if (query.types.length) {
      const typed = typedPart(first, range, query.types);
      if (typed) candidates.push(candidateAt(view, first.index, typed, weight * (typed.opening ? 1 : INSIDE_SENTENCE), evidence));
      else if (view.wordCount(first.index) <= SHORT_VALUE_WORDS) candidates.push(candidateAt(view, first.index, range, weight * UNTYPED_BODY, evidence));
      continue;
    }
    const last = body.at(-1)!;
    if (isLabel || view.wordCount(first.index) <= SHORT_VALUE_WORDS || last === first) {
      candidates.push(candidateAt(view, first.index, range, weight, evidence));
      continue;
    }
    const whole = body.map((l) => l.leaf.text).join(' ');
    candidates.push(candidateAt(view, first.index, { start: 0, end: last.leaf.text.length }, weight, evidence, { lastLeaf: last.index, value: whole }));
  }
  return { candidates, blank };
}
