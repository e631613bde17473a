import type { EntityType, Span } from '../../../document/structure.js';
import type { Candidate } from '../../../document/properties.js';
import { candidateAt, trimValue } from './found.js';
import { labelWords, matchLabel } from './labels.js';
import { EXACT_LABEL_SCORE, type PropertyQuery } from './query.js';
import { labelKind } from './label-kind.js';
import { valueSpans } from './prose-spans.js';
import type { DocView, LeafInfo } from '../../../document/view.js';

/** Entity spans of the expected types in a leaf. */
export function typedSpans(info: LeafInfo, types: readonly EntityType[]): Span[] {
  return (info.leaf.spans ?? []).filter((s) => s.tag.kind === 'entity' && types.includes(s.tag.type));
}

/** `Menlo Group, a Delaware limited liability company …`: the name before its description. */
const APPOSITIVE = /^([^,;()]{2,60}?),\s+(?:a|an|the)\s/u;
/** The longest name before `, <address>` ("Granite Peak Foods Co., 4912 Industrial Parkway, …"). */
const MAX_NAME_CHARS = 60;
const NAME_TYPES: readonly EntityType[] = ['Org', 'Person'];

export type Range = { start: number; end: number };

/**
 * The name a value opens with, for party-like labels: the organisation or person entity at its start,
 * or the words before `, a …` ("Menlo Group, a Delaware limited liability company"). Null when the
 * label names no party or the value opens with no name.
 */
export function namePart(info: LeafInfo, range: Range, types: readonly EntityType[]): Range | null {
  if (!types.some((t) => NAME_TYPES.includes(t))) return null;
  const text = info.leaf.text;
  const opening = typedSpans(info, NAME_TYPES).find((s) => s.start >= range.start && s.start <= range.start + 1 && s.end <= range.end);
  if (opening) return trimValue(text, opening.start, opening.end);
  const appositive = text.slice(range.start, range.end).match(APPOSITIVE);
  if (appositive) return trimValue(text, range.start, range.start + appositive[1]!.length);
  // A name, then its address: the words before the comma that opens the address.
  const address = typedSpans(info, ['Address']).find((s) => s.start > range.start && s.start <= range.start + MAX_NAME_CHARS && s.end <= range.end);
  const before = address ? text.slice(range.start, address.start) : '';
  return address && /^[^,;()]+,\s*$/u.test(before) ? trimValue(text, range.start, address.start) : null;
}

/**
 * The part of a paragraph that is the typed value: a name opening it (see `namePart`), or the first
 * date, amount, percentage or duration of its first sentence ("A term … continuing for 96 full
 * calendar months"). `opening` tells whether the value starts the paragraph.
 */
export function typedPart(info: LeafInfo, range: Range, types: readonly EntityType[]): (Range & { opening: boolean }) | null {
  const name = namePart(info, range, types);
  if (name) return { ...name, opening: true };
  const pointTypes = types.filter((t) => !NAME_TYPES.includes(t));
  if (!pointTypes.length) return null;
  const text = info.leaf.text;
  const sentence = text.slice(range.start, range.end).search(/[.;](?:\s|$)/);
  const sentenceEnd = sentence < 0 ? range.end : range.start + sentence;
  const span = typedSpans(info, pointTypes).find((s) => s.start >= range.start && s.start < sentenceEnd);
  const trimmed = span ? trimValue(text, span.start, span.end) : null;
  return trimmed ? { ...trimmed, opening: span!.start <= range.start + 1 } : null;
}

/** Body text: typed values in running heads, footers and page numbers are furniture. */
function isBody(info: LeafInfo): boolean {
  return !info.role || info.role === 'body';
}

/** `… 2023 ("Effective Date")`: the quoted term in brackets names the value just before them. */
const IN_BRACKETS = 0.9;
/** `… Jane Doe, an individual … ("Recipient")`: the value opens the clause the term closes. */
const CLAUSE_OPENER = 0.8;
/** `"Term" means …`: a definition, often prose rather than a value. */
const DEFINITION = 0.65;
/** Double quotes, or curly single ones (a straight apostrophe is more often a possessive than a quote). */
const QUOTED = /["“]([^"“”]{1,60})["”]|‘([^‘’]{1,60})’/gu;
const MEANS = /^\s*(?:shall\s+mean|means|is\s+defined\s+as|refers\s+to)\s+/iu;

/** What may stand between a clause's start and the party it opens: `… by and between X`, `, and Y`. */
const CLAUSE_LEAD = /^[\s,;]*(?:(?:by\s+and\s+)?between\s+|and\s+|by\s+)?/iu;

/**
 * The value opening the clause a bracketed term closes: the clause runs from the previous closing
 * bracket or semicolon (the previous defined term) to the term's own bracket, as in
 * `… (the "Effective Date") by and between Acme Co., a corporation … (the "Disclosing Party")`.
 */
function clauseOpener(info: LeafInfo, spans: readonly Span[], open: number, types: readonly EntityType[]): Range | null {
  const text = info.leaf.text;
  const boundary = Math.max(text.lastIndexOf(')', open - 1), text.lastIndexOf(';', open - 1));
  const clause = boundary + 1;
  const start = clause + (text.slice(clause, open).match(CLAUSE_LEAD)?.[0].length ?? 0);
  const opener = spans.find((s) => s.start >= start && s.start <= start + 1 && s.end <= open);
  if (opener) return trimValue(text, opener.start, opener.end);
  return namePart(info, { start, end: open }, types);
}

/** The time of day set just before a date ("9:00 a.m. on December 9, 2013"), or null. */
function timeBefore(text: string, spans: readonly Span[], dateStart: number): Range | null {
  const time = valueSpans('time', text, spans).find((t) => t.end <= dateStart && /^,?\s+(?:on\s+)?$/u.test(text.slice(t.end, dateStart)));
  return time ? trimValue(text, time.start, time.end) : null;
}

/**
 * Defined terms in quotes: the value the document names with the property's label, as in
 * `entered into as of November 4, 2023 ("Effective Date")` or `"Effective Date" means …`.
 */
export function definedTermCandidates(view: DocView, query: PropertyQuery): Candidate[] {
  const out: Candidate[] = [];
  for (const info of view.leaves) {
    const text = info.leaf.text;
    if (!isBody(info) || !/["“”‘’]/u.test(text)) continue;
    for (const m of text.matchAll(QUOTED)) {
      const term = labelWords(m[1] ?? m[2]!);
      const score = Math.max(matchLabel(query.words, term), ...query.aliases.map((a) => matchLabel(a, term)));
      if (score < EXACT_LABEL_SCORE) continue;
      const evidence = { kind: 'defined-term' as const, labelText: term.join(' ') };
      const open = text.lastIndexOf('(', m.index);
      const inBrackets = open >= 0 && /^\(\s*(?:the\s+)?$/iu.test(text.slice(open, m.index));
      if (inBrackets) {
        const spans = (info.leaf.spans ?? []).filter((s) => s.tag.kind === 'entity' && (!query.types.length || query.types.includes(s.tag.type)));
        const adjacent = spans.find((s) => s.end <= open && /^[\s,]*$/.test(text.slice(s.end, open)));
        // "as of 9:00 a.m. on December 9, 2013 (the "Effective Time")": a time's term names the hour before the date.
        const hour = adjacent && labelKind(query.def.label).kind === 'time' ? timeBefore(text, spans, adjacent.start) : null;
        const range = hour ?? (adjacent ? trimValue(text, adjacent.start, adjacent.end) : query.types.length ? clauseOpener(info, spans, open, query.types) : null);
        if (range) out.push(candidateAt(view, info.index, range, (adjacent ? IN_BRACKETS : CLAUSE_OPENER) * score, evidence));
        continue;
      }
      const after = text.slice(m.index + m[0].length);
      const means = after.match(MEANS);
      if (!means) continue;
      const start = m.index + m[0].length + means[0].length;
      const sentenceEnd = text.slice(start).search(/\.(?:\s|$)/);
      const range = trimValue(text, start, sentenceEnd < 0 ? text.length : start + sentenceEnd);
      if (range) out.push(candidateAt(view, info.index, range, DEFINITION * score, evidence));
    }
  }
  return out;
}
