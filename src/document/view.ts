import type { Box, Leaf, ParagraphRole, Section, StructureModel, StructureNode, Table, TableCell } from './structure.js';
import { wordsOf } from './structure.js';

/** Where a table cell sits in its table's grid (rowspans and colspans taken into account). */
export interface CellPlace {
  table: Table;
  row: number;
  col: number;
  cell: TableCell;
}

/** One leaf of the document with what extraction needs to know about it. */
export interface LeafInfo {
  index: number;
  leaf: Leaf;
  kind: 'heading' | 'paragraph' | 'marker' | 'cell';
  /** For paragraphs. */
  role?: ParagraphRole;
  place?: CellPlace;
}

/** A section with the leaf index of its heading and the range of leaves of its body. */
export interface SectionInfo {
  section: Section;
  heading: number;
  /** Body leaves: `[firstBody, end)`. */
  firstBody: number;
  end: number;
}

/**
 * The document as extraction reads it: leaves in `leaves()` order with their kind, table cells by
 * grid position, and sections by leaf range. Built once per document, in one pass.
 */
export class DocView {
  readonly leaves: LeafInfo[] = [];
  readonly sections: SectionInfo[] = [];
  /** Per table: grid cell → leaf index ("row,col" of every grid slot a cell covers). */
  private readonly grids = new Map<Table, Map<string, number>>();

  constructor(readonly structure: StructureModel) {
    this.walk(structure.nodes);
  }

  private add(leaf: Leaf, kind: LeafInfo['kind'], extra: Partial<LeafInfo> = {}): number {
    const index = this.leaves.length;
    this.leaves.push({ index, leaf, kind, ...extra });
    return index;
  }

  private walk(nodes: readonly StructureNode[]): void {
    for (const n of nodes) {
      switch (n.type) {
        case 'paragraph':
          this.add(n.leaf, 'paragraph', { role: n.role });
          break;
        case 'section': {
          const heading = this.add(n.heading, 'heading');
          this.walk(n.children);
          this.sections.push({ section: n, heading, firstBody: heading + 1, end: this.leaves.length });
          break;
        }
        case 'list':
          for (const item of n.items) {
            if (item.marker) this.add(item.marker, 'marker');
            this.walk(item.children);
          }
          break;
        case 'table':
          this.table(n);
          break;
      }
    }
  }

  private table(t: Table): void {
    const grid = new Map<string, number>();
    this.grids.set(t, grid);
    t.rows.forEach((row, r) => {
      let col = 0;
      for (const cell of row.cells) {
        while (grid.has(`${r},${col}`)) col++;
        const index = this.add(cell.leaf, 'cell', { place: { table: t, row: r, col, cell } });
        for (let dr = 0; dr < Math.max(1, cell.rowspan); dr++) {
          for (let dc = 0; dc < Math.max(1, cell.colspan); dc++) grid.set(`${r + dr},${col + dc}`, index);
        }
        col += Math.max(1, cell.colspan);
      }
    });
  }

  /** The leaf of the cell at a grid slot, or undefined. */
  cellAt(table: Table, row: number, col: number): LeafInfo | undefined {
    const index = this.grids.get(table)?.get(`${row},${col}`);
    return index === undefined ? undefined : this.leaves[index];
  }

  /** The cell right of a cell (first slot past its colspan), left of it, and below it. */
  rightOf(place: CellPlace): LeafInfo | undefined {
    return this.cellAt(place.table, place.row, place.col + Math.max(1, place.cell.colspan));
  }

  leftOf(place: CellPlace): LeafInfo | undefined {
    return place.col > 0 ? this.cellAt(place.table, place.row, place.col - 1) : undefined;
  }

  below(place: CellPlace): LeafInfo | undefined {
    return this.cellAt(place.table, place.row + Math.max(1, place.cell.rowspan), place.col);
  }

  private readonly wordCounts: (number | undefined)[] = [];

  /** How many words the leaf has (worked out once). */
  wordCount(index: number): number {
    let n = this.wordCounts[index];
    if (n === undefined) {
      n = wordsOf(this.leaves[index]!.leaf.text).length;
      this.wordCounts[index] = n;
    }
    return n;
  }

  /** The leaf's position: its first box. */
  location(index: number): { page: number; boundingBox: Box } | null {
    const info = this.leaves[index];
    const box = info?.place?.cell.boxes[0] ?? info?.leaf.boxes[0];
    return box ? { page: box.page, boundingBox: box } : null;
  }
}
