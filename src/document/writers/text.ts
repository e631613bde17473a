import type { List, ListItem, StructureModel, StructureNode, Table } from '../structure.js';
import { isFurniture } from '../structure.js';

/*
 * Both renderers leave out page furniture (running headers, footers, page numbers, invisible tags):
 * it repeats on every page and would cut the body text into pieces. DGML keeps it.
 */

/** Plain text: blocks separated by blank lines, table rows as tab-separated cells. */
export function renderText(model: StructureModel): string {
  return document(textBlocks(model.nodes));
}

/** Markdown: headings by level, lists with their markers, tables as pipe tables. */
export function renderMarkdown(model: StructureModel): string {
  return document(markdownBlocks(model.nodes));
}

function document(blocks: string[]): string {
  return blocks.length ? blocks.join('\n\n') + '\n' : '';
}

function textBlocks(nodes: readonly StructureNode[]): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    switch (n.type) {
      case 'paragraph':
        if (!isFurniture(n.role) && n.leaf.text) out.push(n.leaf.text);
        break;
      case 'section':
        if (n.heading.text) out.push(n.heading.text);
        out.push(...textBlocks(n.children));
        break;
      case 'list':
        pushIfAny(out, listLines(n, (item) => (item.marker?.text ? item.marker.text + ' ' : ''), textBlocks, '\n'));
        break;
      case 'table':
        pushIfAny(out, n.rows.map((row) => row.cells.map((c) => c.leaf.text).join('\t')));
        break;
    }
  }
  return out;
}

function markdownBlocks(nodes: readonly StructureNode[]): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    switch (n.type) {
      case 'paragraph':
        if (!isFurniture(n.role) && n.leaf.text) out.push(escapeLineStart(escapeInline(n.leaf.text)));
        break;
      case 'section':
        if (n.heading.text) out.push(`${'#'.repeat(Math.min(Math.max(n.level, 1), 6))} ${escapeInline(n.heading.text).replace(/#+$/, (h) => '\\' + h)}`);
        out.push(...markdownBlocks(n.children));
        break;
      case 'list':
        pushIfAny(out, listLines(n, (item) => markdownMarker(n, item), markdownBlocks, '\n\n'));
        break;
      case 'table':
        pushIfAny(out, pipeTable(n));
        break;
    }
  }
  return out;
}

function pushIfAny(out: string[], lines: string[]): void {
  if (lines.length) out.push(lines.join('\n'));
}

/**
 * One item per line, marker first; the item's further blocks (and nested lists) follow, separated by
 * `between`, on lines indented to the item's text, so nesting shows and Markdown keeps them inside the item.
 */
function listLines(list: List, marker: (item: ListItem) => string, blocks: (nodes: readonly StructureNode[]) => string[], between: string): string[] {
  const lines: string[] = [];
  for (const item of list.items) {
    const prefix = marker(item);
    const body = blocks(item.children).join(between).split('\n');
    if (!prefix.trim() && !body.join('')) continue;
    const indent = ' '.repeat(prefix.length);
    lines.push((prefix + body[0]).trimEnd(), ...body.slice(1).map((line) => (line ? indent + line : line)));
  }
  return lines;
}

/** Markdown only numbers with `1.` or `1)`; other printed markers ("(a)", "iv.", "•") stay as text after a bullet. */
function markdownMarker(list: List, item: ListItem): string {
  const printed = item.marker?.text ?? '';
  if (list.ordered && /^\d{1,9}[.)]$/.test(printed)) return printed + ' ';
  if (!list.ordered || !printed) return '- ';
  return `- ${escapeInline(printed)} `;
}

/** A pipe table with the first row as its header; merged cells are repeated as empty cells. */
function pipeTable(table: Table): string[] {
  const grid = tableGrid(table);
  const width = Math.max(0, ...grid.map((r) => r.length));
  if (!width) return [];
  const line = (cells: string[]): string => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [header = [], ...body] = grid;
  return [line(header), line(Array<string>(width).fill('---')), ...body.map(line)];
}

/** Cell texts on a grid: a colspan or rowspan cell holds its text in its first slot, the others empty. */
function tableGrid(table: Table): string[][] {
  const grid: string[][] = table.rows.map(() => []);
  table.rows.forEach((row, r) => {
    let col = 0;
    for (const cell of row.cells) {
      while (grid[r]![col] !== undefined) col++;
      const text = escapeInline(cell.leaf.text).replace(/\|/g, '\\|');
      const rowspan = span(cell.rowspan);
      const colspan = span(cell.colspan);
      for (let dr = 0; dr < rowspan && r + dr < grid.length; dr++) {
        for (let dc = 0; dc < colspan; dc++) grid[r + dr]![col + dc] = dr === 0 && dc === 0 ? text : '';
      }
      col += colspan;
    }
  });
  return grid.map((row) => Array.from(row, (cell) => cell ?? ''));
}

const span = (n: number): number => (Number.isInteger(n) && n > 1 ? n : 1);

/** Characters that would start emphasis, code, links or HTML; `&` only where it would read as an entity. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>~]/g, '\\$&').replace(/&(?=#?\w+;)/g, '\\&');
}

/** A paragraph that starts like a heading, quote, list item or rule must stay a paragraph. */
function escapeLineStart(text: string): string {
  return text.replace(/^([#+=-])/, '\\$1').replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
}
