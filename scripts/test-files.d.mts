/** Paths relative to `root`, with `/` separators, of every `*.test.ts` under `root/dir`. */
export function testFiles(root?: string, dir?: string): string[];
