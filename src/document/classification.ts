import type { Leaf, StructureModel, StructureNode } from './structure.js';

/**
 * What a document says, for classification into a docset: its most frequent terms and the shape of
 * its layout. Pure: the same structure always gives the same features.
 */
export interface ClassificationFeatures {
  /**
   * The MAX_TERMS most frequent words (lower case, light plural stemming, stop words and numbers
   * out) and word bigrams ("net sale", of words adjacent in the text), then the MAX_HEADING_TERMS
   * most frequent heading words prefixed with `#` ("#objective"); each most frequent first, ties
   * by term.
   */
  terms: { term: string; count: number }[];
  layout: LayoutFeatures;
}

/** Shares of the document's words (0..1) by where they stand; all 0 for a document without words. */
export interface LayoutFeatures {
  words: number;
  /** In key/value form cells (a label or the value beside it): form-likeness. */
  form: number;
  /** In any table cell. */
  table: number;
  /** In running-text paragraphs (`p`). */
  prose: number;
  list: number;
  heading: number;
}

export const MAX_TERMS = 256;
export const MAX_HEADING_TERMS = 32;

// Common English function words, plus words every document has whatever its kind ("page").
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each either etc few for from further had has have having he her here hers herself him himself ' +
    'his how however i if in into is it its itself just may me might more most must my myself no nor not now of off on once only or ' +
    'other our ours ourselves out over own page per same shall she should since so some such than that the their theirs them ' +
    'themselves then there these they this those through thus to too under until up upon us very via was we were what when where ' +
    'whether which while who whom whose why will with within without would yet you your yours yourself yourselves'
  ).split(' '),
);

const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/** Answers for the non-ASCII code points met so far (a document uses few). */
const letterOrDigitAbove127 = new Map<number, boolean>();

function isLetterOrDigit(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  let known = letterOrDigitAbove127.get(c);
  if (known === undefined) letterOrDigitAbove127.set(c, (known = LETTER_OR_DIGIT.test(String.fromCodePoint(c))));
  return known;
}

/** "Reports" and "report" are one term; so are "agencies" and "agency". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** The token has a letter (a fast path for ASCII ones, the Unicode property otherwise). */
function hasLetter(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 97 && c <= 122) return true;
    if (c > 127) return LETTER.test(word);
  }
  return false;
}

/**
 * The text's words as terms, in order; null where a token was dropped (a stop word, a number, a
 * single character), so that bigrams are only formed from words that stand side by side.
 */
export function termsOf(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  const lower = text.toLowerCase();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    const c = lower.codePointAt(i)!;
    if (!isLetterOrDigit(c)) {
      i += c > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    i = tokenEnd(lower, i);
    const raw = lower.slice(start, i);
    const word = raw.includes("'") || raw.includes('’') ? raw.replace(/['’]s$/, '').replace(/['’]/g, '') : raw;
    out.push(word.length < 2 || !hasLetter(word) || STOP_WORDS.has(word) ? null : stem(word));
  }
  return out;
}

/**
 * Where the token starting at `i` ends: letters and digits, runs of them joined by a single hyphen or
 * apostrophe (what the pattern `[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*` matches), found without a
 * match object per token.
 */
function tokenEnd(text: string, i: number): number {
  const n = text.length;
  for (;;) {
    while (i < n) {
      const c = text.codePointAt(i)!;
      if (!isLetterOrDigit(c)) break;
      i += c > 0xffff ? 2 : 1;
    }
    const joiner = text.charCodeAt(i);
    if ((joiner === 45 || joiner === 39 || joiner === 0x2019) && i + 1 < n && isLetterOrDigit(text.codePointAt(i + 1)!)) i++;
    else return i;
  }
}

type Place = 'heading' | 'prose' | 'line' | 'list' | 'cell' | 'form';

function* placedLeaves(nodes: readonly StructureNode[], inList = false): Generator<[Leaf, Place]> {
  for (const n of nodes) {
    switch (n.type) {
      case 'paragraph':
        yield [n.leaf, inList ? 'list' : n.structure === 'p' ? 'prose' : 'line'];
        break;
      case 'section':
        yield [n.heading, 'heading'];
        yield* placedLeaves(n.children, inList);
        break;
      case 'list':
        for (const item of n.items) yield* placedLeaves(item.children, true);
        break;
      case 'table':
        for (const row of n.rows) {
          for (const cell of row.cells) yield [cell.leaf, cell.role || n.source === 'form' ? 'form' : 'cell'];
        }
        break;
    }
  }
}

/** Term counts: words, and word pairs kept by first word (no string is built for a pair until it ranks). */
class TermCounts {
  readonly words = new Map<string, number>();
  readonly pairs = new Map<string, Map<string, number>>();

  add(term: string): void {
    this.words.set(term, (this.words.get(term) ?? 0) + 1);
  }

  addPair(first: string, second: string): void {
    let after = this.pairs.get(first);
    if (!after) this.pairs.set(first, (after = new Map()));
    after.set(second, (after.get(second) ?? 0) + 1);
  }

  /** The `max` most frequent terms ("word" or "first second"), ties by term, with `prefix` before each. */
  mostFrequent(max: number, prefix = ''): { term: string; count: number }[] {
    // The count of the max-th term, from a histogram of the counts: only terms at or above it are sorted.
    const histogram: number[] = [];
    const tally = (n: number) => (histogram[n] = (histogram[n] ?? 0) + 1);
    for (const n of this.words.values()) tally(n);
    for (const after of this.pairs.values()) for (const n of after.values()) tally(n);
    let threshold = 1;
    for (let n = histogram.length - 1, seen = 0; n >= 1; n--) {
      seen += histogram[n] ?? 0;
      if (seen >= max) {
        threshold = n;
        break;
      }
    }
    const ranked: [string, number][] = [];
    for (const [term, n] of this.words) if (n >= threshold) ranked.push([prefix + term, n]);
    for (const [first, after] of this.pairs) for (const [second, n] of after) if (n >= threshold) ranked.push([`${prefix}${first} ${second}`, n]);
    return ranked
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, max)
      .map(([term, count]) => ({ term, count }));
  }
}

/** Words of a text as wordsOf splits them (runs between whitespace), counted without splitting. */
function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** The characters of the regex class \s. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

export function classificationFeatures(structure: StructureModel): ClassificationFeatures {
  const counts = new TermCounts();
  const headingCounts = new TermCounts();
  const wordsIn: Record<Place, number> = { heading: 0, prose: 0, line: 0, list: 0, cell: 0, form: 0 };
  for (const [leaf, place] of placedLeaves(structure.nodes)) {
    wordsIn[place] += wordCount(leaf.text);
    const terms = termsOf(leaf.text);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i];
      if (!term) continue;
      counts.add(term);
      if (place === 'heading') headingCounts.add(term);
      const next = terms[i + 1];
      if (next) counts.addPair(term, next);
    }
  }
  const words = Object.values(wordsIn).reduce((a, b) => a + b, 0);
  const share = (n: number) => (words ? n / words : 0);
  return {
    terms: [...counts.mostFrequent(MAX_TERMS), ...headingCounts.mostFrequent(MAX_HEADING_TERMS, '#')],
    layout: {
      words,
      form: share(wordsIn.form),
      table: share(wordsIn.form + wordsIn.cell),
      prose: share(wordsIn.prose),
      list: share(wordsIn.list),
      heading: share(wordsIn.heading),
    },
  };
}
