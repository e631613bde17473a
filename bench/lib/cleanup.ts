import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What a benchmark started or wrote is stopped and removed at its end, also on Ctrl-C.

const cleanups: (() => Promise<unknown> | unknown)[] = [];

/** Registers a clean-up step; steps run in reverse order. */
export function onCleanUp(fn: () => Promise<unknown> | unknown): void {
  cleanups.push(fn);
}

export async function cleanUp(): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (err) {
      console.error(`clean-up: ${(err as Error).message}`);
    }
  }
}

process.on('SIGINT', () => {
  console.error('\ninterrupted: cleaning up');
  void cleanUp().then(() => process.exit(130));
});

/** A temporary directory removed at clean-up. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanUp(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
