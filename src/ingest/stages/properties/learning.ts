import type { Box } from '../../../document/structure.js';
import type { Candidate, DocsetKnowledge, Evidence, ValueAnchor } from '../../../document/properties.js';
import { candidateAt, evidenceLabel, trimValue } from './found.js';
import { shapesAlike, valueShape } from './labels.js';
import { locate } from '../../../document/locate.js';
import { findParties } from './parties.js';
import type { DocView } from '../../../document/view.js';

/** What the docset's known values of one property say about where and how the next one is written. */
export interface Learned {
  /** Label words the values were found beside, most frequent first. */
  aliases: string[][];
  positions: Box[];
  /** Value shapes, with how many known values have each. */
  shapes: Map<string, number>;
  count: number;
}

export function learnedFor(knowledge: DocsetKnowledge, propertyId: string): Learned | null {
  const known = knowledge.byProperty.get(propertyId);
  if (!known?.length) return null;
  const labels = new Map<string, number>();
  const positions: Box[] = [];
  const shapes = new Map<string, number>();
  for (const k of known) {
    const shape = k.evidence?.shape ?? valueShape(k.value);
    // A value set by hand is the truth even where its evidence (of the extracted value) says otherwise.
    const evidence = k.source === 'manual' && k.evidence && valueShape(k.value) !== k.evidence.shape ? null : k.evidence;
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    if (evidence?.labelText) labels.set(evidence.labelText, (labels.get(evidence.labelText) ?? 0) + 1);
    if (evidence?.box) positions.push(evidence.box);
  }
  const aliases = [...labels.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l.split(' ').filter(Boolean));
  return { aliases, positions, shapes, count: known.length };
}

function knownShape(learned: Learned, shape: string): boolean {
  for (const known of learned.shapes.keys()) if (shapesAlike(known, shape)) return true;
  return false;
}

/** Boxes this close (300 DPI px: about a fifth of an inch) are the same place on the page. */
const SAME_PLACE = 60;

function samePlace(a: Box, b: Box): boolean {
  return a.page === b.page && Math.abs(a.left - b.left) <= SAME_PLACE && Math.abs(a.top - b.top) <= SAME_PLACE;
}

const SAME_LABEL = 0.04;
const SAME_POSITION = 0.04;
const SAME_SHAPE = 0.04;
/** Every known value has one shape and this one has another ("DEN08WA037" vs "Substantial"). */
const OTHER_SHAPE = -0.12;
/** A value at the known position with the known shape, found by nothing else: worth a look, not sure on its own. */
const POSITION_ONLY = 0.5;
const POSITION_AND_SHAPE = 0.65;

/**
 * Step 4 of the issue: candidates found the way the docset's known values were (beside the same
 * label, at the same place, with the same shape) are preferred; and the value at the known place,
 * when nothing else found it, becomes a candidate of its own.
 */
export function applyLearning(view: DocView, candidates: Candidate[], learned: Learned): Candidate[] {
  const aliasTexts = new Set(learned.aliases.map((a) => a.join(' ')));
  const oneShape = learned.count >= 2 && learned.shapes.size === 1;
  const adjusted = candidates.map((c) => {
    let delta = 0;
    if (c.evidence.labelText && aliasTexts.has(c.evidence.labelText)) delta += SAME_LABEL;
    const box = c.evidence.box;
    if (box && learned.positions.some((p) => samePlace(p, box))) delta += SAME_POSITION;
    const shape = c.evidence.shape;
    if (shape && knownShape(learned, shape)) delta += SAME_SHAPE;
    else if (shape && oneShape) delta += OTHER_SHAPE;
    return { ...c, confidence: Math.max(0, Math.min(0.99, c.confidence + delta)) };
  });
  const taken = new Set(candidates.map((c) => c.anchor?.leaf));
  for (const info of view.leaves) {
    if (taken.has(info.index) || info.kind === 'heading' || info.kind === 'marker' || (info.role && info.role !== 'body')) continue;
    if (info.place?.cell.role === 'label' || /:\s*$/.test(info.leaf.text)) continue;
    const box = info.place?.cell.boxes[0] ?? info.leaf.boxes[0];
    if (!box || !learned.positions.some((p) => samePlace(p, box))) continue;
    const range = trimValue(info.leaf.text, 0, info.leaf.text.length);
    if (!range) continue;
    const shaped = knownShape(learned, valueShape(info.leaf.text.slice(range.start, range.end)));
    adjusted.push(candidateAt(view, info.index, range, shaped ? POSITION_AND_SHAPE : POSITION_ONLY, { kind: 'learned' }));
  }
  return adjusted;
}

/** The first role the text gives a party at the anchor ("customer"), or undefined. */
function roleAt(view: DocView, anchor: ValueAnchor): string | undefined {
  const info = view.leaves[anchor.leaf]!;
  const next = view.leaves[anchor.leaf + 1]?.leaf.text;
  const mention = findParties(info.leaf.text, view.leaves[anchor.leaf - 1]?.leaf.text, [], next).find((m) => m.start <= anchor.start && m.end >= anchor.end - 1 && m.roles.length);
  return mention?.roles[0]!.join(' ');
}

/** `Label: value` in one leaf: the label just before the value. */
const LABEL_BEFORE = /([^:]{1,60}):\s*$/u;

/**
 * What a value set by hand in a document teaches the docset: where it sits (the cell holding it, else
 * its first occurrence), the label beside it (the label cell to its left, or `Label:` before it) and
 * its shape. Null when the document does not contain the value.
 */
export function evidenceOfValue(view: DocView, value: string): Evidence | null {
  const anchor = locate(view, value);
  if (!anchor) return null;
  const text = view.leaves[anchor.leaf]!.leaf.text;
  const labelText =
    anchor.labelLeaf !== undefined ? view.leaves[anchor.labelLeaf]!.leaf.text : text.slice(0, anchor.start).match(LABEL_BEFORE)?.[1];
  const location = view.location(anchor.leaf);
  // In running text, the role the sentence gives the value (`Beta Foods LLC (the "Customer")`) is its label.
  const role = labelText ? undefined : roleAt(view, anchor);
  return {
    kind: 'learned',
    ...(labelText ? { labelText: evidenceLabel(labelText) } : role ? { labelText: role } : {}),
    ...(location ? { page: location.page, box: location.boundingBox } : {}),
    shape: valueShape(value),
  };
}
