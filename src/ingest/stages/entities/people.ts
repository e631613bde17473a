/**
 * People, only where a strong cue says the words are a person's name: a signature block's
 * "Name:"/"By:" (also "Name:" alone on the previous leaf), an honorific ("Dr. Jane Roe"), or
 * "Jane Doe, an individual".
 */
import { type Candidate, regex, WORD_END } from './candidate.js';
import { nameStart, NOT_NAME_WORDS, NOT_PERSON_WORDS } from './names.js';
import { isStateName } from './places.js';

/** A person's office named right after the name. */
const OFFICES = String.raw`(?:Chief|Executive|Senior|Vice|Interim|Acting|Deputy|Assistant)\s\p{Lu}\p{L}+|President|Secretary|Treasurer|Chairman|Chairwoman|CEO|CFO|COO|CTO|General\sCounsel`;

/** Defined roles only a person has (a firm can be a "Guarantor" or a "Contractor"; an "Employee" is a person). */
const PERSON_ROLES = String.raw`Employee|EMPLOYEE|Executive|EXECUTIVE|Consultant|CONSULTANT|Participant|PARTICIPANT|Grantee|GRANTEE|Optionee|OPTIONEE|Officer|OFFICER|Director|DIRECTOR|Advisor|ADVISOR|Adviser|ADVISER`;

const NAME_PART = String.raw`(?:\p{Lu}[\p{Ll}'’-]{1,30}|\p{Lu}{2,30}|\p{Lu}\.)`;
const FULL_NAME = String.raw`${NAME_PART}(?:\s${NAME_PART}){1,3}${WORD_END}`;

/**
 * Two or three capitalised words and the same words again, as the cue of a signature's doubled name: looked for only in
 * a short text (a signature block's line), as its back-reference costs several times the other cues' test.
 */
const MAX_DOUBLED_TEXT = 300;
const DOUBLED = /(?<![\p{L}])(\p{Lu}[\p{L}'’.-]*\s\p{Lu}[\p{L}'’.-]*(?:\s\p{Lu}[\p{L}'’.-]*)?)\s\1(?![\p{L}])/u;

/** Each pattern with a cheap test of its cue, run only where the cue is in the text. */
const CUES: [cue: RegExp, pattern: RegExp][] = [
  [/Name:|NAME:|By:|BY:/u, regex('gu', String.raw`(?<![\p{L}])(?:(?:Print(?:ed)?\s)?(?:Name|NAME)|By|BY):\s(?:/s/\s)?(?<name>${FULL_NAME})`)],
  // Not after a capitalised word: "Innovation Dr. Techville" is a street.
  [/Mrs?\b|Ms\b|Dr\b|Prof\b/u, regex('gu', String.raw`(?<![\p{L}]|\p{Lu}\p{Ll}*\s)(?:Mr|Mrs|Ms|Dr|Prof)\.?\s(?<name>${NAME_PART}(?:\s${NAME_PART}){0,3}${WORD_END})`)],
  [/individual/u, regex('gu', String.raw`(?<![\p{L}])(?<name>${FULL_NAME}),\san\sindividual${WORD_END}`)],
  // A signer's own words: "I, Richard Walker, acknowledge", "personally appeared Vikas Sinha", "/s/ Elizabeth Lord" (each
  // opening on its literal; the word before is checked in findPeople: a leading lookbehind would be tried at every position).
  [/I,/u, regex('gu', String.raw`I,\s(?<name>${FULL_NAME}),`)],
  [/appeared/u, regex('gu', String.raw`appeared\s(?<name>${FULL_NAME})`)],
  [/\/s\//u, regex('gu', String.raw`\/s\/\s(?<name>${FULL_NAME})`)],
  // An office a person is appointed, elected or promoted to (a firm is appointed an agent or a trustee, never a President):
  // "Eric Miller shall be appointed the President and CEO", "the appointment of Jane Roe as Chief Operating Officer".
  [/appointed|elected|promoted/u, regex('gu', String.raw`(?<name>${FULL_NAME})\s(?:shall|will|has|have|is|was)\s(?:be\s|been\s)?(?:appointed|elected|promoted)\s(?:as\s|to\s)?(?:the\s)?(?:${OFFICES})${WORD_END}`)],
  [/appointment|election|promotion/u, regex('gu', String.raw`(?:appointment|election|promotion)\sof\s(?<name>${FULL_NAME})\s(?:as|to)\s(?:the\s)?(?:${OFFICES})${WORD_END}`)],
  // A signature's name line over the signer's office, run together: "J. Servodidio Executive Vice President" (an initial and a
  // surname opening the text; a run of capitalised words before an office could be a department's).
  [/^\p{Lu}\.\s/u, regex('gu', String.raw`^(?<name>\p{Lu}\.\s(?:\p{Lu}\.\s)?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)\s(?:${OFFICES})${WORD_END}`)],
  // A signature's name and the printed name under it, run together with no "/s/" ("DAGMAR DOLBY DAGMAR DOLBY, as Trustee"):
  // two or three words of a name, at once again, are a signer's (personAt keeps each copy; a firm's words no person has).
  [DOUBLED, regex('gu', String.raw`(?<![\p{L}])(?<name>(?<once>${NAME_PART}(?:\s${NAME_PART}){1,2})\s\k<once>)${WORD_END}`)],
];

/** The cues of AFTER_NAME_CUES, as one test. */
const AFTER_NAME_CUE = regex('u', String.raw`,\s(?:${OFFICES})|\((?:the\s)?["“](?:${PERSON_ROLES})["”]\)`);
const INITIAL_CUE = /\p{Ll}\s\p{Lu}\.\s\p{Lu}\p{Ll}/u;

/** A name ending where a cue after it begins (the cue found first: a pattern opening on a name would try every word). */
const NAME_AT_END = regex('u', String.raw`(?<![\p{L}])(?<name>${FULL_NAME})$`);
/** How far before its cue a name is looked for. */
const NAME_WINDOW = 120;

/**
 * Cues that follow the name: the person's office right after it ("David Manovich, Executive Vice Chairman", "R. Kirk
 * Morgan, CFO"), a defined role only a person has (`John T. Perri ("Executive")`).
 */
const AFTER_NAME_CUES = [
  regex('gu', String.raw`,\s(?:${OFFICES})${WORD_END}`),
  regex('gu', String.raw`\s\((?:the\s)?["“](?:${PERSON_ROLES})["”]\)`),
];

function namesBeforeCues(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const cue of AFTER_NAME_CUES) {
    for (const m of text.matchAll(cue)) {
      const from = Math.max(0, m.index - NAME_WINDOW);
      const range = NAME_AT_END.exec(text.slice(from, m.index))?.indices?.groups?.name;
      const person = range ? personAt(from + range[0], text.slice(from + range[0], from + range[1])) : null;
      if (person) out.push(...person);
    }
  }
  return out;
}

const OFFICE_AFTER = regex('u', String.raw`^\s(?:${OFFICES})${WORD_END}`);

/** "Anita W. Matheson", "John J. Roberts": a middle initial between two names, not inside a longer run of capitalised words. */
const MIDDLE_INITIAL = /(\p{Lu}\p{Ll}{1,30})\s\p{Lu}\.\s\p{Lu}\p{Ll}{1,30}(?:-\p{Lu}\p{Ll}{1,30})?(?![\p{L}\p{N}])/gu;

function middleInitials(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(MIDDLE_INITIAL)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (/[\p{L}.]$/u.test(before) || /\p{Lu}[\p{L}.'’-]*\s$/u.test(before)) continue;
    // Not a longer run of capitalised words, unless an office follows ("Gary M. Crosby Interim Chief Executive Officer").
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 40);
    if (/^\s\p{Lu}\p{Ll}/u.test(after) && !OFFICE_AFTER.test(after)) continue;
    const person = personAt(m.index, m[0]);
    if (person) out.push(...person);
  }
  return out;
}
const WHOLE_NAME = regex('u', `^${FULL_NAME}$`);
const NAME_LABEL = /^(?:Print(?:ed)? )?Name:$/iu;

/** A part, a grade or a place lettered "A.", "B." …: "Annex A. Terms", "Class A. Shares", "Lot B. Smith". */
const LETTERED = new Set(['annex', 'appendix', 'attachment', 'part', 'item', 'table', 'figure', 'chart', 'note', 'option', 'phase', 'stage', 'step', 'class', 'series', 'tranche', 'level', 'tier', 'grade', 'type', 'group', 'category', 'volume', 'chapter', 'lot', 'parcel', 'tract', 'block', 'unit', 'building', 'floor', 'suite', 'room', 'zone', 'area', 'site', 'route', 'box', 'column', 'row', 'line', 'page', 'paragraph', 'clause', 'subsection', 'division', 'title', 'rule', 'form', 'plan', 'program', 'model', 'version', 'release']);

function personAt(start: number, written: string): Candidate[] | null {
  let words = written.split(' ');
  if (LETTERED.has(words[0]!.toLowerCase())) return null;
  // "/s/ Elizabeth Lord GUARANTOR": a name in title case ends where a word in capitals (a role, the next line) begins.
  const caps = (w: string) => /^\p{Lu}{2,}$/u.test(w);
  if (!caps(words[0]!)) {
    const end = words.findIndex(caps);
    if (end >= 2) words = words.slice(0, end);
  }
  // "/s/ DAGMAR DOLBY DAGMAR DOLBY": the signature's name and the printed name under it, run together: each is the person's.
  const half = words.length / 2;
  if (Number.isInteger(half) && half >= 2 && words.slice(0, half).join(' ') === words.slice(half).join(' ')) {
    const one = words.slice(0, half).join(' ');
    // A state's name said twice is a city and its state ("New York New York"), no signer's.
    if (isStateName(one)) return null;
    const signed = personAt(start, one);
    const printed = personAt(start + one.length + 1, one);
    return signed && printed ? [signed, printed].flat() : [];
  }
  const name = words.join(' ');
  if (words.some((w) => NOT_PERSON_WORDS.has(w.toLowerCase()))) return null;
  const first = nameStart(words);
  if (first < 0) return null;
  const skipped = words.slice(0, first).join(' ');
  const offset = skipped ? skipped.length + 1 : 0;
  return [{ start: start + offset, end: start + name.length, type: 'Person' }];
}

/** Any cue at all, in one pass: most leaves have none. */
const ANY_CUE = /^\p{Lu}\.\s|appoint(?:ed|ment)|elect(?:ed|ion)|promot(?:ed|ion)|Name:|NAME:|By:|BY:|Mrs?\b|Ms\b|Dr\b|Prof\b|individual|I,|appeared|\/s\/|,\s(?:Chief|Exec|Senior|Vice|Interim|Acting|Deputy|Assistant|Pres|Secr|Treas|Chair|CEO|CFO|COO|CTO|General)|\(["“]|\(the\s|\p{Ll}\s\p{Lu}\.\s\p{Lu}|\s(?:Jr|Sr|JR|SR)\.|\s(?:II|III|IV)(?![\p{L}\p{N}])/u;

/** `previous` is the text of the leaf before this one, for signature blocks that put "Name:" on its own. */
export function findPeople(text: string, previous: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  if (previous !== undefined && NAME_LABEL.test(previous) && WHOLE_NAME.test(text)) {
    const person = personAt(0, text);
    if (person) out.push(...person);
  }
  const short = text.length <= MAX_DOUBLED_TEXT;
  if (!ANY_CUE.test(text) && !(short && DOUBLED.test(text))) return out;
  for (const [cue, re] of CUES) {
    if ((cue === DOUBLED && !short) || !cue.test(text)) continue;
    for (const m of text.matchAll(re)) {
      if (/^\p{L}/u.test(m[0]) && /\p{L}/u.test(text[m.index - 1] ?? '')) continue;
      const range = m.indices?.groups?.name;
      const person = range ? personAt(range[0], text.slice(range[0], range[1])) : null;
      if (person) out.push(...person);
    }
  }
  if (AFTER_NAME_CUE.test(text)) out.push(...namesBeforeCues(text));
  if (INITIAL_CUE.test(text)) out.push(...middleInitials(text));
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
