/** The clause's words around a value, and the shared vocabulary and naming helpers of the semantic-label rules. */
import type { ValueKind } from '../properties/label-kind.js';
import type { ValueSpan } from '../properties/prose-spans.js';
import type { Token } from '../properties/tokens.js';

/** A value found in a leaf, with its kind. */
export type FoundValue = ValueSpan & { kind: ValueKind };

/** What the rules of one kind of value read to name it. */
export interface ValueContext {
  text: string;
  tokens: Token[];
  value: FoundValue;
  /** The clause's words just before the value, nearest first (`before`). */
  near: string[];
  /** Where the previous value ended: words before it are not this value's. */
  floor: number;
  /** The value just before this one in the leaf. */
  previous: FoundValue | undefined;
  /** The heading of the section the leaf is in. */
  title: string | undefined;
  /** The names given so far in the leaf. */
  named: readonly { start: number; end: number; name: string }[];
}

/** Securities that fall "due" on their maturity: "Senior Notes due June 1, 2021". */
export const SECURITIES = /^(?:notes?|bonds?|debentures?|loans?|debt|obligations?)$/u;

/** Documents a date may be "of": "this Lease, dated …" → `LeaseDate`. */
export const DOCUMENTS = new Set(['agreement', 'lease', 'sublease', 'amendment', 'indenture', 'note', 'guaranty', 'guarantee', 'plan', 'contract', 'letter', 'supplement', 'assignment', 'release', 'policy']);

export const FUNCTION_WORDS = new Set(['no', 'each', 'every', 'a', 'an', 'the', 'of', 'to', 'in', 'for', 'and', 'or', 'its', 'his', 'her', 'their', 'any', 'such', 'this', 'that', 'total', 'sum', 'excess', 'up', 'at', 'least', 'not', 'more', 'than', 'less', 'by', 'with', 'on', 'from', 'as', 'per', 'upon', 'into', 'under', 'within']);

/** `["Widget", "Corp."]` → `WidgetCorp`, `["non-member", "manager"]` → `NonMemberManager`: words joined in Pascal case, their punctuation left out. */
export const pascal = (words: readonly string[]): string =>
  words
    .flatMap((w) => w.split('-'))
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join('');

function lowerWords(tokens: readonly Token[]): string[] {
  return tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text)).map((t) => t.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''));
}

/** The clause's words just before a value, nearest first, up to the previous value or a sentence break. */
export function before(tokens: Token[], start: number, floor: number, max = 8): string[] {
  const out: Token[] = [];
  for (let i = firstAtOrAfter(tokens, start) - 1; i >= 0 && out.length < max; i--) {
    const t = tokens[i]!;
    if (t.end > start) continue;
    if (t.end <= floor || t.text === '.' || t.text === ';' || t.text === ',') break;
    out.push(t);
  }
  return lowerWords(out);
}

/** As `before`, the words as written. */
export function wordsBefore(tokens: Token[], start: number, floor: number, max: number): string[] {
  const out: string[] = [];
  for (let i = firstAtOrAfter(tokens, start) - 1; i >= 0 && out.length < max; i--) {
    const t = tokens[i]!;
    if (t.end <= floor || t.text === '.' || t.text === ';' || t.text === ',') break;
    if (/[\p{L}\p{N}]/u.test(t.text)) out.push(t.text.replace(/[^\p{L}\p{N}]/gu, ''));
  }
  return out;
}

/** The index of the first token starting at or after `at` (tokens are in text order). */
export function firstAtOrAfter(tokens: readonly Token[], at: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid]!.start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function after(tokens: Token[], end: number, max = 4): string[] {
  const out: Token[] = [];
  for (let i = firstAtOrAfter(tokens, end); i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '.' || t.text === ';' || out.length >= max) break;
    out.push(t);
  }
  return lowerWords(out);
}

/**
 * The content words of `near` (a clause's words nearest first) from index `from`, at most `max`, in reading order: the noun
 * phrase the clause has just before that point ("shall hold its annual meeting on" from 1 → annual meeting).
 */
export function phraseBefore(near: readonly string[], from: number, max: number): string[] {
  const words: string[] = [];
  for (let k = from; k < near.length && words.length < max && !FUNCTION_WORDS.has(near[k]!) && /^\p{L}{3,}$/u.test(near[k]!); k++) words.unshift(near[k]!);
  return words;
}

/** Nouns whose plural is the thing itself ("funds received", "the Goods", "net proceeds"): no singular names them. */
const PLURAL_NOUNS = new Set(['funds', 'goods', 'proceeds', 'earnings', 'damages', 'savings', 'premises', 'arrears', 'minutes']);

/** A plural noun in the singular when longer than `longerThan` ("payments" → "payment"); "bonus", "address", "status" and "funds" stay. */
export function singularNoun(word: string, longerThan: number): string {
  return word.length > longerThan && /[^su]s$/u.test(word) && !PLURAL_NOUNS.has(word.toLowerCase()) ? word.slice(0, -1) : word;
}

/** A noun phrase with its head in the singular: "as Joint Lead Arrangers" → `JointLeadArranger`. */
export function singular(words: readonly string[]): string[] {
  const last = words.at(-1);
  return last === undefined ? [] : [...words.slice(0, -1), singularNoun(last, 4)];
}
