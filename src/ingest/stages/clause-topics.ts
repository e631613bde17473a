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
  /** Each class's kinds of document (clause-domains.ts), comma-separated, or '' for any; absent in weights trained before kinds (all any). */
  domains?: string[];
  /** Per group: named when the best cosine is at least this… */
  threshold: number[];
  /** …and beats the second best by this much. */
  margin: number[];
}

export interface TopicWeights {
  classes: string[];
  /** Every stemmed word of a known term (alone or in a pair) → its id. */
  words: Map<string, number>;
  /** Per word id: the index of the term that word is alone, or -1. */
  wordTerm: Int32Array;
  /** A pair of word ids (first × words + second) → the index of the term they make. */
  pairTerm: Map<number, number>;
  idf: Float64Array;
  /** Term t's postings are postClass/postWeight[postStart[t] .. postStart[t + 1]). */
  postStart: Int32Array;
  postClass: Int32Array;
  postWeight: Float64Array;
  /** Per class: the best cosine it needs, and its lead over the second. */
  threshold: Float64Array;
  margin: Float64Array;
  /** Per class: its kinds of document ("contract,finance"), or '' for any. */
  domains: string[];
  /** A word as written → its id, UNKNOWN or STOPPED: each spelling lowered and stemmed once per process. */
  spellings: Map<string, number>;
  /** Scratch of one text's scoring: counts per term, the terms counted in first-seen order, scores per class. */
  counts: Int32Array;
  counted: Int32Array;
  scores: Float64Array;
}

const UNKNOWN = -1;
const STOPPED = -2;
/** Spellings remembered at most (a document's words repeat; an endless stream of new ones only costs the stemming again). */
const MAX_SPELLINGS = 200_000;

export function loadTopicWeights(stored: StoredTopicWeights): TopicWeights {
  const words = new Map<string, number>();
  const idOf = (w: string): number => {
    let id = words.get(w);
    if (id === undefined) words.set(w, (id = words.size));
    return id;
  };
  const parts = stored.terms.map((t) => t.split(' ').map(idOf));
  const wordTerm = new Int32Array(words.size).fill(-1);
  const pairTerm = new Map<number, number>();
  parts.forEach((ids, t) => {
    if (ids.length === 1) wordTerm[ids[0]!] = t;
    else pairTerm.set(ids[0]! * words.size + ids[1]!, t);
  });
  const postStart = new Int32Array(stored.terms.length + 1);
  stored.postings.forEach((p, t) => (postStart[t + 1] = postStart[t]! + p.length / 2));
  const postClass = new Int32Array(postStart[stored.terms.length]!);
  const postWeight = new Float64Array(postClass.length);
  stored.postings.forEach((p, t) => {
    for (let i = 0; i < p.length; i += 2) {
      postClass[postStart[t]! + i / 2] = p[i]!;
      postWeight[postStart[t]! + i / 2] = p[i + 1]!;
    }
  });
  const per = (values: number[]) => Float64Array.from(stored.classes, (_, c) => values[stored.groups[c] ?? 0] ?? 1);
  return {
    classes: stored.classes,
    words,
    wordTerm,
    pairTerm,
    idf: Float64Array.from(stored.idf),
    postStart,
    postClass,
    postWeight,
    threshold: per(stored.threshold),
    margin: per(stored.margin),
    domains: stored.classes.map((_, c) => stored.domains?.[c] ?? ''),
    spellings: new Map(),
    counts: new Int32Array(stored.terms.length),
    counted: new Int32Array(stored.terms.length),
    scores: new Float64Array(stored.classes.length),
  };
}

const WEIGHTS = loadTopicWeights(STORED as StoredTopicWeights);

const STOP = new Set(
  (
    'a an the and or of to in on for by with at from as is are was were be been being this that these those it its shall will may must can ' +
    'such any all each other than then there their them they he she his her we our you your nor but if so into upon under which who whom ' +
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

/** A word as written → its id in the weights, UNKNOWN (in no term) or STOPPED (a stop word: it ends a pair). */
function spellingOf(raw: string, weights: TopicWeights): number {
  let code = weights.spellings.get(raw);
  if (code !== undefined) return code;
  const word = raw.replace(/[-/]+$/u, '');
  code = STOP.has(word.toLowerCase()) ? STOPPED : (weights.words.get(stem(word)) ?? UNKNOWN);
  if (weights.spellings.size >= MAX_SPELLINGS) weights.spellings.clear();
  weights.spellings.set(raw, code);
  return code;
}

/**
 * Counts the known terms of a text into `weights.counts` (as topicTerms counts them, the others never
 * counted); returns how many distinct terms, listed in `weights.counted` in the order first seen.
 */
function countTerms(text: string, weights: TopicWeights): number {
  const { counts, counted, wordTerm, pairTerm } = weights;
  const size = weights.words.size;
  let distinct = 0;
  const count = (t: number): void => {
    const n = counts[t]!;
    counts[t] = n + 1;
    if (n === 0) counted[distinct++] = t;
  };
  let previous = UNKNOWN;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    const id = spellingOf(m[0], weights);
    if (id >= 0) {
      const own = wordTerm[id]!;
      if (own >= 0) count(own);
      if (previous >= 0) {
        const pair = pairTerm.get(previous * size + id);
        if (pair !== undefined) count(pair);
      }
    }
    // A word in no term makes no pair either: it ends a pair as a stop word does.
    previous = id >= 0 ? id : UNKNOWN;
  }
  return distinct;
}

/** Fewer words than this (a title, a name on its line) say too little of what a clause is about. */
const MIN_WORDS = 6;
/** The kind of names given by a heading only (scripts/clause-vocabulary.ts). */
const HEADING_ONLY = 'heading';
/** A clause sharing fewer terms than this with the vocabulary is not clearly about any of it (one word, "Orange", is no topic). */
const MIN_TERMS = 3;
/** Terms of the text a named topic must share with it (a word and its pair with the next count as two). */
const MIN_SUPPORT = 2;

/**
 * The name of what a clause is about, as written ("Security Deposit"), or null when that is not clear,
 * or when that name is of a kind of document (clause-domains.ts) the clause's document is not: `kinds`
 * are those it is (absent: any).
 */
export function topicName(text: string, kinds?: ReadonlySet<string>, weights: TopicWeights = WEIGHTS): string | null {
  if (text.split(/\s+/, MIN_WORDS).length < MIN_WORDS) return null;
  const { counts, counted, scores, idf, postStart, postClass, postWeight } = weights;
  const distinct = countTerms(text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text, weights);
  try {
    if (distinct < MIN_TERMS) return null;
    // The unit TF-IDF vector (1 + log tf), then its cosine with every class sharing a term: one accumulator per class, no map, no sort.
    let norm = 0;
    for (let i = 0; i < distinct; i++) {
      const t = counted[i]!;
      const x = (1 + Math.log(counts[t]!)) * idf[t]!;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return null;
    scores.fill(0);
    for (let i = 0; i < distinct; i++) {
      const t = counted[i]!;
      const x = ((1 + Math.log(counts[t]!)) * idf[t]!) / norm;
      for (let j = postStart[t]!; j < postStart[t + 1]!; j++) scores[postClass[j]!]! += x * postWeight[j]!;
    }
  } finally {
    for (let i = 0; i < distinct; i++) counts[counted[i]!] = 0;
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
  // One word of a name's is no topic however rare it is ("flea market" is no Fair Market Rent Determination): two of the
  // text's terms at least must be the winner's.
  let support = 0;
  for (let i = 0; i < distinct && support < MIN_SUPPORT; i++) {
    const t = counted[i]!;
    for (let j = postStart[t]!; j < postStart[t + 1]!; j++) {
      if (postClass[j] === best) {
        support++;
        break;
      }
    }
  }
  if (support < MIN_SUPPORT) return null;
  const kind = weights.domains[best]!;
  // A part named by its form ("Table of Contents") is named by its heading, never by its words: a
  // filing's "The following table shows …" is no table of contents. The name still competes here.
  if (kind === HEADING_ONLY) return null;
  if (kinds && kind && !kind.split(',').some((k) => kinds.has(k))) return null;
  return weights.classes[best]!;
}
