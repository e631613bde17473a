/** Words and punctuation of a leaf's text with their offsets, for the prose finders. */

export interface Token {
  text: string;
  start: number;
  end: number;
}

const PERIOD_ABBREVIATION = /^(?:\p{L}\.)+$|^(?:inc|corp|co|ltd|mr|mrs|ms|dr|jr|sr|st)\.$/iu;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
const SPACE = /\s/u;

const OTHER = 0;
const LETTER_CLASS = 1;
const DIGIT_CLASS = 2;
const SPACE_CLASS = 3;

/** The class of the code point at `i`: ASCII by its code, the rest by its Unicode property. */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) {
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return LETTER_CLASS;
    if (c >= 48 && c <= 57) return DIGIT_CLASS;
    return c === 32 || (c >= 9 && c <= 13) ? SPACE_CLASS : OTHER;
  }
  const ch = String.fromCodePoint(text.codePointAt(i)!);
  return LETTER.test(ch) ? LETTER_CLASS : DIGIT.test(ch) ? DIGIT_CLASS : SPACE.test(ch) ? SPACE_CLASS : OTHER;
}

const widthAt = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff ? 2 : 1;
};

/** Characters a word goes on over after its first letter or digit: ' ’ & / - */
const inWord = (c: number): boolean => c === 39 || c === 0x2019 || c === 38 || c === 47 || c === 45;

/**
 * The tokens of `/(?:\p{L}\.){2,}|[\p{L}\p{N}][\p{L}\p{N}'’&\/-]*\.?|[^\s\p{L}\p{N}]/gu`: words with inner dots stay
 * whole ("N.A.", "U.S."), other punctuation is a token of its own, and a sentence's full stop is split off a word.
 * Scanned by hand: the same tokens as that expression on every leaf of the corpus and every contract snippet, in
 * less than half its time (this runs on every leaf the labels read).
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const push = (start: number, end: number): void => {
    const t = text.slice(start, end);
    if (end - start > 1 && text.charCodeAt(end - 1) === 46 && !PERIOD_ABBREVIATION.test(t)) {
      out.push({ text: t.slice(0, -1), start, end: end - 1 });
      out.push({ text: '.', start: end - 1, end });
    } else out.push({ text: t, start, end });
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const k = classAt(text, i);
    if (k === SPACE_CLASS) {
      i += widthAt(text, i);
      continue;
    }
    if (k === OTHER) {
      const w = widthAt(text, i);
      push(i, i + w);
      i += w;
      continue;
    }
    if (k === LETTER_CLASS) {
      // "U.S.", "N.A.": letters each followed by a dot, two or more.
      let j = i;
      let pairs = 0;
      while (j < n && classAt(text, j) === LETTER_CLASS) {
        const w = widthAt(text, j);
        if (text.charCodeAt(j + w) !== 46) break;
        pairs++;
        j += w + 1;
      }
      if (pairs >= 2) {
        push(i, j);
        i = j;
        continue;
      }
    }
    let j = i + widthAt(text, i);
    while (j < n) {
      const k2 = classAt(text, j);
      if (k2 !== LETTER_CLASS && k2 !== DIGIT_CLASS && !inWord(text.charCodeAt(j))) break;
      j += widthAt(text, j);
    }
    if (text.charCodeAt(j) === 46) j++;
    push(i, j);
    i = j;
  }
  return out;
}
