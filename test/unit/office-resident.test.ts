import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readDocument } from '../../src/ingest/readers/index.js';
import { convertWithLibreOffice, findSoffice } from '../../src/ingest/readers/office/libreoffice.js';
import { ThreadPool } from '../../src/ingest/thread-pool.js';
import type { DocumentModel } from '../../src/document/pages.js';
import { CORPUS } from '../helpers/quire.js';

// A resident LibreOffice (src/ingest/readers/office/office-resident.ts), with the real LibreOffice.

const soffice = findSoffice();
const skip = soffice ? false : 'soffice is not on PATH (LibreOffice not installed)';
const corpus = (p: string) => fs.readFileSync(path.join(CORPUS, p));
const NDA = 'office/NDA simple layout.docx';
const TRUTONE = 'office/TruTone Lane 1.docx';

interface Office {
  pid: number;
  profile: string;
  accept: string;
}

/** The resident LibreOffices (soffice.bin) of process `pid`, found by the pipe name they accept on. */
function residents(pid = process.pid): Office[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args=']).stdout.toString();
  const out: Office[] = [];
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+) \S*soffice\.bin .*UserInstallation=file:\/\/(\S+) .*--accept=pipe,name=(quire_(\d+)_[^;]+);/.exec(line);
    if (m && Number(m[4]) === pid) out.push({ pid: Number(m[1]), profile: decodeURI(m[2]!), accept: m[3]! });
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the LibreOffice is gone, and asserts that its profile and pipes went with it. */
async function assertGone(office: Office, withinMs = 15_000) {
  const until = performance.now() + withinMs;
  while (performance.now() < until && (alive(office.pid) || fs.existsSync(office.profile))) await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(office.pid), false, `LibreOffice ${office.pid} has ended`);
  assert.equal(fs.existsSync(path.dirname(office.profile)), false, 'its profile directory is removed');
  const left = fs.readdirSync('/tmp').filter((f) => f.startsWith('OSL_PIPE_') && f.endsWith(office.accept));
  assert.deepEqual(left, [], 'its pipe is removed');
}

const textOf = (m: DocumentModel) => m.pages.flatMap((p) => p.items.map((i) => i.text)).join(' ');

describe('a resident LibreOffice', { skip }, () => {
  test('converts document after document as a LibreOffice of their own would, and stops when idle', { timeout: 120_000 }, async () => {
    assert.deepEqual(residents(), [], 'none before');
    const own = await readDocument(corpus(NDA), 'docx');
    // Idle long enough to outlast what runs between the two conversions (reading the first's PDF, the
    // second's DOCX) on a loaded machine: 3 s did not.
    const first = await readDocument(corpus(NDA), 'docx', { officeIdleMs: 10_000 });
    const [office, ...more] = residents();
    assert.ok(office, 'a resident is running');
    assert.deepEqual(more, []);
    const second = await readDocument(corpus(TRUTONE), 'docx', { officeIdleMs: 10_000 });
    assert.deepEqual(residents().map((o) => o.pid), [office.pid], 'the second document went to the same LibreOffice');
    assert.equal(first.pagination, 'libreoffice');
    assert.equal(second.pagination, 'libreoffice');
    // The same pages and words as a conversion by a LibreOffice started for it.
    assert.deepEqual(first.pages.map((p) => [p.width, p.height]), own.pages.map((p) => [p.width, p.height]));
    assert.equal(textOf(first), textOf(own));
    await assertGone(office, 30_000);
  });

  test('that ends during a conversion: the document is converted by a LibreOffice of its own', { timeout: 120_000 }, async () => {
    await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 60_000);
    const [office] = residents();
    assert.ok(office);
    let finished = false;
    const converting = convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, undefined, 'pdf', 60_000).finally(() => (finished = true));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(finished, false, 'still converting when LibreOffice is killed');
    process.kill(office.pid, 'SIGKILL');
    const pdf = await converting;
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    const alone = await readDocument(pdf, 'pdf', { text: false });
    await assertGone(office);
    // The next conversion starts a new resident, and draws the same pages.
    const again = await readDocument(await convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, undefined, 'pdf', 1_000), 'pdf', { text: false });
    const [next] = residents();
    assert.ok(next && next.pid !== office.pid);
    assert.deepEqual(alone.pages.map((p) => [p.width, p.height]), again.pages.map((p) => [p.width, p.height]));
    await assertGone(next);
  });

  test('is stopped when a conversion runs out of time', { timeout: 120_000 }, async () => {
    await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 60_000);
    const [office] = residents();
    assert.ok(office);
    await assert.rejects(convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, 200, 'pdf', 60_000), /timed out after 200 ms/);
    await assertGone(office);
  });

  test('ends with the reading thread that started it', { timeout: 120_000 }, async () => {
    const pool = new ThreadPool({ size: 1, timeoutMs: 120_000, memoryMb: 512, officeIdleMs: 600_000 });
    try {
      const m = await pool.read(corpus(NDA), 'docx');
      assert.equal(m.pagination, 'libreoffice');
      const [office] = residents();
      assert.ok(office, 'the thread started a resident');
      await pool.close();
      await assertGone(office);
    } finally {
      await pool.close();
    }
  });

  test('leaves no temporary folder behind: its own and LibreOffice\'s (lu*.tmp) are counted in TMPDIR', { timeout: 180_000 }, async () => {
    // This process's TMPDIR is its test scratch (test/helpers/scratch.ts): nothing else writes there.
    const left = () => fs.readdirSync(os.tmpdir()).filter((f) => /^lu.*\.tmp$/.test(f) || /^quire-(soffice|office)-/.test(f));
    const before = left();
    assert.deepEqual(before.filter((f) => f.startsWith('lu')), [], 'no lu*.tmp before');
    // A LibreOffice of its own that ends normally, and one killed at its timeout.
    await convertWithLibreOffice(corpus(NDA), 'docx', soffice!);
    await assert.rejects(convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, 1_500), /timed out/);
    // A resident that converts, then is killed when a conversion runs out of time, and another that stops idle.
    await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 60_000);
    const [killed] = residents();
    assert.ok(killed);
    await assert.rejects(convertWithLibreOffice(corpus(TRUTONE), 'docx', soffice!, 200, 'pdf', 60_000), /timed out after 200 ms/);
    await assertGone(killed);
    await convertWithLibreOffice(corpus(NDA), 'docx', soffice!, undefined, 'pdf', 1_000);
    const [idle] = residents();
    assert.ok(idle && idle.pid !== killed.pid);
    await assertGone(idle);
    // The killed conversion's LibreOffice is reaped a moment after its folder was removed.
    const until = performance.now() + 15_000;
    while (performance.now() < until && left().length > before.length) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(left(), before, `nothing left in ${os.tmpdir()}`);
  });

  test('ends with the process that started it, however it ends', { timeout: 120_000 }, () => {
    const script = `
      import fs from 'node:fs';
      import { spawnSync } from 'node:child_process';
      import { convertWithLibreOffice } from ${JSON.stringify(new URL('../../src/ingest/readers/office/libreoffice.ts', import.meta.url).href)};
      await convertWithLibreOffice(fs.readFileSync(${JSON.stringify(path.join(CORPUS, NDA))}), 'docx', ${JSON.stringify(soffice)}, undefined, 'pdf', 600_000);
      const ps = spawnSync('ps', ['-eo', 'args=']).stdout.toString().split('\\n');
      console.log(JSON.stringify(ps.filter((l) => l.includes('soffice.bin') && l.includes('name=quire_' + process.pid + '_'))));
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
    const running = JSON.parse(child.stdout.toString() || '[]') as string[];
    assert.equal(running.length, 1, `one resident while the process lived: ${child.stderr}`);
    const profile = decodeURI(/UserInstallation=file:\/\/(\S+)/.exec(running[0]!)![1]!);
    assert.equal(child.signal, 'SIGKILL');
    return (async () => {
      // Its LibreOffice is found by the pipe name, which carries the dead process's pid.
      const until = performance.now() + 15_000;
      // The watchdog removes the pipes, then the profile's folder: once the folder is gone, so are the pipes.
      while (performance.now() < until && (residents(child.pid).length > 0 || fs.existsSync(path.dirname(profile)))) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(residents(child.pid), []);
      const left = fs.readdirSync('/tmp').filter((f) => f.startsWith(`OSL_PIPE_`) && f.includes(`_quire_${child.pid}_`));
      assert.deepEqual(left, [], 'its pipe is removed');
      assert.equal(fs.existsSync(path.dirname(profile)), false, 'its profile directory is removed');
    })();
  });
});
