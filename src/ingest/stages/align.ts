import type { PageModel } from '../model.js';
import type { StructureNode } from '../structure.js';

/** Gives the leaves of a native structure (DOCX, HTML, …) their boxes, from the words of its rendition's pages. */
export function alignBoxes(nodes: StructureNode[], pages: PageModel[]): void {
  void nodes;
  void pages;
}
