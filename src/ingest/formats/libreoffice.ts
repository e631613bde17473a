import { spawn, spawnSync } from 'node:child_process';
import { withDeadline } from '../child-deadline.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

/** Whether `unshare -rn` starts a process here in new user and network namespaces (cached per PATH). */
const isolation = new Map<string, boolean>();
export function canIsolateNetwork(): boolean {
  const key = process.env.PATH ?? '';
  let ok = isolation.get(key);
  if (ok === undefined) {
    ok = spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
    isolation.set(key, ok);
  }
  return ok;
}

/**
 * LibreOffice loads what a document links to (an HTML page's stylesheets, images and frames, a Word
 * file's linked pictures) from wherever it points, such as this server's internal network. It runs
 * without a network where it can (`unshare -rn`), and its profile blocks linked images in any case.
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`;

/**
 * Converts an office document to PDF (or to DOCX) with LibreOffice, in a private profile directory
 * so parallel conversions do not share (and lock) one. Throws on failure or after the timeout (the
 * process group is killed).
 */
export async function convertWithLibreOffice(
  bytes: Buffer,
  ext: string,
  soffice: string,
  timeoutMs = SOFFICE_TIMEOUT_MS,
  to: 'pdf' | 'docx' = 'pdf',
): Promise<Buffer> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'quire-soffice-'));
  try {
    const input = path.join(dir, `input.${ext}`);
    const outDir = path.join(dir, 'out');
    const profile = path.join(dir, 'profile');
    await fs.promises.writeFile(input, bytes);
    await fs.promises.mkdir(path.join(profile, 'user'), { recursive: true });
    await fs.promises.writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const args = [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless', '--norestore', '--convert-to', to, '--outdir', outDir, input,
    ];
    await new Promise<void>((resolve, reject) => {
      // Its own process group, so that the kill also reaches LibreOffice's child (soffice.bin).
      // The OS deadline (a little later than the timer below) also holds when this thread is terminated.
      const isolated = canIsolateNetwork();
      const [command, commandArgs] = withDeadline(isolated ? 'unshare' : soffice, isolated ? ['-rn', soffice, ...args] : args, timeoutMs + 2_000);
      const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
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
        if (timedOut) reject(new Error(`LibreOffice timed out after ${timeoutMs} ms`));
        else if (code === 0) resolve();
        else reject(new Error(`LibreOffice exited with ${code}: ${stderr.trim()}`));
      });
    });
    const out = path.join(outDir, `input.${to}`);
    if (!fs.existsSync(out)) throw new Error(`LibreOffice wrote no ${to.toUpperCase()}`);
    return await fs.promises.readFile(out);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
