import type { PageModel, TextItem } from '../../document/pages.js';
import { boxesPerPage, leaves, wordsOf, type Box, type Leaf, type StructureNode } from '../../document/structure.js';

/** How far ahead in the rendition a leaf word is looked for (words the rendition adds: numbers, headers). */
const LOOK_AHEAD = 64;
/** A match further than the next rendition word must be confirmed by this many following words… */
const CONFIRM = 2;
/** …each found within this many rendition words of the previous one (the rendition adds numbers, page headers). */
const CONFIRM_SLACK = 2;
/** A marker the structure guessed differently from the rendition is looked for only close by. */
const MARKER_LOOK_AHEAD = 3;
/** Keys of list markers as renditions print them: "3", "c", "iv", "•". */
const MARKER_LIKE = /^(?:\d{1,3}|[a-z]{1,2}|[ivxlc]{1,6}|•)$/;
/** Items closer than this (in items' heights) on one line continue the same word. */
const GLUE_GAP = 0.15;

interface Word {
  key: string;
  boxes: Box[];
}

/** The words of all leaves in order: their keys, which leaf owns each, and which are list markers. */
interface LeafWords {
  keys: string[];
  owners: number[];
  markers: boolean[];
}

interface Match {
  first: number;
  last: number;
}

interface RawWord {
  text: string;
  boxes: Box[];
}

/**
 * Gives the leaves of a native structure (DOCX, HTML, …) their boxes, from the words of its
 * rendition's pages. Leaf words and rendition words are matched in order, greedily: a word matches
 * the next rendition word, or one within a bounded look-ahead when the words after it agree too, so
 * words the rendition adds (list numbers, running headers) or lacks are passed over. A leaf's boxes
 * are its matched words' boxes, one union per page; a leaf with no matched word keeps none. Linear
 * in the number of words.
 */
export function alignBoxes(nodes: StructureNode[], pages: PageModel[]): void {
  const rendition = renditionWords(pages);
  const markerLeaves = new Set(listMarkers(nodes));
  const noteLeaves = new Set(footnotes(nodes));
  const leafList = [...leaves(nodes)];
  const words: LeafWords = { keys: [], owners: [], markers: [] };
  for (let i = 0; i < leafList.length; i++) {
    // Notes come last in the structure and at the foot of their pages in the rendition: matched after.
    if (noteLeaves.has(leafList[i]!)) continue;
    const marker = markerLeaves.has(leafList[i]!);
    for (const w of wordsOf(leafList[i]!.text)) {
      words.keys.push(wordKey(w));
      words.owners.push(i);
      words.markers.push(marker);
    }
  }
  const matched: Box[][] = leafList.map(() => []);
  const used = new Uint8Array(rendition.length);
  let next = 0;
  for (let i = 0; i < words.keys.length && next < rendition.length; i++) {
    const match = findWord(words, i, rendition, next);
    if (!match) continue;
    const boxes = matched[words.owners[i]!]!;
    for (let at = match.first; at <= match.last; at++) {
      boxes.push(...rendition[at]!.boxes);
      used[at] = 1;
    }
    next = match.last + 1;
  }
  if (noteLeaves.size) matchNotes(leafList, noteLeaves, matched, rendition, used);
  for (let i = 0; i < leafList.length; i++) leafList[i]!.boxes = boxesPerPage(matched[i]!);
  tableBoxes(nodes);
}

/**
 * Each note's words where they stand together among the rendition's words left unmatched (the foot
 * of a page), the first such place; a note the rendition does not have word for word keeps no box.
 */
function matchNotes(leafList: Leaf[], notes: ReadonlySet<Leaf>, matched: Box[][], rendition: Word[], used: Uint8Array): void {
  const at = new Map<string, number[]>();
  rendition.forEach((w, k) => {
    if (used[k]) return;
    const list = at.get(w.key);
    if (list) list.push(k);
    else at.set(w.key, [k]);
  });
  leafList.forEach((leaf, i) => {
    if (!notes.has(leaf)) return;
    const keys = wordsOf(leaf.text).map(wordKey);
    if (!keys.length) return;
    const start = (at.get(keys[0]!) ?? []).find((k) => k + keys.length <= rendition.length && keys.every((key, j) => !used[k + j] && rendition[k + j]!.key === key));
    if (start === undefined) return;
    for (let k = start; k < start + keys.length; k++) {
      matched[i]!.push(...rendition[k]!.boxes);
      used[k] = 1;
    }
  });
}

/** The leaves of footnote paragraphs. */
function* footnotes(nodes: readonly StructureNode[]): Generator<Leaf> {
  for (const node of nodes) {
    if (node.type === 'section') yield* footnotes(node.children);
    else if (node.type === 'list') for (const item of node.items) yield* footnotes(item.children);
    else if (node.type === 'paragraph' && node.role === 'footnote') yield node.leaf;
  }
}

/**
 * Where leaf word `i` is in the rendition, from `from` on: the next word, a word split over two
 * (a line break inside "Signa-ture"), or a word within the look-ahead whose following words agree.
 * A list marker matches whatever marker the rendition prints there (Word numbers items "(c)" where
 * the structure counts "3.").
 */
function findWord(leaf: LeafWords, i: number, rendition: Word[], from: number): Match | null {
  const key = leaf.keys[i]!;
  const marker = leaf.markers[i]!;
  const fits = (at: number) => rendition[at]!.key === key || (marker && MARKER_LIKE.test(rendition[at]!.key));
  if (rendition[from]!.key === key) return { first: from, last: from };
  // Another marker (or a short word) where this one is expected: taken only if the item's text follows.
  if (fits(from) && confirmed(leaf, i, rendition, from)) return { first: from, last: from };
  if (from + 1 < rendition.length && rendition[from]!.key + rendition[from + 1]!.key === key) return { first: from, last: from + 1 };
  const end = Math.min(rendition.length, from + (marker ? MARKER_LOOK_AHEAD : LOOK_AHEAD));
  for (let at = from + 1; at < end; at++) {
    if (fits(at) && confirmed(leaf, i, rendition, at)) return { first: at, last: at };
  }
  return null;
}

/** The leaf words after `i` are found in order shortly after rendition word `at`. */
function confirmed(leaf: LeafWords, i: number, rendition: Word[], at: number): boolean {
  let pos = at;
  for (let k = 1; k <= CONFIRM && i + k < leaf.keys.length; k++) {
    const key = leaf.keys[i + k];
    const limit = Math.min(rendition.length, pos + 2 + CONFIRM_SLACK);
    let found = -1;
    for (let q = pos + 1; q < limit && found < 0; q++) if (rendition[q]!.key === key) found = q;
    if (found < 0 && !leaf.markers[i + k]) return false;
    if (found >= 0) pos = found;
  }
  return true;
}

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** What two spellings of a word share: letters and digits without accents or case; symbols as they are. */
function wordKey(word: string): string {
  const key = PRINTABLE_ASCII.test(word)
    ? word.toLowerCase().replace(/[^a-z0-9]/g, '')
    : word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (key) return key;
  // Bullets come out of renditions as many code points (Symbol-font ones in the private use area).
  return /^[•●▪◦‣·\u2023\uf0a7\uf0b7]+$/u.test(word) ? '•' : word;
}

/**
 * The rendition's words in content order, each with its boxes (a word can span items: a font change
 * inside a word makes two items that touch). An item's box is shared among its words by characters.
 */
function renditionWords(pages: PageModel[]): Word[] {
  const words: RawWord[] = [];
  for (const page of pages) {
    let prev: TextItem | null = null;
    for (const item of page.items) {
      const glued = prev !== null && continuesWord(prev, item);
      prev = item;
      const text = item.text;
      const segments = /\S+/g;
      for (let m = segments.exec(text); m; m = segments.exec(text)) {
        const box: Box = {
          page: page.number,
          left: item.x + (item.width * m.index) / text.length,
          top: item.y,
          width: (item.width * m[0].length) / text.length,
          height: item.height,
        };
        const last = words[words.length - 1];
        if (glued && m.index === 0 && last) {
          last.boxes.push(box);
          last.text += m[0];
        } else {
          words.push({ text: m[0], boxes: [box] });
        }
      }
    }
  }
  return words.map((w) => ({ key: wordKey(w.text), boxes: w.boxes.length > 1 ? boxesPerPage(w.boxes) : w.boxes }));
}

function continuesWord(prev: TextItem, item: TextItem): boolean {
  if (/\s$/.test(prev.text) || /^\s/.test(item.text)) return false;
  const height = Math.min(prev.height, item.height);
  const sameLine = Math.abs(prev.y + prev.height / 2 - (item.y + item.height / 2)) < height / 2;
  const gap = item.x - (prev.x + prev.width);
  return sameLine && gap < height * GLUE_GAP && gap > -height;
}

function* listMarkers(nodes: readonly StructureNode[]): Generator<Leaf> {
  for (const node of nodes) {
    if (node.type === 'section') yield* listMarkers(node.children);
    else if (node.type === 'list') {
      for (const item of node.items) {
        if (item.marker) yield item.marker;
        yield* listMarkers(item.children);
      }
    }
  }
}

/** Cells take their leaf's boxes; rows and tables the union of theirs, per page. */
function tableBoxes(nodes: StructureNode[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'section':
        tableBoxes(node.children);
        break;
      case 'list':
        for (const item of node.items) tableBoxes(item.children);
        break;
      case 'table':
        for (const row of node.rows) {
          for (const cell of row.cells) cell.boxes = cell.leaf.boxes;
          row.boxes = boxesPerPage(row.cells.flatMap((c) => c.boxes));
        }
        node.boxes = boxesPerPage(node.rows.flatMap((r) => r.boxes));
        break;
      case 'paragraph':
        break;
    }
  }
}
