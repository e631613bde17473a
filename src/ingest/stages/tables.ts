import type { PageModel } from '../model.js';
import type { Table } from '../structure.js';

/** The tables found on one page, and which of the page's text items (indices into `page.items`) they hold. */
export interface PageTables {
  tables: Table[];
  consumed: Set<number>;
}

/** Ruled tables (from `page.rules`), unruled ones (aligned columns) and key/value forms on a page. */
export function detectTables(page: PageModel): PageTables {
  void page;
  return { tables: [], consumed: new Set() };
}
