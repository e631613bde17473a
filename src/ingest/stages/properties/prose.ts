/**
 * Values from prose: a property's value found by the role it plays in its sentence. The label says
 * what kind of value to look for and which one ("Termination Date": a date, governed by
 * "terminate"); every span of that kind is a candidate, scored by what the text says of it: the
 * role the text gives a party (`(the "Company")`, `, as Administrative Agent`, `Tenant:`), the
 * label's words in the words before and after it (as word forms: "terminate" for "Termination"),
 * and whether it is the first or only one of its kind. The weights are learned
 * (`npm run train:prose`, from the CSL `train` rows and generated sentences) and kept in
 * `prose-weights.json`.
 */
import type { Candidate } from '../../../document/properties.js';
import { candidateAt } from './found.js';
import { labelKind, type LabelKind } from './label-kind.js';
import { valueSpans, type ValueSpan } from './prose-spans.js';
import type { PropertyQuery } from './query.js';
import { tokenize, type Token } from './tokens.js';
import type { DocView, LeafInfo } from '../../../document/view.js';
import { bestRelated } from './word-forms.js';
import { US_STATES } from '../entities/places.js';
import { endsInAbbreviation } from '../entities/words.js';
import WEIGHTS from './prose-weights.json' with { type: 'json' };

export const FEATURES = ['bias', 'role', 'roleOther', 'before', 'near', 'after', 'first', 'only', 'noQualifier', 'unnamed', 'otherKind', 'head', 'otherEvent'] as const;
export type Feature = (typeof FEATURES)[number];
export type Features = Record<Feature, number>;

/** Offices only a person holds (a firm may be a manager, a member or a partner, never a chairman). */
const PERSONAL_OFFICES = new Set(['chairman', 'chairperson', 'chairwoman', 'president', 'ceo', 'cfo', 'coo', 'officer', 'secretary', 'treasurer', 'controller', 'counsel']);
/** A firm's name: it ends in a legal suffix. */
const FIRM_NAME = /\b(?:Inc|Corp|Co|Ltd|LLC|L\.L\.C|LP|L\.P|LLP|PLC|N\.A|GmbH|Company|Corporation|Limited|Incorporated)\.?$/iu;

/** How many words on each side of a value its sentence may lend it. */
const BEFORE_WORDS = 20;
const AFTER_WORDS = 12;
/** A label word this many words away counts half. */
const HALF_DISTANCE = 8;
const MAX_PROSE = 5;

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Words of the sentence before `start` (nearest first), reaching into the previous leaf when the sentence starts there. */
function wordsBefore(tokens: Token[], start: number, previous: Token[], after = -1): string[] {
  const out: string[] = [];
  let i = tokens.findIndex((t) => t.end > start);
  if (i < 0) i = tokens.length;
  const walk = (list: Token[], from: number): boolean => {
    for (let k = from; k >= 0 && out.length < BEFORE_WORDS; k--) {
      if (list === tokens && list[k]!.end <= after) return false;
      const t = list[k]!.text;
      if (t === '.' || t === ';') return false;
      if (/[\p{L}\p{N}]/u.test(t)) out.push(t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''));
    }
    return out.length < BEFORE_WORDS;
  };
  if (walk(tokens, i - 1)) walk(previous, previous.length - 1);
  return out;
}

function wordsAfter(tokens: Token[], end: number, before = Infinity): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (t.start < end) continue;
    if (t.text === '.' || t.text === ';' || out.length >= AFTER_WORDS || t.start >= before) break;
    if (/[\p{L}\p{N}]/u.test(t.text)) out.push(t.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''));
  }
  return out;
}

/** How much of the label's words the window holds, nearer counting more (0..1). */
function coverage(qualifiers: readonly string[], window: readonly string[]): number {
  if (!qualifiers.length) return 0;
  let sum = 0;
  for (const q of qualifiers) {
    let best = 0;
    window.forEach((w, d) => {
      const r = bestRelated(q, [w]);
      if (r) best = Math.max(best, r / (1 + d / HALF_DISTANCE));
    });
    sum += best;
  }
  return sum / qualifiers.length;
}

/** A role learned from the docset's known values counts as the label's own, less a little. */
const LEARNED_ROLE = 0.97;

/** How well a party's roles meet the label's role words (0..1): "administrative agent" for "Agent Name" → 1. */
function roleScore(role: readonly string[], roles: readonly string[][] | undefined, learned: readonly string[][] = []): number {
  let best = roleMatch(role, roles);
  for (const alias of learned) best = Math.max(best, LEARNED_ROLE * roleMatch(alias, roles));
  return best;
}

function roleMatch(role: readonly string[], roles: readonly string[][] | undefined): number {
  if (!role.length || !roles?.length) return 0;
  let best = 0;
  for (const r of roles) {
    // "Receiving Party" against a "Disclosing Party": a role that shares only the label's head noun is another role.
    if (role.length > 1 && role.slice(0, -1).every((q) => bestRelated(q, r) === 0)) continue;
    const covered = role.reduce((s, q) => s + bestRelated(q, r), 0) / role.length;
    const extra = r.filter((w) => !role.some((q) => bestRelated(q, [w]) > 0)).length;
    best = Math.max(best, covered * (extra ? 0.85 : 1));
  }
  return best;
}

/** The next leaf goes on with this one's sentence: no full stop here, a lower-case word or a bracket there. */
export function continues(text: string, next: string): boolean {
  // A full stop that is a firm's ("US Group (DE) Inc.") ends no sentence: `… Inc.` / `as Tenant` goes on.
  if (/[.!?;]["”')]*$/u.test(text) && !(/\.$/u.test(text) && endsInAbbreviation(text) && /^\p{Ll}/u.test(next))) return false;
  // A signature block's role line is often capitalised: `Texas HCP G.P., Inc.,` / `a Delaware corporation,` / `Its Sole General Partner`.
  return /^[\p{Ll}(]/u.test(next) || (/,$/u.test(text.trimEnd()) && /^(?:Its|ITS|As|AS)\s+(?:(?:the|an?|THE|AN?)\s+)?\p{Lu}/u.test(next));
}

/** How many following lines a sentence is read over for a name's role (`X,` / `a Texas limited liability company,` / `its general partner`). */
const FOLLOWING_LINES = 2;

/** The text of the lines after `texts[i]` that go on with its sentence, joined, or undefined. */
export function continuation(texts: readonly (string | undefined)[], i: number): string | undefined {
  const parts: string[] = [];
  let last = texts[i];
  for (let k = i + 1; k <= i + FOLLOWING_LINES; k++) {
    const next = texts[k];
    if (last === undefined || next === undefined || !continues(last, next)) break;
    parts.push(next);
    last = next;
  }
  return parts.length ? parts.join(' ') : undefined;
}

/** "the State of Florida", "the City of Tempe": before a name, "<head> of" is part of it, not a label naming it. */
function partOfName(kind: LabelKind, before: readonly string[]): boolean {
  return (kind.kind === 'state' || kind.kind === 'address' || kind.kind === 'party') && before[0] === 'of' && bestRelated(kind.head ?? '', [before[1] ?? '']) > 0;
}

/** Words for what happens on a date or within a period: the event a value belongs to. */
const EVENTS = ['terminate', 'termination', 'expire', 'expiration', 'commence', 'commencement', 'mature', 'maturity', 'amend', 'amendment', 'effective', 'execute', 'execution', 'close', 'closing', 'renew', 'renewal', 'vest', 'vesting', 'notice', 'cure', 'pay', 'payment', 'deliver', 'delivery', 'resign', 'retire', 'grant', 'revoke'];

/** 1 when the words just before a value name an event the label does not ("shall terminate on" for an Agreement Date). */
function otherEvent(qualifiers: readonly string[], near: readonly string[]): number {
  for (const w of near) {
    if (!EVENTS.some((e) => bestRelated(e, [w]) >= 0.9)) continue;
    if (!qualifiers.some((q) => bestRelated(q, [w]) > 0)) return 1;
  }
  return 0;
}

export interface ScoredSpan {
  info: LeafInfo;
  span: ValueSpan;
  features: Features;
  /** The words that name it: its role, or the label's words found around it. */
  cue: string;
}

/** Every candidate span of the label's kind in body text, with its features. */
export function proseSpans(view: DocView, kind: LabelKind, learnedRoles: readonly string[][] = []): ScoredSpan[] {
  const kinds = [...(kind.kind ? [kind.kind] : []), ...kind.others];
  if (!kinds.length) return [];
  const personal = kind.kind === 'party' && kind.role.some((w) => PERSONAL_OFFICES.has(w));
  const out: ScoredSpan[] = [];
  let previousTokens: Token[] = [];
  let previousText: string | undefined;
  const prose = (info: LeafInfo | undefined): boolean => !!info && (info.kind === 'paragraph' || info.kind === 'heading') && (!info.role || info.role === 'body');
  for (const info of view.leaves) {
    if (!prose(info)) {
      previousTokens = [];
      previousText = undefined;
      continue;
    }
    const text = info.leaf.text;
    const tokens = tokenize(text);
    const texts = [0, 1, 2].map((d) => (d === 0 || prose(view.leaves[info.index + d]) ? view.leaves[info.index + d]?.leaf.text : undefined));
    const next = continuation(texts, 0);
    const nextTokens = next !== undefined ? tokenize(`${text} ${next}`) : tokens;
    const spans = kinds.flatMap((k, i) => valueSpans(k, text, info.leaf.spans ?? [], previousText, next).map((span) => ({ span, other: i > 0 || !kind.kind })));
    for (const { span, other } of spans) {
      if (span.end <= span.start) continue;
      // "Chairman of the Board … Arrhythmia Research Technology, Inc.": a person's office is no firm's.
      if (personal && FIRM_NAME.test(text.slice(span.start, span.end))) continue;
      // The words between two values of one kind are the later one's: "commencing on X and ending on Y".
      const peers = spans.filter((p) => p.other === other && (p.span.end <= span.start || p.span.start >= span.end));
      const after0 = Math.max(-1, ...peers.filter((p) => p.span.end <= span.start).map((p) => p.span.end));
      const before = wordsBefore(tokens, span.start, after0 >= 0 ? [] : previousTokens, after0);
      const after = wordsAfter(nextTokens, span.end);
      const role = kind.kind === 'party' ? roleScore(kind.role, span.roles, learnedRoles) : 0;
      const features: Features = {
        bias: 1,
        role,
        roleOther: span.roles?.length && role === 0 ? 1 : 0,
        before: coverage(kind.qualifiers, before),
        near: coverage(kind.qualifiers, before.slice(0, 4)),
        after: coverage(kind.qualifiers, after),
        first: 0,
        only: 0,
        noQualifier: kind.qualifiers.length ? 0 : 1,
        unnamed: kind.kind === 'party' && !span.roles?.length ? 1 : 0,
        otherKind: other ? 1 : 0,
        // The label's head word governing the value: "dated" for a Date, "notice" for a Notice Period.
        head: kind.head && !partOfName(kind, before) ? coverage([kind.head], before.slice(0, 4)) : 0,
        otherEvent: otherEvent(kind.qualifiers, before.slice(0, 4)),
      };
      const cue = role ? span.roles!.map((r) => r.join(' ')).join(', ') : kind.qualifiers.filter((q) => bestRelated(q, [...before, ...after]) > 0).join(' ');
      out.push({ info, span, features, cue });
    }
    previousTokens = tokens;
    previousText = text;
  }
  // First and only among the label's own kind where the text has values of it, else among all.
  const own = out.filter((s) => !s.features.otherKind);
  const pool = own.length ? own : out;
  const distinct = new Set(pool.map((s) => s.info.leaf.text.slice(s.span.start, s.span.end).toLowerCase()));
  if (pool[0]) pool[0].features.first = 1;
  if (distinct.size === 1) for (const s of pool) s.features.only = 1;
  return out;
}

export function proseScore(features: Features, weights: Record<string, number> = WEIGHTS.weights): number {
  let z = 0;
  for (const f of FEATURES) z += (weights[f] ?? 0) * features[f];
  return sigmoid(z);
}

/** A candidate's confidence: its score, capped below the threshold when the text does not name it. */
export function proseConfidence(features: Features, kind: LabelKind, weights: Record<string, number> = WEIGHTS.weights): number {
  return Math.min(proseScore(features, weights), named(features) || alone(features, kind) ? 1 : UNNAMED_CAP);
}

/**
 * A value the text does not name (no role, none of the label's words around it) is a guess however
 * alone it is: a candidate, never the answer. Precision first: a document without the value gets none.
 */
const UNNAMED_CAP = 0.55;
/** Kinds whose only value in a document is likely the one asked for (its only date, its only party); not counts, years, states. */
const ALONE_KINDS: ReadonlySet<string> = new Set(['date', 'party', 'duration', 'money', 'percent', 'time']);
/** The label's words around it, or its role; the head word alone ("the date of …") only for a label that is nothing more ("Date"). */
const named = (f: Features): boolean => f.role > 0 || f.before > 0 || f.after > 0 || (f.head > 0 && f.noQualifier > 0);
/** The document's only value of a kind that is rarely there by chance, and no other event or role claims it ("commencement is set for …", `(the "Supplier")`). */
const alone = (f: Features, kind: LabelKind): boolean => f.only > 0 && f.otherKind === 0 && f.otherEvent === 0 && f.roleOther === 0 && ALONE_KINDS.has(kind.kind ?? '');

/** Candidates from running text for a property, surest first. */
export function proseCandidates(view: DocView, query: PropertyQuery): Candidate[] {
  const kind = labelKind(query.def.label);
  const scored = proseSpans(view, kind, query.aliases)
    .map((s) => ({ s, confidence: proseConfidence(s.features, kind) }))
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, MAX_PROSE);
  return scored.map(({ s, confidence }) => {
    const evidence = { kind: 'prose' as const, ...(s.cue ? { labelText: s.cue } : {}) };
    const city = kind.kind === 'address' ? cityLineAfter(view, s.info, s.span) : null;
    return city
      ? candidateAt(view, s.info.index, { start: s.span.start, end: city.end }, confidence, evidence, { lastLeaf: city.leaf, value: `${s.info.leaf.text.slice(s.span.start, s.span.end)} ${city.text}` })
      : candidateAt(view, s.info.index, s.span, confidence, evidence);
  });
}

/** A line that is only a city, a state and a postal code: "Waltham, Massachusetts 02451-1420", "Seattle, WA 98188". */
const CITY_LINE = new RegExp(String.raw`^\p{Lu}[\p{L}.'’ -]{1,40},\s*(?:${US_STATES.join('|')}|[A-Z]{2})\s+\d{5}(?:-\d{4})?$`, 'u');

/** `852 Winter Street` / `Waltham, Massachusetts 02451-1420`: an address that ends its line goes on with a city line after it. */
function cityLineAfter(view: DocView, info: LeafInfo, span: ValueSpan): { leaf: number; end: number; text: string } | null {
  if (info.leaf.text.slice(span.end).trim()) return null;
  const next = view.leaves[info.index + 1];
  const text = next?.leaf.text.trim();
  if (!next || !text || !CITY_LINE.test(text) || /\b\d{5}\b/u.test(info.leaf.text.slice(span.start, span.end))) return null;
  return { leaf: next.index, end: next.leaf.text.indexOf(text) + text.length, text };
}
