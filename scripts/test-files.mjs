// The test files `npm test` runs: every `*.test.ts` under test/, at any depth, found by Node's own glob
// (Node 22+), so that a file added anywhere runs without being listed. Helpers and fixtures are not
// named `*.test.ts`. Sorted, so that runs start the files in the same order.
import fs from 'node:fs';
import path from 'node:path';

/** Paths relative to `root`, with `/` separators, of every `*.test.ts` under `root/dir`. */
export function testFiles(root = process.cwd(), dir = 'test') {
  return fs
    .globSync(`${dir}/**/*.test.ts`, { cwd: root })
    .map((p) => p.split(path.sep).join('/'))
    .sort();
}
