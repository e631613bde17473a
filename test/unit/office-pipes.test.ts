/**
 * LibreOffice makes its pipes in /tmp whatever its TMPDIR (test/helpers/office-pipes.ts), and
 * removes them when it exits, not when it is killed. Whichever way a conversion ends (normally, its
 * LibreOffice killed, at its timeout, by a resident, with the process that ran it), none of its
 * pipes is left in the system's temporary directory.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { convertWithLibreOffice, findSoffice } from '../../src/ingest/readers/office/libreoffice.js';
import { removeDeadOfficeDirs } from '../../src/ingest/readers/office/office-dirs.js';
import { CORPUS } from '../helpers/quire.js';
import { eventually, officeProcesses, watchOfficePipes, type PipeWatch } from '../helpers/office-pipes.js';
import { scratchDir } from '../helpers/scratch.js';

const soffice = findSoffice();
const skip = soffice ? false : 'soffice is not on PATH (LibreOffice not installed)';
const corpus = (p: string) => fs.readFileSync(path.join(CORPUS, p));
const NDA = 'office/NDA simple layout.docx';
const TRUTONE = 'office/TruTone Lane 1.docx';

function killIfRunning(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

const requestPipes = (paths: string[]) => paths.filter((p) => p.includes('_SingleOfficeIPC_'));

/** Runs `fn` with a watch on this process's LibreOffices' pipes, stopped after. */
async function watching<T>(fn: (watch: PipeWatch) => Promise<T>): Promise<T> {
  const watch = watchOfficePipes();
  try {
    return await fn(watch);
  } finally {
    watch.stop();
  }
}

describe('LibreOffice leaves no pipe in /tmp', { skip }, () => {
  test('after a conversion that ends normally', { timeout: 120_000 }, () =>
    watching(async (watch) => {
      const pdf = await convertWithLibreOffice(corpus(NDA), 'docx', soffice!);
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.equal(requestPipes(watch.seen()).length, 1, `its request pipe was seen in /tmp while it ran: ${watch.seen().join(' ')}`);
      assert.deepEqual(watch.present(), []);
    }),
  );

  test('after a conversion whose LibreOffice is killed while converting', { timeout: 120_000 }, () =>
    watching(async (watch) => {
      const ended = convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, 60_000).then(
        () => 'converted',
        (err: Error) => err,
      );
      assert.ok(await eventually(() => requestPipes(watch.present()).length > 0, 60_000), 'LibreOffice opened its request pipe');
      // As the OOM killer would: soffice.bin only. On a new profile it restarts itself once, so
      // whichever runs is killed until the conversion gives up.
      let settled = false;
      void ended.finally(() => (settled = true));
      while (!settled) {
        for (const office of officeProcesses(process.pid)) killIfRunning(office.pid);
        await new Promise((r) => setTimeout(r, 100));
      }
      const result = await ended;
      assert.ok(result instanceof Error, `the conversion failed (${String(result)})`);
      const [pipe] = requestPipes(watch.seen());
      assert.deepEqual(watch.present(), [], `${pipe} is removed`);
    }),
  );

  test('after a conversion killed at its timeout', { timeout: 180_000 }, async () => {
    // The timeout must fall after LibreOffice opened its pipe (~1 s into its start-up) and before it
    // is done: tried with longer ones until one does.
    const tried: string[] = [];
    for (const timeoutMs of [1_500, 2_500, 4_000, 6_000]) {
      const checked = await watching(async (watch) => {
        const result = await convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, timeoutMs).then(
          () => 'converted',
          (err: Error) => err.message,
        );
        const seen = requestPipes(watch.seen());
        tried.push(`${timeoutMs} ms: ${result}, pipe ${seen.length ? 'seen' : 'not seen'}`);
        if (!/timed out/.test(result) || seen.length === 0) return false;
        assert.deepEqual(watch.present(), [], `${seen[0]} is removed`);
        return true;
      });
      if (checked) return;
    }
    assert.fail(`no timeout fell between the pipe and the end of the conversion: ${tried.join('; ')}`);
  });

  test('after resident LibreOffices: one killed under a conversion, one stopped by a conversion past its time, one stopped idle', { timeout: 180_000 }, () =>
    watching(async (watch) => {
      await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 60_000);
      const [first] = officeProcesses(process.pid);
      assert.ok(first, 'a resident runs');
      const converting = convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, undefined, 'pdf', 60_000);
      await new Promise((r) => setTimeout(r, 300));
      killIfRunning(first.pid);
      assert.equal((await converting).subarray(0, 5).toString('latin1'), '%PDF-', 'converted by a LibreOffice of its own');
      await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 60_000);
      await assert.rejects(convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, 200, 'pdf', 60_000), /timed out after 200 ms/);
      await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 1_000);
      // Each is one accept name (its soffice.bin may restart once, after it filled its new profile).
      const residents = new Set([...watch.offices().values()].flatMap((o) => o.pipes.slice(1)));
      assert.equal(residents.size, 3, 'three residents ran');
      assert.ok(await eventually(() => officeProcesses(process.pid).length === 0, 30_000), 'every LibreOffice has ended');
      const accepted = watch.seen().filter((p) => /_quire_\d+_/.test(p));
      assert.ok(accepted.length >= 3 && requestPipes(watch.seen()).length >= 3, `the residents' pipes were seen: ${watch.seen().join(' ')}`);
      assert.deepEqual(watch.present(), []);
    }),
  );

  test('after the process running a conversion is killed with its LibreOffice: the next start removes the pipe with the folder', { timeout: 120_000 }, async () => {
    const root = scratchDir('office-root-');
    const script = `
      import fs from 'node:fs';
      import { useOfficeRoot } from ${JSON.stringify(new URL('../../src/ingest/readers/office/office-dirs.ts', import.meta.url).href)};
      import { convertWithLibreOffice } from ${JSON.stringify(new URL('../../src/ingest/readers/office/libreoffice.ts', import.meta.url).href)};
      useOfficeRoot(${JSON.stringify(root)});
      await convertWithLibreOffice(fs.readFileSync(${JSON.stringify(path.join(CORPUS, TRUTONE))}), 'docx', ${JSON.stringify(soffice)}, 600_000);
    `;
    // On a new profile LibreOffice restarts itself once, removing its first pipe as it goes: a kill that falls between the two
    // leaves none, and the start-up cleanup has nothing to do. Such a run is tried again, up to three times.
    for (let attempt = 1; ; attempt++) {
      fs.rmSync(root, { recursive: true, force: true });
      fs.mkdirSync(root, { recursive: true });
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' });
      const exited = new Promise((r) => child.once('exit', r));
      const watch = watchOfficePipes(child.pid);
      try {
        assert.ok(await eventually(() => requestPipes(watch.present()).length > 0, 60_000), 'its LibreOffice opened its request pipe');
        // Everything goes at once, as when a machine or container is killed.
        child.kill('SIGKILL');
        // Its process group (the deadline's `timeout`, LibreOffice's launcher and soffice.bin) stays one across a restart.
        for (const pgid of new Set([...watch.offices().values()].map((o) => o.pgid))) killIfRunning(-pgid);
        await exited;
        assert.ok(await eventually(() => officeProcesses(child.pid!).length === 0), 'its LibreOffice has ended');
        const [pipe] = requestPipes(watch.present());
        if (!pipe && attempt < 3) continue;
        assert.ok(pipe, 'the killed LibreOffice left its pipe');
        assert.equal(fs.readdirSync(root).length, 1, 'and its working folder');
        assert.equal(removeDeadOfficeDirs(root), 1);
        assert.deepEqual(fs.readdirSync(root), []);
        assert.deepEqual(watch.present(), [], `${pipe} is removed with the folder`);
        return;
      } finally {
        watch.stop();
        child.kill('SIGKILL');
      }
    }
  });
});
