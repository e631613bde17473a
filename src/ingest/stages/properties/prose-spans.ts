/**
 * The spans of running text that can be a value of each kind: the entity pass's dates, amounts,
 * durations, organisations and people, and the kinds it does not tag because they are only values
 * when a label asks for them (times of day, years, counts, job titles, plan names, dates without a
 * year, durations written "six-month").
 */
import type { EntityType, Span } from '../../../document/structure.js';
import type { ValueKind } from './label-kind.js';
import { findParties } from './parties.js';
import { endsInAbbreviation } from '../entities/words.js';

export interface ValueSpan {
  start: number;
  end: number;
  /** For parties: the roles the text gives them. */
  roles?: string[][];
  /** For parties: roles given together by one list, held as one capacity. */
  together?: string[][];
  /** For parties: a firm the sentence says is incorporated somewhere, with no role (`X Corp., a Delaware corporation`). */
  incorporated?: true;
}

const ENTITY_KINDS: Partial<Record<ValueKind, EntityType[]>> = {
  date: ['Date'],
  duration: ['TimeDuration'],
  money: ['Money'],
  percent: ['Percent'],
  address: ['Address'],
  state: ['USState'],
};

/** "3:00 p.m., New York City time", "12:00 noon Eastern time", "5:00 pm Mountain Time", "3:00 p.m. Company's local time", "2:00 p.m. Pacific", "3:00 p.m. EDT". */
const TIME = /(?<![\p{L}\p{N}:])(?:(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s?(?:a\.m\.|p\.m\.|am|pm|a\.m|p\.m|A\.M\.|P\.M\.|AM|PM)|(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?noon)?|noon|midnight)(?:,?\s\(?(?:(?:\p{Lu}[\p{L}'’]*\s){1,3}|(?:the\s)?\p{Lu}[\p{L}]*['’]s\s)?(?:local|prevailing|standard)?\s?(?:[Tt]ime|TIME)\)?|\s(?:E[SD]T|C[SD]T|M[SD]T|P[SD]T|UTC|GMT|Eastern|Central|Mountain|Pacific))?(?![\p{L}\p{N}])/gu;
/** "2018", and a year named with its kind: "calendar year 2018", "fiscal year 2023". */
const YEAR = /(?<![\p{L}\p{N}$.,])(?:(?:[Cc]alendar|[Ff]iscal|[Tt]ax|[Pp]lan)\s+[Yy]ear\s+)?(?:19|20)\d{2}(?![\p{N}])/gu;
const MONTH = String.raw`(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)`;
const DAY_MONTH = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${MONTH}\s(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?(?![\p{N}])(?!,?\s(?:19|20)\d\d)|(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s(?:day\sof\s)?${MONTH}(?!,?\s(?:19|20)\d\d))`, 'gu');
/** "the 1^st day of May, 2015" (a superscript written with a caret), "the _ day of _______, 20__" (a form's blank date): a date the entity pass does not read whole. */
const DAY_OF = new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:(?:[12]\d|3[01]|0?[1-9])\^(?:st|nd|rd|th)|_+)\s+day\s+of\s+(?:${MONTH}|_+),?\s+(?:(?:19|20)(?:\d\d|_+)|_{2,})`, 'gu');
/**
 * A day of a period or after an event ("the 1^st day of the current calendar quarter", "the 90^th day following the Date of
 * Termination"), or one that comes back: "1st day of each month", "first day of each calendar month", "the fifteenth (15th) day of every
 * quarter", "last business day of each calendar quarter". ("June 30 of each year" is "June 30": the words after it say it recurs.)
 */
const ORDINAL_DAY = String.raw`(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|fifteenth|twentieth|last|(?:[12]\d|3[01]|0?[1-9])\^?(?:st|nd|rd|th))(?:\s\((?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)\))?`;
const RECURRING = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${ORDINAL_DAY}\s(?:(?:business|calendar)\s)?day\sof\s(?:each|every|the\s(?:current|next|following|preceding|then[\s-]current))\s(?:(?:calendar|fiscal)\s)?(?:month|quarter|year))(?![\p{L}])`,
  'giu',
);
/** After an event its defined term names: "the 90^th day following the Date of Termination", "the fifth day after the Closing". */
const DAY_AFTER = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${ORDINAL_DAY}|\d{2,3}\^?(?:st|nd|rd|th))\s(?:(?:business|calendar)\s)?day\s(?:following|after)\sthe\s\p{Lu}\p{Ll}+(?:\s(?:of\s)?\p{Lu}\p{Ll}+){0,3}(?![\p{L}])`,
  'gu',
);
const NUMBER_WORD = String.raw`(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|\d{1,3})`;
/** "six-month", "36-month", "two-year (2-year)": the figure in brackets after the words is the same value's. */
const HYPHEN_DURATION = new RegExp(
  String.raw`(?<![\p{L}\p{N}-])(?:${NUMBER_WORD}(?:-${NUMBER_WORD})?)-(day|week|month|year|hour)(?:\s\(\d{1,3}-\1\))?(?![\p{L}-])`,
  'giu',
);
/** A count standing alone: not part of a code ("AG-1", "4.1", "2/3") or an amount. */
const COUNT = /(?<![\p{L}\p{N}.,$\/-])\d{1,3}(?:,\d{3})+(?![\p{N}\/-]|\.\d)|(?<![\p{L}\p{N}.,$\/-])\d+(?![\p{N}.,%\/-]|\.\d)/gu;
/** A count in words with its figure: "twenty five (25)", "ten (10)". */
const COUNT_WORDS = new RegExp(String.raw`(?<![\p{L}\p{N}-])${NUMBER_WORD}(?:[\s-]${NUMBER_WORD}){0,3}\s\(\d[\d,]*\)`, 'giu');
const TITLE_WORD = String.raw`(?:Chief|Senior|Executive|Vice|President|Managing|Director|Officer|Financial|Operating|Technology|Accounting|Legal|Marketing|Commercial|Information|General|Counsel|Secretary|Treasurer|Controller|Chairman|Manager|Assistant|Deputy|Principal|Partner|Associate|Head|Interim|Global|Corporate|Human|Resources|Regional|Group|of|and|&)`;
const TITLE = new RegExp(String.raw`(?<![\p{L}])(?:${TITLE_WORD}\s){0,5}(?:President|Director|Officer|Counsel|Secretary|Treasurer|Controller|Chairman|Manager|Partner|Head)(?![\p{L}])|(?<![\p{L}])(?:president|director|officer|manager)(?![\p{L}])`, 'gu');
/**
 * A plan's name: capitalised words before "Plan" or "Program" ("and", "of" and "for" between them: "Federal Risk and
 * Authorization Management Program"), a year first or not. A determiner that
 * opens a sentence is none of it ("The Program does not …" names no plan); a capitalised word after it
 * makes it part of another name ("Stock Plan Group", "American Rescue Plan Act").
 */
const PLAN = /(?<![\p{L}\p{N}])(?!(?:The|This|That|These|Those|Such|Our|Its|Their|Each|Any|Every)\s)(?:(?:19|20)\d{2}\s)?(?:[\p{Lu}][\p{L}'’&-]*\s(?:(?:and|of|for)\s(?=\p{Lu}))?){1,6}(?:Plan|Program)(?![\p{L}]|\s+[\p{Lu}][\p{Ll}])/gu;

function all(re: RegExp, text: string): ValueSpan[] {
  return [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** A duration's span without the "period" that follows its unit ("seven (7) day period" → "seven (7) day"). */
function withoutPeriod(text: string, s: ValueSpan): ValueSpan {
  const m = text.slice(s.start, s.end).match(/\s+period\W*$/iu);
  return m ? { start: s.start, end: s.end - m[0].length } : s;
}

/** "twelve (12) years and six months": two durations joined by "and" are one; "twenty-one days (21)" keeps its figure. */
function joinedDurations(text: string, spans: ValueSpan[]): ValueSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: ValueSpan[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && /^,?\s+and\s+$/u.test(text.slice(last.end, s.start))) out.push({ start: last.start, end: s.end });
    out.push(s);
  }
  return out.map((s) => {
    const figure = text.slice(s.end).match(/^\s\(\d{1,4}\)/u);
    return figure && /\p{L}$/u.test(text.slice(s.start, s.end)) && !/\(\d/u.test(text.slice(s.start, s.end)) ? { start: s.start, end: s.end + figure[0].length } : s;
  });
}

/** "U.S. $302,000", "C$100,000": the currency's mark before the amount is the amount's. */
function withCurrencyPrefix(text: string, s: ValueSpan): ValueSpan {
  const m = text.slice(Math.max(0, s.start - 6), s.start).match(/(?:U\.S\.\s?|US\s|C|A|NZ|HK|S)$/u);
  return m && text[s.start] === '$' ? { start: s.start - m[0].length, end: s.end } : s;
}

/** Entity spans of the types, their punctuation off ("six months," → "six months"). */
function entitySpansOf(text: string, spans: readonly Span[], types: readonly EntityType[]): ValueSpan[] {
  return spans
    .filter((s) => s.tag.kind === 'entity' && types.includes(s.tag.type))
    .map((s) => {
      const slice = text.slice(s.start, s.end);
      const lead = slice.match(/^[("'“‘\[]+/u)?.[0].length ?? 0;
      const trail = slice.match(/[)"'”’\].,;:]+$/u)?.[0].length ?? 0;
      let end = s.end - trail;
      // Keep a closing bracket that closes one inside the value: "thirty (30) days", "($20,000.00)".
      if (trail && text[end] === ')' && text.slice(s.start + lead, end).includes('(')) end++;
      // An abbreviation's dot stays: "Inc.", "N.A.".
      if (trail && text[end] === '.' && endsInAbbreviation(text.slice(s.start, end + 1))) end++;
      return { start: s.start + lead, end };
    })
    .filter((s) => s.end > s.start);
}

/** Every span of the leaf `text` that could be a value of `kind`. */
export function valueSpans(kind: ValueKind, text: string, spans: readonly Span[], previous?: string, next?: string): ValueSpan[] {
  const entities = ENTITY_KINDS[kind] ? entitySpansOf(text, spans, ENTITY_KINDS[kind]!) : [];
  switch (kind) {
    case 'date':
      return [...entities, ...all(DAY_MONTH, text), ...all(DAY_OF, text), ...all(RECURRING, text), ...all(DAY_AFTER, text)];
    case 'duration':
      return joinedDurations(text, [...entities, ...all(HYPHEN_DURATION, text)].map((s) => withoutPeriod(text, s)));
    case 'money':
      return entities.map((s) => withCurrencyPrefix(text, s));
    case 'percent':
      // "fifty percent (50%)": the figure in brackets after the words is the same value's.
      return entities.map((s) => {
        const figure = text.slice(s.end).match(/^\s\(\d[\d.]*\s?%\)/u);
        return figure && /\p{L}$/u.test(text.slice(s.start, s.end)) ? { start: s.start, end: s.end + figure[0].length } : s;
      });
    case 'time':
      return all(TIME, text);
    case 'year':
      return all(YEAR, text);
    case 'count': {
      // The figure in brackets after words is the same count: the words and figure are one span.
      const worded = all(COUNT_WORDS, text);
      return [...worded, ...all(COUNT, text).filter((c) => !worded.some((w) => w.start <= c.start && c.end <= w.end))];
    }
    case 'title':
      return all(TITLE, text);
    case 'plan':
      return all(PLAN, text);
    case 'party':
    case 'person': {
      const named = entitySpansOf(text, spans, ['Org', 'Person']);
      return findParties(text, previous, named, next).map((p) => ({ start: p.start, end: p.end, roles: p.roles, ...(p.together ? { together: p.together } : {}), ...(p.incorporated ? { incorporated: p.incorporated } : {}) }));
    }
    default:
      return entities;
  }
}
