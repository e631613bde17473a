#!/usr/bin/env node
// Runs the whole suite with node:test through tsx: every `*.test.ts` under test/ (scripts/test-files.mjs),
// or the files named on the command line. The run fails when no test ran, and, under
// QUIRE_TEST_REQUIRE_ALL=1, when any skipped.
// First of all, the import rules of .dependency-cruiser.cjs (docs/architecture.md): a broken layer
// fails the run before any test starts.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testFiles } from './test-files.mjs';

const only = process.argv.slice(2);
const files = only.length ? only : testFiles();
if (files.length === 0) {
  console.error('no test file found under test/ (*.test.ts): a run without tests fails');
  process.exit(1);
}
for (const f of files) {
  if (!fs.existsSync(f)) {
    console.error(`test file missing: ${f}`);
    process.exit(1);
  }
}

// The `depcruise` command from the package's own bin table (its file moved between majors).
const cruiser = path.join('node_modules', 'dependency-cruiser');
const DEPCRUISE = path.join(cruiser, JSON.parse(fs.readFileSync(path.join(cruiser, 'package.json'), 'utf8')).bin.depcruise);
const layers = spawnSync(process.execPath, [DEPCRUISE, 'src', 'web', '--config', '.dependency-cruiser.cjs'], { stdio: 'inherit' });
if (layers.status !== 0) {
  console.error('the import rules of .dependency-cruiser.cjs are broken (docs/architecture.md): no test ran');
  process.exit(1);
}

const scratch = startScratch();
const summaryFile = path.join(scratch.own, 'summary.json');
const args = [
  '--import', 'tsx',
  '--import', './scripts/test-blocking-stdout.mjs',
  '--test',
  // A file whose tests are done exits even if a failed test left a handle open, and no single test
  // may hang the run: a stuck test fails after 30 minutes instead.
  '--test-force-exit',
  '--test-timeout=1800000',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/summary-reporter.mjs', `--test-reporter-destination=${summaryFile}.stream`,
  ...files,
];
const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...scratch.env, QUIRE_TEST_SUMMARY: summaryFile } });
// Ctrl-C reaches the test processes too: wait for them to end, then check what they left.
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => {
  let summary = { passed: 0, failed: 0, skipped: 0, todo: 0, skips: [] };
  try {
    summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
  } catch {
    console.error('the test summary was not written');
  }
  let ok = code === 0 && !signal;
  if (summary.lost?.count > 0) {
    console.error(`${summary.lost.count} test(s) were declared but their results never reached the runner (a test process exited early):`);
    for (const t of summary.lost.tests) console.error(`  - ${t}`);
    ok = false;
  }
  if (summary.passed + summary.failed === 0) {
    console.error('no test ran: a run without tests fails');
    ok = false;
  }
  if (process.env.QUIRE_TEST_REQUIRE_ALL === '1' && summary.skipped > 0) {
    console.error(`QUIRE_TEST_REQUIRE_ALL=1 and ${summary.skipped} test(s) skipped:`);
    for (const s of summary.skips) console.error(`  - ${s}`);
    ok = false;
  }
  console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
  if (!scratch.finish()) ok = false;
  process.exit(ok ? 0 : 1);
});

// ---- Scratch: one folder per run, and a check at the end that the run left nothing ----
//
// Every test process (and every server, CLI, LibreOffice, PostgreSQL or Chromium it starts) gets
// TMPDIR = a fresh folder under the real temp directory; test/helpers/scratch.ts makes each test
// file's own folder in it and removes it when the file's process exits. At the end, anything still
// in the run's folder was left by this run (a test process killed, or a path made outside the
// helpers): it is listed and fails the run. New entries in the real temp directories (compared
// with a listing taken at the start) are listed as a warning only: other programs on the machine
// (other checkouts' runs among them) write there too, so they cannot be told apart from ours; under
// QUIRE_TEST_STRICT_TMP=1 (a CI container of its own) they fail the run as well. The run's folder is
// removed after the check; QUIRE_TEST_KEEP_SCRATCH=1 keeps it to look into.
function startScratch() {
  const outer = fs.realpathSync(os.tmpdir());
  const watched = [...new Set([outer, '/tmp', '/var/tmp', '/dev/shm'])].filter((d) => fs.existsSync(d));
  const listing = (dir) => {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  };
  const before = new Map(watched.map((d) => [d, new Set(listing(d))]));
  const root = fs.mkdtempSync(path.join(outer, 'quire-run-'));
  // Traversable: PostgreSQL's server runs as `postgres` when the tests run as root.
  fs.chmodSync(root, 0o755);
  // The runner's own files (the summary), not counted as left behind.
  const own = path.join(root, '.runner');
  fs.mkdirSync(own);
  // tsx keeps its compile cache in $TMPDIR/tsx-<uid>: linked to the usual one, so that the run
  // neither compiles every module afresh nor leaves a cache behind.
  const tsxName = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
  try {
    fs.mkdirSync(path.join(outer, tsxName), { recursive: true });
    fs.symlinkSync(path.join(outer, tsxName), path.join(root, tsxName));
  } catch {
    // no shared cache: slower, not wrong
  }
  const ignored = new Set(['.runner', tsxName]);

  const sizeOf = (p) => {
    let st;
    try {
      st = fs.lstatSync(p);
    } catch {
      return 0;
    }
    if (!st.isDirectory()) return st.size;
    let total = 0;
    for (const e of listing(p)) total += sizeOf(path.join(p, e));
    return total;
  };
  const human = (n) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} kB` : `${n} B`);
  const describe = (p, name) => {
    let kind = '';
    try {
      kind = fs.lstatSync(p).isDirectory() ? '/' : '';
    } catch {
      // gone meanwhile
    }
    return `${name}${kind} ${human(sizeOf(p))}`;
  };

  return {
    own,
    env: { TMPDIR: root },
    /** Prints what the run left; false when it left something in its own folder (or, strict, in /tmp). */
    finish() {
      let ok = true;
      const left = listing(root).filter((e) => !ignored.has(e));
      if (left.length === 0) {
        console.log(`scratch: the run left nothing in ${root} (every test process's TMPDIR)`);
      } else {
        ok = false;
        const total = left.reduce((n, e) => n + sizeOf(path.join(root, e)), 0);
        console.error(`scratch: the run left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} (${human(total)}) in ${root}:`);
        for (const e of left.sort()) {
          const p = path.join(root, e);
          const m = /^quire-test-(\d+)-/.exec(e);
          console.error(`  ${describe(p, e)}${m ? `  (test process ${m[1]} did not clean up: killed, or its exit handler failed)` : ''}`);
          for (const inner of listing(p).sort().slice(0, 20)) console.error(`    ${describe(path.join(p, inner), inner)}`);
        }
      }
      const strict = process.env.QUIRE_TEST_STRICT_TMP === '1';
      for (const dir of watched) {
        const fresh = listing(dir).filter((e) => !before.get(dir).has(e) && path.join(dir, e) !== root);
        if (fresh.length === 0) continue;
        if (strict) ok = false;
        console.error(
          `scratch: ${strict ? 'FAIL' : 'warning'}: ${fresh.length} new entr${fresh.length === 1 ? 'y' : 'ies'} in ${dir} since the run began` +
            (strict ? ':' : ' (other programs on this machine may have made them; QUIRE_TEST_STRICT_TMP=1 fails the run on them):'),
        );
        for (const e of fresh.sort()) console.error(`  ${describe(path.join(dir, e), e)}`);
      }
      if (process.env.QUIRE_TEST_KEEP_SCRATCH === '1') {
        console.log(`scratch: kept ${root} (QUIRE_TEST_KEEP_SCRATCH=1)`);
      } else {
        fs.rmSync(root, { recursive: true, force: true });
        if (!ok) console.error(`scratch: removed ${root} after listing it; QUIRE_TEST_KEEP_SCRATCH=1 keeps it to look into`);
      }
      if (!ok) console.error('scratch: tests must remove what they make (test/helpers/scratch.ts): the run fails');
      return ok;
    },
  };
}
