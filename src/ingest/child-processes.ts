/**
 * The processes this thread started (tesseract, LibreOffice) that have not exited yet.
 *
 * A child process is waited for (reaped) by the event loop of the thread that started it. Once that
 * thread is terminated nothing waits for it any more: when it exits it stays a zombie of the process
 * until the process ends. So a thread with children is not terminated outright: the pool asks it to
 * end them first (`endChildren`, on its `stop` request: read-thread.ts), and the thread's own loop
 * reaps them before it goes.
 */
import type { ChildProcess } from 'node:child_process';

/**
 * How a child is ended: `group`, its whole process group is killed (a conversion started in a group
 * of its own, or a command under coreutils `timeout`, which leads one); `watchdog`, it is sent
 * SIGTERM and ends what it watches itself (a resident LibreOffice's shell: office-resident.ts).
 */
export type ChildEnd = 'group' | 'watchdog';

const live = new Map<ChildProcess, ChildEnd>();
let report: ((live: number) => void) | undefined;

/** Where the count of live children goes whenever it changes (read-thread.ts posts it to the pool). */
export function reportChildrenTo(listener: (live: number) => void): void {
  report = listener;
}

/** Counts `child` as live until it exits (its 'exit' comes once it has been reaped). */
export function trackChild(child: ChildProcess, end: ChildEnd = 'group'): void {
  // A spawn that failed has no process: its 'error' follows, and there is nothing to reap.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  live.set(child, end);
  report?.(live.size);
  child.once('exit', () => {
    live.delete(child);
    report?.(live.size);
  });
}

export function liveChildren(): number {
  return live.size;
}

/** Ends every live child and resolves once they have all exited and been reaped, or after `withinMs`. */
export async function endChildren(withinMs: number): Promise<void> {
  const exits = [...live].map(([child, end]) => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signal(child, end);
    return exited;
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(exits), new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
}

function signal(child: ChildProcess, end: ChildEnd): void {
  const pid = child.pid!;
  try {
    if (end === 'watchdog') process.kill(pid, 'SIGTERM');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Not (yet) the leader of a group of its own ("timeout" sets one up as it starts): the child alone.
    child.kill('SIGKILL');
  }
}

/** A thread's answer to the pool's `stop` request: its children ended and reaped, it exits. */
export async function endChildrenAndExit(withinMs: number): Promise<never> {
  await endChildren(withinMs);
  process.exit(0);
}
