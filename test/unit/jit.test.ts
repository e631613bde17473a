import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { ROOT } from '../helpers/quire.js';

const HOT = `
  function hotLoopOfTheJitTest(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003; return s; }
  let total = 0;
  for (let k = 0; k < 400; k++) total += hotLoopOfTheJitTest(2000);
  console.error('total', total);
`;

/**
 * Runs a hot function in a fresh process after `tuneJit` with that budget, on its main thread or in a worker
 * thread started afterwards, and says whether V8 optimised it (V8's --trace-opt log names the
 * function when its optimised code is done).
 */
function optimised(budget: number, where: 'main' | 'worker'): boolean {
  const run = where === 'main' ? HOT : `const { Worker } = await import('node:worker_threads'); new Worker(${JSON.stringify(HOT)}, { eval: true });`;
  const script = `const { tuneJit } = await import('./src/runtime/jit.ts'); tuneJit({ interruptBudget: ${budget}, initialOldSpaceMb: 0 }); ${run}`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--trace-opt', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  // The result goes to stderr: V8's trace writes to stdout's descriptor directly and may cut into a line there.
  assert.match(r.stderr, /^total \d+$/m);
  return /completed (optimizing|compiling)[^\n]*hotLoopOfTheJitTest/.test(r.stdout);
}

test('tuneJit: a hot function is optimised under V8\'s own budget, not under a budget far above what it runs', () => {
  assert.equal(optimised(0, 'main'), true, "V8's own budget optimises the loop");
  assert.equal(optimised(1_000_000_000, 'main'), false, 'the budget set at run time holds');
});

test('tuneJit: worker threads started afterwards take the budget too', () => {
  assert.equal(optimised(0, 'worker'), true);
  assert.equal(optimised(1_000_000_000, 'worker'), false);
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
  const script = `const { tuneJit } = await import('./src/runtime/jit.ts'); tuneJit({ interruptBudget: 0, initialOldSpaceMb: ${initialOldSpaceMb} });
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
