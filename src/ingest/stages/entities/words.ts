import type { Candidate } from './candidate.js';

const OPENING = /^[(["'“‘«{]*$/u;
const CLOSING = /^[)\]"'”’».,;:!?}]*$/u;
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

/**
 * A candidate widened to whole whitespace-delimited tokens, when only opening punctuation precedes
 * it in its first token and only closing punctuation follows it in its last ("($1,000)," stays
 * whole); null when that would cut a word. Readers join a leaf's text pieces with spaces, so a tag
 * boundary inside a token would split a word in two.
 */
export function snapToWords(text: string, c: Candidate): Candidate | null {
  if (c.end <= c.start) return null;
  const start = tokenStart(text, c.start);
  const end = tokenEnd(text, c.end);
  if (start === null || end === null) return null;
  if (!OPENING.test(text.slice(start, c.start)) || !CLOSING.test(text.slice(c.end, end))) return null;
  return { start, end, type: c.type };
}
