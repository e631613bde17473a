import v8 from 'node:v8';

export interface JitTuning {
  /**
   * V8's interrupt budget: how much bytecode a function runs between the checks that may send it to
   * the optimising compiler. V8's default (67,584) suits a browser page; here every reading and
   * analysing thread is its own isolate that compiles its own code, and a batch of documents right
   * after start-up spent about a third of its CPU optimising (and re-optimising) functions that ran a
   * few times. With a larger budget only the really hot code is optimised, a little later: at 300,000
   * a fresh server's first batch took ~15% less CPU and time in bench/ingest, a warm one's ~10% less
   * (bench/README.md). Larger budgets gained little more and made the HTTP path of bench/api slower.
   * 0 leaves V8's default.
   */
  interruptBudget: number;
  /**
   * The old generation a new isolate starts with, in MiB (V8 sizes it from the heap limit, about
   * 30-40 MiB here). A full mark-compact discards the optimised code of short-lived closures (a sort
   * comparator made per call holds its code only weakly) and compiled regular expressions, and V8 then
   * compiles them again: perf showed about 13% of a warm server's CPU in the optimising compiler. An
   * analysing thread grows its heap to 30-40 MiB per document and mark-compacted 1-4 times per batch of
   * bench/ingest under V8's sizing. Starting at 128 MiB a warm server's batch took ~6-10% less time,
   * at 256 MiB ~5% less again, for up to ~250 MiB more peak RSS (bench/README.md). The limit a thread
   * retires at is unchanged (config keeps this under a quarter of it). 0 leaves V8's sizing.
   */
  initialOldSpaceMb: number;
}

/**
 * V8 flags are per process: set before the threads start, they hold for them (and the
 * interrupt budget for code of this thread not yet counted; the main isolate's heap is already sized).
 */
export function tuneJit(tuning: JitTuning): void {
  if (tuning.interruptBudget > 0) v8.setFlagsFromString(`--interrupt-budget=${Math.round(tuning.interruptBudget)}`);
  if (tuning.initialOldSpaceMb > 0) v8.setFlagsFromString(`--initial-old-space-size=${Math.round(tuning.initialOldSpaceMb)}`);
}
