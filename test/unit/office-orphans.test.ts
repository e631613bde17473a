/**
 * A reading thread stopped while its LibreOffice converts (over its time limit here) leaves nothing
 * running or lying about: LibreOffice's processes belong to the process, not to the thread, so the
 * pool ends the ones the thread had started and removes their working folders and request pipes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { IngestError } from '../../src/document/pages.js';
import { findSoffice } from '../../src/ingest/readers/office/libreoffice.js';
import { ReaderCrashedError, ThreadPool } from '../../src/ingest/thread-pool.js';
import { CORPUS } from '../helpers/quire.js';
import { eventually, officeProcesses, watchOfficePipes } from '../helpers/office-pipes.js';
import { scratchDir } from '../helpers/scratch.js';

const soffice = findSoffice();
const skip = soffice ? false : 'soffice is not on PATH (LibreOffice not installed)';
const TRUTONE = path.join(CORPUS, 'office/TruTone Lane 1.docx');

/** The live processes (not zombies) whose command line names `root`: LibreOffice and what runs it there. */
function processesUnder(root: string): { pid: number; args: string }[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,stat=,args=']).stdout.toString();
  const out: { pid: number; args: string }[] = [];
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m && !m[2]!.startsWith('Z') && m[3]!.includes(root)) out.push({ pid: Number(m[1]), args: m[3]! });
  }
  return out;
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

function killAll(root: string) {
  for (const p of processesUnder(root)) signal(p.pid, 'SIGKILL');
}

/**
 * This process's child processes that have exited but were never waited for: what a thread terminated
 * with children running leaves (the pool asks a thread with children to end them first). Under tsx a
 * thread has an esbuild of its own, which its termination leaves so: not Quire's.
 */
function zombieChildren(): string[] {
  const ps = spawnSync('ps', ['-o', 'pid=,stat=,comm=', '--ppid', String(process.pid)]).stdout.toString();
  return ps.split('\n').filter((line) => /^\s*\d+\s+Z/u.test(line) && !/esbuild/u.test(line)).map((line) => line.trim());
}

type PipeWatch = ReturnType<typeof watchOfficePipes>;

/**
 * Once the pool has stopped the thread: whatever LibreOffice still runs is stopped (as one hanging on a
 * document would be, so that it cannot end by itself), then the pool must have killed it and removed its
 * folders and pipes within a generous time (a LibreOffice left running would be killed by its own deadline,
 * after 2 minutes). Returns how long that took.
 */
async function assertAllGone(root: string, watch: PipeWatch): Promise<number> {
  for (const office of officeProcesses(process.pid)) signal(office.pid, 'SIGSTOP');
  const t0 = performance.now();
  await eventually(() => processesUnder(root).length === 0 && fs.readdirSync(root).length === 0 && watch.present().length === 0, 15_000);
  assert.deepEqual(processesUnder(root), [], 'no LibreOffice of the stopped thread runs');
  assert.deepEqual(fs.readdirSync(root), [], 'its working folders are removed');
  assert.deepEqual(watch.present(), [], `its pipes are removed (seen while it ran: ${watch.seen().join(' ')})`);
  return Math.round(performance.now() - t0);
}

/** What a failed case may leave: the pool, LibreOffices under the root, pipes. */
async function cleanUp(pool: ThreadPool, root: string, watch: PipeWatch): Promise<void> {
  await pool.close();
  killAll(root);
  for (const pipe of watch.present()) fs.rmSync(pipe, { force: true });
  watch.stop();
}

/**
 * Reads a Word file in a pool of one thread with a time limit that falls while its LibreOffice
 * runs, hung once it has opened its pipe (the thread is loaded first with a text file, so the limit
 * is the conversion's alone); tried with longer limits on a machine so busy that LibreOffice had not
 * opened its pipe by the limit.
 */
async function timeOutUnderLibreOffice(t: TestContext, officeIdleMs: number) {
  const tried: string[] = [];
  for (const timeoutMs of [3_000, 6_000, 10_000]) {
    const root = scratchDir('office-root-');
    const pool = new ThreadPool({ size: 1, timeoutMs, memoryMb: 512, officeIdleMs, officeRoot: root });
    const watch = watchOfficePipes();
    try {
      await pool.read(Buffer.from('warm'), 'txt');
      // Once its LibreOffice has opened its pipe, it hangs (is paused), so that the limit falls while it runs:
      // on a quick machine the conversion otherwise ends within the limit.
      const hang = setInterval(() => {
        if (watch.seen().length === 0) return;
        for (const office of officeProcesses(process.pid)) signal(office.pid, 'SIGSTOP');
      }, 20);
      const error = await pool
        .read(fs.readFileSync(TRUTONE), 'docx')
        .then(
          () => null,
          (err: unknown) => err,
        )
        .finally(() => clearInterval(hang));
      if (!(error instanceof IngestError)) {
        tried.push(`${timeoutMs} ms: ${error === null ? 'converted in time' : String(error)}`);
        continue;
      }
      assert.equal(error.title, 'Processing time limit exceeded');
      if (watch.offices().size === 0 || watch.seen().length === 0) {
        tried.push(`${timeoutMs} ms: no LibreOffice had opened its pipe by the time limit`);
        continue;
      }
      t.diagnostic(`time limit ${timeoutMs} ms; all gone ${await assertAllGone(root, watch)} ms after it`);
      // The thread was stopped gracefully: its own event loop reaped the LibreOffice processes it had started.
      assert.deepEqual(zombieChildren(), [], 'no zombie child process is left');
      return;
    } finally {
      await cleanUp(pool, root, watch);
    }
  }
  assert.fail(`no time limit fell while LibreOffice ran: ${tried.join('; ')}`);
}

/** Waits for `check` polled every 20 ms until `done` (or 60 s); returns whether it held. */
async function caught(check: () => boolean, done: () => boolean): Promise<boolean> {
  const until = performance.now() + 60_000;
  while (!done() && performance.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('a reading thread stopped while LibreOffice converts', { skip }, () => {
  test('a LibreOffice started for the one conversion is killed, its folder and pipe removed', { timeout: 180_000 }, (t) => timeOutUnderLibreOffice(t, 0));

  test("the thread's resident LibreOffice is ended, its folder and pipes removed, and the conversion's folder", { timeout: 180_000 }, (t) => timeOutUnderLibreOffice(t, 600_000));

  test("a thread aborted while its resident converts: the resident and the conversion handing it the document are ended", { timeout: 180_000 }, async (t) => {
    const tried: string[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const root = scratchDir('office-root-');
      const pool = new ThreadPool({ size: 1, timeoutMs: 120_000, memoryMb: 512, officeIdleMs: 600_000, officeRoot: root });
      const watch = watchOfficePipes();
      try {
        await pool.read(fs.readFileSync(path.join(CORPUS, 'office/NDA simple layout.docx')), 'docx');
        assert.equal(officeProcesses(process.pid).length, 1, 'the thread has its resident');
        const abort = new AbortController();
        let settled = false;
        const reading = pool.read(fs.readFileSync(TRUTONE), 'docx', abort.signal).then(
          () => 'converted',
          (err: unknown) => err,
        );
        void reading.finally(() => (settled = true));
        // The `soffice --convert-to` that hands the document to the resident and waits for its PDF.
        const handing = () => processesUnder(root).some((p) => p.args.includes('--convert-to'));
        if (!(await caught(handing, () => settled))) {
          tried.push(`attempt ${attempt}: converted before its handing over was seen`);
          continue;
        }
        abort.abort(new Error('stopped by the test'));
        assert.match(String(await reading), /stopped by the test/);
        t.diagnostic(`all gone ${await assertAllGone(root, watch)} ms after the abort`);
        return;
      } finally {
        await cleanUp(pool, root, watch);
      }
    }
    assert.fail(tried.join('; '));
  });

  test('a thread that crashes while its LibreOffice converts: the LibreOffice is killed, its folder and pipe removed', { timeout: 120_000 }, async (t) => {
    const root = scratchDir('office-root-');
    const pool = new ThreadPool({ size: 1, timeoutMs: 120_000, memoryMb: 512, officeRoot: root, entry: new URL('./fixtures/office-crash-reader.ts', import.meta.url) });
    const watch = watchOfficePipes();
    try {
      await assert.rejects(pool.read(fs.readFileSync(TRUTONE), 'docx'), (e) => e instanceof ReaderCrashedError && /exited \(code 7\)/.test(e.message));
      assert.ok(watch.offices().size > 0, 'a LibreOffice ran');
      t.diagnostic(`all gone ${await assertAllGone(root, watch)} ms after the crash`);
    } finally {
      await cleanUp(pool, root, watch);
    }
  });
});
