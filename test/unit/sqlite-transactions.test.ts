/**
 * SQLite transactions against writers in other processes (a worker, a CLI command, another Store's
 * ANALYZE). A transaction that reads and then writes while another process commits must wait its
 * turn, not fail: deferred, its write would fail at once with SQLITE_BUSY_SNAPSHOT (a 500 to the
 * client), which is what CI once met.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { Store } from '../../src/store/db/index.js';
import { scratchDir } from '../helpers/scratch.js';

const require = createRequire(import.meta.url);
let dir: string;
let file: string;
let store: Store;

before(async () => {
  dir = scratchDir('quire-sqlite-tx-');
  file = path.join(dir, 'quire.db');
  store = await Store.open({ kind: 'sqlite', file });
});
after(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Another process writes one setting; it says "writing" just before, and exits 0 once committed. */
function otherProcessWrites(key: string): { started: Promise<void>; exited: Promise<{ code: number | null; stderr: string }> } {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('libsql'))});
    const db = new Database(${JSON.stringify(file)});
    db.exec('PRAGMA busy_timeout = 10000');
    process.stdout.write('writing\\n');
    db.prepare('insert into settings (key, value) values (?, ?)').run(${JSON.stringify(key)}, 'other');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('writing') && resolve());
    child.on('exit', () => reject(new Error(`the other process ended before writing: ${stderr}`)));
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return { started, exited };
}

test('a transaction that read before another process committed still writes: it waits its turn instead of failing', async () => {
  const other = otherProcessWrites('from-other');
  const value = await store.tx(async (s) => {
    const seen = (await s.workspaces.getByName('nobody')) === undefined ? 'read' : 'found';
    await other.started;
    // The other process is inside its INSERT now: it commits at once if this transaction has not
    // taken the write lock, else it waits for this one.
    await new Promise((r) => setTimeout(r, 150));
    return `${seen}:${await s.settings.getOrInit('from-tx', 'written')}`;
  });
  assert.equal(value, 'read:written');
  const { code, stderr } = await other.exited;
  assert.equal(code, 0, stderr);
  assert.equal(await store.settings.getOrInit('from-other', 'unset'), 'other');
});
