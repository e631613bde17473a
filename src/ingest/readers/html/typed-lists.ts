import { parseMarker } from '../../../document/markers.js';
import type { List, ListItem, StructureNode } from '../../../document/structure.js';
import { leafOf, paragraphOf } from '../blocks.js';

interface OpenTypedList {
  list: List;
  key: string;
  /** Parts of a dotted number ("2.1" → 2): "2.1" and "2.1.1" are not siblings. */
  depth: number;
  last: number;
}

/**
 * Paragraphs whose text starts with a typed list marker ("(a) Workers' Compensation…", "2.1 Onsite
 * visits…", "• …") rather than the format's own numbering, as the lists they are: consecutive
 * markers of one kind are one list, which starts at its first value ("(a)", "1.", "2.1", a bullet);
 * a new kind under an open item is its sub-list ("(i)" under "(a)"); any other paragraph, heading or
 * table closes them. The
 * layout of PDFs reads the same markers into the same lists.
 */
export class TypedLists {
  private open: OpenTypedList[] = [];

  /** Adds `text` to `container` as a list item when it is one; false leaves it to the caller. */
  add(container: StructureNode[], text: string): boolean {
    // Lists stay open only while nothing else has been added after them.
    if (this.open.length && container[container.length - 1] !== this.open[0]!.list) this.open = [];
    const marker = parseMarker(text, (key, value) => this.open.some((o) => o.key === key && o.last === value - 1));
    const body = marker ? text.slice(marker.end).trim() : '';
    if (!marker || !body) {
      this.open = [];
      return false;
    }
    const item: ListItem = { marker: leafOf(text.slice(0, marker.end)), children: [paragraphOf(body)] };
    const at = this.open.findLastIndex((o) => o.key === marker.key && o.depth === marker.depth);
    if (at >= 0) {
      this.open.length = at + 1;
      const o = this.open[at]!;
      o.list.items.push(item);
      o.last = marker.value;
      return true;
    }
    // A list starts at its first value ("(a)", "1.", "2.1", a bullet): a lone "(iii)" continues a
    // sentence of the paragraph before ("… (i) … (ii) …"), it opens no list.
    if (marker.value > 1) {
      this.open = [];
      return false;
    }
    const list: List = { type: 'list', ordered: marker.ordered, style: marker.style, items: [item] };
    const parent = this.open[this.open.length - 1];
    if (parent) parent.list.items[parent.list.items.length - 1]!.children.push(list);
    else container.push(list);
    this.open.push({ list, key: marker.key, depth: marker.depth, last: marker.value });
    return true;
  }
}
