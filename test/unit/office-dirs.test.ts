/**
 * LibreOffice's working folders under Quire's data directory: one per LibreOffice, named after its
 * process, removed when it ends; a process starting later removes those of processes that died.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { convertWithLibreOffice, findSoffice } from '../../src/ingest/readers/office/libreoffice.js';
import { makeOfficeDir, removeDeadOfficeDirs, useOfficeRoot } from '../../src/ingest/readers/office/office-dirs.js';
import { CORPUS, startQuire } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

test("folders of processes that ended are removed; this process's and a live one's are kept", () => {
  const root = scratchDir('office-root-');
  useOfficeRoot(root);
  const own = makeOfficeDir('soffice');
  assert.equal(path.dirname(own), root);
  assert.match(path.basename(own), new RegExp(`^quire-soffice-${process.pid}-`));
  const dead = path.join(root, `quire-office-${deadPid()}-abc123`);
  fs.mkdirSync(path.join(dead, 'tmp', 'lu1234.tmp'), { recursive: true });
  const live = path.join(root, `quire-soffice-${process.ppid}-def456`);
  fs.mkdirSync(live);
  const other = path.join(root, 'not-ours');
  fs.mkdirSync(other);
  assert.equal(removeDeadOfficeDirs(root), 1);
  assert.deepEqual(fs.readdirSync(root).sort(), [path.basename(live), 'not-ours', path.basename(own)].sort());
});

const soffice = findSoffice();
test('a conversion works in a folder under the root it is given and leaves nothing there', { skip: soffice ? false : 'LibreOffice is not installed' }, async () => {
  const root = scratchDir('office-root-');
  useOfficeRoot(root);
  const pdf = await convertWithLibreOffice(fs.readFileSync(path.join(CORPUS, 'office/NDA simple layout.docx')), 'docx', soffice!);
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  assert.deepEqual(fs.readdirSync(root), []);
});

test('a server starting removes the working folders a killed process left in its data directory', async () => {
  const dataDir = scratchDir('office-data-');
  const stale = path.join(dataDir, 'office', `quire-soffice-${deadPid()}-zzz999`);
  fs.mkdirSync(path.join(stale, 'tmp'), { recursive: true });
  const quire = await startQuire({ dataDir });
  try {
    const until = Date.now() + 20_000;
    while (fs.existsSync(stale) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!fs.existsSync(stale), 'the dead process\'s folder is gone');
    assert.ok(fs.existsSync(path.join(dataDir, 'office')));
  } finally {
    await quire.stop();
  }
});
