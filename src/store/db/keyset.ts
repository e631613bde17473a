import type { Page } from '../../model/records.js';

/** Turns `limit + 1` rows read in id order into one page: the extra row only says that more follow. */
export function keysetPage<R, T extends { id: string }>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const items = (more ? rows.slice(0, limit) : rows).map(map);
  return { items, nextAfter: more ? items[items.length - 1]!.id : null };
}
