/**
 * Watches the pipes real LibreOffices make in /tmp (and /var/tmp), whatever their TMPDIR:
 * `OSL_PIPE_<uid>_SingleOfficeIPC_<MD5 of the profile's URL, UTF-16, bytes in hex without padding>`
 * and `OSL_PIPE_<uid>_<name>` for `--accept=pipe,name=<name>`. Other programs on the machine make
 * such pipes too: the ones watched are those of the LibreOffices (`soffice.bin`, found with `ps`)
 * whose working folder a given process made (`quire-soffice-<pid>-…`, `quire-office-<pid>-…`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export const PIPE_DIRS = ['/tmp', '/var/tmp'];

export interface OfficeProcess {
  pid: number;
  pgid: number;
  profileUrl: string;
  /** The pipes it makes, by the name after `OSL_PIPE_<uid>_`. */
  pipes: string[];
}

export interface PipeWatch {
  /** The LibreOffices of the process seen so far, by pid. */
  offices(): Map<number, OfficeProcess>;
  /** The paths of their pipes seen in /tmp or /var/tmp so far. */
  seen(): string[];
  /** The paths of their pipes there now. */
  present(): string[];
  stop(): void;
}

const requestPipe = (profileUrl: string) =>
  `SingleOfficeIPC_${[...createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest()].map((b) => b.toString(16)).join('')}`;

/** The `soffice.bin` processes whose working folder process `owner` made. */
export function officeProcesses(owner: number): OfficeProcess[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,pgid=,args=']).stdout.toString();
  const out: OfficeProcess[] = [];
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+\S*soffice\.bin .*-env:UserInstallation=(file:\/\/\S+)/.exec(line);
    if (!m || !new RegExp(`/quire-(?:soffice|office)-${owner}-`).test(m[3]!)) continue;
    const accept = /--accept=pipe,name=([^;]+);/.exec(line)?.[1];
    out.push({ pid: Number(m[1]), pgid: Number(m[2]), profileUrl: m[3]!, pipes: [requestPipe(m[3]!), ...(accept ? [accept] : [])] });
  }
  return out;
}

/** Polls `ps` and the pipe folders every `everyMs` until stopped. */
export function watchOfficePipes(owner = process.pid, everyMs = 50): PipeWatch {
  const offices = new Map<number, OfficeProcess>();
  const seen = new Set<string>();
  const present = () => {
    const names = new Set([...offices.values()].flatMap((o) => o.pipes));
    return PIPE_DIRS.flatMap((dir) => {
      let entries: string[] = [];
      try {
        entries = fs.readdirSync(dir);
      } catch {
        // no such folder here
      }
      return entries.filter((e) => names.has(e.replace(/^OSL_PIPE_\d+_/, '')) && e.startsWith('OSL_PIPE_')).map((e) => `${dir}/${e}`);
    });
  };
  const tick = () => {
    for (const o of officeProcesses(owner)) offices.set(o.pid, o);
    for (const p of present()) seen.add(p);
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    offices: () => offices,
    seen: () => [...seen],
    present: () => {
      tick();
      return present();
    },
    stop: () => clearInterval(timer),
  };
}

/** Waits until `check` holds (polled), or `withinMs` passed; returns whether it held. */
export async function eventually(check: () => boolean, withinMs = 15_000): Promise<boolean> {
  const until = performance.now() + withinMs;
  while (!check()) {
    if (performance.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
