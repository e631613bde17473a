import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../test/helpers/quire.js';

export const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Writes a bench run's result as `bench/results/{name}-{start time}.json` and says where. */
export function writeResults(name: string, started: Date, out: unknown): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nresults: ${path.relative(ROOT, file)}`);
  return file;
}
