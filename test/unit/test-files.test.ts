import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { testFiles } from '../../scripts/test-files.mjs';
import { ROOT } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';

/** Every `*.test.ts` under `dir`, walked by hand: the glob's answer is checked against it. */
function walk(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) found.push(...walk(root, rel));
    else if (e.name.endsWith('.test.ts')) found.push(rel);
  }
  return found.sort();
}

test('testFiles: a test file added anywhere under test/ is found, helpers and other files are not', () => {
  const root = scratchDir('quire-test-files-');
  const put = (rel: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), '');
  };
  for (const f of ['test/top.test.ts', 'test/unit/a.test.ts', 'test/new-area/deep/er/b.test.ts', 'test/helpers/quire.ts', 'test/unit/c.test.mjs', 'test/unit/d.spec.ts', 'test/unit/e.test.ts.bak', 'other/x.test.ts']) put(f);
  assert.deepEqual(testFiles(root), ['test/new-area/deep/er/b.test.ts', 'test/top.test.ts', 'test/unit/a.test.ts']);
  put('test/later/added.test.ts');
  assert.ok(testFiles(root).includes('test/later/added.test.ts'), 'a file added afterwards is found on the next run');
});

test('testFiles: the repository\'s own test files are exactly those under test/, this one among them', () => {
  const files = testFiles(ROOT);
  assert.deepEqual(files, walk(ROOT, 'test'));
  assert.ok(files.includes('test/unit/test-files.test.ts'));
  assert.ok(files.length >= 70, `${files.length} test files`);
});

test('npm test: a tree without test files fails the run before anything else starts', () => {
  const empty = scratchDir('quire-no-tests-');
  fs.mkdirSync(path.join(empty, 'test', 'helpers'), { recursive: true });
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-tests.mjs')], { cwd: empty, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /no test file found under test\//);
});

/** Runs the whole runner (scripts/run-tests.mjs) over fixture test files written into a scratch folder. */
function runRunner(files: Record<string, string>) {
  const dir = scratchDir('quire-runner-');
  const paths = Object.entries(files).map(([name, text]) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  });
  // Without this test process's own test context, which would make the inner run skip its files.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-tests.mjs'), ...paths], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
  const counts = /(\d+) passed, (\d+) failed/.exec(r.stdout);
  return { status: r.status, stderr: r.stderr, passed: Number(counts?.[1] ?? -1) };
}

// Long names make each result a large frame on the child's stdout pipe: before the blocking preload,
// --test-force-exit dropped the last few of these in most runs (nodejs/node#64833).
const manyTests = `import { test } from 'node:test';\nconst long = 'x'.repeat(4000);\nfor (let i = 1; i <= 60; i++) test(\`t\${i} \${long}\`, () => {});\n`;

test('npm test: every result of every file reaches the runner (three files of 60 tests, twice)', () => {
  for (let run = 1; run <= 2; run++) {
    const r = runRunner({ 'a.test.mjs': manyTests, 'b.test.mjs': manyTests, 'c.test.mjs': manyTests });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.passed, 180, `run ${run}: ${r.passed} of 180 results arrived`);
  }
});

test('npm test: a file whose process exits before its results are sent fails the run, named', () => {
  const r = runRunner({
    'fine.test.mjs': `import { test } from 'node:test';\ntest('fine', () => {});\n`,
    'exits.test.mjs': `import { test } from 'node:test';\ntest('first', () => {});\ntest('leaves', () => { process.exit(0); });\ntest('after', () => {});\n`,
  });
  assert.equal(r.status, 1, 'the run fails');
  assert.match(r.stderr, /declared but their results never reached the runner/);
  assert.match(r.stderr, /exits\.test\.mjs/);
  assert.doesNotMatch(r.stderr, /fine\.test\.mjs/);
});
