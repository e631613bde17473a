import { spawn, spawnSync } from 'node:child_process';
import { withDeadline } from '../../child-deadline.js';
import { trackChild } from '../../child-processes.js';
import fs from 'node:fs';
import path from 'node:path';
import { IngestError } from '../../../document/pages.js';
import { makeOfficeDir, profileOf, removeOfficeDir, reportOffice } from './office-dirs.js';
import { officeEnvironment } from './office-env.js';
import { PROFILE_SETTINGS, residentOffice, type ResidentOffice } from './office-resident.js';

export const SOFFICE_TIMEOUT_MS = 120_000;

/** The `soffice` executable on PATH, or null. */
export function findSoffice(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'soffice');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Whether LibreOffice can run without a network here and, when it cannot, what is missing. */
export type Isolation = { available: true } | { available: false; missing: string };

/**
 * Whether `unshare -rn` starts a process here in new user and network namespaces (cached per PATH).
 * Docker's default seccomp profile refuses the `unshare` call (and a kernel may forbid unprivileged
 * user namespaces), and util-linux may not be installed at all.
 */
const isolation = new Map<string, Isolation>();
export function networkIsolation(): Isolation {
  const key = process.env.PATH ?? '';
  let known = isolation.get(key);
  if (known === undefined) {
    const r = spawnSync('unshare', ['-rn', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000, env: officeEnvironment({}) });
    const stderr = r.stderr?.toString().trim().split('\n').pop() ?? '';
    known =
      r.status === 0
        ? { available: true }
        : (r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT'
          ? { available: false, missing: '`unshare` (util-linux) is not on PATH' }
          : {
              available: false,
              missing: `\`unshare -rn\` cannot create user and network namespaces (${stderr || (r.error?.message ?? `exit ${r.status}`)}): Docker's default seccomp profile blocks them, as do kernels with unprivileged user namespaces off`,
            };
    isolation.set(key, known);
  }
  return known;
}

export function canIsolateNetwork(): boolean {
  return networkIsolation().available;
}

/**
 * The reason a document is refused when the operator requires LibreOffice to run without a network
 * (QUIRE_OFFICE_REQUIRE_ISOLATION) and it cannot here; null when it may be converted.
 */
export function isolationRefusal(requireIsolation: boolean): IngestError | null {
  if (!requireIsolation || canIsolateNetwork()) return null;
  return new IngestError(
    'Office conversion refused',
    'This server converts Word files only with LibreOffice cut off from the network (QUIRE_OFFICE_REQUIRE_ISOLATION), and it cannot cut it off here; its operator can see why in the start-up log.',
  );
}

/**
 * Converts an office document to PDF (or to DOCX) with LibreOffice. With `residentIdleMs` > 0 the
 * conversion is handed to this thread's resident LibreOffice (`office-resident.ts`), started if
 * needed and stopped after that long idle; otherwise, or if the resident ends under it, a
 * LibreOffice of its own converts it, in a private profile directory so parallel conversions do not
 * share (and lock) one. Throws on failure or after the timeout (the process group is killed, and a
 * resident that was converting is stopped).
 */
export async function convertWithLibreOffice(
  bytes: Buffer,
  ext: string,
  soffice: string,
  timeoutMs = SOFFICE_TIMEOUT_MS,
  to: 'pdf' | 'docx' = 'pdf',
  residentIdleMs = 0,
): Promise<Buffer> {
  const dir = makeOfficeDir('soffice');
  try {
    const input = path.join(dir, `input.${ext}`);
    const outDir = path.join(dir, 'out');
    // LibreOffice's own temporary files (`lu*.tmp` folders, left behind when it is killed) go in
    // here too, so that they go with the rest.
    const tmpDir = path.join(dir, 'tmp');
    await fs.promises.mkdir(tmpDir);
    await fs.promises.writeFile(input, bytes);
    const convert = (profileArg: string) => runSoffice(soffice, [profileArg, '--headless', '--norestore', ...conversion(ext, to), '--outdir', outDir, input], timeoutMs, dir);
    const resident = residentIdleMs > 0 ? await residentOffice(soffice, canIsolateNetwork(), residentIdleMs) : null;
    if (resident) {
      const done = resident.begin();
      try {
        await convert(resident.profileArg);
        return await readOutput(outDir, to);
      } catch (err) {
        if (err instanceof ConversionTimeout) resident.stop();
        // A failure while the resident lives is the document's; one that ended it is tried again alone.
        if (err instanceof ConversionTimeout || !(await endedSoon(resident))) throw err;
      } finally {
        done();
      }
    }
    const profile = profileOf(dir);
    await fs.promises.mkdir(path.join(profile.path, 'user'), { recursive: true });
    await fs.promises.writeFile(path.join(profile.path, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    await fs.promises.rm(outDir, { recursive: true, force: true });
    await convert(`-env:UserInstallation=${profile.url}`);
    return await readOutput(outDir, to);
  } finally {
    // Its LibreOffice has ended; one killed (at its timeout, or by the OS) left its pipe in /tmp.
    await removeOfficeDir(dir);
  }
}

/**
 * The `--convert-to` arguments. An HTML page is opened as a Writer document: opened as a web page
 * (LibreOffice's default), its PDF starts with a blank page and leaves out the page's first block.
 */
function conversion(ext: string, to: 'pdf' | 'docx'): string[] {
  if (ext === 'html' && to === 'pdf') return ['--infilter=HTML (StarWriter)', '--convert-to', 'pdf:writer_pdf_Export'];
  return ['--convert-to', to];
}

class ConversionTimeout extends Error {}

/** Whether a resident LibreOffice has ended, or does within a moment (its exit may trail the failure it caused). */
async function endedSoon(resident: ResidentOffice): Promise<boolean> {
  await Promise.race([resident.exited, new Promise((r) => setTimeout(r, 200))]);
  return !resident.alive;
}

async function readOutput(outDir: string, to: string): Promise<Buffer> {
  const out = path.join(outDir, `input.${to}`);
  if (!fs.existsSync(out)) throw new Error(`LibreOffice wrote no ${to.toUpperCase()}`);
  return await fs.promises.readFile(out);
}

/**
 * Runs `soffice` with `args` for the working folder `dir` (its `tmp` as TMPDIR), without a network
 * where possible; rejects on failure or after `timeoutMs`.
 */
function runSoffice(soffice: string, args: string[], timeoutMs: number, dir: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Its own process group, so that the kill also reaches LibreOffice's child (soffice.bin).
    // When this thread is stopped or crashes, the pool kills the group (office-orphans.ts); the OS
    // deadline (a little later than the timer below) holds in any case.
    const isolated = canIsolateNetwork();
    const [command, commandArgs] = withDeadline(isolated ? 'unshare' : soffice, isolated ? ['-rn', soffice, ...args] : args, timeoutMs + 2_000);
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: true, env: officeEnvironment({ TMPDIR: path.join(dir, 'tmp') }) });
    trackChild(child);
    const pid = child.pid;
    if (pid) {
      reportOffice({ kind: 'started', dir, pid, end: 'group' });
      child.once('exit', () => reportOffice({ kind: 'exited', dir, pid }));
    }
    let stderr = '';
    let timedOut = false;
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new ConversionTimeout(`LibreOffice timed out after ${timeoutMs} ms`));
      else if (code === 0) resolve();
      else reject(new Error(`LibreOffice exited with ${code}: ${stderr.trim()}`));
    });
  });
}
