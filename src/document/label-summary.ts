import { leaves, type Leaf, type StructureModel, type StructureNode } from './structure.js';
import { sectionName } from './writers/dgml.js';

/**
 * What a found label names: a value (an inline span of kind `label`: `<docset:TenantName>Bright Owl
 * Bakery Inc.</docset:TenantName>`) or a clause (a section named by its heading, a paragraph, list or
 * table named for what it is, or a short document that is one clause: `<docset:SecurityDeposit>`
 * around its blocks).
 */
export type LabelKind = 'value' | 'clause';
export const LABEL_KINDS: readonly LabelKind[] = ['value', 'clause'];

/**
 * What a document's found labels are (`docset:{name}` in its DGML): each name of each kind once, with
 * the text of its first value or clause in document order and how many it has. Made where the
 * structure is (the analysing thread, or a stored model read back), kept in the database, so a
 * docset's labels are listed without reading any structure.
 */
export interface LabelSummaryEntry {
  /** Absent in summaries made before clause labels were summarised: a value. */
  kind?: LabelKind;
  name: string;
  /** The text of the name's first span (whitespace as in the leaf) or clause, at most MAX_EXAMPLE_LENGTH characters. */
  example: string;
  /** Spans or clauses of this name in the document. */
  occurrences: number;
}

/** A name is at most this long (DGML element names are cut there too). */
export const MAX_LABEL_NAME_LENGTH = 200;
/** Examples are cut to this many characters (a clause-sized span is an example, not a copy). */
export const MAX_EXAMPLE_LENGTH = 500;
/** Distinct names of each kind kept per document; a document naming more keeps its first ones. */
export const MAX_LABELS_PER_DOCUMENT = 1000;

// An XML NCName as DGML writes it: a letter or "_" first, then letters, digits, marks, ".", "-", "_".
const NAME = /^[\p{L}_][\p{L}\p{Nd}\p{M}._-]*$/u;

/** The suffix of a blank field's label cell's name (`<docset:YearofManufacture-cell>Year of Manufacture: </docset:…>`), as Docugami's DGML writes it. */
export const BLANK_FIELD_SUFFIX = '-cell';

/** Whether `name` can be a found label's name (an XML NCName of at most MAX_LABEL_NAME_LENGTH characters). */
export function isLabelName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_LABEL_NAME_LENGTH && NAME.test(name);
}

/** The found labels of a structure: its values' names, then its clauses', each in the order it first appears. */
export function summariseLabels(structure: Pick<StructureModel, 'nodes' | 'clause'>): LabelSummaryEntry[] {
  return [...valueLabels(structure), ...clauseLabels(structure)];
}

function valueLabels(structure: Pick<StructureModel, 'nodes'>): LabelSummaryEntry[] {
  const byName = new Map<string, LabelSummaryEntry>();
  for (const leaf of leaves(structure.nodes)) {
    if (!leaf.spans?.length) continue;
    // Spans in text order: the first one of a name is its example.
    const spans = leaf.spans.length > 1 ? [...leaf.spans].sort((a, b) => a.start - b.start || b.end - a.end) : leaf.spans;
    for (const span of spans) {
      if (span.tag.kind !== 'label') continue;
      const name = span.tag.name;
      // A blank field's label cell (`YearofManufacture-cell`) marks where a value would be; it is no value of the docset's schema.
      if (typeof name !== 'string' || !isLabelName(name) || name.endsWith(BLANK_FIELD_SUFFIX)) continue;
      const seen = byName.get(name);
      if (seen) {
        seen.occurrences++;
        continue;
      }
      if (byName.size >= MAX_LABELS_PER_DOCUMENT) continue;
      const text = leaf.text.slice(Math.max(0, span.start), Math.max(0, span.end)).trim();
      if (!text) continue;
      byName.set(name, { kind: 'value', name, example: [...text].slice(0, MAX_EXAMPLE_LENGTH).join(''), occurrences: 1 });
    }
  }
  return [...byName.values()];
}

/**
 * The opening of a clause's text: its leaves' (as `leaves` orders them) joined, whitespace collapsed,
 * at most MAX_EXAMPLE_LENGTH characters. Read only as far as that needs (a section may be most of a
 * long document, a leaf a long page).
 */
function clauseExample(nodes: readonly StructureNode[]): string {
  // A little over the example's length: runs of spaces collapsed rarely take more.
  const budget = MAX_EXAMPLE_LENGTH + 100;
  let text = '';
  const take = (leaf: Leaf | null): boolean => {
    if (leaf) text += ` ${leaf.text.length > budget - text.length ? leaf.text.slice(0, budget - text.length + 1) : leaf.text}`;
    return text.length > budget;
  };
  const read = (list: readonly StructureNode[]): boolean => {
    for (const n of list) {
      switch (n.type) {
        case 'paragraph':
          if (take(n.leaf)) return true;
          break;
        case 'section':
          if (take(n.heading) || read(n.children)) return true;
          break;
        case 'list':
          for (const item of n.items) if (take(item.marker) || read(item.children)) return true;
          break;
        case 'table':
          for (const row of n.rows) for (const cell of row.cells) if (take(cell.leaf)) return true;
          break;
      }
    }
    return false;
  };
  read(nodes);
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_EXAMPLE_LENGTH) return text;
  // MAX_EXAMPLE_LENGTH UTF-16 units are at most as many characters; a pair cut in half loses its first half too.
  const cut = text.slice(0, MAX_EXAMPLE_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The clauses DGML names (elements around blocks, as the writer names them), in document order. */
function clauseLabels(structure: Pick<StructureModel, 'nodes' | 'clause'>): LabelSummaryEntry[] {
  const byName = new Map<string, LabelSummaryEntry>();
  const add = (name: string, nodes: () => readonly StructureNode[]): void => {
    if (!isLabelName(name)) return;
    const seen = byName.get(name);
    if (seen) {
      seen.occurrences++;
      return;
    }
    if (byName.size >= MAX_LABELS_PER_DOCUMENT) return;
    const example = clauseExample(nodes());
    if (example) byName.set(name, { kind: 'clause', name, example, occurrences: 1 });
  };
  const walk = (nodes: readonly StructureNode[]): void => {
    for (const n of nodes) {
      switch (n.type) {
        case 'section': {
          // `docset:{name}-section` around the heading and `docset:{name}` around the body: the body is the clause.
          const name = sectionName(n.heading.text);
          // "Section" is the writer's name for a heading with no words ("1."): it names nothing.
          if (name !== 'Section' || /section/iu.test(n.heading.text)) add(name, () => (n.children.length ? n.children : [{ type: 'paragraph', structure: 'div', role: 'body', leaf: n.heading }]));
          walk(n.children);
          break;
        }
        case 'list':
          if (n.clause) add(n.clause, () => [n]);
          for (const item of n.items) walk(item.children);
          break;
        default:
          if (n.clause) add(n.clause, () => [n]);
      }
    }
  };
  if (structure.clause) add(structure.clause, () => structure.nodes);
  walk(structure.nodes);
  return [...byName.values()];
}

/**
 * A found label's name as a person writes it, for a property label: words split where the case
 * changes ("TenantName" -> "Tenant Name"), acronyms kept ("SARExpirationDate" -> "SAR Expiration
 * Date"), the `_` DGML puts before a leading digit dropped ("_2020Rent" -> "2020 Rent"), other
 * underscores read as spaces. Its label id (src/domain/labels.ts) is the name again for names made
 * of letters and digits.
 */
export function humaniseLabelName(name: string): string {
  let s = name;
  // The safe-name prefix before a digit; any other leading "_" is part of the name.
  if (/^_+\p{Nd}/u.test(s)) s = s.replace(/^_+/, '');
  s = s
    .replace(/(?<=\S)_+(?=\S)/g, ' ')
    // lower or digit, then upper: "tN" -> "t N", "0R" -> "0 R"
    .replace(/(?<=[\p{Ll}\p{Nd}])(?=\p{Lu})/gu, ' ')
    // an acronym, then a capitalised word: "RE" + "xp" -> "R Exp"
    .replace(/(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu, ' ')
    // lower, then a digit: "Rent2020" -> "Rent 2020"
    .replace(/(?<=\p{Ll})(?=\p{Nd})/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s || name;
}
