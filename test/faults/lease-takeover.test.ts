/**
 * The table queue (SQLite) with the default lease: an API process and two `quire worker` processes on
 * one data directory; one worker is stopped (SIGSTOP, then SIGKILL) while it holds a job, and the
 * other takes the job over once its lease runs out, within a minute, without a restart (a worker that
 * starts on this host would take it at once: recoverLocal). The time from the stop to the takeover is
 * reported. The same on PostgreSQL and pg-boss: test/cluster/cluster.test.ts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'libsql';
import { DEFAULT_JOB_LEASE_MS } from '../../src/runtime/config.js';
import { assertJson, client, type Client } from '../helpers/http.js';
import { CORPUS, startQuire, startWorker, type Quire, type QuireWorker } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';

const TAKEOVER_WITHIN_MS = 60_000;
const FILES = ['kgrag/sec-10-q/2023 Q1 AAPL.pdf', 'reference-dgml/Shorebucks LLC_AZ.pdf', 'pdf/A - Package Proposal.pdf'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface HeldJob {
  id: string;
  lockedBy: string;
}
const pidOf = (job: HeldJob) => Number(job.lockedBy.split(':')[1]);

describe('table queue: a SIGKILLed worker\'s job is taken over by another worker within a minute (default lease)', () => {
  let api: Quire;
  let c: Client;
  const workers: QuireWorker[] = [];
  let killed: QuireWorker | undefined;
  let jobs: Database.Database;

  before(async () => {
    const dataDir = scratchDir('quire-takeover-');
    api = await startQuire({ dataDir, args: ['serve', '--no-worker'] });
    // QUIRE_JOB_LEASE_MS is not set: the default lease.
    for (let i = 0; i < 2; i++) workers.push(await startWorker(api.env, { dataDir }));
    c = client(api.api, api.key);
    jobs = new Database(path.join(dataDir, 'quire.db'), { readonly: true });
  });
  after(async () => {
    jobs?.close();
    await Promise.all(workers.filter((w) => w !== killed).map((w) => w.stop()));
    await api?.stop();
  });

  test('taken over after the lease, within a minute; every document Ready', async (t) => {
    const ids: string[] = [];
    for (const f of FILES) {
      const r = await c.upload({ path: path.join(CORPUS, f) });
      assertJson(r, 201);
      ids.push(r.json.id);
    }
    const held = (): HeldJob[] =>
      (jobs.prepare(`SELECT id, locked_by AS lockedBy FROM jobs WHERE state = 'active' AND locked_by IS NOT NULL`).all() as HeldJob[]).filter((j) =>
        workers.some((w) => w.pid === pidOf(j)),
      );
    // Frozen first, then asked what it holds: a job seen held just before could complete before the kill.
    let job: HeldJob | undefined;
    let stoppedAt = 0;
    for (let attempt = 0; !job && attempt < 50; attempt++) {
      const seen = held()[0];
      if (!seen) {
        await sleep(50);
        continue;
      }
      killed = workers.find((w) => w.pid === pidOf(seen))!;
      killed.process.kill('SIGSTOP');
      stoppedAt = Date.now();
      await sleep(300);
      job = held().find((j) => pidOf(j) === killed!.pid);
      if (!job) killed.process.kill('SIGCONT');
    }
    assert.ok(job && killed, 'a worker was stopped while it held a job');
    killed.process.kill('SIGKILL');
    await killed.exited;
    const survivor = workers.find((w) => w !== killed)!;

    let takenOverIn = -1;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      const row = jobs.prepare('SELECT locked_by AS lockedBy, state FROM jobs WHERE id = ?').get(job.id) as { lockedBy: string | null; state: string };
      if (row.lockedBy !== job.lockedBy && (row.state === 'completed' || (row.lockedBy && pidOf({ id: job.id, lockedBy: row.lockedBy }) === survivor.pid))) {
        takenOverIn = Date.now() - stoppedAt;
        break;
      }
      await sleep(100);
    }
    const report = `a worker stopped while holding a job; the other took it over ${(takenOverIn / 1000).toFixed(1)} s after (lease ${DEFAULT_JOB_LEASE_MS / 1000} s)`;
    t.diagnostic(report);
    console.log(`table queue: ${report}`);
    assert.ok(takenOverIn >= 0, `not taken over within 120 s:\n${survivor.logs().slice(-2000)}`);
    // Renewed every third of the lease while it ran: it expired at least two thirds of a lease after the stop.
    assert.ok(takenOverIn >= (DEFAULT_JOB_LEASE_MS * 2) / 3 - 1000, `taken over ${takenOverIn} ms after the stop, before the lease ran out`);
    assert.ok(takenOverIn <= TAKEOVER_WITHIN_MS, `taken over ${takenOverIn} ms after the stop, over ${TAKEOVER_WITHIN_MS} ms`);

    for (const deadline = Date.now() + 240_000; ; ) {
      const docs = await Promise.all(ids.map(async (id) => (await c.get(`/documents/${id}`)).json));
      if (docs.every((d) => ['Ready', 'Error'].includes(d.status))) {
        for (const d of docs) assert.equal(d.status, 'Ready', JSON.stringify(d));
        break;
      }
      assert.ok(Date.now() < deadline, `not settled: ${docs.map((d) => d.status).join(', ')}`);
      await sleep(1000);
    }
  });
});
