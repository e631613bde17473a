/**
 * Form values named by their labels: in a key/value table (the NTSB reports' "Registration:" |
 * "N3250B"), the value beside a label cell is wrapped as `<docset:Registration>N3250B</docset:Registration>`,
 * as Docugami's DGML does (in the reference NTSB files, 92 of 96 value cells carry their label's name).
 * A property over the same words replaces the name (src/document/tag.ts), as it does a role's.
 */
import type { Leaf, StructureNode, Table, TableCell } from '../../document/structure.js';
import { sectionName } from '../../document/writers/dgml.js';
import { trimValue } from './properties/found.js';
import { isLabel } from './tables/form.js';

/** A label names its value only when it reads as a name: a few words, starting with a letter. */
const MAX_LABEL_WORDS = 6;
/** A value this long is running text under a label, not a field's value. */
const MAX_VALUE_WORDS = 40;

/**
 * A cell as a label: marked so by the table stage (a form found by its geometry), or "Label:" in any
 * table (a DOCX or HTML form has no geometry to mark it).
 */
function labelOf(cell: TableCell): string | null {
  const text = cell.leaf.text.trim();
  if (cell.role !== 'label' && !isLabel(text)) return null;
  const words = text.replace(/:\s*$/u, '').trim();
  // "Solutions : DOS Lead Agency": two phrases run together, no one label.
  if (!/^\p{L}/u.test(words) || words.includes(':') || words.split(/\s+/u).length > MAX_LABEL_WORDS) return null;
  return words;
}

/**
 * A row of fields: each filled cell a label or the value right after one. A row with any other cell
 * ("COVERAGE EXTENSION:" | "LIMITS OF INSURANCE" | "" | "REVISED LIMITS OF INSURANCE") is a table's
 * header or a row label over several figures, whose first figure is not the label's value alone.
 */
function isFieldRow(cells: readonly TableCell[]): boolean {
  return cells.every((c, i) => !c.leaf.text.trim() || labelOf(c) !== null || (i > 0 && labelOf(cells[i - 1]!) !== null));
}

/**
 * The value's span as a property's form-cell finder reads it (trimValue: separators and a sentence's
 * full stop left out, an abbreviation's kept: "Cirrus Design Corp."); null where the value is blank,
 * long running text, or a property or another name already holds its words.
 */
function valueRange(leaf: Leaf): { start: number; end: number } | null {
  const range = trimValue(leaf.text, 0, leaf.text.length);
  if (!range) return null;
  const value = leaf.text.slice(range.start, range.end);
  if (!/[\p{L}\p{N}]/u.test(value) || value.split(/\s+/u).length > MAX_VALUE_WORDS) return null;
  // A blank field's defined term ("Name:" | "(the “Participant”)"), or a sentence run on from elsewhere ("organizations’ carbon emissions.").
  if (/^\((?:the\s+)?[“"‘']/iu.test(value) || /^\p{Ll}\S*\s/u.test(value)) return null;
  if (leaf.spans?.some((s) => s.tag.kind !== 'entity' && s.start < range.end && range.start < s.end)) return null;
  return range;
}

function tagTable(table: Table): void {
  for (const row of table.rows) {
    // The table stage marks a form found by its geometry; other tables are read by their colons, row by row.
    if (!row.cells.some((c) => c.role) && !isFieldRow(row.cells)) continue;
    row.cells.forEach((cell, i) => {
      const label = labelOf(cell);
      const value = row.cells[i + 1];
      if (!label || !value || labelOf(value) !== null) return;
      const range = valueRange(value.leaf);
      if (!range) return;
      const name = sectionName(label);
      value.leaf.spans = [{ ...range, tag: { kind: 'label' as const, name } }, ...(value.leaf.spans ?? [])].sort(
        (a, b) => a.start - b.start || b.end - a.end,
      );
    });
  }
}

/** Names the value cells of every key/value table in the structure by their labels. */
export function tagFormValues(nodes: readonly StructureNode[]): void {
  for (const n of nodes) {
    if (n.type === 'table') tagTable(n);
    else if (n.type === 'section') tagFormValues(n.children);
    else if (n.type === 'list') for (const item of n.items) tagFormValues(item.children);
  }
}
