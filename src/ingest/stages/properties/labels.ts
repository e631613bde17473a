/**
 * Label matching: does a piece of a document ("Accident No.:", "MODEL/SERIES", "Seats") name the
 * property a user defined ("Accident Number", "Model Series", "Seat")? Tolerant of case,
 * punctuation, plurals, common abbreviations and small word-order changes.
 */

/** Abbreviations as they appear in forms, to the word the property label would use. */
const ABBREVIATIONS: Record<string, string[]> = {
  no: ['number'],
  nr: ['number'],
  nbr: ['number'],
  num: ['number'],
  '#': ['number'],
  amt: ['amount'],
  qty: ['quantity'],
  dt: ['date'],
  yr: ['year'],
  mfr: ['manufacturer'],
  mfg: ['manufacture'],
  manuf: ['manufacture'],
  reg: ['registration'],
  regn: ['registration'],
  cert: ['certificate'],
  acct: ['account'],
  addr: ['address'],
  tel: ['phone'],
  telephone: ['phone'],
  ph: ['phone'],
  inv: ['invoice'],
  ref: ['reference'],
  dept: ['department'],
  co: ['company'],
  corp: ['corporation'],
  eff: ['effective'],
  exp: ['expiration'],
  max: ['maximum'],
  min: ['minimum'],
  wt: ['weight'],
  sn: ['serial', 'number'],
  dob: ['date', 'birth'],
  organisation: ['organization'],
};

/** Words that do not tell labels apart ("Date of Birth" = "Birth Date"). */
const STOP_WORDS = new Set(['of', 'the', 'a', 'an', 'and', 'or', 'for', 'in', 'on', 'to', 'by', 'at', 's']);

/** Words that qualify an amount's label after it ("Amount Due") rather than naming another field. */
const PAYMENT_QUALIFIERS = new Set(['due', 'payable']);

/** Head words many labels share: a match on them alone says nothing ("Accident Number" is not "Serial Number"). */
const GENERIC = new Set(['number', 'date', 'time', 'name', 'type', 'total', 'amount', 'information', 'value', 'code', 'id', 'status', 'detail']);

/** Singular form, so "Seats" matches "Seat" and "Injuries" "Injury" (not "Gross", "Status", "Analysis"). */
function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ch|sh|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Label words, normalised: lower case, no accents, no punctuation, abbreviations expanded, singular, stop words out. */
export function labelWords(text: string): string[] {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\(s\)/g, '')
    .replace(/&/g, ' and ')
    .replace(/\bs\/n\b/g, ' sn ');
  const raw = plain.match(/#|[\p{L}\p{N}]+/gu) ?? [];
  const words = raw.flatMap((w) => ABBREVIATIONS[w] ?? [w]).map(singular);
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  // "Total Amount Due", "Balance Payable": a trailing word saying when it is paid does not change what the label names.
  while (meaningful.length > 1 && PAYMENT_QUALIFIERS.has(meaningful.at(-1)!)) meaningful.pop();
  return meaningful.length ? meaningful : words;
}

/** `Investigator In Charge (IIC)`: a trailing acronym of the words before it adds nothing. */
function withoutAcronym(text: string): string {
  const m = text.match(/^(.*\S)\s*\(([A-Z]{2,8})\)$/u);
  if (!m) return text;
  const initials = (m[1]!.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w[0]!.toUpperCase()).join('');
  return initials.endsWith(m[2]!) ? m[1]! : text;
}

/** The label without list numbering, a trailing acronym and the punctuation that ends it ("1.2 Tenant." → "Tenant"). */
export function bareLabel(text: string): string {
  const stripped = text
    .replace(/^\s*(?:(?:section|article|clause)\s+)?(?:\(?[0-9]+(?:\.[0-9]+)*[.)]?|\(?[a-z][.)]|\(?[ivx]+[.)])\s+/i, '')
    .replace(/[\s:.;,\-–—*]+$/u, '')
    .trim();
  return withoutAcronym(stripped);
}

function edits1(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** 1 for the same word, less for a truncation ("manuf"/"manufacturer") or a one-letter slip in a long word, else 0. */
function wordMatch(a: string, b: string): number {
  if (a === b) return 1;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && long.startsWith(short)) return 0.9;
  if (short.length >= 6 && edits1(a, b)) return 0.9;
  return 0;
}

/**
 * How well `candidate` (text from the document) names the property `label`, 0..1:
 * 1 for the same words in the same order, 0.92 in another order, about 0.5–0.7 when one label has
 * words the other lacks ("Certificate" vs "Airworthiness Certificate"), 0 when only generic words
 * ("Number") are shared.
 */
export function matchLabel(label: readonly string[], candidate: readonly string[]): number {
  if (!label.length || !candidate.length) return 0;
  const used = new Set<number>();
  let sum = 0;
  let matched = 0;
  let specific = false;
  let inOrder = true;
  let last = -1;
  for (const w of label) {
    let best = 0;
    let at = -1;
    candidate.forEach((c, i) => {
      if (used.has(i)) return;
      const m = wordMatch(w, c);
      if (m > best) {
        best = m;
        at = i;
      }
    });
    if (at < 0) continue;
    used.add(at);
    sum += best;
    matched++;
    if (!GENERIC.has(w)) specific = true;
    if (at < last) inOrder = false;
    last = at;
  }
  // A label made only of generic words ("Name", "Date") must be matched whole to count.
  const onlyGeneric = label.every((w) => GENERIC.has(w));
  if (!matched || !(specific || (onlyGeneric && matched === label.length))) return 0;
  const quality = sum / matched;
  if (matched === label.length && matched === candidate.length) return quality * (inOrder ? 1 : 0.92);
  const coverage = (matched / label.length) * (matched / candidate.length);
  return quality * (0.4 + 0.3 * coverage);
}

/** A coarse picture of a value, for comparing values across documents: "DEN08WA037" → "AAA00AA000". */
export function valueShape(value: string): string {
  const exact = value.replace(/\p{Lu}/gu, 'A').replace(/\p{Ll}/gu, 'a').replace(/\p{N}/gu, '0');
  // Long values only keep their runs: "Cirrus Design Corp." → "Aa Aa Aa.".
  return exact.length <= 16 ? exact : exact.replace(/(.)\1+/g, '$1');
}

/** Shapes of the same kind of value: equal, or of one length with one character class differing ("A0000A", "A00000"). */
export function shapesAlike(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  let differences = 0;
  for (let i = 0; i < a.length && differences <= 1; i++) if (a[i] !== b[i]) differences++;
  return differences <= 1;
}
