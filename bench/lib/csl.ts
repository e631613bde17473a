// The contract snippets with human labels (CSL, ../shared/corpus/contracts): rows read from the
// shared corpus at run time (never copied into the repository), and the comparison its README sets.
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../../test/helpers/quire.js';

export const CONTRACTS = path.join(CORPUS, 'contracts');

export interface SmallRow {
  split: 'train' | 'eval-dev';
  text: string;
  /** The labelled span (the value of the property named by `label`). */
  chunk: string;
  label: string;
  /** Docugami's own model's label for the span, beside the human one. */
  docugami: string;
}

export interface LargeRow {
  split: 'train' | 'eval-dev';
  text: string;
  label: string;
  docugami: string;
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

function records(file: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(fs.readFileSync(path.join(CONTRACTS, file), 'utf8'));
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

export function smallRows(split?: SmallRow['split']): SmallRow[] {
  return records('csl-small-dev.csv')
    .map((r) => ({ split: r.split as SmallRow['split'], text: r.Text!, chunk: r['Small Chunk']!, label: r['Ground Truth']!, docugami: r['docugami/dfm-cs-small'] ?? '' }))
    .filter((r) => !split || r.split === split);
}

export function largeRows(split?: LargeRow['split']): LargeRow[] {
  return records('csl-large-dev.csv')
    .map((r) => ({ split: r.split as LargeRow['split'], text: r.Text!, label: r['Ground Truth']!, docugami: r['docugami/dfm-csl-large'] ?? '' }))
    .filter((r) => !split || r.split === split);
}

/** Labels with this many rows or more in a row set are "recurring" (a docset a team would define). */
export const RECURRING_ROWS = 4;

export function recurringLabels(rows: readonly { label: string }[]): Set<string> {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n >= RECURRING_ROWS).map(([l]) => l));
}

/** A value as the README compares it: whitespace collapsed, case folded, surrounding quotes and punctuation off. */
export function comparableValue(v: string): string {
  return v
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/^[\s"'“”‘’`(\[{,;:.]+|[\s"'“”‘’`)\]},;:.]+$/gu, '')
    .trim();
}

export function sameValue(a: string | null | undefined, b: string): boolean {
  return a != null && comparableValue(a) === comparableValue(b);
}

function tokens(v: string): string[] {
  return comparableValue(v).match(/[\p{L}\p{N}$%]+/gu) ?? [];
}

/** Token F1 of a value against the labelled span (0 when no value). */
export function tokenF1(got: string | null | undefined, want: string): number {
  if (got == null) return 0;
  const a = tokens(got);
  const b = tokens(want);
  if (!a.length || !b.length) return a.length === b.length ? 1 : 0;
  const left = new Map<string, number>();
  for (const t of b) left.set(t, (left.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of a) {
    const n = left.get(t) ?? 0;
    if (n > 0) {
      common++;
      left.set(t, n - 1);
    }
  }
  if (!common) return 0;
  const p = common / a.length;
  const r = common / b.length;
  return (2 * p * r) / (p + r);
}

/** A label as the semantic-labels comparison reads it: case, spaces and punctuation ignored. */
export function comparableLabel(label: string): string {
  return label.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
