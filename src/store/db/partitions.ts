import type { PartitionPage } from '../../model/partition.js';

/**
 * Turns `limit + 1` rows read in (pkey, id) order into one page of a key range: the extra row only
 * says that more follow. Rows written before migration 0010 set their key have none: they cannot be
 * in a range, so they never reach here.
 */
export function partitionPage<R extends { pkey: number | null; id: string }, T>(rows: R[], limit: number, map: (row: R) => T): PartitionPage<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(map), nextAfter: more && last ? { pkey: Number(last.pkey), id: last.id } : null };
}
