/**
 * A form's label alone on its line, as text taken from a form sets a field over its value ("Aircraft
 * Make:" over "Cirrus Design Corp."): a few words opening on a capital and ending in a colon. A
 * signature's line ("By:", "Its:", "Signature:") is not one: what follows it is a blank left for a hand,
 * then whatever comes next.
 */
const LONE_LABEL = /^\s*\p{Lu}[^:]*:\s*$/u;
const SIGNATURE_LINE = /(?:^|\s)(?:by|its|signature|signed|sign|attest|witness|per)\s*:\s*$/iu;
export const MAX_LONE_LABEL_WORDS = 6;

/** The label's words without its colon, or null when the line is not a lone label. */
export function loneLabelWords(line: string): string | null {
  if (!LONE_LABEL.test(line) || SIGNATURE_LINE.test(line)) return null;
  const words = line.trim().replace(/\s*:$/u, '');
  return words.length <= 60 && words.split(/\s+/u).length <= MAX_LONE_LABEL_WORDS ? words : null;
}

/** A value set on the line under its label is a few words ("Cirrus Design Corp.", "N141CD", "Airplane"). */
export const MAX_STACKED_VALUE_WORDS = 6;

/**
 * A line that can be the value under a lone label: a few words, no label itself, and not a title in
 * capitals ("COVERAGE EXTENSION:" over "LIMITS OF INSURANCE" are a table's two column heads); one word in
 * capitals ("CEO", "N141CD") or a line with a figure is a value all the same.
 */
export function mayBeStackedValue(line: string): boolean {
  const text = line.trim();
  const words = text.split(/\s+/u);
  if (!/[\p{L}\p{N}]/u.test(text) || words.length > MAX_STACKED_VALUE_WORDS || text.includes(':')) return false;
  return words.length === 1 || /\p{N}/u.test(text) || /\p{Ll}/u.test(text);
}

/**
 * A form's label set without a colon ("Policy Number", "Insuring Company", "Business Income ALS"): a few
 * words, each opening on a capital but for joining words, with a small letter somewhere (a line all in
 * capitals is a value or a title) and no figure.
 */
const BARE_LABEL = /^\p{Lu}[\p{L}'’.&/()]*(?:\s+(?:\p{Lu}[\p{L}'’.&/()]*|[-–&/]|of|and|or|to|for|per|in|on|by|the))*$/u;
const MAX_BARE_LABEL_WORDS = 5;
const MAX_BARE_LABEL_CHARS = 60;

export function bareLabelWords(line: string): string | null {
  const text = line.trim();
  if (text.length > MAX_BARE_LABEL_CHARS || !BARE_LABEL.test(text) || !/\p{Ll}/u.test(text) || /[.]$/u.test(text) || text.split(/\s+/u).length > MAX_BARE_LABEL_WORDS) return null;
  return text;
}

/** A value under a bare label shows itself as one: a figure, or capitals ("THE INSURANCEA INDEMNITY COMPANY", "YES", "N/A"). */
function isBareValue(line: string): boolean {
  const text = line.trim();
  return /[\p{L}\p{N}]/u.test(text) && !text.includes(':') && text.split(/\s+/u).length <= MAX_STACKED_VALUE_WORDS && (/\p{N}/u.test(text) || !/\p{Ll}/u.test(text));
}

/** Bare labels alternating with their values this many times make a form; fewer is a title over a line, or chance. */
const MIN_BARE_FIELDS = 3;

/**
 * The label lines (their indices) of a form set one field per line without colons, as text taken from a
 * form's columns reads ("Policy Number" / "BA-001" / "Effective" / "05/29/2021 – 05/29/2022" / "Insuring
 * Company" / "THE INSURANCEA INDEMNITY COMPANY"): label and value lines alternating MIN_BARE_FIELDS times
 * or more. `undefined` is a line that is no paragraph (a table, a list): it breaks a run. A run whose every
 * value is a whole number, each larger than the last, is a table of contents' titles and their pages.
 */
export function bareLabelLines(lines: readonly (string | undefined)[]): Set<number> {
  const out = new Set<number>();
  let i = 0;
  while (i < lines.length) {
    let j = i;
    while (j + 1 < lines.length && lines[j] !== undefined && lines[j + 1] !== undefined && bareLabelWords(lines[j]!) !== null && isBareValue(lines[j + 1]!)) j += 2;
    const pairs = (j - i) / 2;
    if (pairs >= MIN_BARE_FIELDS) {
      const values: string[] = [];
      for (let k = i + 1; k < j; k += 2) values.push(lines[k]!);
      if (!arePages(values)) for (let k = i; k < j; k += 2) out.add(k);
    }
    i = pairs > 0 ? j : i + 1;
  }
  return out;
}

function arePages(values: readonly string[]): boolean {
  const numbers = values.map((v) => (/^\d{1,4}$/u.test(v.trim()) ? Number(v.trim()) : NaN));
  return numbers.every((n, k) => Number.isFinite(n) && (k === 0 || n > numbers[k - 1]!));
}
