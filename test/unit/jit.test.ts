import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/quire.js';

/** The names of the V8 flags this Node knows (`node --v8-options`), without `--` and `no-`. */
function knownV8Flags(): Set<string> {
  const r = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  return new Set([...r.stdout.matchAll(/^ {2}--([a-z0-9-]+) \(/gm)].map((m) => m[1]!));
}

/** Every flag named in a `v8.setFlagsFromString(...)` of src/, as written (a `${…}` value dropped). */
function flagsSetBySrc(): { file: string; flag: string }[] {
  const found: { file: string; flag: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        for (const call of fs.readFileSync(p, 'utf8').matchAll(/setFlagsFromString\(\s*[`'"]([^`'"]*)[`'"]/g)) {
          for (const m of call[1]!.matchAll(/--(?:no-)?([a-z0-9-]+)/g)) found.push({ file: path.relative(ROOT, p), flag: m[1]! });
        }
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return found;
}

test('every V8 flag src/ sets exists in this Node\'s V8 (Node 24 dropped --interrupt-budget)', () => {
  const known = knownV8Flags();
  assert.ok(known.has('initial-old-space-size') && !known.has('interrupt-budget-of-a-future-v8'), 'the listing is read');
  const flags = flagsSetBySrc();
  assert.ok(flags.some((f) => f.flag === 'initial-old-space-size'), JSON.stringify(flags));
  for (const { file, flag } of flags) assert.ok(known.has(flag), `${file} sets --${flag}, which ${process.version}'s V8 does not know`);
});

test('tuneJit: V8 takes every flag it sets (no "unrecognized flag")', () => {
  const script = `const { tuneJit } = await import('./src/runtime/jit.ts'); tuneJit({ initialOldSpaceMb: 128 }); console.error('tuned');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^tuned$/m);
  assert.doesNotMatch(r.stderr + r.stdout, /unrecognized flag/i);
});

/** Full (mark-compact) collections a worker thread started after `tuneJit` makes while it builds ~110 MiB of live objects. */
function fullCollections(initialOldSpaceMb: number): number {
  const work = `
    const { PerformanceObserver, constants } = await import('node:perf_hooks');
    const { parentPort } = await import('node:worker_threads');
    let full = 0;
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++; });
    observer.observe({ entryTypes: ['gc'] });
    const kept = [];
    for (let i = 0; i < 700000; i++) kept.push({ a: i, b: 'x' + i, c: [i, i + 1] });
    setTimeout(() => { observer.disconnect(); parentPort.postMessage(full); }, 50);
  `;
  const script = `const { tuneJit } = await import('./src/runtime/jit.ts'); tuneJit({ initialOldSpaceMb: ${initialOldSpaceMb} });
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(${JSON.stringify(work)}, { eval: true });
    w.on('message', (n) => { console.log('full', n); w.terminate(); });`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const m = /^full (\d+)$/m.exec(r.stdout);
  assert.ok(m, r.stdout);
  return Number(m[1]);
}

test('tuneJit: worker threads started afterwards begin with the old generation asked for, and do not mark-compact below it', () => {
  assert.ok(fullCollections(0) >= 1, "under V8's own sizing the worker mark-compacts before 110 MiB");
  assert.equal(fullCollections(128), 0, 'starting at 128 MiB it does not');
});
