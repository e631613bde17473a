/**
 * A test file's scratch: one folder under the OS temp directory (`quire-test-<pid>-…`), holding every
 * temporary directory the file and the processes it starts make, removed when the test process
 * exits, whether its tests passed, failed or threw, and on SIGINT, SIGTERM and SIGHUP. Before the
 * folder goes, the cleanups registered with `atExit` run (latest first): servers still running are
 * killed, PostgreSQL clusters stopped.
 *
 * Importing this module makes the folder and points this process's TMPDIR at its `tmp` subfolder,
 * so that what the code under test, LibreOffice, Chromium and other libraries put in `os.tmpdir()`
 * lands there too; `scratchEnv()` gives child processes the same. A process killed with SIGKILL
 * cannot clean up: `npm test` runs every file under one per-run folder and reports what is left
 * there and in /tmp (`scripts/run-tests.mjs`).
 *
 * Everything here is synchronous: an `exit` listener cannot wait.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The temp directory this process was started with. */
const OUTER_TMP = fs.realpathSync(os.tmpdir());
const cleanups: (() => void)[] = [];

/** This process's scratch folder (traversable by others: PostgreSQL runs as `postgres` under root). */
const ROOT = fs.mkdtempSync(path.join(OUTER_TMP, `quire-test-${process.pid}-`));
fs.chmodSync(ROOT, 0o755);
/** The TMPDIR of this process and of the processes it starts. */
const TMP = path.join(ROOT, 'tmp');
fs.mkdirSync(TMP);
fs.chmodSync(TMP, 0o1777);
linkTsxCache(TMP, OUTER_TMP);
process.env.TMPDIR = TMP;

let removed = false;
process.once('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    cleanUp();
    // Ends as the signal would have ended it, unless another listener (node:test's, a bench's) handles it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

export function scratchRoot(): string {
  return ROOT;
}

/** The temp directory the process was started with, for what must outlive it (a bench's kept data). */
export function outerTmpdir(): string {
  return OUTER_TMP;
}

/** A new empty directory in this process's scratch folder, gone when the process exits. */
export function scratchDir(prefix = 'dir-'): string {
  return fs.mkdtempSync(path.join(ROOT, prefix));
}

/**
 * The environment a child process needs to keep its temporary files in the scratch folder: TMPDIR,
 * and the CLI's upload-session folder (`~/.cache/quire/uploads` otherwise).
 */
export function scratchEnv(): NodeJS.ProcessEnv {
  return { TMPDIR: TMP, QUIRE_CLI_STATE_DIR: path.join(ROOT, 'cli-state') };
}

/** Runs `fn` (synchronously) when the process exits, before the scratch folder is removed; returns a function that unregisters it. */
export function atExit(fn: () => void): () => void {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/**
 * tsx keeps its compile cache in `$TMPDIR/tsx-<uid>`: a link to the outer one keeps it shared, so a
 * server started with the scratch TMPDIR does not compile every module again (and leaves no cache
 * behind). `scripts/run-tests.mjs` does the same for its per-run folder.
 */
export function linkTsxCache(tmp: string, outer: string): void {
  const name = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
  const target = path.join(outer, name);
  try {
    fs.mkdirSync(target, { recursive: true });
    fs.symlinkSync(target, path.join(tmp, name));
  } catch {
    // no cache shared: slower, not wrong
  }
}

function cleanUp(): void {
  if (removed) return;
  removed = true;
  while (cleanups.length) {
    try {
      cleanups.pop()!();
    } catch {
      // best effort: the folder is removed all the same
    }
  }
  // A process killed a moment ago may still be writing its last files (LibreOffice's profile): try again.
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.rmSync(ROOT, { recursive: true, force: true, maxRetries: 3 });
      if (!fs.existsSync(ROOT)) return;
    } catch {
      // ENOTEMPTY while something still writes
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}
