import fs from 'node:fs';
import path from 'node:path';

/** The staging directory of a data directory's file blob store. */
export const stagingDirOf = (dataDir: string) => path.join(dataDir, 'blobs', '.staging');

/** Staged blob files (uploads in progress, or left by a crash). */
export function stagedFiles(dataDir: string): string[] {
  const dir = stagingDirOf(dataDir);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** Every committed blob file (outside the staging directory), as full paths. */
export function committedFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.staging') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(path.join(dataDir, 'blobs'));
  return out;
}
