import v8 from 'node:v8';

/**
 * Sets V8's interrupt budget: how much bytecode a function runs between the checks that may send it
 * to the optimising compiler. V8's default (67,584) suits a browser page; here every reading and
 * analysing thread is its own isolate that compiles its own code, and a batch of documents right
 * after start-up spent about a third of its CPU optimising (and re-optimising) functions that ran a
 * few times. With a larger budget only the really hot code is optimised, a little later: at 300,000 a
 * fresh server's first batch took ~15% less CPU and time in bench/ingest, a warm one's ~10% less
 * (bench/README.md). Larger budgets gained little more and made the HTTP path of bench/api slower.
 * Code that stays hot ends optimised all the same.
 *
 * V8 flags are per process: set before the worker threads start, it holds for them and for code of
 * this thread not yet counted. 0 leaves V8's default.
 */
export function tuneJit(interruptBudget: number): void {
  if (interruptBudget > 0) v8.setFlagsFromString(`--interrupt-budget=${Math.round(interruptBudget)}`);
}
