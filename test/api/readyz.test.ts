/**
 * /readyz over real HTTP: every dependency is probed (database, storage, queue); one that cannot be
 * reached makes a 503 naming it, and readiness comes back with it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startQuire, type Quire } from '../helpers/quire.js';

describe('readiness', () => {
  let q: Quire;
  before(async () => {
    q = await startQuire({});
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('200 with each dependency ok; storage gone: 503 naming it; back: 200', async () => {
    const ok = await fetch(`${q.origin}/readyz`);
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { status: 'ready', checks: { database: 'ok', storage: 'ok', queue: 'ok' } });

    // The blob directory replaced by a file: the storage probe cannot look inside it.
    const blobs = path.join(q.dataDir, 'blobs');
    const aside = `${blobs}.aside`;
    fs.mkdirSync(blobs, { recursive: true });
    fs.renameSync(blobs, aside);
    fs.writeFileSync(blobs, 'not a directory');
    try {
      const down = await fetch(`${q.origin}/readyz`);
      assert.equal(down.status, 503);
      assert.ok(down.headers.get('retry-after'));
      const body = (await down.json()) as { status: string; failed: string[]; checks: Record<string, string> };
      assert.equal(body.status, 'unavailable');
      assert.deepEqual(body.failed, ['storage']);
      assert.match(body.checks.storage!, /^failed: /);
      assert.equal(body.checks.database, 'ok');
      assert.equal((await fetch(`${q.origin}/healthz`)).status, 200, 'liveness is not readiness');
    } finally {
      fs.rmSync(blobs);
      fs.renameSync(aside, blobs);
    }
    assert.equal((await fetch(`${q.origin}/readyz`)).status, 200);
  });
});
