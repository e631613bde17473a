/**
 * Text clean-up for PDF text items: ligatures and compatibility characters (NFKC), soft hyphens,
 * invisible characters, and the private glyph names some Office fonts give their ligatures.
 */

/**
 * Calibri (as exported by Word) maps its "ti", "tt" and "ft" ligature glyphs to these letters when
 * the PDF lacks a ToUnicode entry for them. "Ɵ" and "Ʃ" are never meant literally in English text;
 * "Ō" is, at the start of a word ("Ōsaka"), so it is only read as "ft" alone or after a lowercase letter.
 */
const OFFICE_LIGATURES: Record<string, string> = { '\u019F': 'ti', '\u01A9': 'tt', '\u014C': 'ft' };
const OFFICE_LIGATURE_RE = /[\u019F\u01A9]|^\u014C$|(?<=\p{Ll})\u014C/gu;

// Soft hyphen, zero-width space/joiners, word joiner, byte-order mark.
const INVISIBLE_RE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
// A soft hyphen ending an item is where the line broke the word: printed, it is a hyphen.
const TRAILING_SOFT_HYPHEN_RE = /(?<=\p{L})\u00AD\s*$/u;
const NON_ASCII_RE = /[^\x20-\x7E]/;

/** A gap wider than this share of the smaller item's height is a word space. */
const WORD_GAP = 0.12;

/**
 * Whether a space goes between two items of a line, left to right, given their texts: one of them
 * carries it, or the gap between them is a word space ("“" against "exhibition" is not).
 */
export function spacedApart(prev: { x: number; width: number; height: number }, prevText: string, next: { x: number; height: number }, nextText: string): boolean {
  return /\s$/.test(prevText) || /^\s/.test(nextText) || next.x - (prev.x + prev.width) > WORD_GAP * Math.min(prev.height, next.height);
}

/** An item's text as readers should see it (not whitespace-normalised: spaces still mark word gaps). */
export function cleanItemText(text: string): string {
  if (!NON_ASCII_RE.test(text)) return text;
  return text
    .replace(OFFICE_LIGATURE_RE, (c) => OFFICE_LIGATURES[c]!)
    .replace(TRAILING_SOFT_HYPHEN_RE, '-')
    .replace(INVISIBLE_RE, '')
    .normalize('NFKC')
    .replace(/\s/g, ' ');
}

// First parts that make real compounds when a line breaks after their hyphen ("well-\nknown").
const COMPOUND_FIRST = new Set([
  'all', 'anti', 'best', 'co', 'cross', 'ex', 'full', 'half', 'high', 'ill', 'long', 'low', 'mid', 'multi', 'non',
  'off', 'on', 'one', 'part', 'post', 'pre', 'quasi', 're', 'self', 'semi', 'short', 'so', 'sub', 'two', 'well',
  'wide', 'year', 'first', 'third', 'second', 'end', 'real', 'open', 'cost', 'risk', 'time', 'data', 'user',
]);
// Second parts that are hyphenated onto any word ("risk-\nbased", "third-\nparty").
const COMPOUND_SECOND = /^(based|related|specific|term|party|parties|wide|free|like|level|owned|led|driven|making|scale|time|year|month|day|class|quality|effective|oriented|sized|friendly|up|out|in|off|over|down|to|of|and|or)\b/;

/** Letters and digits only, the usual word: no punctuation to strip (a fast path). */
const PLAIN_WORD_RE = /^[A-Za-z0-9]+$/;
const EDGE_PUNCTUATION_RE = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/** The words a document uses, lower-cased, with their inner hyphens ("subject", "co-insurance"), read once when first asked. */
export class Vocabulary {
  private words: Set<string> | null = null;

  constructor(private readonly texts: () => Iterable<string>) {}

  has(word: string): boolean {
    if (!this.words) {
      this.words = new Set();
      for (const text of this.texts()) {
        for (const token of text.split(' ')) {
          // A word broken at a line's end ("sub-") is no word of the document.
          if (!token || token.endsWith('-')) continue;
          const word = PLAIN_WORD_RE.test(token) ? token : token.replace(EDGE_PUNCTUATION_RE, '');
          if (word) this.words.add(word.toLowerCase());
        }
      }
    }
    return this.words.has(word.toLowerCase());
  }
}

/** A hyphen before these is a suspended one: "three- and four-bedroom", "52- or 53-week". */
const SUSPENDED_RE = /^(?:and|or|nor|to)\b/;

/**
 * `text` and the next line's `part` joined across the line break. A line ending in a hyphen after a
 * word: the document's own words say whether the word was broken there ("sub-" + "ject" where the
 * document writes "subject" elsewhere) or is a compound ("co-" + "insurance" where it writes
 * "co-insurance"); without either, a small letter after a first part that makes no compound
 * ("agree-" + "ment") mends the word, a suspended hyphen keeps its space ("three- and four-year"),
 * and anything else is a compound broken at its hyphen ("COVID-" + "19", "well-" + "known", "out-of-" +
 * "pocket").
 */
export function joinAtBreak(text: string, part: string, vocabulary?: Vocabulary): string {
  // Most lines end without a hyphen: the pattern below would scan the whole text joined so far.
  if (!text.endsWith('-')) return `${text} ${part}`;
  const before = /(?:^|[^\p{L}\p{N}-])((?:[\p{L}\p{N}]+-)+)$/u.exec(text)?.[1];
  const next = /^[\p{L}\p{N}]+/u.exec(part)?.[0];
  // No word before the hyphen (a dash after a space, "pages 3 -").
  if (!before || !next) return `${text} ${part}`;
  // Already a compound ("out-of-" + "pocket"): it goes on.
  if (before.indexOf('-') < before.length - 1) return SUSPENDED_RE.test(part) ? `${text} ${part}` : text + part;
  const first = before.slice(0, -1);
  if (vocabulary?.has(`${first}-${next}`)) return text + part;
  if (vocabulary?.has(first + next)) return text.slice(0, -1) + part;
  if (isBrokenWord(text, part)) return text.slice(0, -1) + part;
  return SUSPENDED_RE.test(part) ? `${text} ${part}` : text + part;
}

/**
 * Whether a line ending in `before` (which ends with "-") and the next line starting with `after`
 * form one hyphenated-at-the-break word ("agree-" + "ment") rather than a real compound.
 */
export function isBrokenWord(before: string, after: string): boolean {
  const m = /(?:^|[^\p{L}\p{N}-])([\p{L}]+)-$/u.exec(before);
  if (!m) return false; // no letters before the hyphen, or already a compound ("out-of-")
  if (!/^\p{Ll}/u.test(after)) return false;
  if (COMPOUND_FIRST.has(m[1]!.toLowerCase())) return false;
  return !COMPOUND_SECOND.test(after);
}
