/** CSV as RFC 4180 says (CRLF line ends, quoted fields), UTF-8 with a BOM so Excel reads it as UTF-8. */

const BOM = '\uFEFF';

/** One field: quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The whole file; `null` fields are empty. */
export function toCsv(rows: Iterable<readonly (string | null)[]>): Buffer {
  const lines: string[] = [];
  for (const row of rows) lines.push(row.map((v) => csvField(v ?? '')).join(','));
  return Buffer.from(BOM + lines.map((l) => l + '\r\n').join(''), 'utf8');
}
