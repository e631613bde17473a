import { SaxesParser } from 'saxes';

/**
 * Counts of structural elements in a DGML document. Headings are counted where readers meet them,
 * outside tables (`h1`), and apart inside table cells (`h1InTables`): a reader takes a table as one
 * chunk (../shared/docs/DGML.md), where label cells are `div`s, yet the reference DGML of one NTSB
 * report marks 13 of its form's bold label cells `h1` ("Location:", not "Registration:", set alike)
 * and that of the other report, the same bold labels, none.
 */
export interface StructureCounts {
  table: number;
  h1: number;
  h1InTables: number;
  li: number;
  td: number;
}

export function structureCounts(xml: string): StructureCounts {
  const counts: StructureCounts = { table: 0, h1: 0, h1InTables: 0, li: 0, td: 0 };
  const parser = new SaxesParser({ xmlns: true });
  const open: (string | undefined)[] = [];
  let inCells = 0;
  parser.on('opentag', (t) => {
    const s = t.attributes.structure;
    const v = typeof s === 'string' ? s : s?.value;
    open.push(v);
    if (v === 'h1') {
      if (inCells > 0) counts.h1InTables++;
      else counts.h1++;
    } else if (v === 'table' || v === 'li' || v === 'td') counts[v]++;
    if (v === 'td') inCells++;
  });
  parser.on('closetag', () => {
    if (open.pop() === 'td') inCells--;
  });
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  return counts;
}
