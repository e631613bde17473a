/**
 * The pipes (Unix sockets) a LibreOffice opens. Whatever its TMPDIR, it makes them in /tmp (in
 * /var/tmp when /tmp is not writable; its `OSL_SOCKET_PATH` only when neither is), named
 * `OSL_PIPE_<uid>_<name>`: `SingleOfficeIPC_<digest of its profile's URL>`, through which a second
 * `soffice` on the same profile hands its request to the first, and the name of `--accept=pipe,…`.
 * It removes them when it exits, not when it is killed: whoever ends a LibreOffice removes them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const PIPE_DIRS = ['/tmp', '/var/tmp'];

/** The uids a pipe of ours may carry: this process's, and 0 under `unshare -r` (root in its namespace). */
const UIDS = [...new Set([0, process.getuid?.() ?? 0])];

/**
 * The name of the request pipe of a LibreOffice run on the profile at `profileUrl` (as given to
 * `-env:UserInstallation=`): an MD5 of the URL (UTF-16), each byte in hex without padding.
 */
export function requestPipeName(profileUrl: string): string {
  const digest = [...createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest()].map((b) => b.toString(16)).join('');
  return `SingleOfficeIPC_${digest}`;
}

/** The paths a pipe named `name` may have. */
export function pipePaths(name: string, uids: readonly number[] = UIDS): string[] {
  return PIPE_DIRS.flatMap((dir) => uids.map((uid) => path.join(dir, `OSL_PIPE_${uid}_${name}`)));
}

/** Removes the pipes named `names` (only once their LibreOffice has ended: another would not find it). */
export function removePipes(...names: string[]): void {
  for (const name of names) for (const p of pipePaths(name)) fs.rmSync(p, { force: true });
}
