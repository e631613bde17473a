/**
 * What a clause is about: the nearest of a vocabulary of standard clause and section names
 * (`SecurityDeposit`, `GoverningLaw`, `TreatmentPlan`, …) by TF-IDF cosine over the clause's words and
 * word pairs, named only when the nearest is near enough and clearly nearer than the next.
 * The weights (clause-weights.json) are precompiled by scripts/train-clauses.ts (`npm run
 * train:clauses`) from the written vocabulary (scripts/clause-vocabulary.ts), own examples and the
 * `train` rows of the CSL large snippets; here a clause costs one pass over its words and one look-up
 * per term.
 */
import STORED from './clause-weights.json' with { type: 'json' };

/** The weights as stored (clause-weights.json): arrays, so that loading and type-checking them stay cheap. */
export interface StoredTopicWeights {
  /** Class names as written ("Security Deposit"). */
  classes: string[];
  /** The terms, with their inverse document frequency and postings at the same index. */
  terms: string[];
  idf: number[];
  /** A term's classes and weights in the classes' unit vectors, flat: [class, weight, class, weight, …]. */
  postings: number[][];
  /** Each class's group: 0 a written name, 1 a name only train rows gave. */
  groups: number[];
  /** Per group: named when the best cosine is at least this… */
  threshold: number[];
  /** …and beats the second best by this much. */
  margin: number[];
}

export interface TopicWeights {
  classes: string[];
  /** Term → [inverse document frequency, flat postings]. */
  terms: Map<string, { idf: number; postings: readonly number[] }>;
  /** Per class: the best cosine it needs, and its lead over the second. */
  threshold: Float64Array;
  margin: Float64Array;
}

export function loadTopicWeights(stored: StoredTopicWeights): TopicWeights {
  const terms = new Map<string, { idf: number; postings: readonly number[] }>();
  stored.terms.forEach((t, i) => terms.set(t, { idf: stored.idf[i]!, postings: stored.postings[i]! }));
  const per = (values: number[]) => Float64Array.from(stored.classes, (_, c) => values[stored.groups[c] ?? 0] ?? 1);
  return { classes: stored.classes, terms, threshold: per(stored.threshold), margin: per(stored.margin) };
}

const WEIGHTS = loadTopicWeights(STORED as StoredTopicWeights);

const STOP = new Set(
  (
    'a an the and or of to in on for by with at from as is are was were be been being this that these those it its shall will may must can ' +
    'such any all each other than then there their them they he she his her we our you your not no nor but if so into upon under which who whom ' +
    'whose what when where while also only both either neither hereof herein hereunder thereof therein said same per'
  ).split(' '),
);

const WORD = /[\p{L}][\p{L}\p{N}'’/-]*/gu;

/** A clause's topic shows in its opening: longer texts are read this far. */
const MAX_CHARS = 2000;

/** A word's form for matching: lower case, possessive and plural off. */
function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/u, '').replace(/['’]/gu, '');
  if (w.length > 3 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/u.test(w)) w = w.slice(0, -1);
  return w;
}

/** Terms of a text: content words and adjacent content-word pairs, with counts. */
export function topicTerms(text: string): Map<string, number> {
  const terms = new Map<string, number>();
  const words = (text.match(WORD) ?? []).map((w) => w.replace(/[-/]+$/u, ''));
  let previous: string | null = null;
  for (const raw of words) {
    const lower = raw.toLowerCase();
    if (STOP.has(lower)) {
      previous = null;
      continue;
    }
    const w = stem(raw);
    if (!w) continue;
    terms.set(w, (terms.get(w) ?? 0) + 1);
    if (previous) {
      const pair = `${previous} ${w}`;
      terms.set(pair, (terms.get(pair) ?? 0) + 1);
    }
    previous = w;
  }
  return terms;
}

/** A text's unit TF-IDF vector (1 + log tf), over the terms the weights know (the others are never counted). */
export function topicVector(text: string, weights: TopicWeights): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (t: string): void => {
    if (weights.terms.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  };
  let previous: string | null = null;
  for (const m of text.matchAll(WORD)) {
    const raw = m[0].replace(/[-/]+$/u, '');
    if (STOP.has(raw.toLowerCase())) {
      previous = null;
      continue;
    }
    const w = stem(raw);
    if (!w) continue;
    count(w);
    if (previous) count(`${previous} ${w}`);
    previous = w;
  }
  const v = new Map<string, number>();
  let norm = 0;
  for (const [t, n] of counts) {
    const x = (1 + Math.log(n)) * weights.terms.get(t)!.idf;
    v.set(t, x);
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, x] of v) v.set(t, x / norm);
  return v;
}

/** Cosines of the text against every class, best first (only classes sharing a term). */
export function topicScores(text: string, weights: TopicWeights = WEIGHTS): { name: string; score: number }[] {
  const scores = new Map<number, number>();
  for (const [t, x] of topicVector(text, weights)) {
    const p = weights.terms.get(t)!.postings;
    for (let i = 0; i < p.length; i += 2) scores.set(p[i]!, (scores.get(p[i]!) ?? 0) + x * p[i + 1]!);
  }
  return [...scores].map(([c, score]) => ({ name: weights.classes[c]!, score })).sort((a, b) => b.score - a.score);
}

/** Fewer words than this (a title, a name on its line) say too little of what a clause is about. */
const MIN_WORDS = 6;
/** A clause sharing fewer terms than this with the vocabulary is not clearly about any of it (one word, "Orange", is no topic). */
const MIN_TERMS = 3;

/** The name of what a clause is about, as written ("Security Deposit"), or null when that is not clear. */
export function topicName(text: string, weights: TopicWeights = WEIGHTS): string | null {
  if (text.split(/\s+/, MIN_WORDS).length < MIN_WORDS) return null;
  // One accumulator per class and a scan for the two best: no map, no sort (this runs on every block).
  const scores = new Float64Array(weights.classes.length);
  const vector = topicVector(text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text, weights);
  if (vector.size < MIN_TERMS) return null;
  for (const [t, x] of vector) {
    const p = weights.terms.get(t)!.postings;
    for (let i = 0; i < p.length; i += 2) scores[p[i]!]! += x * p[i + 1]!;
  }
  let best = -1;
  let first = 0;
  let second = 0;
  for (let c = 0; c < scores.length; c++) {
    const v = scores[c]!;
    if (v > first) {
      second = first;
      first = v;
      best = c;
    } else if (v > second) second = v;
  }
  if (best < 0 || first < weights.threshold[best]! || first - second < weights.margin[best]!) return null;
  return weights.classes[best]!;
}
