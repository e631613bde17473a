import type { EntityType } from '../../../document/structure.js';
import type { PropertyDef } from '../../../document/properties.js';
import { bareLabel, labelWords, matchLabel } from './labels.js';
import { expectedTypes } from './label-types.js';

/** A property as the finders look for it: its label's words, labels learned from the docset, the entity types its value should have. */
export interface PropertyQuery {
  def: PropertyDef;
  words: string[];
  /** Label words the docset's known values were found beside ("registration" for a property called "Tail Number"). */
  aliases: string[][];
  types: EntityType[];
}

/** A learned label is as good as the property's own, less a little: it was right in other documents, not necessarily here. */
const ALIAS_WEIGHT = 0.97;

export function makeQuery(def: PropertyDef, aliases: string[][]): PropertyQuery {
  const words = labelWords(def.label);
  return { def, words, aliases, types: expectedTypes(words) };
}

/** Documents repeat their labels and every property reads them all: their words are worked out once. */
const wordsCache = new Map<string, string[]>();
const CACHE_LIMIT = 20_000;

function cachedWords(text: string): string[] {
  let words = wordsCache.get(text);
  if (!words) {
    if (wordsCache.size >= CACHE_LIMIT) wordsCache.clear();
    words = labelWords(bareLabel(text));
    wordsCache.set(text, words);
  }
  return words;
}

/** How well a text from the document (a cell, a heading, the words before a colon) names the property, 0..1. */
export function labelScore(query: PropertyQuery, text: string): number {
  if (text.length > MAX_LABEL_CHARS) return 0;
  const words = cachedWords(text);
  let score = matchLabel(query.words, words);
  for (const alias of query.aliases) score = Math.max(score, ALIAS_WEIGHT * matchLabel(alias, words));
  return score;
}

/** Longer texts are not labels (a paragraph that happens to contain the words). */
const MAX_LABEL_CHARS = 120;

/** Scores below this are not the property's label at all. */
export const MIN_LABEL_SCORE = 0.5;
/** Scores from here on are the property's label, as written or nearly ("Accident No." for "Accident Number"). */
export const EXACT_LABEL_SCORE = 0.9;
