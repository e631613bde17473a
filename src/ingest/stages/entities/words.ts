import type { Candidate } from './candidate.js';

/** Longer runs without spaces hold no entity; the bound keeps snapping linear on adversarial text. */
const LONGEST_TOKEN = 256;

const isSpace = (ch: string | undefined): boolean => ch === ' ' || (ch !== undefined && /\s/u.test(ch));

/** Where the whitespace-delimited token holding offset `at` starts, or null when it is too long. */
function tokenStart(text: string, at: number): number | null {
  const limit = Math.max(0, at - LONGEST_TOKEN);
  let i = at;
  while (i > limit && !isSpace(text[i - 1])) i--;
  return i === 0 || isSpace(text[i - 1]) ? i : null;
}

/** Where the token ending at or after offset `at` ends, or null when it is too long. */
function tokenEnd(text: string, at: number): number | null {
  const limit = Math.min(text.length, at + LONGEST_TOKEN);
  let i = at;
  while (i < limit && !isSpace(text[i])) i++;
  return i === text.length || isSpace(text[i]) ? i : null;
}

const OPENING = /^[(["'“‘«{]*$/u;
/** Punctuation after a value, or a possessive ("Acme Inc.'s"), which cleanEdges takes off. */
const CLOSING = /^(?:['’][sS])?[)\]"'”’».,;:!?}]*$/u;
/** A full stop that is part of the value: an initial or an abbreviation ("N.A.", "Inc.", "Jr."), in capitals too ("JWMW LTD."). */
const ABBREVIATION_DOT = /(?:(?:^|[\s.])\p{L}|\b(?:Inc|Corp|Ltd|Co|Jr|Sr|Bros|No|St|Ave|Blvd|Rd|Dr|Mr|Mrs|Ms|U\.S|p\.m|a\.m|P\.M|A\.M|INC|CORP|LTD|CO|JR|SR))\.$/u;

/** Whether a text that ends in a full stop ends in an abbreviation or an initial, whose stop is the value's ("Acme Inc."). */
export const endsInAbbreviation = (text: string): boolean => ABBREVIATION_DOT.test(text);

/** `[start, end)` without the punctuation around it: quotes, a comma or full stop after it, brackets it does not close. */
export function cleanEdges(text: string, start: number, end: number): { start: number; end: number } | null {
  let s = start;
  let e = end;
  while (s < e && /[\s(\["'“‘«{]/u.test(text[s]!) && !(text[s] === '(' && text.slice(s, e).includes(')'))) s++;
  for (;;) {
    const last = text[e - 1];
    if (e <= s || last === undefined) break;
    // "Mr. Bianco's employment", "Acme Inc.'s offices": a possessive is no part of the name.
    if ((last === 's' || last === 'S') && /[\p{L}.]['’]$/u.test(text.slice(Math.max(s, e - 3), e - 1))) e -= 2;
    else if (/[\s"'”’»,;:!?\]}]/u.test(last)) e--;
    else if (last === ')' && !text.slice(s, e - 1).includes('(')) e--;
    else if (last === '.' && !endsInAbbreviation(text.slice(s, e))) e--;
    else break;
  }
  // A value in brackets of its own (`("Widget Corp.")`, "due ($13,000.00) for"): the brackets are the sentence's.
  // A bare figure in brackets stays whole: "(1,234)" is an accountant's negative.
  if (text[s] === '(' && text[e - 1] === ')' && !/^\(\s*[\d.,]+\s*\)$/u.test(text.slice(s, e)) && !text.slice(s + 1, e - 1).includes('(')) {
    return cleanEdges(text, s + 1, e - 1);
  }
  return e > s ? { start: s, end: e } : null;
}

/**
 * A candidate widened to whole words (never cutting a word or number in two) and cleared of the
 * punctuation around it ("Widget Corp.," → "Widget Corp.", `("Widget Corp.")` → "Widget Corp."),
 * so that a tag wraps exactly the value; null when a token is too long to hold one. Readers join a
 * leaf's text pieces with spaces, so a boundary inside a word would split it; a boundary between a
 * word and its punctuation is where Docugami's own DGML puts one too (`<docset:Location>Jagel</docset:Location>, Germany`).
 */
export function snapToWords(text: string, c: Candidate): Candidate | null {
  if (c.end <= c.start) return null;
  const start = tokenStart(text, c.start);
  const end = tokenEnd(text, c.end);
  if (start === null || end === null) return null;
  // Only punctuation may stand between the match and its token's edges ("($1,000)," yes, "$100.00/sf" no).
  if (!OPENING.test(text.slice(start, c.start)) || !CLOSING.test(text.slice(c.end, end))) return null;
  const clean = cleanEdges(text, start, end);
  return clean ? { ...clean, type: c.type } : null;
}
