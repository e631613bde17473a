import fs from 'node:fs';
import path from 'node:path';

/** The PDFs under `dir`, its subdirectories included, by path. */
export function pdfsUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? pdfsUnder(path.join(dir, e.name)) : e.name.endsWith('.pdf') ? [path.join(dir, e.name)] : []))
    .sort();
}
