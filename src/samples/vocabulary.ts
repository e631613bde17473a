import type { Rng } from './prng.js';

// Invented names, places and formats the generators draw from. Every company is a made-up pairing
// of two words, not a real business.

const COMPANY_FIRST = [
  'Alder', 'Brightwater', 'Cobalt', 'Driftwood', 'Emberline', 'Fairhaven', 'Granite Peak', 'Harborview', 'Ironbark', 'Juniper',
  'Keystone Ridge', 'Larkspur', 'Meridian Bay', 'Nimbus', 'Oakhollow', 'Pinecrest', 'Quillfeather', 'Redfern', 'Silverbirch', 'Tidewater',
  'Upland', 'Vantage Hill', 'Willowmere', 'Yellowpine', 'Zephyr Creek',
];
const COMPANY_SECOND = [
  'Analytics', 'Logistics', 'Biosciences', 'Systems', 'Manufacturing', 'Foods', 'Energy', 'Robotics', 'Textiles', 'Software',
  'Materials', 'Medical Devices', 'Packaging', 'Data Labs', 'Outfitters', 'Aerospace',
];
const COMPANY_FORM = ['Inc.', 'LLC', 'Corp.', 'Ltd.', 'Co.'];

export const STATES = ['Delaware', 'New York', 'California', 'Texas', 'Washington', 'Illinois', 'Massachusetts', 'Colorado', 'Oregon', 'Georgia'];

const STREETS = ['Harbor Street', 'Maple Avenue', 'Industrial Parkway', 'Commerce Drive', 'Riverside Road', 'Summit Boulevard', 'Foundry Lane', 'Market Street'];
/** Cities with their state's postal abbreviation and a plausible ZIP prefix. */
const CITIES: [city: string, state: string, zip: string][] = [
  ['Portland', 'OR', '972'], ['Denver', 'CO', '802'], ['Austin', 'TX', '787'], ['Columbus', 'OH', '432'], ['Raleigh', 'NC', '276'],
  ['Madison', 'WI', '537'], ['Boise', 'ID', '837'], ['Albany', 'NY', '122'], ['Tacoma', 'WA', '984'], ['Savannah', 'GA', '314'],
];
const FIRST_NAMES = ['Avery', 'Jordan', 'Morgan', 'Riley', 'Casey', 'Taylor', 'Quinn', 'Rowan', 'Harper', 'Emerson', 'Dana', 'Reese'];
const LAST_NAMES = ['Calloway', 'Whitfield', 'Okafor', 'Lindqvist', 'Marchetti', 'Haddad', 'Novak', 'Delacroix', 'Brennan', 'Iwasaki', 'Castellanos', 'Thorne'];
export const OFFICER_TITLES = ['Chief Executive Officer', 'General Counsel', 'Chief Operating Officer', 'Vice President, Operations', 'Chief Financial Officer'];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** Distinct company names. */
export function companies(rng: Rng, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) names.add(`${rng.pick(COMPANY_FIRST)} ${rng.pick(COMPANY_SECOND)} ${rng.pick(COMPANY_FORM)}`);
  return [...names];
}

export function person(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export function address(rng: Rng): string {
  const [city, state, zip] = rng.pick(CITIES);
  return `${rng.int(100, 9899)} ${rng.pick(STREETS)}, ${city}, ${state} ${zip}${String(rng.int(1, 99)).padStart(2, '0')}`;
}

/** A calendar date as UTC midnight, so arithmetic and formatting never depend on the host's zone. */
export function date(rng: Rng, fromYear: number, toYear: number): Date {
  return new Date(Date.UTC(rng.int(fromYear, toYear), rng.int(0, 11), rng.int(1, 28)));
}

export function addDays(d: Date, days: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days));
}

export function addMonths(d: Date, months: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate()));
}

/** "March 4, 2024" */
export function longDate(d: Date): string {
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "two (2) years", as contracts spell durations. */
export function spelledDuration(n: number, unit: string): string {
  return `${NUMBER_WORDS[n] ?? String(n)} (${n}) ${unit}${n === 1 ? '' : 's'}`;
}

/** 1234.5 -> "1,234.50" (amounts are whole cents). */
export function money(amount: number): string {
  const cents = Math.round(amount * 100);
  const whole = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole}.${String(cents % 100).padStart(2, '0')}`;
}
