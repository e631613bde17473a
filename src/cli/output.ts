/** Human tables (columns padded, two spaces apart) and the JSON printed for scripts. */

export type Row = Record<string, unknown>;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/[\r\n\t]+/g, ' ');
}

/** A table with a header line; `(none)` for no rows. Columns are those of the first row. */
export function table(rows: Row[], columns?: string[]): string {
  if (rows.length === 0) return '(none)';
  const cols = columns ?? Object.keys(rows[0]!);
  const text = rows.map((r) => cols.map((c) => cell(r[c])));
  const widths = cols.map((c, i) => Math.max(c.length, ...text.map((t) => t[i]!.length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(cols), ...text.map(line)].join('\n');
}

/** Prints to stdout: the value as JSON under `--json`, else the human rendering. */
export function emit(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/** `key: value` lines for one resource. */
export function details(fields: Row): string {
  const width = Math.max(...Object.keys(fields).map((k) => k.length));
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${`${k}:`.padEnd(width + 2)}${cell(v)}`)
    .join('\n');
}

export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** Line on stderr (notes and progress never go to stdout, which stays parseable). */
export function note(msg: string): void {
  process.stderr.write(`${msg}\n`);
}
