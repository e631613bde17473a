import type { StructureModel } from '../structure.js';

/** Plain text: blocks separated by blank lines, table rows as tab-separated cells. */
export function renderText(model: StructureModel): string {
  void model;
  return '';
}

/** Markdown: headings by level, lists with their markers, tables as pipe tables. */
export function renderMarkdown(model: StructureModel): string {
  void model;
  return '';
}
