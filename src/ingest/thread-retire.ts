import type v8 from 'node:v8';

/**
 * A reading or analysing thread asks to be replaced when its heap, right after a document, holds
 * more than half its limit: whatever documents leave behind must not pile up. (Garbage of the last
 * document counts too, so a large one may retire a thread early: that costs a warm-up, not a failure.)
 */
export function heapCrowded(stats: Pick<v8.HeapInfo, 'used_heap_size' | 'heap_size_limit'>): boolean {
  return stats.used_heap_size > stats.heap_size_limit / 2;
}
