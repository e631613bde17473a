/** Words and punctuation of a leaf's text with their offsets, for the prose finders. */

export interface Token {
  text: string;
  start: number;
  end: number;
}

/** Words with inner dots stay whole ("N.A.", "U.S."); other punctuation is a token of its own. */
const TOKEN = /(?:\p{L}\.){2,}|[\p{L}\p{N}][\p{L}\p{N}'’&\/-]*\.?|[^\s\p{L}\p{N}]/gu;
const PERIOD_ABBREVIATION = /^(?:\p{L}\.)+$|^(?:inc|corp|co|ltd|mr|mrs|ms|dr|jr|sr|st)\.$/iu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    let t = m[0];
    const start = m.index;
    // A sentence's full stop is a token of its own; an abbreviation's dot stays.
    if (t.length > 1 && t.endsWith('.') && !PERIOD_ABBREVIATION.test(t)) {
      out.push({ text: t.slice(0, -1), start, end: start + t.length - 1 });
      t = '.';
      out.push({ text: t, start: start + m[0].length - 1, end: start + m[0].length });
      continue;
    }
    out.push({ text: t, start, end: start + t.length });
  }
  return out;
}

