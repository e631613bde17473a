/**
 * The LibreOffices a thread left when it was stopped (over its time limit, aborted) or crashed: a
 * thread's child processes are the process's and run on without it, a conversion's until its OS
 * deadline (2 minutes), a resident's until its watchdog notices; their working folders and request
 * pipes stayed until the next start. The pool keeps what each thread reports (`OfficeHeld`) and ends
 * them here, from the main thread.
 */
import fs from 'node:fs';
import { removeOfficeDir, type OfficeEnd, type OfficeEvent } from './office-dirs.js';

/** A thread's working folders in use, with the LibreOffice processes running in each. */
export class OfficeHeld {
  private readonly folders = new Map<string, Map<number, OfficeEnd>>();

  note(event: OfficeEvent): void {
    if (event.kind === 'folder-made') this.folders.set(event.dir, new Map());
    else if (event.kind === 'folder-removed') this.folders.delete(event.dir);
    else if (event.kind === 'started') {
      // A folder made before this thread forwarded its events (none today) is still the thread's.
      const processes = this.folders.get(event.dir) ?? new Map<number, OfficeEnd>();
      this.folders.set(event.dir, processes.set(event.pid, event.end));
    } else this.folders.get(event.dir)?.delete(event.pid);
  }

  get size(): number {
    return this.folders.size;
  }

  /** Ends every LibreOffice still held and removes the folders (with their request pipes) once they have exited. */
  async end(graceMs = GRACE_MS): Promise<void> {
    const folders = [...this.folders];
    this.folders.clear();
    await Promise.all(folders.map(([dir, processes]) => endFolder(dir, processes, graceMs)));
  }
}

/** How long a resident's watchdog is given to end its LibreOffice before its group is killed. */
const GRACE_MS = 5_000;

async function endFolder(dir: string, processes: Map<number, OfficeEnd>, graceMs: number): Promise<void> {
  for (const [pid, end] of processes) {
    // A conversion has no use for a graceful end (its output would go unread): the whole group is
    // killed, as at its own timeout. A resident's watchdog kills its LibreOffice (in a session of its
    // own, which only the watchdog knows) and removes its pipes and folder.
    if (end === 'group') signal(-pid, 'SIGKILL');
    else signal(pid, 'SIGTERM');
  }
  const pids = [...processes.keys()];
  if (!(await groupsEnded(pids, graceMs))) {
    for (const pid of pids) signal(-pid, 'SIGKILL');
    await groupsEnded(pids, 1_000);
  }
  await removeOfficeDir(dir).catch(() => {});
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Polls until no process of the groups led by `pgids` runs, or `withinMs` passed; returns whether none does. */
async function groupsEnded(pgids: number[], withinMs: number): Promise<boolean> {
  const until = performance.now() + withinMs;
  for (;;) {
    const running = runningGroups();
    if (!pgids.some((pgid) => (running ? running.has(pgid) : groupSignalled(pgid)))) return true;
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The process groups with a process that has not exited (Linux: /proc), or null where there is no
 * /proc. A zombie does not count: the children of a thread that crashed, or was too busy to end them
 * when the pool stopped it (child-processes.ts), are never waited for (the thread's event loop that
 * would have is gone), so the group leader stays a zombie of this process.
 */
function runningGroups(): Set<number> | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const groups = new Set<number>();
  for (const entry of entries) {
    if (!/^\d+$/u.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // ended meanwhile
    }
    // `pid (comm) state ppid pgrp …`; comm may hold spaces and brackets.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z' && state !== 'X') groups.add(Number(pgrp));
  }
  return groups;
}

/** Whether a signal still reaches a process of the group (zombies included): where there is no /proc. */
function groupSignalled(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
