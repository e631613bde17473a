import type { PageModel } from '../../../document/pages.js';
import { parseHeadingNumber, parseMarker } from '../../../document/markers.js';
import { bandsBetween, type CellDraft, type TableDraft } from './draft.js';
import { isLabel, PHRASE_GAP } from './form.js';
import { phrases, textLines, type Phrase, type TextLine } from './text-lines.js';

/** Rows of such a form may be this many line heights apart (a blank line between fields, and some). */
const MAX_ROW_GAP = 3;
/** Labels, and values with their wrapped lines, start within this many line heights of each other. */
const COLUMN_SLACK = 0.5;
const MAX_LABEL_WORDS = 6;
const MIN_ROWS = 3;

interface Field {
  label: Phrase;
  value: Phrase[];
  top: number;
  bottom: number;
  /** The label line's height. */
  em: number;
}

const never = (): boolean => false;

/**
 * Forms of a label column beside a value column, without rules: "Title" (bold) and "Comparison of
 * outcomes…" over two lines, then "Principal Investigator" and its value, and so on. Each label is
 * set apart (bold beside a plain value, or ending in ":") and shares its line with the start of its
 * value; a value's further lines start under it. At least three such fields, one below the other.
 */
export function labelColumnForms(page: PageModel, free: readonly boolean[]): TableDraft[] {
  // Labels and values read across; a note set sideways is neither.
  const indices = page.items.map((_, i) => i).filter((i) => free[i] && !page.items[i]!.dir);
  const drafts: TableDraft[] = [];
  let fields: Field[] = [];
  const flush = (): void => {
    if (fields.length >= MIN_ROWS && !valuesRunOn(fields)) drafts.push(formDraft(fields));
    fields = [];
  };
  for (const line of textLines(page, indices)) {
    const ps = phrases(page, line, PHRASE_GAP);
    const height = line.bottom - line.top;
    const last = fields[fields.length - 1];
    if (last && line.top - last.bottom > MAX_ROW_GAP * height) flush();
    const open = fields[fields.length - 1];
    const slack = COLUMN_SLACK * height;
    if (open && ps.length === 1 && Math.abs(ps[0]!.left - open.value[0]!.left) <= slack) {
      open.value.push(ps[0]!);
      open.bottom = line.bottom;
      continue;
    }
    const field = fieldOf(page, line, ps);
    const first = fields[0];
    if (field && first && (Math.abs(field.label.left - first.label.left) > slack || Math.abs(field.value[0]!.left - first.value[0]!.left) > slack)) flush();
    if (field) fields.push(field);
    else flush();
  }
  flush();
  return drafts;
}

function fieldOf(page: PageModel, line: TextLine, ps: Phrase[]): Field | null {
  if (ps.length !== 2) return null;
  const [label, value] = ps as [Phrase, Phrase];
  if (label.text.split(' ').length > MAX_LABEL_WORDS || parseMarker(label.text, never) || parseHeadingNumber(label.text)) return null;
  // A label that stops at "and" or a comma is the first line of a longer text ("Bureau of Arms Control, Verification and").
  if (UNFINISHED_RE.test(label.text)) return null;
  if (!isLabel(label.text) && !(mostlyBold(page, label) && !mostlyBold(page, value))) return null;
  return { label, value: [value], top: line.top, bottom: line.bottom, em: line.bottom - line.top };
}

/** Text that stops where it cannot end: at a comma, a dash or "&", or after "and", "of", "the"… */
export const UNFINISHED_RE = /(?:[,;&–-]|\b(?:and|or|of|the|for|to|in|on|with|a|an))$/;

function mostlyBold(page: PageModel, p: Phrase): boolean {
  let bold = 0;
  let all = 0;
  for (const i of p.items) {
    const it = page.items[i]!;
    all += it.text.length;
    if (it.bold) bold += it.text.length;
  }
  return bold > all / 2;
}

/**
 * A value that reads on into the next field's is a column of running text beside the labels: it ends
 * mid-sentence ("… of the" / "public health…"), or its last line fills the column without a stop.
 */
function valuesRunOn(fields: Field[]): boolean {
  const right = Math.max(...fields.flatMap((f) => f.value.map((p) => p.right)));
  for (let k = 0; k + 1 < fields.length; k++) {
    const last = fields[k]!.value[fields[k]!.value.length - 1]!;
    const next = fields[k + 1]!.value[0]!.text;
    if (/[\p{Ll},-]$/u.test(last.text) && /^\p{Ll}/u.test(next)) return true;
    if (fields[k]!.value.length > 1 && right - last.right < fields[k]!.em && !/[.!?:]$/.test(last.text)) return true;
  }
  return false;
}

function formDraft(fields: Field[]): TableDraft {
  const pad = Math.min(...fields.map((f) => f.em)) / 2;
  const labelLeft = Math.min(...fields.map((f) => f.label.left)) - pad;
  const valueLeft = Math.min(...fields.flatMap((f) => f.value.map((p) => p.left))) - pad;
  const right = Math.max(...fields.flatMap((f) => f.value.map((p) => p.right))) + pad;
  const bands = bandsBetween(fields, pad);
  const cells: CellDraft[] = fields.flatMap((f, row) => [
    { row, col: 0, rowspan: 1, colspan: 1, box: { left: labelLeft, right: valueLeft, ...bands[row]! }, items: f.label.items, role: 'label' as const },
    { row, col: 1, rowspan: 1, colspan: 1, box: { left: valueLeft, right, ...bands[row]! }, items: f.value.flatMap((p) => p.items), role: 'value' as const },
  ]);
  return { source: 'form', bounds: { left: labelLeft, right, top: bands[0]!.top, bottom: bands[bands.length - 1]!.bottom }, rowBands: bands, cells };
}
