/**
 * Where LibreOffice's working folders go: one per conversion or resident LibreOffice, its profile, its
 * input and output and its own temporary files (`lu*.tmp`), removed when it ends, with the request
 * pipe LibreOffice made in /tmp for that profile (`office-pipes.ts`). Under Quire's data
 * directory once the process says so (`useOfficeRoot`), else the system's temporary directory. A
 * folder is named after its process, so that a process starting later can tell the folders of a
 * process that died (SIGKILL, power loss) from the live ones of another and remove them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { processAlive } from '../../../runtime/process-alive.js';
import { removePipes, requestPipeName } from './office-pipes.js';

let root: string | null = null;

/**
 * How the pool ends a LibreOffice process a stopped thread left: `group`, a process group of its own
 * (a conversion's `timeout`, `soffice` and `soffice.bin`), killed whole; `watchdog`, a resident's
 * watchdog shell, sent SIGTERM, on which it kills its LibreOffice and removes its pipes and folder.
 */
export type OfficeEnd = 'group' | 'watchdog';

/** What a thread tells the pool about its LibreOffices, in order (`reportOfficeTo`). */
export type OfficeEvent =
  | { kind: 'folder-made'; dir: string }
  | { kind: 'started'; dir: string; pid: number; end: OfficeEnd }
  | { kind: 'exited'; dir: string; pid: number }
  | { kind: 'folder-removed'; dir: string };

let report: ((event: OfficeEvent) => void) | null = null;

/**
 * Tells `listener` of each working folder made and removed, and each LibreOffice process started
 * and ended in it, by this thread. A LibreOffice is a process of the whole process, not of the
 * thread that started it: when a thread is stopped (over its time limit) or crashes, its
 * conversion's LibreOffice would run on, and its folder and pipe stay. The reading thread forwards
 * these to the pool (read-thread.ts), which ends what the thread left (office-orphans.ts).
 */
export function reportOfficeTo(listener: ((event: OfficeEvent) => void) | null): void {
  report = listener;
}

export function reportOffice(event: OfficeEvent): void {
  report?.(event);
}

/** Sets the folder conversions work under (created if missing). */
export function useOfficeRoot(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  root = dir;
}

/** A new working folder for one LibreOffice (`kind`: a conversion's or a resident's). */
export function makeOfficeDir(kind: 'soffice' | 'office'): string {
  const dir = fs.mkdtempSync(path.join(root ?? os.tmpdir(), `quire-${kind}-${process.pid}-`));
  reportOffice({ kind: 'folder-made', dir });
  return dir;
}

/** The profile LibreOffice is given in the working folder `dir`: its path and its URL. */
export function profileOf(dir: string): { path: string; url: string } {
  const profile = path.join(dir, 'profile');
  return { path: profile, url: pathToFileURL(profile).href };
}

/** Removes the working folder `dir` and its LibreOffice's request pipe, once that LibreOffice has ended. */
export async function removeOfficeDir(dir: string): Promise<void> {
  removeRequestPipe(dir);
  await fs.promises.rm(dir, { recursive: true, force: true });
  reportOffice({ kind: 'folder-removed', dir });
}

function removeRequestPipe(dir: string): void {
  removePipes(requestPipeName(profileOf(dir).url));
}

const OWNED = /^quire-(?:soffice|office)-(\d+)-/u;

/** Removes the working folders under `dir` of processes that are no longer running; returns how many. */
export function removeDeadOfficeDirs(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(OWNED.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    removeRequestPipe(path.join(dir, name));
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
