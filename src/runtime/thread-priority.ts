import fs from 'node:fs';
import os from 'node:os';

/** The kernel's id of the calling thread (Linux: from /proc/thread-self), or null elsewhere. */
export function currentThreadOsId(): number | null {
  try {
    const m = /\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the CPU priority of the calling thread only: Linux keeps the nice value per thread, and
 * `setpriority` given a thread id changes that thread alone (child processes it spawns, such as the
 * tesseract CLI, inherit it). Priority can only be lowered without privileges, which is all this does.
 * Returns whether it took effect (false off Linux: the thread then runs at the process's priority).
 */
export function lowerThisThreadPriority(nice: number): boolean {
  const tid = currentThreadOsId();
  if (tid === null || nice <= 0) return false;
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
