import path from 'node:path';
import { fileURLToPath } from 'node:url';

// From dist/ modules are .js; from source (under tsx) they are .ts, and Node 20 does not apply the
// inherited `--import tsx` hooks to a thread's entry, so the thread registers tsx itself first.
const FROM_SOURCE = path.extname(fileURLToPath(import.meta.url)) === '.ts';
const sibling = (name: string) => new URL(`./${name}${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

/**
 * `new Worker(entry.file, { eval: entry.eval })` for a thread entry: a module `name` beside this one
 * (its .ts or .js form, as this process runs), or an explicit module URL. With `nice` > 0 the thread
 * lowers its own CPU priority before loading the entry (see thread-priority.ts).
 */
export function threadEntry(module: string | URL, opts: { nice?: number } = {}): { file: string | URL; eval: boolean } {
  const url = typeof module === 'string' ? sibling(module) : module;
  const nice = opts.nice ?? 0;
  const fromTs = path.extname(url.pathname) === '.ts';
  if (!fromTs && nice <= 0) return { file: url, eval: false };
  const steps: string[] = [];
  if (fromTs) steps.push(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => m.register())`);
  if (nice > 0) steps.push(`import(${JSON.stringify(sibling('thread-priority').href)}).then((p) => p.lowerThisThreadPriority(${Number(nice)}))`);
  steps.push(`import(${JSON.stringify(url.href)})`);
  const file = steps.reduce((chain, step) => (chain ? `${chain}.then(() => ${step})` : step), '');
  return { file: `${file};`, eval: true };
}
