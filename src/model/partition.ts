import { createHash } from 'node:crypto';

/**
 * The hashed key space that partitioned continuation (`next: [{token, range}]` in the operation-style
 * interface) slices: every listed resource has a 16-bit partition key derived from its id, stored in
 * a `pkey` column beside the id so a range is an index scan. Ranges print as 4 hex digits.
 */
export const PARTITION_KEYS = 0x10000;

export function partitionKeyOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt16BE(0);
}

export function partitionHex(key: number): string {
  return key.toString(16).padStart(4, '0');
}

/** A slice of the key space, bounds inclusive. */
export interface KeyRange {
  min: number;
  max: number;
}

/** A page of one slice, in (pkey, id) order, strictly after `after`. */
export interface PartitionPageRequest {
  range: KeyRange;
  after?: { pkey: number; id: string };
  limit: number;
}

export interface PartitionPage<T> {
  items: T[];
  /** Where the next page of the slice starts, or null when the slice is exhausted. */
  nextAfter: { pkey: number; id: string } | null;
}
