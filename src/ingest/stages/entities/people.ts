/**
 * People, only where a strong cue says the words are a person's name: a signature block's
 * "Name:"/"By:" (also "Name:" alone on the previous leaf), an honorific ("Dr. Jane Roe"), or
 * "Jane Doe, an individual".
 */
import { type Candidate, regex, WORD_END } from './candidate.js';
import { nameStart, NOT_NAME_WORDS, NOT_PERSON_WORDS } from './names.js';

const NAME_PART = String.raw`(?:\p{Lu}[\p{Ll}'’-]{1,30}|\p{Lu}{2,30}|\p{Lu}\.)`;
const FULL_NAME = String.raw`${NAME_PART}(?:\s${NAME_PART}){1,3}${WORD_END}`;

const CUES = [
  regex('gu', String.raw`(?<![\p{L}])(?:(?:Print(?:ed)?\s)?(?:Name|NAME)|By|BY):\s(?:/s/\s)?(?<name>${FULL_NAME})`),
  // Not after a capitalised word: "Innovation Dr. Techville" is a street.
  regex('gu', String.raw`(?<![\p{L}]|\p{Lu}\p{Ll}*\s)(?:Mr|Mrs|Ms|Dr|Prof)\.?\s(?<name>${NAME_PART}(?:\s${NAME_PART}){0,3}${WORD_END})`),
  regex('gu', String.raw`(?<![\p{L}])(?<name>${FULL_NAME}),\san\sindividual${WORD_END}`),
];
const ANY_CUE = /Name:|NAME:|By:|BY:|Mrs?\b|Ms\b|Dr\b|Prof\b|individual/u;
const WHOLE_NAME = regex('u', `^${FULL_NAME}$`);
const NAME_LABEL = /^(?:Print(?:ed)? )?Name:$/iu;

function personAt(start: number, name: string): Candidate | null {
  const words = name.split(' ');
  if (words.some((w) => NOT_PERSON_WORDS.has(w.toLowerCase()))) return null;
  const first = nameStart(words);
  if (first < 0) return null;
  const skipped = words.slice(0, first).join(' ');
  const offset = skipped ? skipped.length + 1 : 0;
  return { start: start + offset, end: start + name.length, type: 'Person' };
}

/** `previous` is the text of the leaf before this one, for signature blocks that put "Name:" on its own. */
export function findPeople(text: string, previous: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  if (ANY_CUE.test(text)) for (const re of CUES) {
    for (const m of text.matchAll(re)) {
      const range = m.indices?.groups?.name;
      const person = range ? personAt(range[0], text.slice(range[0], range[1])) : null;
      if (person) out.push(person);
    }
  }
  if (previous !== undefined && NAME_LABEL.test(previous) && WHOLE_NAME.test(text)) {
    const person = personAt(0, text);
    if (person) out.push(person);
  }
  if (GENERATION_CUE.test(text)) out.push(...generational(text));
  return out;
}

/** "Salvatore Emma, Jr.", "John Smith III": a generation after two or three capitalised words is a person's. */
const GENERATION = /,?\s(?:Jr\.|Sr\.|JR\.|SR\.|II|III|IV)(?![\p{L}\p{N}])/gu;
const GENERATION_CUE = /\s(?:Jr|Sr|JR|SR)\.|\s(?:II|III|IV)(?![\p{L}\p{N}])/u;

function generational(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(GENERATION)) {
    // The capitalised words before it, back to a word no name has ("Chairman of the Board Salvatore Emma, Jr.").
    const words = [...text.slice(0, m.index).matchAll(/\S+/gu)];
    const kept: RegExpExecArray[] = [];
    for (let i = words.length - 1; i >= 0 && kept.length < 3; i--) {
      const w = words[i]![0];
      const plain = w.replace(/[^\p{L}]/gu, '').toLowerCase();
      if (!/^\p{Lu}[\p{Ll}'’-]+$|^\p{Lu}\.$/u.test(w) || NOT_PERSON_WORDS.has(plain) || NOT_NAME_WORDS.has(plain)) break;
      kept.unshift(words[i]! as RegExpExecArray);
    }
    // Two words at least: a lone "Smith III" may be anything's, and a firm's "Holdings II" stops at its word no person has.
    if (kept.length < 2) continue;
    out.push({ start: kept[0]!.index, end: m.index + m[0].length, type: 'Person' });
  }
  return out;
}
