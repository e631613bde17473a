import type { Candidate } from '../../../document/properties.js';
import { candidateAt, evidenceLabel, trimValue, type Findings } from './found.js';
import { labelScore, MIN_LABEL_SCORE, type PropertyQuery } from './query.js';
import { namePart } from './typed.js';
import type { DocView, LeafInfo } from '../../../document/view.js';

/** A cell the table stage marked as a label, or that reads like one ("Seats:"). */
function isLabelCell(info: LeafInfo): boolean {
  return info.place?.cell.role === 'label' || /:\s*$/.test(info.leaf.text);
}

/** A form label beside its value: the layout says so. A cell that merely matches (a column header) is weaker. */
const LABEL_CELL = 0.97;
const MATCHING_CELL = 0.85;
/** The value under its label rather than beside it (column headers, labels above fields). */
const BELOW = 0.85;
const COLUMN = 0.6;

/**
 * Form table cells: a cell naming the property, and the value cell to its right (or below it when
 * nothing is to the right). A label followed by another label or an empty cell is a blank field.
 */
export function formCellFindings(view: DocView, query: PropertyQuery): Findings {
  const candidates: Candidate[] = [];
  let blank = 0;
  for (const info of view.leaves) {
    if (!info.place || !info.leaf.text) continue;
    const score = labelScore(query, info.leaf.text);
    if (score < MIN_LABEL_SCORE) continue;
    const asLabel = isLabelCell(info);
    // A plain cell in a table's first row is a column header: its values are below it.
    const header = !asLabel && info.place.row === 0;
    const right = header ? undefined : view.rightOf(info.place);
    let value: LeafInfo | undefined;
    let weight = asLabel ? LABEL_CELL : MATCHING_CELL;
    if (right) {
      if (!isLabelCell(right)) value = right;
    } else {
      const below = view.below(info.place);
      if (below && !isLabelCell(below)) {
        value = below;
        weight *= BELOW;
        // More values under it: a column of several, not one value of the document.
        if (view.below(below.place!)?.leaf.text) weight *= COLUMN;
      }
    }
    const range = value ? trimValue(value.leaf.text, 0, value.leaf.text.length) : null;
    if (!value || !range) {
      if (asLabel) blank = Math.max(blank, score);
      continue;
    }
    const name = namePart(value, range, query.types);
    candidates.push(candidateAt(view, value.index, name ?? range, weight * score, { kind: 'form-cell', labelText: evidenceLabel(info.leaf.text) }, { labelLeaf: info.index }));
  }
  return { candidates, blank };
}
