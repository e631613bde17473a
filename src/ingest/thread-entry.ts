import path from 'node:path';
import { fileURLToPath } from 'node:url';

// From dist/ modules are .js and a thread's entry is a .js sibling. From source (under tsx) they are
// .ts: Node 20 does not apply the inherited `--import tsx` hooks to a thread's entry, so the thread
// starts from a small script that registers tsx, then imports the .ts entry.
const FROM_SOURCE = path.extname(fileURLToPath(import.meta.url)) === '.ts';

/**
 * `new Worker(entry.file, { eval: entry.eval })` for a thread entry: a module `name` beside this one
 * (its .ts or .js form, as this process runs), or an explicit module URL.
 */
export function threadEntry(module: string | URL): { file: string | URL; eval: boolean } {
  const url = typeof module === 'string' ? new URL(`./${module}${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url) : module;
  if (path.extname(url.pathname) !== '.ts') return { file: url, eval: false };
  const api = import.meta.resolve('tsx/esm/api');
  return {
    file: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`,
    eval: true,
  };
}
