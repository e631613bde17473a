import type { EntityType } from '../../structure.js';

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
  for (const m of text.matchAll(pattern)) {
    if (options.accept && !options.accept(m)) continue;
    const range = options.group ? m.indices?.groups?.[options.group] : m.indices?.[0] ?? [m.index, m.index + m[0].length];
    if (range) out.push({ start: range[0], end: range[1], type });
  }
  return out;
}

/** Builds a regex from pattern pieces (sources of RegExps or strings), with match indices. */
export function regex(flags: string, ...pieces: (string | RegExp)[]): RegExp {
  return new RegExp(pieces.map((p) => (typeof p === 'string' ? p : p.source)).join(''), flags.includes('d') ? flags : `${flags}d`);
}

/** Matches cannot start inside a word or number. */
export const WORD_START = String.raw`(?<![\p{L}\p{N}])`;
/** …nor end inside one. */
export const WORD_END = String.raw`(?![\p{L}\p{N}])`;
