import type { Candidate } from '../../../document/properties.js';
import { candidateAt, evidenceLabel, trimValue, type Findings } from './found.js';
import { EXACT_LABEL_SCORE, labelScore, MIN_LABEL_SCORE, type PropertyQuery } from './query.js';
import { typedPart } from './typed.js';
import type { DocView, LeafInfo } from '../../../document/view.js';

/** Labels are short: the words before a colon tried as a label, at most this many. */
const MAX_LABEL_WORDS = 6;
/** `Label: value` opening its line. */
const AT_START = 0.93;
/** `… Label: value` after other text on the same line (several pairs on one line). */
const MID_LINE = 0.8;
/** `Label:` alone, its value on the next line. */
const NEXT_LINE = 0.82;
/** Several `Label: value` pairs share a line in short leaves (form lines), not in prose. */
const MAX_PAIRS_WORDS = 40;
/** Words that may link the words of a label ("Phase of Operation", "Date & Time"). */
const LINKS = new Set(['of', 'and', '&', 'or', 'the', 'for', 'in', 'to', '/']);

/** Where each word of `text` starts, and ends. */
function wordRanges(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** A colon that ends a label: after a letter, digit or closing bracket, before a space or the end ("10:30" is no label). */
function labelColons(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    if (i > 0 && /[\p{L}\p{N})\].]/u.test(text[i - 1]!) && (i + 1 === text.length || /\s/.test(text[i + 1]!))) out.push(i);
  }
  return out;
}

/**
 * Where the label ending at a colon probably starts, when it is not the one searched for: its last
 * word, extended back over linking words ("Phase of Operation:", "Date & Time:").
 */
function nextLabelStart(text: string, colon: number): number {
  const words = wordRanges(text.slice(0, colon));
  let i = words.length - 1;
  while (i >= 2 && LINKS.has(text.slice(words[i - 1]!.start, words[i - 1]!.end).toLowerCase())) i -= 2;
  return words[Math.max(0, i)]?.start ?? colon;
}

/** The best label ending at `colon`: how many words back it starts, and its score. */
function labelBefore(query: PropertyQuery, text: string, colon: number, from: number): { start: number; score: number } | null {
  const words = wordRanges(text.slice(0, colon)).filter((w) => w.start >= from);
  let best: { start: number; score: number } | null = null;
  for (let k = 1; k <= Math.min(MAX_LABEL_WORDS, words.length); k++) {
    const start = words[words.length - k]!.start;
    const score = labelScore(query, text.slice(start, colon));
    if (score >= MIN_LABEL_SCORE && (!best || score > best.score)) best = { start, score };
  }
  return best;
}

/**
 * A label after other text starts a new field when what precedes it ends one: punctuation, a number,
 * or a word in capitals ("… WITH OBJECT Phase of Operation:"), not prose ("… deliver to Landlord:").
 */
function startsField(text: string, start: number): boolean {
  const before = text.slice(0, start).trimEnd();
  const last = before.match(/\S+$/)?.[0] ?? '';
  return /[.;,)\]]$/.test(last) || /^[\p{Lu}\p{N}][\p{Lu}\p{N}\W]*$/u.test(last);
}

/** `1.2 Tenant. Shorebucks LLC`, `Term – 12 months`: a run-in label opening a paragraph (numbered definitions, definition lists). */
const RUN_IN = /^((?:\(?[0-9]+(?:\.[0-9]+)*[.)]?\s+)?[^.:;–—]{2,60}?)(?:\.\s+|\s+[–—-]\s+)/u;
/** Weaker than a colon: a sentence can open with words that happen to be the label. */
const RUN_IN_WEIGHT = 0.8;
/** The typed label's value of its type is not in the paragraph: the paragraph is prose about it. */
const RUN_IN_UNTYPED = 0.7;

function runInFinding(view: DocView, query: PropertyQuery, info: LeafInfo): Candidate | null {
  const text = info.leaf.text;
  const m = text.match(RUN_IN);
  if (!m) return null;
  const score = labelScore(query, m[1]!);
  if (score < EXACT_LABEL_SCORE) return null;
  const range = trimValue(text, m[0].length, text.length);
  if (!range) return null;
  const typed = query.types.length ? typedPart(info, range, query.types) : null;
  const weight = RUN_IN_WEIGHT * score * (query.types.length && !typed ? RUN_IN_UNTYPED : 1);
  return candidateAt(view, info.index, typed ?? range, weight, { kind: 'label-line', labelText: evidenceLabel(m[1]!) });
}

function isLabelOnly(info: LeafInfo): boolean {
  return /:\s*$/.test(info.leaf.text) || info.place?.cell.role === 'label';
}

/**
 * `Label: value` in any leaf (paragraphs, cells, headings), several pairs per line allowed; a leaf
 * that is only `Label:` takes the next leaf as its value; a paragraph opening with a run-in label
 * (`Tenant. Shorebucks LLC`). Table label cells are left to the form finder.
 */
export function labelLineFindings(view: DocView, query: PropertyQuery): Findings {
  const candidates: Candidate[] = [];
  let blank = 0;
  for (const info of view.leaves) {
    const text = info.leaf.text;
    if (info.role && info.role !== 'body') continue;
    if (info.place?.cell.role === 'label') continue;
    if (info.kind === 'paragraph') {
      const runIn = runInFinding(view, query, info);
      if (runIn) candidates.push(runIn);
    }
    const colons = labelColons(text);
    if (!colons.length) continue;
    const short = view.wordCount(info.index) <= MAX_PAIRS_WORDS;
    let from = 0;
    colons.forEach((colon, n) => {
      const label = labelBefore(query, text, colon, from);
      from = colon + 1;
      if (!label || (label.start > 0 && !(short && startsField(text, label.start)))) return;
      const next = colons[n + 1];
      const end = next === undefined ? text.length : nextLabelStart(text, next);
      const labelText = evidenceLabel(text.slice(label.start, colon));
      const weight = label.start === 0 ? AT_START : MID_LINE;
      const range = trimValue(text, colon + 1, end);
      if (range) {
        candidates.push(candidateAt(view, info.index, typedPart(info, range, query.types) ?? range, weight * label.score, { kind: 'label-line', labelText }));
        return;
      }
      if (next !== undefined || label.start !== 0) return;
      // `Label:` alone: the value is the next leaf, unless that is another label (a blank field).
      const following = view.leaves[info.index + 1];
      const followingRange = following && !isLabelOnly(following) && following.kind !== 'heading' ? trimValue(following.leaf.text, 0, following.leaf.text.length) : null;
      if (following && followingRange && info.kind !== 'heading' && !info.place) {
        candidates.push(candidateAt(view, following.index, followingRange, NEXT_LINE * label.score, { kind: 'label-line', labelText }));
      } else if (!info.place && info.kind !== 'heading') {
        blank = Math.max(blank, label.score);
      }
    });
  }
  return { candidates, blank };
}
