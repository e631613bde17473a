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
