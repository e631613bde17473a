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
 * Runs a hot function in a fresh process after `tuneJit(budget)`, on its main thread or in a worker
 * thread started afterwards, and says whether V8 optimised it (V8's --trace-opt log names the
 * function when its optimised code is done).
 */
function optimised(budget: number, where: 'main' | 'worker'): boolean {
  const run = where === 'main' ? HOT : `const { Worker } = await import('node:worker_threads'); new Worker(${JSON.stringify(HOT)}, { eval: true });`;
  const script = `const { tuneJit } = await import('./src/jit.ts'); tuneJit(${budget}); ${run}`;
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
