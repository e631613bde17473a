/** Calendar dates: "November 4, 2023", "4 November 2023", "the 4th day of November, 2023", "April 2022", "11/04/2023", "2023-11-04". */
import { type Candidate, matchesOf, regex, WORD_START } from './candidate.js';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_ABBREVIATIONS = ['Jan.', 'Feb.', 'Mar.', 'Apr.', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];
/** Capitalised or all caps only: a lower-case "may" is the verb. */
const MONTH = `(?:${[...MONTH_NAMES, ...MONTH_NAMES.map((m) => m.toUpperCase()), ...MONTH_ABBREVIATIONS]
  .map((m) => m.replace('.', String.raw`\.`))
  .join('|')})`;
const DAY = String.raw`(?:[12]\d|3[01]|0?[1-9])`;
const ORDINAL = String.raw`(?:st|nd|rd|th|ST|ND|RD|TH)`;
const YEAR = String.raw`(?:1[89]|20)\d{2}(?!\p{N})`;

const NAMED = [
  regex('gu', WORD_START, MONTH, String.raw`\s${DAY}${ORDINAL}?,?\s${YEAR}`),
  regex('gu', WORD_START, DAY, ORDINAL, String.raw`?\s`, MONTH, String.raw`,?\s${YEAR}`),
  regex('gu', WORD_START, DAY, ORDINAL, String.raw`\sday\sof\s`, MONTH, String.raw`,?\s${YEAR}`),
  regex('gu', WORD_START, MONTH, String.raw`,?\s${YEAR}`),
];

const SLASHED = regex('gu', String.raw`(?<![\p{L}\p{N}/.-])(?<a>\d{1,2})/(?<b>\d{1,2})/(?<y>\d{4}|\d{2})(?![\p{N}/])`);
const ISO = regex('gu', String.raw`(?<![\p{L}\p{N}/.-])(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\p{N}/-])`);

/** Month/day in either order (US or European), with a plausible year. */
function plausibleSlashed(m: RegExpExecArray): boolean {
  const a = Number(m.groups?.a);
  const b = Number(m.groups?.b);
  const y = m.groups?.y ?? '';
  if (y.length === 4 && !/^(?:1[89]|20)/.test(y)) return false;
  const dayMonth = (d: number, mo: number): boolean => mo >= 1 && mo <= 12 && d >= 1 && d <= 31;
  return dayMonth(b, a) || dayMonth(a, b);
}

export function findDates(text: string): Candidate[] {
  // Every form has a run of at least two digits (the year); most leaves have none.
  if (!/\d\d/u.test(text)) return [];
  return [
    ...NAMED.flatMap((re) => matchesOf(text, re, 'Date')),
    ...matchesOf(text, SLASHED, 'Date', { accept: plausibleSlashed }),
    ...matchesOf(text, ISO, 'Date'),
  ];
}

