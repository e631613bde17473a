import type { Candidate } from '../../../document/properties.js';
import { comparable as key } from '../../../document/locate.js';

/** Each further leaf a value is found in leaves this share of the doubt (two exact form cells: 0.94 → 0.95). */
const AGREEMENT = 0.8;
/** Different values this close to the best: the document is ambiguous, they all lose some confidence. */
const CLOSE = 0.05;
const AMBIGUITY = 0.9;

/**
 * Candidates merged by value (the best-found occurrence kept, more sure for being found again
 * elsewhere), best first; values tied with the best (another value within 0.05) are made less sure.
 */
export function rankCandidates(found: readonly Candidate[]): Candidate[] {
  const byValue = new Map<string, Candidate[]>();
  for (const c of found) {
    if (!c.value) continue;
    const list = byValue.get(key(c.value));
    if (list) list.push(c);
    else byValue.set(key(c.value), [c]);
  }
  const merged = [...byValue.values()].map((list) => {
    const sorted = [...list].sort((a, b) => b.confidence - a.confidence);
    const best = sorted[0]!;
    // Only labelled finds agree: a typed value repeated is not more likely to be this property's.
    const places = new Set(sorted.filter((c) => c.evidence.kind !== 'typed' && c.evidence.kind !== 'prose').map((c) => c.anchor?.leaf)).size;
    // The name the DGML gives a value and the prose finder's reading of the same words are two readings: where both say
    // it, the value is surer than either alone ("Senior Notes due April 1, 2020" named MaturityDate, and near "maturity date").
    const readings = sorted.some((c) => c.evidence.kind === 'found-label') && sorted.some((c) => c.evidence.kind === 'prose') ? 1 : 0;
    const doubt = (1 - best.confidence) * AGREEMENT ** Math.max(0, places - 1 + readings);
    return { ...best, confidence: Math.min(0.99, 1 - doubt) };
  });
  merged.sort((a, b) => b.confidence - a.confidence);
  const [first, second] = merged;
  if (!first || !second || first.confidence - second.confidence >= CLOSE) return merged;
  // Every value in the leading tie loses the same share: the order stays, the doubt shows.
  return merged.map((c) => (first.confidence - c.confidence < CLOSE ? { ...c, confidence: c.confidence * AMBIGUITY } : c));
}
