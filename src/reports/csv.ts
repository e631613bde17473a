/** CSV as RFC 4180 says (CRLF line ends, quoted fields), UTF-8 with a BOM so Excel reads it as UTF-8. */

const BOM = '\uFEFF';

/** A spreadsheet takes a cell starting with one of these for a formula (or, tab and CR, hides it). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain negative number (-12, -0.5, -1,234.56): a spreadsheet reads it as that number and nothing else. */
const NEGATIVE_NUMBER = /^-(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

/**
 * A cell's text made safe against formula injection (OWASP's CSV injection advice): text from a
 * document that starts with `=`, `+`, `-`, `@`, a tab or a CR is prefixed with `'`, which spreadsheets
 * show as text and do not evaluate. A plain negative number stays as it is, still a number.
 */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
}

/** One field: neutralized, then quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
export function csvField(value: string): string {
  const safe = neutralizeFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The whole file; `null` fields are empty. */
export function toCsv(rows: Iterable<readonly (string | null)[]>): Buffer {
  const lines: string[] = [];
  for (const row of rows) lines.push(row.map((v) => csvField(v ?? '')).join(','));
  return Buffer.from(BOM + lines.map((l) => l + '\r\n').join(''), 'utf8');
}
