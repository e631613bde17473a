/** US states and street addresses. */
import { type Candidate, matchesOf, regex, WORD_END, WORD_START } from './candidate.js';

export const US_STATES = [
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware', 'Florida', 'Georgia',
  'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine', 'Maryland',
  'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire', 'New Jersey',
  'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania', 'Rhode Island', 'South Carolina',
  'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont', 'Virginia', 'Washington', 'West Virginia', 'Wisconsin', 'Wyoming',
];
const STATE_NAMES = new Set(US_STATES.map((s) => s.toLowerCase()));
/** Whether words are a US state's name, in any case ("NEW YORK", "Delaware"). */
export const isStateName = (words: string): boolean => STATE_NAMES.has(words.toLowerCase());
/** Also a city, a person's or a country's name: tagged only where the context says "state". */
const AMBIGUOUS_STATES = new Set(['Washington', 'New York', 'Georgia', 'Virginia', 'Indiana', 'Montana', 'Tennessee', 'Nevada']);
const POSTAL_CODES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';

const byLengthDesc = (a: string, b: string): number => b.length - a.length;
const STATE_NAME = `(?:${[...US_STATES].sort(byLengthDesc).join('|').replaceAll(' ', String.raw`\s`)})`;
const STATE = `(?:${STATE_NAME}|${POSTAL_CODES})`;
const ZIP = String.raw`\d{5}(?:-\d{4})?(?!\p{N})`;

/** Words that turn a state's name into part of another name: "Kansas City", "Colorado River". */
const PLACE_WORDS = String.raw`(?:City|County|River|Springs|Beach|Bay|Lake|Valley|Mountains?|Territory|University|Avenue|Street|Boulevard|Road)${WORD_END}`;
/** Business forms after a state's name: "a Delaware corporation", "New York law". */
const STATE_USE = String.raw`(?:corporation|corp\.|limited\sliability\scompany|limited\spartnership|general\spartnership|statutory\strust|nonprofit|not-for-profit|professional\scorporation|LLC|law|laws|statutes?|courts?)${WORD_END}`;

const STATE_MENTION = regex('gu', WORD_START, STATE_NAME, WORD_END);
const PLACE_WORD_AFTER = regex('u', String.raw`^\s`, PLACE_WORDS);
const STATE_USE_AFTER = regex('iu', String.raw`^\s`, STATE_USE);
const STATE_OF_BEFORE = /(?:state|commonwealth) of\s$/iu;

/**
 * A state's full name, unless it is part of another name: not right after a capitalised word
 * ("George Washington", "Lake Michigan") and not before one ("Indiana Jones", "Texas Instruments")
 * unless that is a business form ("a Washington Corporation"). Ambiguous names need a state
 * context: "State of X", "City, X" or a business form after them.
 */
function acceptState(text: string, m: RegExpExecArray): boolean {
  const start = m.index;
  const end = start + m[0].length;
  const before = text.slice(Math.max(0, start - 40), start);
  const after = text.slice(end, end + 40);
  if (/^,?\s?D\.C\./u.test(after) || PLACE_WORD_AFTER.test(after)) return false;
  const usedAsState = STATE_USE_AFTER.test(after);
  if (/^\s\p{Lu}\p{Ll}/u.test(after) && !usedAsState) return false;
  const previousWord = /(\S+)\s$/u.exec(before)?.[1] ?? '';
  const afterCity = /^\p{Lu}.*,$/u.test(previousWord);
  if (/^\p{Lu}/u.test(previousWord) && !afterCity) return false;
  if (STATE_OF_BEFORE.test(before)) return true;
  if (!AMBIGUOUS_STATES.has(m[0].replace(/\s/gu, ' '))) return true;
  return afterCity || usedAsState;
}

/** "Phoenix, AZ 85004" outside a full address: only the postal code is a state. */
const POSTAL_IN_CITY_LINE = regex('gu', WORD_START, String.raw`\p{Lu}[\p{L}.'’-]{0,30},\s(?<code>${POSTAL_CODES})\s${ZIP}`);

const HOUSE = String.raw`(?<![\p{L}\p{N}.,/$#-])\d{1,6}(?:-\d{1,5})?[A-Z]?`;
const DIRECTION = String.raw`(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?`;
const STREET_WORD = String.raw`(?:\p{Lu}[\p{L}'’-]{0,25}|\d{1,4}(?:st|nd|rd|th))`;
/** Suffixes that make "number + capitalised words + suffix" an address on their own. */
const STRONG_SUFFIX = String.raw`(?:Street|St\.?|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Lane|Ln\.?|Drive|Dr\.?|Parkway|Pkwy\.?|Highway|Hwy\.?)`;
/** Suffixes that also end other names ("2020 Supreme Court"): need a city and state after them. */
const WEAK_SUFFIX = String.raw`(?:Court|Ct\.?|Place|Pl\.?|Way|Terrace|Circle|Cir\.?|Trail|Square|Plaza|Row|Alley|Crescent|Pike|Turnpike|Expressway|Freeway)`;
const ROUTE = String.raw`(?:Route|Rt\.?|Rte\.?|Highway|Hwy\.?|State\sRoute|County\sRoad)\s\d{1,4}${WORD_END}`;
const UNIT = String.raw`(?:,?\s(?:(?:Suite|Ste\.|Unit|Apt\.|Floor|Room|#)\s?[\p{L}\p{N}-]{1,6}|\d{1,3}(?:st|nd|rd|th)\sFloor)${WORD_END})`;
/** A bank's mail code between the street and the city: "AZ1-1178", "Mail Code: NY1-0001", "MAC N9303-110". */
const MAIL_CODE = String.raw`(?:,\s(?:(?:Mail\s(?:Code|Stop)|MAC)[:\s]\s?)?[A-Z]{1,4}\d{0,4}-\d{2,6}(?:-\d{1,6})?${WORD_END})`;
const CITY = String.raw`\p{Lu}[\p{L}'’.-]{1,25}(?:\s\p{Lu}[\p{L}'’.-]{1,25}){0,2}`;
const ADDRESS = regex(
  'gu',
  HOUSE,
  String.raw`\s(?:${DIRECTION}\s)?(?:(?:${STREET_WORD}\s){1,3}(?:(?<strong>${STRONG_SUFFIX})|${WEAK_SUFFIX})(?:\s${DIRECTION})?|${ROUTE})`,
  WORD_END,
  `${UNIT}?`,
  `${MAIL_CODE}?`,
  // The city after a comma, or on the same line after the street ("19300 International Boulevard Seattle, WA 98188"): a state follows either way.
  String.raw`(?<tail>,?\s${CITY}(?:,\s|\s)${STATE}${WORD_END}(?:,?\s${ZIP})?)?`,
);

export function findStates(text: string): Candidate[] {
  return [
    ...matchesOf(text, STATE_MENTION, 'USState', { accept: (m) => acceptState(text, m) }),
    ...(/\d{5}/u.test(text) ? matchesOf(text, POSTAL_IN_CITY_LINE, 'USState', { group: 'code' }) : []),
  ];
}

/** "123 Main Street Associates LLC": capitalised words and a firm's suffix after a street make it a firm's name. */
const FIRM_AFTER = /^\s(?:\p{Lu}[\p{L}'’&-]*\s){0,3}(?:LLC|L\.L\.C\.|LLP|LP|L\.P\.|Inc\.?|Corp\.?|Ltd\.?|Associates|Partners|Holdings|Company|Corporation)(?![\p{L}\p{N}])/u;

/** A house number, street and suffix; with a weak suffix or a route only when city and state follow. */
export function findAddresses(text: string): Candidate[] {
  if (!/\d/u.test(text)) return [];
  return matchesOf(text, ADDRESS, 'Address', { accept: (m) => Boolean(m.groups?.tail ?? m.groups?.strong) && !(m.groups?.tail === undefined && FIRM_AFTER.test(text.slice(m.index + m[0].length))) });
}
