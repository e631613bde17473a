import os from 'node:os';

/**
 * Slots for OCR engine processes, shared by every analysing thread of one process, so that the
 * pages of a scanned document are read several at a time while the process as a whole never runs
 * more engines than it has slots (each is a CPU-bound process of 50–150 MB).
 *
 * `free` counts the slots left and lives in a SharedArrayBuffer the pool hands to every thread;
 * `held` counts the slots one request holds, so that when the pool has to terminate a thread in the
 * middle of a document it gives those slots back (a terminated thread cannot).
 */
export interface OcrSlots {
  /** Slots in all (what `free` started at). */
  size: number;
  free: Int32Array;
  held: Int32Array;
}

export function sharedCounter(value: number): Int32Array {
  const counter = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  counter[0] = value;
  return counter;
}

/** Slots for callers outside the pool (tests, tools): one per core of this machine. */
let local: OcrSlots | undefined;
export function localOcrSlots(): OcrSlots {
  const size = Math.max(1, os.availableParallelism());
  local ??= { size, free: sharedCounter(size), held: sharedCounter(0) };
  return local;
}

type WaitAsync = (typed: Int32Array, index: number, value: number) => { async: boolean; value: Promise<unknown> | string };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

async function acquire({ free, held }: OcrSlots): Promise<void> {
  for (;;) {
    const left = Atomics.load(free, 0);
    if (left > 0) {
      // Counted as held before it is taken: a thread terminated between the two steps makes the pool
      // give back one slot too many (one engine more than asked, once), never lose one for good.
      Atomics.add(held, 0, 1);
      if (Atomics.compareExchange(free, 0, left, left - 1) === left) return;
      Atomics.sub(held, 0, 1);
      continue;
    }
    const wait = waitAsync(free, 0, left);
    if (wait.async) await wait.value;
  }
}

function release({ free, held }: OcrSlots): void {
  Atomics.sub(held, 0, 1);
  Atomics.add(free, 0, 1);
  Atomics.notify(free, 0, 1);
}

/** Runs `read` in a slot, waiting for one to be free. */
export async function inOcrSlot<T>(slots: OcrSlots, read: () => Promise<T>): Promise<T> {
  await acquire(slots);
  try {
    return await read();
  } finally {
    release(slots);
  }
}

/** Gives back the slots a request still holds (its thread was terminated). */
export function reclaimOcrSlots({ free, held }: OcrSlots): void {
  const n = Atomics.exchange(held, 0, 0);
  if (n > 0) {
    Atomics.add(free, 0, n);
    Atomics.notify(free, 0, n);
  }
}
