import type { PageModel } from '../../document/pages.js';
import type { Table } from '../../document/structure.js';
import { alignedTables } from './tables/aligned.js';
import { buildTable, type TableDraft } from './tables/draft.js';
import { keyValueForms, markFormRoles } from './tables/form.js';
import { ruledTables } from './tables/grid.js';
import { labelColumnForms } from './tables/label-column.js';
import { rowRuledTables } from './tables/row-ruled.js';

/** The tables found on one page, and which of the page's text items (indices into `page.items`) they hold. */
export interface PageTables {
  tables: Table[];
  consumed: Set<number>;
}

/**
 * Ruled tables (from `page.rules`), then unruled key/value forms, then unruled tables of aligned
 * columns, then tables ruled between their rows only, then forms of a label column beside values
 * that wrap, each finder seeing only the items the earlier ones left. Tables come out top to bottom.
 */
export function detectTables(page: PageModel): PageTables {
  const free = page.items.map(() => true);
  const drafts: TableDraft[] = [];
  const take = (found: TableDraft[]): void => {
    for (const d of found) {
      drafts.push(d);
      for (const c of d.cells) for (const i of c.items) free[i] = false;
      for (const i of d.ignored ?? []) free[i] = false;
    }
  };
  const ruled = ruledTables(page, free);
  for (const d of ruled) markFormRoles(page, d);
  take(ruled);
  take(keyValueForms(page, free));
  take(alignedTables(page, free));
  take(rowRuledTables(page, free));
  take(labelColumnForms(page, free));
  drafts.sort((a, b) => a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left);
  const consumed = new Set<number>();
  for (const d of drafts) for (const i of [...d.cells.flatMap((c) => c.items), ...(d.ignored ?? [])]) consumed.add(i);
  return { tables: drafts.map((d) => buildTable(page, d)), consumed };
}
