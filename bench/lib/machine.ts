// Helpers shared by bench/ingest and bench/upload: CPU and memory of processes (Linux /proc), the
// machine's busy time, waiting for a quiet machine, the git state and the machine note.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { ROOT } from '../../test/helpers/quire.js';

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got "${raw}")`);
  return n;
}

/** User + system CPU seconds a process (all its threads) has used so far, or NaN. */
export function cpuSeconds(pid: number, reapedChildren = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
  } catch {
    return NaN;
  }
}

/** Busy CPU seconds of the whole machine so far (/proc/stat), or NaN. */
export function machineBusySeconds(): number {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
  } catch {
    return NaN;
  }
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM, …), or NaN when the process is gone. */
export function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The live descendants of `pid` (children, grandchildren, …), not `pid` itself. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // ended meanwhile
    }
  }
  const out: number[] = [];
  const stack = [...(children.get(pid) ?? [])];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

export interface RssSampler {
  /** Stops sampling; returns the samples. */
  stop: () => RssSamples;
  /** The samples so far. */
  samples: () => RssSamples;
}
export interface RssSamples {
  /** Peak VmRSS of the process (threads included: they share it). */
  peakProcess: number;
  /** Peak of the process's VmRSS plus that of all its descendant processes at the same instant. */
  peakTree: number;
  /** The most descendant processes seen at once. */
  maxDescendants: number;
  count: number;
  /** [ms since start, process VmRSS bytes] every sample. */
  series: [number, number][];
}

/** Samples VmRSS of `pid` (and of its descendants, if `tree`) every `everyMs`. */
export function sampleRss(pid: number, everyMs = 100, tree = true): RssSampler {
  const s: RssSamples = { peakProcess: 0, peakTree: 0, maxDescendants: 0, count: 0, series: [] };
  const t0 = performance.now();
  const take = () => {
    const own = procStatusBytes(pid, 'VmRSS');
    if (!Number.isFinite(own)) return;
    let total = own;
    if (tree) {
      const kids = descendants(pid);
      s.maxDescendants = Math.max(s.maxDescendants, kids.length);
      for (const k of kids) total += procStatusBytes(k, 'VmRSS') || 0;
    }
    s.peakProcess = Math.max(s.peakProcess, own);
    s.peakTree = Math.max(s.peakTree, total);
    s.count++;
    s.series.push([Math.round(performance.now() - t0), own]);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return s;
    },
    samples: () => s,
  };
}

/**
 * Waits (up to BENCH_QUIET_WAIT s, default 180) until other processes use less than a fifth of a
 * core over one second. Returns the share of a core they used in the last second looked at.
 */
export async function waitForQuiet(): Promise<number> {
  const limit = Date.now() + 1000 * envNumber('BENCH_QUIET_WAIT', 180);
  let said = false;
  for (;;) {
    const b0 = machineBusySeconds();
    const own0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1000));
    const own = process.cpuUsage(own0);
    const busy = machineBusySeconds() - b0 - own.user / 1e6 - own.system / 1e6;
    if (!(busy > 0.2)) return Math.max(0, busy);
    if (Date.now() > limit) {
      console.log(`  the machine is still busy (${Math.round(100 * busy)}% of a core used by other processes): measuring anyway`);
      return busy;
    }
    if (!said) console.log(`  waiting for the machine to be quiet (${Math.round(100 * busy)}% of a core used by other processes)`);
    said = true;
  }
}

/**
 * CPU accounting of a measurement window: the share of one core used by the given processes (each
 * read with its reaped children) and by this process, and everything else on the machine ("other").
 */
export function cpuWindow(pids: () => number[]) {
  const read = () => pids().reduce((sum, p) => sum + (cpuSeconds(p, true) || 0), 0);
  const s0 = read();
  const own0 = process.cpuUsage();
  const busy0 = machineBusySeconds();
  const t0 = performance.now();
  return () => {
    const elapsed = (performance.now() - t0) / 1000;
    const served = read() - s0;
    const ownU = process.cpuUsage(own0);
    const own = (ownU.user + ownU.system) / 1e6;
    const busy = machineBusySeconds() - busy0;
    return {
      seconds: elapsed,
      server: served / elapsed,
      client: own / elapsed,
      other: Math.max(0, (busy - served - own) / elapsed),
    };
  };
}

/** The commit measured, and whether src/ differed from it. */
export function gitState(): { commit: string; srcDirty: boolean } | null {
  const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git(['rev-parse', 'HEAD']);
  if (head.status !== 0) return null;
  const status = git(['status', '--porcelain', '--', 'src']);
  return { commit: head.stdout.trim(), srcDirty: status.stdout.trim() !== '' };
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** Prints rows as an aligned table; columns in `right` are right-aligned. */
export function printTable(rows: string[][], right: Set<number>): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((v, c) => (right.has(c) ? v.padStart(widths[c]!) : v.padEnd(widths[c]!))).join('  ').trimEnd());
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

export const MiB = 1024 * 1024;
export const fmtMiB = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
