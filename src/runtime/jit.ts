import v8 from 'node:v8';

/**
 * V8 settings for `serve` and `worker`. (Until Node 20 the interrupt budget was set here too, to 300,000:
 * Node 24's V8 no longer has `--interrupt-budget`, it counts invocations per tier instead, and
 * `setFlagsFromString` only logged "unrecognized flag". Every flag Quire sets is checked against
 * `node --v8-options` by test/unit/jit.test.ts.)
 */
export interface JitTuning {
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
 * V8 flags are per process: set before the threads start, they hold for them (the main isolate's
 * heap is already sized).
 */
export function tuneJit(tuning: JitTuning): void {
  if (tuning.initialOldSpaceMb > 0) v8.setFlagsFromString(`--initial-old-space-size=${Math.round(tuning.initialOldSpaceMb)}`);
}
