import type { ValueAnchor } from './properties.js';
import { normalizeSpace } from './structure.js';
import type { DocView, LeafInfo } from './view.js';

/** Values compare without case, spacing and the punctuation that ends them. */
export const comparable = (s: string): string => normalizeSpace(s).toLowerCase().replace(/[\s.,;:]+$/u, '');

/**
 * A value may start or end here unless that splits a word: only between two letters or digits. Two
 * punctuation marks are an edge too, so a value ending in one (`Smith & Sons <Ltd>`, `"S&S"`) is
 * found before the comma or full stop that follows it.
 */
const isWordEdge = (text: string, at: number): boolean => at <= 0 || at >= text.length || !/[\p{L}\p{N}]/u.test(text[at]!) || !/[\p{L}\p{N}]/u.test(text[at - 1]!);

/** Where a value set by hand sits: a cell holding exactly it first (a form's value cell), else its first whole-word occurrence. */
export function locate(view: DocView, value: string): ValueAnchor | null {
  const wanted = comparable(value);
  if (!wanted) return null;
  let fallback: ValueAnchor | null = null;
  for (const info of view.leaves) {
    const text = info.leaf.text;
    if (info.place && comparable(text) === wanted) return withLabel(view, info, { leaf: info.index, start: 0, end: text.length });
    if (fallback) continue;
    const lower = text.toLowerCase();
    if (lower.length !== text.length) continue;
    for (let at = lower.indexOf(wanted); at >= 0; at = lower.indexOf(wanted, at + 1)) {
      if (isWordEdge(text, at) && isWordEdge(text, at + wanted.length)) {
        fallback = { leaf: info.index, start: at, end: at + wanted.length };
        break;
      }
    }
  }
  return fallback;
}

function withLabel(view: DocView, info: LeafInfo, anchor: ValueAnchor): ValueAnchor {
  const left = info.place ? view.leftOf(info.place) : undefined;
  return left?.place?.cell.role === 'label' ? { ...anchor, labelLeaf: left.index } : anchor;
}

