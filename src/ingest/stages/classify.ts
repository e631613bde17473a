import type { Leaf, StructureModel, StructureNode } from '../structure.js';
import { wordsOf } from '../structure.js';

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

const TOKEN = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;
const LETTER = /\p{L}/u;

/** "Reports" and "report" are one term; so are "agencies" and "agency". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The text's words as terms, in order; null where a token was dropped (a stop word, a number, a
 * single character), so that bigrams are only formed from words that stand side by side.
 */
export function termsOf(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const [raw] of text.toLowerCase().matchAll(TOKEN)) {
    const word = raw.replace(/['’]s$/, '').replace(/['’]/g, '');
    out.push(word.length < 2 || !LETTER.test(word) || STOP_WORDS.has(word) ? null : stem(word));
  }
  return out;
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

function mostFrequent(counts: Map<string, number>, max: number): { term: string; count: number }[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([term, count]) => ({ term, count }));
}

export function classificationFeatures(structure: StructureModel): ClassificationFeatures {
  const counts = new Map<string, number>();
  const headingCounts = new Map<string, number>();
  const add = (map: Map<string, number>, term: string) => map.set(term, (map.get(term) ?? 0) + 1);
  const wordsIn: Record<Place, number> = { heading: 0, prose: 0, line: 0, list: 0, cell: 0, form: 0 };
  for (const [leaf, place] of placedLeaves(structure.nodes)) {
    wordsIn[place] += wordsOf(leaf.text).length;
    const terms = termsOf(leaf.text);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i];
      if (!term) continue;
      add(counts, term);
      if (place === 'heading') add(headingCounts, `#${term}`);
      const next = terms[i + 1];
      if (next) add(counts, `${term} ${next}`);
    }
  }
  const words = Object.values(wordsIn).reduce((a, b) => a + b, 0);
  const share = (n: number) => (words ? n / words : 0);
  return {
    terms: [...mostFrequent(counts, MAX_TERMS), ...mostFrequent(headingCounts, MAX_HEADING_TERMS)],
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
