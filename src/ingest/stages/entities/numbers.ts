/** Money, percentages and durations: amounts in digits, in words, or both ("thirty (30) days"). */
import { type Candidate, matchesOf, regex, WORD_END, WORD_START } from './candidate.js';

/** 1,000,000.00 or 26.99 or 12; quantifiers are bounded so a long digit run stays linear. */
const NUMERAL = String.raw`(?<![\p{L}\p{N}.,])(?:\d{1,3}(?:,\d{3}){1,5}(?:\.\d{1,6})?|\d{1,12}(?:\.\d{1,6})?)(?![\p{N}])`;
const INTEGER = String.raw`\d{1,3}(?:,\d{3}){0,4}`;
const UNITS_AND_TENS =
  'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
/** "one hundred three", "thirty-six", "one hundred and twenty"; a scale word alone ("Billion") is a unit, not an amount. */
const NUMBER_WORDS = String.raw`${WORD_START}(?:${UNITS_AND_TENS})(?:(?:[ -]|\sand\s)(?:${UNITS_AND_TENS}|hundred|thousand|million|billion)){0,8}${WORD_END}`;
const SCALE = String.raw`(?:thousand|million|billion|trillion)`;

const MONEY = [
  // "U.S. $302,000": the country before the sign is the amount's.
  regex('giu', String.raw`${WORD_START}(?:U\.S\.\s?)?(?:US|C|A|NZ|HK|S)?\$\s?`, NUMERAL, String.raw`(?:\s${SCALE})?${WORD_END}`),
  regex('giu', String.raw`${WORD_START}(?:USD|EUR|GBP)\s?`, NUMERAL, String.raw`(?:\s${SCALE})?${WORD_END}`),
  regex('giu', NUMBER_WORDS, String.raw`\s(?:U\.S\.\s)?dollars(?:\s\((?:US)?\$`, NUMERAL, String.raw`\))?`),
  regex('giu', NUMERAL, String.raw`(?:\s${SCALE})?\s(?:U\.S\.\s)?dollars${WORD_END}`),
];

const PERCENT_WORD = String.raw`(?:percent|per\scent)${WORD_END}`;
const PERCENT = [
  regex('gu', NUMERAL, String.raw`\s?%`),
  regex('giu', NUMERAL, String.raw`\s`, PERCENT_WORD),
  regex('giu', NUMBER_WORDS, String.raw`\s`, PERCENT_WORD, String.raw`(?:\s\(`, NUMERAL, String.raw`\s?%\))?`),
  // "fifty (50%) percent"
  regex('giu', NUMBER_WORDS, String.raw`\s\(`, NUMERAL, String.raw`\s?%\)(?:\s`, PERCENT_WORD, ')?'),
];

const UNIT = String.raw`(?:(?:full|consecutive|calendar|business|working)\s){0,2}(?:days?|weeks?|months?|years?|hours?|minutes?)${WORD_END}(?:\speriod${WORD_END})?`;
/** After a number in words, a year may be of a kind ("one (1) tax year", "two fiscal years", "three (3) Lease Years"); after a figure it may be a year's name ("the 2020 fiscal year"). */
const WORDED_UNIT = String.raw`(?:(?:tax|fiscal|holiday|lease|plan|contract|academic|school)\s(?:years?)${WORD_END}|${UNIT})`;
/** Ages ("45 years old") are not durations. */
const NOT_AGE = String.raw`(?!\s(?:old|of\sage)${WORD_END})`;
/** "1 to 1.5 hours", "five or six years". */
const RANGE = String.raw`\s(?:to|or)\s`;
/** "two and one-half", "one and a half": a whole number of units and a part of one. */
const AND_A_PART = String.raw`(?:\sand\s(?:one|a)[ -](?:half|quarter|third)|\sand\s(?:two|three)[ -](?:thirds|quarters))`;
/** The figure in brackets after such words: "(2 ½)", "(2.5)", "(1-1/2)", "(1½)". */
const FIGURE_WITH_PART = String.raw`\d{1,3}(?:\.\d{1,3}|[ -]?(?:[½¼¾⅓⅔]|[123]\/[234]))`;
const DURATION = [
  regex('giu', NUMBER_WORDS, String.raw`\s\(${INTEGER}\)\s`, WORDED_UNIT, NOT_AGE),
  // "two and one-half (2 ½) months", "one and one-half years", "2½ months".
  regex('giu', NUMBER_WORDS, AND_A_PART, String.raw`(?:\s\(${FIGURE_WITH_PART}\))?\s`, UNIT, NOT_AGE),
  regex('giu', String.raw`(?<![\p{L}\p{N}.,])\d{1,3}\s?[½¼¾]\s`, UNIT, NOT_AGE),
  // "twenty-one days (21)": the figure after the unit.
  regex('giu', NUMBER_WORDS, String.raw`\s`, UNIT, String.raw`\s\(${INTEGER}\)`),
  // "5 (five) years": the figure first, its words after.
  regex('giu', NUMERAL, String.raw`\s\(`, NUMBER_WORDS, String.raw`\)\s`, UNIT, NOT_AGE),
  regex('giu', NUMERAL, `(?:${RANGE}`, NUMERAL, String.raw`)?\s`, UNIT, NOT_AGE),
  regex('giu', NUMBER_WORDS, `(?:${RANGE}`, NUMBER_WORDS, String.raw`)?\s`, WORDED_UNIT, NOT_AGE),
];

/** Cheap tests that rule most leaves out before the full patterns run. */
const MONEY_CUE = /\$|dollar|usd|eur|gbp/iu;
const PERCENT_CUE = /%|per\s?cent/iu;
const DURATION_CUE = /day|week|month|year|hour|minute/iu;

export function findMoney(text: string): Candidate[] {
  if (!MONEY_CUE.test(text)) return [];
  return MONEY.flatMap((re) => matchesOf(text, re, 'Money'));
}

export function findPercents(text: string): Candidate[] {
  if (!PERCENT_CUE.test(text)) return [];
  return PERCENT.flatMap((re) => matchesOf(text, re, 'Percent'));
}

export function findDurations(text: string): Candidate[] {
  if (!DURATION_CUE.test(text)) return [];
  return joinParts(text, DURATION.flatMap((re) => matchesOf(text, re, 'TimeDuration')));
}

const UNIT_RANK = ['minute', 'hour', 'day', 'week', 'month', 'year'];

/** The rank of a duration's unit (years highest), from its last unit word. */
function unitRank(text: string): number {
  const unit = /(minute|hour|day|week|month|year)s?\b(?:\s+period)?\s*(?:\(\d+\))?\s*$/iu.exec(text)?.[1]?.toLowerCase();
  return unit ? UNIT_RANK.indexOf(unit) : -1;
}

/**
 * "twelve (12) years and six months", "2 years, 6 months": a duration and a smaller one after "and" or a comma are one; the
 * joined span is added to the parts (the entity pass keeps the longest).
 */
function joinParts(text: string, found: Candidate[]): Candidate[] {
  const byStart = [...found].sort((a, b) => a.start - b.start || b.end - a.end);
  const joined: Candidate[] = [];
  let last: Candidate | undefined;
  for (const c of byStart) {
    if (last && c.start < last.end) continue;
    if (last && /^(?:\s+and\s+|,\s*)$/u.test(text.slice(last.end, c.start))) {
      const big = unitRank(text.slice(last.start, last.end));
      const small = unitRank(text.slice(c.start, c.end));
      if (big > small && small >= 0) {
        last = { start: last.start, end: c.end, type: last.type };
        joined.push(last);
        continue;
      }
    }
    last = c;
  }
  return joined.length ? [...found, ...joined] : found;
}
