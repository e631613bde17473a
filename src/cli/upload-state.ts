import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where chunked uploads remember their session, so that running the same command again after an
 * interruption sends only the chunks the server lacks: one small JSON file per upload under
 * `$QUIRE_CLI_STATE_DIR`, else the OS cache directory (`$XDG_CACHE_HOME/quire/uploads`,
 * `~/.cache/quire/uploads`, `~/Library/Caches/quire/uploads`, `%LOCALAPPDATA%\quire\uploads`).
 * The key is the server, the file's absolute path, size and mtime, and the docset and metadata
 * asked for: a changed file or other options start a new session.
 */
export interface UploadState {
  sessionId: string;
  chunkSize: number;
  fileSize: number;
  file: string;
  createdAt: string;
  expiration?: string;
}

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.QUIRE_CLI_STATE_DIR) return env.QUIRE_CLI_STATE_DIR;
  const home = os.homedir();
  const cache =
    env.XDG_CACHE_HOME ??
    (process.platform === 'darwin'
      ? path.join(home, 'Library', 'Caches')
      : process.platform === 'win32'
        ? (env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
        : path.join(home, '.cache'));
  return path.join(cache, 'quire', 'uploads');
}

export function stateKey(parts: { api: string; file: string; size: number; mtimeMs: number; docset?: string; metadata?: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.api, path.resolve(parts.file), parts.size, Math.floor(parts.mtimeMs), parts.docset ?? '', parts.metadata ?? '']))
    .digest('hex')
    .slice(0, 32);
}

export function readState(key: string): UploadState | null {
  try {
    const s = JSON.parse(fs.readFileSync(path.join(stateDir(), `${key}.json`), 'utf8')) as UploadState;
    return typeof s.sessionId === 'string' && Number.isInteger(s.chunkSize) ? s : null;
  } catch {
    return null;
  }
}

export function writeState(key: string, state: UploadState): void {
  const dir = stateDir();
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${key}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(state));
  fs.renameSync(`${file}.tmp`, file);
}

export function dropState(key: string): void {
  fs.rmSync(path.join(stateDir(), `${key}.json`), { force: true });
}
