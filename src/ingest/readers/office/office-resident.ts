import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { trackChild } from '../../child-processes.js';
import { makeOfficeDir, profileOf, removeOfficeDir, reportOffice } from './office-dirs.js';
import { officeEnvironment } from './office-env.js';
import { pipePaths, requestPipeName } from './office-pipes.js';

/**
 * One LibreOffice kept running between conversions, by the thread that started it.
 *
 * `soffice --convert-to` given the profile of a running LibreOffice hands its request to it over
 * LibreOffice's own pipe and waits for the file, so a conversion costs the document's own work
 * (0.3–2 s for the corpus's Word files) instead of a whole start-up (~4–5 CPU-seconds) each. The
 * resident has a document open, an empty text file: without one LibreOffice ends after the first
 * conversion handed to it.
 *
 * It ends when idle for `idleMs`, after `MAX_CONVERSIONS`, after a conversion that timed out, and
 * with the thread or process that started it: a shell between them reads a pipe from this thread
 * and kills the process group when it closes, which the kernel does when the thread or process
 * ends for any reason.
 */
export class ResidentOffice {
  /** `-env:UserInstallation=…`: what a conversion passes to be handed to this LibreOffice. */
  readonly profileArg: string;
  private readonly child: ChildProcess;
  private readonly dir: string;
  private readonly acceptName: string;
  private readonly profileUrl: string;
  private idleTimer: NodeJS.Timeout | undefined;
  private busy = 0;
  private retiring = false;
  conversions = 0;
  alive = true;
  readonly exited: Promise<void>;

  private constructor(readonly soffice: string, readonly isolated: boolean, private readonly idleMs: number) {
    this.dir = makeOfficeDir('office');
    const profile = profileOf(this.dir);
    fs.mkdirSync(path.join(profile.path, 'user'), { recursive: true });
    fs.writeFileSync(path.join(profile.path, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const keep = path.join(this.dir, 'keep.txt');
    fs.writeFileSync(keep, '');
    // Its temporary files (`lu*.tmp` folders, left behind when it is killed) go with the profile.
    const tmpDir = path.join(this.dir, 'tmp');
    fs.mkdirSync(tmpDir);
    this.profileUrl = profile.url;
    this.profileArg = `-env:UserInstallation=${this.profileUrl}`;
    this.acceptName = `quire_${process.pid}_${threadId}_${randomBytes(6).toString('hex')}`;
    // The accept pipe is only the sign that start-up is over (it is opened after LibreOffice's own
    // request pipe); nothing connects to it.
    const args = [this.profileArg, '--headless', '--norestore', '--nologo', `--accept=pipe,name=${this.acceptName};urp;`, keep];
    const env = officeEnvironment({ TMPDIR: tmpDir, QUIRE_OFFICE_DIR: this.dir, QUIRE_OFFICE_ACCEPT: this.acceptName, QUIRE_OFFICE_IPC: requestPipeName(this.profileUrl) });
    const shellArgs = ['-c', WATCHDOG, soffice, ...args];
    this.child = spawn(isolated ? 'unshare' : 'sh', isolated ? ['-rn', 'sh', ...shellArgs] : shellArgs, {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      env,
    });
    trackChild(this.child, 'watchdog');
    const pid = this.child.pid;
    if (pid) {
      reportOffice({ kind: 'started', dir: this.dir, pid, end: 'watchdog' });
      this.child.once('exit', () => reportOffice({ kind: 'exited', dir: this.dir, pid }));
    }
    this.child.unref();
    (this.child.stdin as unknown as { unref?: () => void }).unref?.();
    this.exited = new Promise<void>((resolve) => {
      this.child.on('error', () => resolve());
      this.child.on('exit', () => resolve());
    }).then(() => {
      this.alive = false;
      clearTimeout(this.idleTimer);
      this.removeProfileWhenUnused();
    });
  }

  /** Starts one and waits until it takes conversions; null if it could not start within `startMs`. */
  static async start(soffice: string, isolated: boolean, idleMs: number, startMs = START_TIMEOUT_MS): Promise<ResidentOffice | null> {
    const resident = new ResidentOffice(soffice, isolated, idleMs);
    const ready = pipePaths(resident.acceptName, [isolated ? 0 : (process.getuid?.() ?? 0)]);
    const deadline = performance.now() + startMs;
    while (resident.alive && performance.now() < deadline) {
      if (ready.some((p) => fs.existsSync(p))) {
        resident.armIdle();
        return resident;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    resident.stop();
    return null;
  }

  /** Counts a conversion in; `done` when it is over, so the idle clock starts from the last one. */
  begin(): () => void {
    this.busy++;
    this.conversions++;
    clearTimeout(this.idleTimer);
    return () => {
      this.busy--;
      this.removeProfileWhenUnused();
      this.armIdle();
    };
  }

  /** Stops it once the conversions in progress are over (stopping it now would fail them). */
  retireWhenIdle(): void {
    this.retiring = true;
    this.armIdle();
  }

  stop(): void {
    if (!this.alive) return;
    this.alive = false;
    clearTimeout(this.idleTimer);
    this.child.stdin?.destroy();
  }

  /**
   * The watchdog removes the profile and pipes when LibreOffice ends, but a conversion handed over
   * just then finds no LibreOffice to take it and runs one itself on the same profile, writing it
   * and its request pipe anew (left in /tmp if that one is killed): the last conversion over removes
   * them again.
   */
  private removeProfileWhenUnused() {
    if (!this.alive && this.busy === 0) removeOfficeDir(this.dir).catch(() => {});
  }

  private armIdle() {
    clearTimeout(this.idleTimer);
    if (!this.alive || this.busy > 0) return;
    if (this.retiring) return this.stop();
    this.idleTimer = setTimeout(() => this.stop(), this.idleMs);
    this.idleTimer.unref();
  }
}

/** How long a resident LibreOffice may take to start before conversions go without it. */
const START_TIMEOUT_MS = 60_000;

/** A resident is replaced after this many conversions, so that nothing documents leave behind accumulates. */
export const MAX_CONVERSIONS = 200;

/**
 * Runs `$0 "$@"` (soffice) in a session of its own, and `cat` on this shell's standard input: when
 * the thread's end of that pipe closes (`stop`, or the thread or process ends), or the shell is sent
 * SIGTERM (by the pool, for a thread it stopped: office-orphans.ts), LibreOffice's whole process
 * group is killed. When LibreOffice has ended either way, the pipes it leaves in /tmp when
 * killed are removed, then its folder (profile and temporary files: once it is gone, all is), and the
 * shell's own group is killed.
 */
const WATCHDOG = [
  'exec 3<&0',
  'setsid "$0" "$@" 3<&- </dev/null & p=$!',
  '(cat <&3 >/dev/null; kill -KILL -$p) 2>/dev/null &',
  "trap 'kill -KILL -$p 2>/dev/null' TERM",
  'wait $p',
  'kill -KILL -$p 2>/dev/null',
  'for d in /tmp /var/tmp; do rm -f "$d"/OSL_PIPE_*_"$QUIRE_OFFICE_ACCEPT" "$d"/OSL_PIPE_*_"$QUIRE_OFFICE_IPC"; done',
  'rm -rf "$QUIRE_OFFICE_DIR"',
  'kill -KILL 0',
].join('\n');

/**
 * LibreOffice loads what a document links to (an HTML page's stylesheets, images and frames, a Word
 * file's linked pictures) from wherever it points, such as this server's internal network. It runs
 * without a network where it can (`unshare -rn`), and its profile blocks linked images in any case.
 *
 * Its locale is en-US: a document without a paper size of its own (an HTML page) is then set on US
 * Letter, as Quire's own text layout sets one, not on the paper of the server's locale (A4 under C).
 * Word files carry their own page size and keep it.
 */
export const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>en-US</value></prop></item>
</oor:items>
`;

let current: ResidentOffice | null = null;
let starting: Promise<ResidentOffice | null> | null = null;

/**
 * After a resident failed to start, conversions start their own LibreOffice for a while before one is
 * tried again: `firstMs` after the first failure, twice as long after each further one up to `maxMs`,
 * and from the start again once one has started. (Mutable for tests.)
 */
export const restartBackoff = { firstMs: 15_000, maxMs: 10 * 60_000 };
let failedStarts = 0;
let retryStartAt = -Infinity;

/**
 * This thread's resident LibreOffice for `soffice`, started if needed (one for another executable is
 * retired); null if none could start lately (conversions then start their own).
 */
export async function residentOffice(soffice: string, isolated: boolean, idleMs: number): Promise<ResidentOffice | null> {
  if (current?.alive && current.conversions < MAX_CONVERSIONS && current.soffice === soffice && current.isolated === isolated) return current;
  current?.retireWhenIdle();
  current = null;
  if (!starting && performance.now() < retryStartAt) return null;
  starting ??= ResidentOffice.start(soffice, isolated, idleMs).then((r) => {
    starting = null;
    current = r;
    if (r) {
      failedStarts = 0;
    } else {
      failedStarts++;
      retryStartAt = performance.now() + Math.min(restartBackoff.maxMs, restartBackoff.firstMs * 2 ** (failedStarts - 1));
    }
    return r;
  });
  return starting;
}
