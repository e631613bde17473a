import type { Leaf, Span, StructureModel } from './structure.js';
import type { ValueAnchor, ValueToTag } from './properties.js';
import { comparable, locate } from './locate.js';
import { DocView } from './view.js';

/** The anchor, if it still points at the value (the structure may have been rebuilt since). */
function validAnchor(view: DocView, value: string, anchor: ValueAnchor | null): ValueAnchor | null {
  if (!anchor) return null;
  const first = view.leaves[anchor.leaf];
  const last = view.leaves[anchor.lastLeaf ?? anchor.leaf];
  if (!first || !last || anchor.start < 0 || (anchor.start >= anchor.end && anchor.lastLeaf === undefined)) return null;
  if (anchor.lastLeaf === undefined) {
    if (anchor.end > first.leaf.text.length) return null;
    return comparable(first.leaf.text.slice(anchor.start, anchor.end)) === comparable(value) ? anchor : null;
  }
  return anchor.end <= last.leaf.text.length && comparable(value).startsWith(comparable(first.leaf.text.slice(anchor.start))) ? anchor : null;
}

/**
 * `[start, end)` widened to whole words: a tag never splits a word, and ends where the value does
 * (a comma after it stays outside, quotes a person typed as part of the value inside).
 */
function wholeWords(text: string, start: number, end: number): { start: number; end: number } | null {
  let s = Math.max(0, Math.min(start, text.length));
  let e = Math.max(s, Math.min(end, text.length));
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  if (s >= e) return null;
  const word = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
  while (s > 0 && word(text[s - 1]) && word(text[s])) s--;
  while (e < text.length && word(text[e - 1]) && word(text[e])) e++;
  return { start: s, end: e };
}

/**
 * Adds a property span to a leaf. Property spans it overlaps are replaced; entity spans give way
 * unless they nest inside it (a date inside "11/28/2007, 1800 UTC" stays a date).
 */
function addSpan(leaf: Leaf, start: number, end: number, labelId: string, propertyId: string | undefined): void {
  const range = wholeWords(leaf.text, start, end);
  if (!range) return;
  const kept = (leaf.spans ?? []).filter((s) => {
    const overlaps = s.start < range.end && s.end > range.start;
    if (!overlaps) return true;
    // A property's value replaces any other property's, and a found label over the same words.
    if (s.tag.kind === 'property' || s.tag.kind === 'label') return false;
    return s.start >= range.start && s.end <= range.end && (s.start > range.start || s.end < range.end);
  });
  const span: Span = { ...range, tag: { kind: 'property', labelId, ...(propertyId ? { propertyId } : {}) } };
  leaf.spans = [span, ...kept].sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * Adds `{kind: 'property'}` spans for the values to the structure's leaves (whole words; entity spans
 * they overlap give way), and returns the label cells to tag as `docset:{labelId}-cell` (leaf index to
 * labelId). A value without anchor is looked for by its text.
 */
export function tagProperties(structure: StructureModel, values: readonly ValueToTag[]): Map<number, string> {
  const view = new DocView(structure);
  const labelCells = new Map<number, string>();
  for (const v of values) {
    if (!v.value.trim()) continue;
    const anchor = validAnchor(view, v.value, v.anchor) ?? locate(view, v.value);
    if (!anchor) continue;
    const last = anchor.lastLeaf ?? anchor.leaf;
    // Values compare without the punctuation that ends them; a value that ends in some ("Inc.") keeps it in its tag.
    const tail = v.value.trim().match(/[.,;:]+$/u)?.[0] ?? '';
    for (let i = anchor.leaf; i <= last; i++) {
      const leaf = view.leaves[i]!.leaf;
      let end = i === last ? anchor.end : leaf.text.length;
      if (i === last && tail && !leaf.text.slice(0, end).endsWith(tail) && leaf.text.startsWith(tail, end)) end += tail.length;
      addSpan(leaf, i === anchor.leaf ? anchor.start : 0, end, v.labelId, v.propertyId);
    }
    if (anchor.labelLeaf !== undefined && view.leaves[anchor.labelLeaf]?.place) labelCells.set(anchor.labelLeaf, v.labelId);
  }
  return labelCells;
}
