import path from 'node:path';
import { fileURLToPath } from 'node:url';

// From dist/ modules are .js; from source (under tsx) they are .ts, and Node 20 does not apply the
// inherited `--import tsx` hooks to a thread's entry, so the thread registers tsx itself first.
const FROM_SOURCE = path.extname(fileURLToPath(import.meta.url)) === '.ts';
const sibling = (name: string) => new URL(`./${name}${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

/** The module `name` beside the module at `base` (`import.meta.url`), in the form (.ts or .js) `base` has. */
export function moduleBeside(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * `new Worker(entry.file, { eval: entry.eval })` for a thread entry: a module URL (see moduleBeside).
 * With `nice` > 0 the thread lowers its own CPU priority before loading the entry (see thread-priority.ts).
 */
export function threadEntry(url: URL, opts: { nice?: number } = {}): { file: string | URL; eval: boolean } {
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
