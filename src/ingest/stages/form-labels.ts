/**
 * Form values named by their labels: in a key/value table (the NTSB reports' "Registration:" |
 * "N3250B"), the value beside a label cell is wrapped as `<docset:Registration>N3250B</docset:Registration>`,
 * as Docugami's DGML does (in the reference NTSB files, 92 of 96 value cells carry their label's name);
 * a table of records under a header row, each cell by its column's header; and a line of fields
 * ("Start Date: 2021-10-01"). A property over the same words replaces the name (src/document/tag.ts),
 * as it does a role's.
 */
import type { Leaf, Paragraph, Span, StructureNode, Table, TableCell } from '../../document/structure.js';
import { bareLabelLines, loneLabelWords, mayBeStackedValue } from '../../document/form-fields.js';
import { BLANK_FIELD_SUFFIX } from '../../document/label-summary.js';
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

/** Adds found names to a leaf's spans, kept in text order (an outer span before the entity it holds). */
function addNames(leaf: Leaf, names: readonly Span[]): void {
  if (names.length) leaf.spans = [...names, ...(leaf.spans ?? [])].sort((a, b) => a.start - b.start || b.end - a.end);
}

const isParty = (cell: TableCell) => cell.leaf.spans?.some((s) => s.tag.kind === 'entity' && (s.tag.type === 'Org' || s.tag.type === 'Person')) ?? false;

function tagTable(table: Table): void {
  for (const row of table.rows) {
    // The table stage marks a form found by its geometry; other tables are read by their colons, row by row.
    if (!row.cells.some((c) => c.role) && !isFieldRow(row.cells)) continue;
    // A signature table's row of parties ("DOCUGAMI INC.:" | "Caleb Divine:"): where one label is a party's name, the
    // others beside it are parties too (a person's name the entity pass did not know), not blank fields.
    const parties = row.cells.some((c) => labelOf(c) !== null && isParty(c));
    row.cells.forEach((cell, i) => {
      const label = labelOf(cell);
      if (!label) return;
      const value = row.cells[i + 1];
      // A blank field ("Year of Manufacture:" | "", or the row's last cell, or another label next): the label cell itself is
      // named, `<docset:YearofManufacture-cell>`, as Docugami's DGML names a field with no value.
      if (!value || labelOf(value) !== null || !/[\p{L}\p{N}]/u.test(value.leaf.text)) {
        const range = trimValue(cell.leaf.text, 0, cell.leaf.text.length);
        // A field, not a row label over a table's figures ("Net sales:" over "Products | 12,345"): in a form the table stage
        // found, beside another label in its row, or alone in a row of two cells. A name with a colon ("ACME INC.:" over a
        // signature line) is a party, not a field.
        const field = row.cells.some((c) => c.role) || row.cells.some((c, j) => j !== i && labelOf(c) !== null) || row.cells.length <= 2;
        const free = range && field && !parties && !cell.leaf.spans?.some((s) => s.tag.kind !== 'entity' && s.start < range.end && range.start < s.end);
        if (range && free) addNames(cell.leaf, [{ start: range.start, end: cell.leaf.text.trimEnd().length, tag: { kind: 'label', name: `${sectionName(label)}${BLANK_FIELD_SUFFIX}` } }]);
        return;
      }
      const range = valueRange(value.leaf);
      if (!range) return;
      addNames(value.leaf, [{ ...range, tag: { kind: 'label', name: sectionName(label) } }]);
    });
  }
}

/** A column's header: a few words starting with a capital, no figure, not a label (":") or a sentence ("."). */
function isHeaderCell(cell: TableCell): boolean {
  const text = cell.leaf.text.trim();
  return cell.colspan === 1 && /^\p{Lu}/u.test(text) && !/\p{N}/u.test(text) && !/[:.]$/u.test(text) && text.split(/\s+/u).length <= MAX_LABEL_WORDS;
}

/** A cell that holds a value: a figure or an entity (an amount, a date). */
function holdsValue(cell: TableCell): boolean {
  return /\p{N}/u.test(cell.leaf.text) || (cell.leaf.spans ?? []).some((s) => s.tag.kind === 'entity');
}

/**
 * A table of records under a header row ("Period | Rate P/S/F Per Annum | Monthly Base Rent | Period Base
 * Rent"): each cell below is named by its column's header (`<docset:MonthlyBaseRent>$36,344.28</docset:MonthlyBaseRent>`),
 * as Docugami names the reference lease's rent schedule. Only where the first row reads as a header (every
 * cell filled, short, no figure) over a column of values (figures or entities in at least half its rows): a
 * list of names whose first row is a name is no header, and a table of figures under dates ("| December 31,
 * 2022 | …") has none.
 */
function tagColumns(table: Table): void {
  const [header, ...body] = table.rows;
  if (!header || !body.length || table.rows.some((r) => r.cells.some((c) => c.role))) return;
  const heads = header.cells;
  if (heads.length < 2 || !heads.every(isHeaderCell)) return;
  const names = heads.map((c) => sectionName(c.leaf.text));
  if (new Set(names).size !== names.length) return;
  const records = body.filter((r) => r.cells.length === heads.length && r.cells.every((c) => c.colspan === 1));
  const valued = heads.some((_, j) => records.filter((r) => holdsValue(r.cells[j]!)).length * 2 >= records.length && records.length > 0);
  if (!valued) return;
  for (const row of records) {
    row.cells.forEach((cell, j) => {
      if (cell.leaf.text.trim() === heads[j]!.leaf.text.trim()) return;
      const range = valueRange(cell.leaf);
      // A record's field is a value, not a passage ("01. in any one occurrence, at the following Buildings …").
      if (range && cell.leaf.text.slice(range.start, range.end).split(/\s+/u).length <= MAX_LINE_VALUE_WORDS) {
        addNames(cell.leaf, [{ ...range, tag: { kind: 'label', name: names[j]! } }]);
      }
    });
  }
}

/**
 * A line of fields: "Start Date: 2021-10-01", "Print Name: James Carter", "Fixed Price: $374,000 Start
 * Date: 03/15/2021". Each label is a few capitalised words (joined by "of", "and", …) and a colon.
 */
const FIELD_LABEL = /(?:^|\s)(\p{Lu}[\p{L}\p{N}'’&/.-]*(?:\s+(?:\p{Lu}[\p{L}\p{N}'’&/.-]*|of|and|for|to|per|or|the|#)){0,4}):\s+/gu;
/** A field's line is short: a longer paragraph opening "Note: …" is running text. */
const MAX_FIELD_LINE = 200;
/** At most this many words in one field's value on a line. */
const MAX_LINE_VALUE_WORDS = 12;
/** A label whose last word says what its value is, so a value with no figure or entity in it is still one ("Print Title: CTO"). */
const KIND_WORDS = /(?:^|\s)(?:Name|Title|Number|No\.?|ID)$/u;

interface FieldLabel {
  /** Where the label's words start, and the words. */
  start: number;
  words: string;
  /** Where its value starts, past the colon. */
  valueStart: number;
}

/**
 * The labels of a line of fields. A label's capitalised words stop where the value before it does: the
 * text was run together from lines ("By: /s/ Nora Ellis Name: Nora Ellis"), and the entity "Nora Ellis"
 * is that value, so the next label is "Name".
 */
function fieldLabels(leaf: Leaf): FieldLabel[] {
  const out: FieldLabel[] = [];
  for (const m of leaf.text.matchAll(FIELD_LABEL)) {
    let start = m.index! + m[0].indexOf(m[1]!);
    const colon = start + m[1]!.length;
    for (const s of leaf.spans ?? []) if (s.start < colon && s.end > start) start = Math.max(start, s.end);
    let words = leaf.text.slice(start, colon).trim();
    // Where nothing marks the end of the value before (a figure, an entity), only the label's last word is surely its own:
    // "Name: Nora Ellis Title:" is "Title".
    const before = leaf.text.slice(0, colon - words.length).trimEnd();
    const marked = !before || /[\p{N})\]]$/u.test(before) || leaf.spans?.some((s) => s.end === before.length);
    if (!marked) words = words.split(/\s+/u).at(-1)!;
    if (!/^\p{Lu}/u.test(words)) continue;
    out.push({ start: colon - words.length, words, valueStart: m.index! + m[0].length });
  }
  return out;
}

function tagFieldLine(leaf: Leaf): void {
  const text = leaf.text;
  if (text.length > MAX_FIELD_LINE) return;
  const labels = fieldLabels(leaf);
  if (!labels.length || labels[0]!.start !== 0) return;
  const added: Span[] = [];
  labels.forEach((label, k) => {
    const from = label.valueStart;
    const to = k + 1 < labels.length ? labels[k + 1]!.start : text.length;
    // A signature line runs on into the next party ("Title: President FP1-11 LLC, a Delaware …"): the value ends at its name.
    const party = leaf.spans?.find((s) => ((s.tag.kind === 'entity' && s.tag.type === 'Org') || s.tag.kind === 'label') && s.start > from && s.start < to);
    const range = trimValue(text, from, party?.start ?? to);
    if (!range) return;
    const value = text.slice(range.start, range.end);
    if (value.split(/\s+/u).length > MAX_LINE_VALUE_WORDS) return;
    const inside = (leaf.spans ?? []).filter((s) => s.start < range.end && range.start < s.end);
    // A value a role or a property already names keeps that name; otherwise a line's value is named when it is one:
    // a figure, or an entity (a date, an amount, a person, an address), or words the label says the kind of.
    if (inside.some((s) => s.tag.kind !== 'entity')) return;
    if (!/\p{N}/u.test(value) && !inside.length && !(KIND_WORDS.test(label.words) && value.split(/\s+/u).length <= 5)) return;
    added.push({ ...range, tag: { kind: 'label', name: sectionName(label.words) } });
  });
  addNames(leaf, added);
}

/** A paragraph that is a form's label alone on its line ("Aircraft Make:"): its words, or null. */
export function loneLabel(n: StructureNode | undefined): string | null {
  return n?.type === 'paragraph' && n.role === 'body' ? loneLabelWords(n.leaf.text) : null;
}

/** The value paragraph under a lone label, or null: a short line that is neither a label nor a sentence nor a title in capitals. */
export function stackedValue(label: StructureNode | undefined, n: StructureNode | undefined): Leaf | null {
  if (!loneLabel(label) || n?.type !== 'paragraph' || n.role !== 'body' || !mayBeStackedValue(n.leaf.text)) return null;
  const text = n.leaf.text.trim();
  // A sentence under a label ("Notes:" over "See attached.") is text, not a field's value.
  if (/\s/u.test(text) && /[.!?]$/u.test(text) && !n.leaf.spans?.some((s) => s.tag.kind === 'entity' && s.end >= text.length - 1)) return null;
  return n.leaf;
}

/** The paragraphs among `nodes` that are a form's labels set without colons over their values (form-fields.ts bareLabelLines): their indices. */
export function bareLabels(nodes: readonly StructureNode[]): Set<number> {
  return bareLabelLines(nodes.map((n) => (n.type === 'paragraph' && n.role === 'body' ? n.leaf.text : undefined)));
}

/** Labels alone on their lines, this many among the nodes this near a field, make a form. */
const FORM_WINDOW = 4;
const MIN_FORM_LABELS = 3;

/**
 * A form's fields set one per line, each label over its value ("Aircraft Make:" / "Cirrus Design Corp.", as text
 * extraction lays out a form's columns): the value is named by its label, as in a key/value table.
 */
function tagStackedFields(nodes: readonly StructureNode[]): void {
  const bare = bareLabels(nodes);
  nodes.forEach((n, i) => {
    if (bare.has(i)) {
      const value = (nodes[i + 1] as Paragraph).leaf;
      const range = valueRange(value);
      if (range) addNames(value, [{ ...range, tag: { kind: 'label', name: sectionName((n as Paragraph).leaf.text.trim()) } }]);
      return;
    }
    const value = stackedValue(n, nodes[i + 1]);
    if (!value) return;
    const range = valueRange(value);
    if (!range) return;
    // A value of plain words ("Airplane", "No") is a field's only among other fields (a form); a label alone over a line
    // ("Office of the Chief Economist:" over "DOS Lead Agency") names it only where the value is one by itself: a
    // figure, an entity, or words the label says the kind of.
    const words = value.text.slice(range.start, range.end);
    const form = nodes.slice(Math.max(0, i - FORM_WINDOW), i + FORM_WINDOW + 1).filter((m) => loneLabel(m) !== null).length >= MIN_FORM_LABELS;
    const label = loneLabel(n)!;
    if (!form && !/\p{N}/u.test(words) && !value.spans?.some((s) => s.tag.kind === 'entity') && !KIND_WORDS.test(label)) return;
    addNames(value, [{ ...range, tag: { kind: 'label', name: sectionName(label) } }]);
  });
}

/** Names the value cells of every key/value table by their labels, records by their columns' headers, and the values of lines of fields. */
export function tagFormValues(nodes: readonly StructureNode[]): void {
  tagStackedFields(nodes);
  for (const n of nodes) {
    if (n.type === 'table') {
      tagTable(n);
      tagColumns(n);
      // A cell holding a whole field ("Print Name: James Carter" in a signature table).
      for (const row of n.rows) for (const cell of row.cells) if (!cell.role) tagFieldLine(cell.leaf);
    } else if (n.type === 'paragraph' && n.role === 'body') {
      tagFieldLine(n.leaf);
    } else if (n.type === 'section') {
      // A field set large enough to read as a heading ("Start Date: 2021-10-01" on a report's cover).
      if (n.heading) tagFieldLine(n.heading);
      tagFormValues(n.children);
    } else if (n.type === 'list') {
      for (const item of n.items) tagFormValues(item.children);
    }
  }
}
