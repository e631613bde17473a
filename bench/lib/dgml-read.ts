/**
 * DGML read as the labels bench reads it (bench/labels/run.ts, and in process bench/labels/inproc-large.ts):
 * a tree of elements over one text, the element that most tightly wraps a small row's span, and the
 * nearest element holding a large row's words, with the named elements around them.
 */
import { SaxesParser } from 'saxes';
import { comparableValue } from './csl.js';
import { squash, words } from './csl-quire.js';

export const DG = 'http://www.docugami.com/2021/dgml';
export const XHTML = 'http://www.w3.org/1999/xhtml';
/** A large row's element holds (nearly) all of its words: this share of them, or more. */
export const COVER = 0.9;

// ---------------------------------------------------------------------------------------------
// DGML as a tree of elements over one text.

export interface El {
  uri: string;
  prefix: string;
  local: string;
  parent: El | null;
  depth: number;
  /** Document order of the start tag. */
  order: number;
  /** [start, end) of the element's text in `Dgml.text`. */
  start: number;
  end: number;
}

export interface Dgml {
  text: string;
  elements: El[];
}

/** Elements with a `structure` attribute, and XHTML (tables), are blocks: a space separates their text from what is around it. */
export function parseDgml(xml: string): Dgml {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const elements: El[] = [];
  const stack: { el: El; block: boolean }[] = [];
  let text = '';
  parser.on('opentag', (tag) => {
    const block = tag.uri === XHTML || Object.values(tag.attributes).some((a) => typeof a === 'object' && a.local === 'structure');
    if (block) text += ' ';
    const parent = stack.at(-1)?.el ?? null;
    const el: El = { uri: tag.uri ?? '', prefix: tag.prefix ?? '', local: tag.local ?? tag.name, parent, depth: stack.length, order: elements.length, start: text.length, end: -1 };
    elements.push(el);
    stack.push({ el, block });
  });
  parser.on('text', (t) => {
    if (stack.length) text += t;
  });
  parser.on('cdata', (t) => {
    if (stack.length) text += t;
  });
  parser.on('closetag', () => {
    const { el, block } = stack.pop()!;
    el.end = text.length;
    if (block) text += ' ';
  });
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  return { text, elements };
}

export const textOf = (d: Dgml, el: El) => d.text.slice(el.start, el.end);
export const collapsed = (v: string) => v.replace(/\s+/g, ' ').trim().toLowerCase();
/** `dg:` and `xhtml:` are structure; any other namespace names what an element is (`docset:`, `dgc:`, …). */
const isNamed = (el: El) => el.uri !== DG && el.uri !== XHTML;
/** The docset's own names (`docset:CurePeriod`), as Quire writes labels and section names. */
const isDocsetName = (el: El) => el.prefix === 'docset' || (el.uri.startsWith(`${DG}/`) && !el.uri.startsWith(`${DG}/docugami/`));

function ancestorsOrSelf(el: El): El[] {
  const out: El[] = [];
  for (let e: El | null = el; e; e = e.parent) out.push(e);
  return out;
}

/** The deepest element satisfying `test` (the first in document order among equally deep ones). */
function deepest(d: Dgml, test: (el: El) => boolean): El | null {
  let best: El | null = null;
  for (const el of d.elements) if ((!best || el.depth > best.depth) && test(el)) best = el;
  return best;
}

function containsWordsInRow(hay: string[], needle: string[]): boolean {
  if (!needle.length) return false;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** What one row's DGML names its span or clause. */
export interface Reading {
  /** How the span was found in the DGML text: as text, only as words in a row, or not at all. */
  found: 'text' | 'words' | null;
  /** The local name of the tightest element. */
  tight: string | null;
  tightQName: string | null;
  /** Enclosing named elements (not `dg:`/`xhtml:`) whose text is the span's, nearest first, as prefix:local. */
  named: string[];
  /** The `docset:` names among the tight element and `named`. */
  docsetNames: string[];
}

function reading(tight: El | null, named: El[], found: Reading['found']): Reading {
  const candidates = tight ? [tight, ...named.filter((e) => e !== tight)] : [];
  return {
    found,
    tight: tight?.local ?? null,
    tightQName: tight ? `${tight.prefix}:${tight.local}` : null,
    named: named.map((e) => `${e.prefix}:${e.local}`),
    docsetNames: candidates.filter(isDocsetName).map((e) => e.local),
  };
}

/** A small row: the element that most tightly wraps the Small Chunk, and the named elements whose text equals it modulo punctuation. */
export function readSmall(d: Dgml, chunk: string): Reading {
  const want = comparableValue(chunk);
  const wantWords = words(chunk);
  if (!want || !wantWords.length) return reading(null, [], null);
  let found: Reading['found'] = 'text';
  let tight = deepest(d, (el) => collapsed(textOf(d, el)).includes(want));
  if (!tight) {
    found = 'words';
    tight = deepest(d, (el) => containsWordsInRow(words(textOf(d, el)), wantWords));
  }
  if (!tight) return reading(null, [], null);
  const key = squash(chunk);
  const named = ancestorsOrSelf(tight).filter((el) => isNamed(el) && squash(textOf(d, el)) === key);
  return reading(tight, named, found);
}

function overlap(a: Map<string, number>, b: string[]): number {
  const left = new Map(a);
  let n = 0;
  for (const w of b) {
    const k = left.get(w) ?? 0;
    if (k > 0) {
      n++;
      left.set(w, k - 1);
    }
  }
  return n;
}

/** A large row: the nearest element holding >= 90 % of the Text's words, and the named elements around it that hold little else. */
export function readLarge(d: Dgml, text: string): Reading {
  const want = words(text);
  if (!want.length) return reading(null, [], null);
  const bag = new Map<string, number>();
  for (const w of want) bag.set(w, (bag.get(w) ?? 0) + 1);
  const cover = new Map<El, { recall: number; precision: number }>();
  for (const el of d.elements) {
    const got = words(textOf(d, el));
    const common = overlap(bag, got);
    cover.set(el, { recall: common / want.length, precision: got.length ? common / got.length : 0 });
  }
  const tight = deepest(d, (el) => cover.get(el)!.recall >= COVER);
  if (!tight) return reading(null, [], null);
  const named = ancestorsOrSelf(tight).filter((el) => isNamed(el) && cover.get(el)!.precision >= COVER);
  return reading(tight, named, 'words');
}
