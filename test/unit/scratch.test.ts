// A test process's scratch folder (test/helpers/scratch.ts) is gone when the process ends, however it
// ends but SIGKILL: tests passed, a test failed, an uncaught error, SIGTERM, SIGINT; and a server it
// started and left running is killed first.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../helpers/scratch.js';

const SCRATCH = fileURLToPath(new URL('../helpers/scratch.ts', import.meta.url));

/** Runs `body` in a child process that imports the scratch helper; resolves with its scratch folder and how it ended. */
async function child(body: string, signal?: NodeJS.Signals): Promise<{ root: string; code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const script = `import { scratchDir, scratchRoot, atExit } from ${JSON.stringify(SCRATCH)};\nimport fs from 'node:fs';\nimport path from 'node:path';\nconsole.log('root=' + scratchRoot());\n${body}`;
  const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => {
    out += d;
    if (signal && out.includes('ready')) p.kill(signal);
  });
  p.stderr.on('data', (d) => (out += d));
  const [code, sig] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => p.on('close', (c, s) => resolve([c, s])));
  const root = /root=(\S+)/.exec(out)?.[1];
  assert.ok(root, out);
  return { root, code, signal: sig, out };
}

const MAKE = `const d = scratchDir('x-'); fs.writeFileSync(path.join(d, 'f'), 'data'); fs.writeFileSync(path.join(process.env.TMPDIR, 'via-tmpdir'), 'data');`;

test('the scratch folder is made under the temp directory and holds TMPDIR', () => {
  const dir = scratchDir('probe-');
  assert.ok(fs.existsSync(dir));
  assert.ok(process.env.TMPDIR!.startsWith(path.dirname(dir)), `${process.env.TMPDIR} is under ${path.dirname(dir)}`);
});

for (const [name, body, expect] of [
  ['a normal exit', `${MAKE}`, 0],
  ['an uncaught error', `${MAKE} throw new Error('boom');`, 1],
  ['process.exit(3)', `${MAKE} process.exit(3);`, 3],
] as const) {
  test(`removed after ${name}`, async () => {
    const r = await child(body);
    assert.equal(r.code, expect, r.out);
    assert.equal(fs.existsSync(r.root), false, `${r.root} is left`);
  });
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`removed on ${signal}, and the process still ends by the signal`, async () => {
    const r = await child(`${MAKE} console.log('ready'); setInterval(() => {}, 1000);`, signal);
    assert.equal(r.signal, signal, r.out);
    assert.equal(fs.existsSync(r.root), false, `${r.root} is left`);
  });
}

test('a process left running is killed before the folder goes', async () => {
  const r = await child(`
    import('node:child_process').then(({ spawn }) => {
      const p = spawn('sleep', ['60'], { stdio: 'ignore' });
      atExit(() => p.kill('SIGKILL'));
      fs.writeFileSync(path.join(scratchRoot(), 'pid'), String(p.pid));
      console.log('pid=' + p.pid);
      process.exit(0);
    });`);
  const pid = Number(/pid=(\d+)/.exec(r.out)?.[1]);
  assert.ok(pid > 0, r.out);
  await new Promise((resolve) => setTimeout(resolve, 200));
  // Gone, or a zombie where no init reaps orphans (a container).
  const state = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] : 'gone';
  assert.ok(state === 'gone' || state === 'Z', `the child is ${state}`);
  assert.equal(fs.existsSync(r.root), false);
});
