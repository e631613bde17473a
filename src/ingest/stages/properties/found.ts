import type { Candidate, Evidence } from '../../../document/properties.js';
import { normalizeSpace } from '../../../document/structure.js';
import { labelWords, valueShape } from './labels.js';
import type { DocView } from '../../../document/view.js';

/** What a finder reports: candidates, and how clearly the document says the field is empty (an exact label with a blank value). */
export interface Findings {
  candidates: Candidate[];
  /** Best label score of a label found with nothing beside it; 0 when none. */
  blank: number;
}

/** Placeholders that mean "nothing filled in": underscores, dashes, dots, slashes. */
const PLACEHOLDER = /^[\s_\-–—.\/|]*$/u;
const TRAILING = /[\s,;:]+$/u;
const LEADING = /^[\s,;:]+/u;
const SENTENCE_END = /(?:\p{N}|\p{Ll}{4,})\.$/u;
const SHORT_VALUE_CHARS = 60;

/** The value inside `text[start, end)` without surrounding separators; null when nothing is left. */
export function trimValue(text: string, start: number, end: number): { start: number; end: number } | null {
  const slice = text.slice(start, end);
  const lead = slice.match(LEADING)?.[0].length ?? 0;
  const trail = slice.match(TRAILING)?.[0].length ?? 0;
  const s = start + lead;
  let e = Math.max(s, end - trail);
  // A sentence's full stop is not part of a short value ending it ("96 months.", "2025."), an abbreviation's is ("Inc.").
  if (e - s <= SHORT_VALUE_CHARS && SENTENCE_END.test(text.slice(s, e))) e--;
  if (e <= s || PLACEHOLDER.test(text.slice(s, e))) return null;
  return { start: s, end: e };
}

/** A candidate for the characters `[start, end)` of a leaf, with its location and the value's shape. */
export function candidateAt(
  view: DocView,
  leaf: number,
  range: { start: number; end: number },
  confidence: number,
  evidence: Omit<Evidence, 'page' | 'box' | 'shape'>,
  extra: { labelLeaf?: number; lastLeaf?: number; value?: string } = {},
): Candidate {
  const text = view.leaves[leaf]!.leaf.text;
  const value = normalizeSpace(extra.value ?? text.slice(range.start, range.end));
  const location = view.location(leaf);
  const anchor = { leaf, start: range.start, end: range.end, ...(extra.labelLeaf !== undefined ? { labelLeaf: extra.labelLeaf } : {}), ...(extra.lastLeaf !== undefined ? { lastLeaf: extra.lastLeaf } : {}) };
  return {
    value,
    confidence: Math.max(0, Math.min(1, confidence)),
    location,
    anchor,
    evidence: { ...evidence, ...(location ? { page: location.page, box: location.boundingBox } : {}), shape: valueShape(value), context: sentenceAround(text, range.start, range.end) },
  };
}

/** Longest context kept with a value; a longer sentence is cut around the value. */
const CONTEXT_CHARS = 300;

/** The sentence holding `[start, end)` of a leaf's text (a full stop before a capital or the leaf's edge bounds it). */
export function sentenceAround(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const opening = Math.max(0, ...[...before.matchAll(/[.;!?]["”’)]*\s+(?=[\p{Lu}("“])/gu)].map((m) => m.index + m[0].length));
  const closing = text.slice(end).search(/[.;!?]["”’)]*(?:\s+[\p{Lu}("“]|\s*$)/u);
  let from = opening;
  let to = closing < 0 ? text.length : end + closing + 1;
  if (to - from > CONTEXT_CHARS) {
    const room = Math.max(0, CONTEXT_CHARS - (end - start));
    from = Math.max(from, start - Math.floor(room / 2));
    to = Math.min(to, end + Math.ceil(room / 2));
  }
  return normalizeSpace(`${from > opening ? '…' : ''}${text.slice(from, to)}${to < (closing < 0 ? text.length : end + closing + 1) ? '…' : ''}`);
}

/** The normalised label text kept in evidence. */
export function evidenceLabel(text: string): string {
  return labelWords(text).join(' ');
}
