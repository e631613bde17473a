import type { EntityType } from '../../../document/structure.js';

/** A recogniser's proposal, in character offsets of the leaf text; snapped to whole words later. */
export interface Candidate {
  start: number;
  end: number;
  type: EntityType;
}

/**
 * Candidates for every match of a global `pattern` built by `regex` (so with match indices): the
 * whole match, or the named group when given. `accept` can veto a match.
 */
export function matchesOf(
  text: string,
  pattern: RegExp,
  type: EntityType,
  options: { group?: string; accept?: (m: RegExpExecArray) => boolean } = {},
): Candidate[] {
  const out: Candidate[] = [];
  const quick = quickTest(pattern);
  if (quick && !quick.test(text)) return out;
  for (const m of text.matchAll(pattern)) {
    if (options.accept && !options.accept(m)) continue;
    const range = options.group ? m.indices?.groups?.[options.group] : m.indices?.[0] ?? [m.index, m.index + m[0].length];
    if (range) out.push({ start: range[0], end: range[1], type });
  }
  return out;
}

const quickTests = new WeakMap<RegExp, RegExp | null>();

/**
 * The pattern without its leading lookbehind (`(?<![\p{L}\p{N}])`…), as a plain test: it matches
 * wherever the pattern does (an assertion dropped only widens it), and most leaves fail it at once,
 * where the pattern itself would check its Unicode lookbehind at every position of the text first
 * (about eight times slower over the corpus). Null for a pattern that does not start with one.
 */
function quickTest(pattern: RegExp): RegExp | null {
  let quick = quickTests.get(pattern);
  if (quick !== undefined) return quick;
  quick = null;
  const src = pattern.source;
  if (src.startsWith('(?<!') || src.startsWith('(?<=')) {
    let depth = 0;
    let inClass = false;
    for (let i = 0; i < src.length; i++) {
      const ch = src[i];
      if (ch === '\\') i++;
      else if (inClass) inClass = ch !== ']';
      else if (ch === '[') inClass = true;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) {
        quick = new RegExp(src.slice(i + 1), pattern.flags.replace(/[gyd]/g, ''));
        break;
      }
    }
  }
  quickTests.set(pattern, quick);
  return quick;
}

/** Builds a regex from pattern pieces (sources of RegExps or strings), with match indices. */
export function regex(flags: string, ...pieces: (string | RegExp)[]): RegExp {
  return new RegExp(pieces.map((p) => (typeof p === 'string' ? p : p.source)).join(''), flags.includes('d') ? flags : `${flags}d`);
}

/** Matches cannot start inside a word or number. */
export const WORD_START = String.raw`(?<![\p{L}\p{N}])`;
/** …nor end inside one. */
export const WORD_END = String.raw`(?![\p{L}\p{N}])`;
