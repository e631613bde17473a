import type { EntityType, Leaf, Span, StructureNode } from '../../document/structure.js';
import { leaves } from '../../document/structure.js';
import type { Candidate } from './entities/candidate.js';
import { findEmails, findPhones } from './entities/contacts.js';
import { findDates } from './entities/dates.js';
import { findDurations, findMoney, findPercents } from './entities/numbers.js';
import { findOrganisations } from './entities/organisations.js';
import { findPeople } from './entities/people.js';
import { findAddresses, findStates } from './entities/places.js';
import { snapToWords } from './entities/words.js';

/** When candidates overlap, the more specific type wins; within a type, the longer candidate. */
const PRECEDENCE: readonly EntityType[] = ['Email', 'Phone', 'Address', 'Org', 'Person', 'Date', 'Money', 'Percent', 'TimeDuration', 'USState'];
const RANK = Object.fromEntries(PRECEDENCE.map((t, i) => [t, i])) as Record<EntityType, number>;

/** Every recogniser's candidates for one leaf's text. */
export function findEntities(text: string, previous?: string): Candidate[] {
  return [
    ...findEmails(text),
    ...findPhones(text),
    ...findAddresses(text),
    ...findOrganisations(text),
    ...findPeople(text, previous),
    ...findDates(text),
    ...findMoney(text),
    ...findPercents(text),
    ...findDurations(text),
    ...findStates(text),
  ];
}

function overlapsTaken(taken: Uint8Array, c: Candidate): boolean {
  for (let i = c.start; i < c.end; i++) if (taken[i]) return true;
  return false;
}

/**
 * The spans to add to a text that already has `existing`: candidates snapped to whole words, then
 * chosen by precedence so that no two spans (new or existing) overlap.
 */
export function entitySpans(text: string, existing: readonly Span[] = [], previous?: string): Span[] {
  const candidates = findEntities(text, previous);
  if (candidates.length === 0) return [];
  const snapped = candidates
    .map((c) => snapToWords(text, c))
    .filter((c): c is Candidate => c !== null)
    .sort((a, b) => RANK[a.type] - RANK[b.type] || b.end - b.start - (a.end - a.start) || a.start - b.start);
  // One flag per character: overlap checks stay linear however many spans a long leaf has.
  const taken = new Uint8Array(text.length);
  for (const s of existing) taken.fill(1, s.start, s.end);
  const out: Span[] = [];
  for (const c of snapped) {
    if (overlapsTaken(taken, c)) continue;
    taken.fill(1, c.start, c.end);
    out.push({ start: c.start, end: c.end, tag: { kind: 'entity', type: c.type } });
  }
  return out;
}

/** Tags entities (dates, money, organisations, …) inline in every leaf, on whole words. Precision over recall. */
export function tagEntities(nodes: StructureNode[]): void {
  let previous: Leaf | undefined;
  for (const leaf of leaves(nodes)) {
    const added = entitySpans(leaf.text, leaf.spans, previous?.text);
    if (added.length) leaf.spans = [...(leaf.spans ?? []), ...added].sort((a, b) => a.start - b.start || b.end - a.end);
    previous = leaf;
  }
}
