/**
 * A cluster on loopback: two API processes (`serve --no-worker`) and two worker processes (`worker`)
 * on one PostgreSQL database and one S3 bucket (moto), all started at once on a fresh database.
 * 60 corpus documents uploaded over both APIs all reach Ready with their page counts; the job records
 * show each document ingested and processed exactly once to completion, by both workers; every
 * Documents.* event reaches the webhook exactly once. Then one worker is SIGKILLed while it holds a
 * job: the other takes it over once its lease runs out (the default lease: within a minute; the time
 * from the kill to the other worker's start of the job is reported) and every document still reaches Ready.
 * Skipped with the reason when PostgreSQL, moto or pdfinfo is missing.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { CORPUS, startQuire, startWorker, type Quire, type QuireWorker } from '../helpers/quire.js';
import { assertJson, client, collectPages, until, type Client } from '../helpers/http.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { s3Unavailable, startS3, type S3Server } from '../helpers/s3.js';
import { DEFAULT_JOB_LEASE_MS } from '../../src/runtime/config.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const SETTLED = ['Ready', 'Error', 'OverQuota'];
/** The lease of the workers (QUIRE_JOB_LEASE_MS is left unset): a killed worker's job runs again after it. */
const LEASE_MS = DEFAULT_JOB_LEASE_MS;
/** How soon, at most, the other worker takes over the job of a worker killed outright. */
const TAKEOVER_WITHIN_MS = 60_000;
const DOCUMENTS = 60;
const CHUNK = 64 * 1024;

function corpusFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? corpusFiles(path.join(dir, e.name)) : /\.(pdf|docx)$/i.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

/** The page count poppler reads (independent of Quire's readers); null for office files. */
function pagesOf(file: string): number | null {
  if (!file.toLowerCase().endsWith('.pdf')) return null;
  const m = /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }));
  assert.ok(m, `pdfinfo gave no page count for ${file}`);
  return Number(m[1]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


/** Every document of the workspace (fewer than 100 here), by id. */
async function listAll(c: Client): Promise<Map<string, any>> {
  const r = await c.get('/documents?limit=100');
  assertJson(r);
  assert.ok(r.json.documents.length < 100, 'more documents than one page holds');
  return new Map(r.json.documents.map((d: any) => [d.id, d]));
}

interface JobRow {
  queue: string;
  documentId: string;
  state: string;
  retries: number;
  /** When the attempt that completed was fetched (epoch ms). */
  startedAt: number | null;
  completedAt: number | null;
}

const why = !findPgBin()
  ? 'PostgreSQL server binaries (initdb, pg_ctl) are not installed'
  : (s3Unavailable() ?? (spawnSync('pdfinfo', ['-v']).error ? 'pdfinfo (poppler-utils) is not installed' : null));

if (why) {
  describe('cluster: two APIs and two workers on PostgreSQL and S3', () => {
    test('cluster scenario', { skip: why }, () => {});
  });
} else {
  describe('cluster: two APIs and two workers on PostgreSQL and S3', () => {
    let cluster: PgCluster;
    let s3: S3Server;
    let db: pg.Client;
    const rx = new WebhookReceiver();
    const apis: Quire[] = [];
    const workers: QuireWorker[] = [];
    let killed: QuireWorker | undefined;
    let clients: Client[] = [];
    let hookId = '';
    /** Our uploads: document id → the file and the API that took it. */
    const uploaded = new Map<string, { file: string; api: number }>();

    /**
     * The ingest and process jobs of these documents once none is left to run: a document turns Ready
     * just before its job is recorded complete, and a job held by a killed worker finishes after its lease.
     */
    const finishedJobs = (ids: string[]): Promise<JobRow[]> =>
      until(
        'the jobs of the documents to finish',
        async () => {
          const { rows } = await db.query(
            `SELECT name AS queue, data->'payload'->>'documentId' AS "documentId", state, retry_count AS retries,
                    (extract(epoch FROM started_on) * 1000)::bigint AS "startedAt",
                    (extract(epoch FROM completed_on) * 1000)::bigint AS "completedAt"
               FROM pgboss.job WHERE name IN ('q_ingest', 'q_process') AND data->'payload'->>'documentId' = ANY($1::text[])`,
            [ids],
          );
          return rows.every((r: JobRow) => ['completed', 'failed', 'cancelled'].includes(r.state)) ? (rows as JobRow[]) : undefined;
        },
        90_000,
      );

    before(async () => {
      cluster = await startPgCluster();
      s3 = await startS3();
      const databaseUrl = await cluster.createDatabase('quire_cluster');
      const storage = await s3.createBucket('quire-cluster');
      await rx.listen();
      const env = {
        ...s3.env,
        QUIRE_STORAGE_URL: storage,
        QUIRE_BOOTSTRAP_KEY: `cluster-key-${randomBytes(12).toString('hex')}`,
        QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        QUIRE_JOB_RETRY_MS: '200',
        QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK),
        // Compressed retries: the receiver fails during the first half of the uploads.
        QUIRE_WEBHOOK_RETRY_SCHEDULE: `0,200ms,300ms,${Array(40).fill('500ms').join(',')}`,
      };
      // All four at once on a fresh database: migrations, pg-boss's schema and queues, the default
      // workspace and the bootstrap key are created by whichever process gets there first.
      const workerEnv = { ...env, DATABASE_URL: databaseUrl, PATH: process.env.PATH, HOME: process.env.HOME };
      const started = await Promise.allSettled([
        startQuire({ databaseUrl, extraEnv: env, args: ['serve', '--no-worker'] }),
        startQuire({ databaseUrl, extraEnv: env, args: ['serve', '--no-worker'] }),
        startWorker(workerEnv),
        startWorker(workerEnv),
      ]);
      for (const [i, r] of started.entries()) if (r.status === 'fulfilled') (i < 2 ? apis : workers).push(r.value as never);
      const failed = started.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      clients = apis.map((q) => client(q.api, q.key));
      db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
    });

    after(async () => {
      if (process.env.QUIRE_CLUSTER_LOG_DIR) {
        for (const [i, p] of [...apis, ...workers].entries()) fs.writeFileSync(path.join(process.env.QUIRE_CLUSTER_LOG_DIR, `process-${i + 1}.log`), p.logs());
      }
      const codes = await Promise.all([...apis, ...workers.filter((w) => w !== killed)].map((p) => p.stop()));
      await db?.end();
      await rx.close();
      await s3?.stop();
      cluster?.stop();
      assert.deepEqual(codes, codes.map(() => 0), `a process did not exit cleanly:\n${[...apis, ...workers].map((p) => p.logs().slice(-3000)).join('\n----\n')}`);
    });

    test(`${DOCUMENTS} documents over both APIs: each Ready once, by both workers; each event delivered once (through retries)`, async (t) => {
      for (const q of apis) assert.equal((await fetch(`${q.origin}/readyz`)).status, 200, 'database, bucket and queue reachable');
      const secret = `whsec_${randomBytes(24).toString('base64')}`;
      const hook = await clients[0]!.post('/webhooks', { json: { target: 'Documents', url: rx.expect('/cluster', secret, 'fail'), secret } });
      assertJson(hook, 201);
      hookId = hook.json.id;

      const files = corpusFiles(CORPUS);
      assert.ok(files.length >= 20, `corpus files: ${files.length}`);
      const expectedPages = new Map(files.map((f) => [f, pagesOf(f)]));
      // Four uploads in flight, alternating between the APIs; the same file again under another name.
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = next++; i < DOCUMENTS; i = next++) {
            const file = files[i % files.length]!;
            const api = i % 2;
            const r = await clients[api]!.upload({ bytes: fs.readFileSync(file), name: `c${String(i).padStart(2, '0')}-${path.basename(file)}` });
            assertJson(r, 201);
            uploaded.set(r.json.id, { file, api });
            if (uploaded.size === DOCUMENTS / 2) rx.set('/cluster', 'ok');
          }
        }),
      );
      assert.equal(uploaded.size, DOCUMENTS);
      for (const api of [0, 1]) assert.equal([...uploaded.values()].filter((u) => u.api === api).length, DOCUMENTS / 2, `API ${api + 1} took its half`);

      const docs = await until(
        'every document to settle',
        async () => {
          const all = await listAll(clients[0]!);
          const ours = [...uploaded.keys()].map((id) => all.get(id));
          return ours.every((d) => d && SETTLED.includes(d.status)) ? ours : undefined;
        },
        180_000,
        1000,
      );
      for (const d of docs) {
        const { file } = uploaded.get(d.id)!;
        assert.equal(d.status, 'Ready', `${path.basename(file)}: ${JSON.stringify(d)}`);
        const want = expectedPages.get(file);
        if (want === null) assert.ok(d.pageCount >= 1, `${path.basename(file)}: ${d.pageCount} pages`);
        else assert.equal(d.pageCount, want, `${path.basename(file)} has ${want} pages`);
      }

      // The job records: per document exactly one ingest and one process job, each completed once.
      const rows = await finishedJobs([...uploaded.keys()]);
      for (const id of uploaded.keys()) {
        for (const queue of ['q_ingest', 'q_process']) {
          const mine = rows.filter((r) => r.documentId === id && r.queue === queue);
          assert.deepEqual(mine.map((r) => r.state), ['completed'], `${queue} jobs of ${id}: ${JSON.stringify(mine)}`);
        }
      }
      // Both workers did real work: each logged documents it made Ready, and none was made Ready twice.
      const readyBy = workers.map((w) => new Set(readyDocuments(w.logs())));
      for (const [i, set] of readyBy.entries()) assert.ok(set.size > 0, `worker ${i + 1} made no document Ready:\n${workers[i]!.logs().slice(-2000)}`);
      const both = [...readyBy[0]!].filter((id) => readyBy[1]!.has(id));
      assert.deepEqual(both, [], 'documents made Ready by both workers');
      assert.equal(readyBy[0]!.size + readyBy[1]!.size, DOCUMENTS);
      t.diagnostic(`documents made Ready: worker 1 ${readyBy[0]!.size}, worker 2 ${readyBy[1]!.size}`);

      // A listing paged across the APIs: each takes the other's cursors (the signing secret is shared).
      let turn = 0;
      const paged = await collectPages(clients[0]!, '/documents?limit=7', 'documents', (next) => {
        const u = new URL(next);
        return `${apis[++turn % 2]!.origin}${u.pathname}${u.search}`;
      });
      assert.ok(paged.urls.filter((u) => u.startsWith(apis[1]!.origin)).length >= 4, paged.urls.join('\n'));
      assert.deepEqual(paged.items.map((d) => d.id).sort(), [...uploaded.keys()].sort());

      // A few deletions over both APIs: Documents.Delete events.
      const deleted = [...uploaded.keys()].slice(0, 6);
      for (const [i, id] of deleted.entries()) assert.equal((await clients[i % 2]!.del(`/documents/${id}`)).status, 204);
      for (const id of deleted) uploaded.delete(id);

      // Every Documents.* event of the workspace reaches the webhook, each exactly once.
      const events = (await db.query(`SELECT id, type FROM events WHERE type IN ('Documents.Create', 'Documents.Delete') ORDER BY id`)).rows as { id: string; type: string }[];
      assert.equal(events.filter((e) => e.type === 'Documents.Create').length, DOCUMENTS);
      assert.equal(events.filter((e) => e.type === 'Documents.Delete').length, deleted.length);
      await rx.waitFor('every event at the receiver', () => events.every((e) => rx.accepted.some((r) => r.id === e.id)), 60_000);
      await sleep(1500); // a second delivery, if any were made, would arrive now
      assert.deepEqual(rx.invalid, []);
      assert.ok((rx.hits.get('/cluster') ?? 0) > rx.accepted.length, 'the receiver failed some deliveries (retried later)');
      const ids = rx.accepted.filter((r) => r.path === '/cluster').map((r) => r.id);
      assert.equal(ids.length, new Set(ids).size, `events delivered more than once: ${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')}`);
      assert.deepEqual([...ids].sort(), events.map((e) => e.id).sort());
      const deliveries = await clients[1]!.get(`/webhooks/${hookId}/deliveries?limit=100`);
      assertJson(deliveries);
      assert.ok(deliveries.json.deliveries.every((d: { state: string }) => d.state === 'delivered'), JSON.stringify(deliveries.json.deliveries.filter((d: { state: string }) => d.state !== 'delivered')));
    });

    test('a chunked upload spread over both APIs: created on one, chunks to both, finalized on the other', async () => {
      const file = path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf');
      const bytes = fs.readFileSync(file);
      const form = new FormData();
      form.append('fileName', 'spread.pdf');
      form.append('fileSize', String(bytes.length));
      const created = await clients[0]!.post('/documents/uploads/session', { body: form });
      assertJson(created, 201);
      const { sessionId } = created.json;
      let n = 0;
      for (let o = 0; o < bytes.length; o += CHUNK, n++) {
        const part = new FormData();
        part.append('byteOffset', String(o));
        part.append('file', new Blob([bytes.subarray(o, o + CHUNK)]), 'chunk');
        assertJson(await clients[n % 2]!.post(`/documents/uploads/session/${sessionId}/chunk`, { body: part }));
      }
      assert.ok(n >= 4, `${n} chunks`);
      const state = await clients[0]!.get(`/documents/uploads/session/${sessionId}`);
      assertJson(state);
      assert.equal(state.json.bytesReceived, bytes.length, 'each API sees the chunks the other took');
      const fin = await clients[1]!.post(`/documents/uploads/session/${sessionId}/finalize`);
      assertJson(fin, 201);
      uploaded.set(fin.json.id, { file, api: 1 });
      assert.equal(fin.json.sha256, createHash('sha256').update(bytes).digest('hex'));
      const d = await until(
        'the spread upload to settle',
        async () => {
          const doc = (await clients[0]!.get(`/documents/${fin.json.id}`)).json;
          return SETTLED.includes(doc.status) ? doc : undefined;
        },
        90_000,
      );
      assert.equal(d.status, 'Ready', JSON.stringify(d));
      assert.equal(d.pageCount, pagesOf(file));
    });

    test('SIGKILL of a worker holding a job: the other worker takes it over after the lease, within a minute', async (t) => {
      const big = corpusFiles(CORPUS).filter((f) => /AAPL|DOSAID|GSA|DHS|Shorebucks/.test(f));
      const ids: string[] = [];
      for (const [i, file] of big.entries()) {
        const r = await clients[i % 2]!.upload({ bytes: fs.readFileSync(file), name: `k${i}-${path.basename(file)}` });
        assertJson(r, 201);
        ids.push(r.json.id);
        uploaded.set(r.json.id, { file, api: i % 2 });
      }
      // Jobs of ours held by a worker process: their claim tokens (Quire's claim rows, pg-boss has no
      // column for the holder) start with host:pid.
      const heldJobs = async (): Promise<{ documentId: string; name: string; lockedBy: string }[]> => {
        const { rows } = await db.query(
          `SELECT j.data->'payload'->>'documentId' AS "documentId", j.name, c.holder AS "lockedBy"
             FROM pgboss.job j JOIN pgboss_claims c ON c.job_id = j.id AND c.retry_count = j.retry_count
            WHERE j.name IN ('q_ingest', 'q_process') AND j.state = 'active'`,
        );
        return rows.filter((r) => ids.includes(r.documentId) && workers.some((w) => Number(r.lockedBy.split(':')[1]) === w.pid));
      };
      const pidOf = (job: { lockedBy: string }): number => Number(job.lockedBy.split(':')[1]);
      // The worker is frozen first, then asked what it holds: a job seen held just before could
      // complete in the moment before the kill. Frozen, it can finish nothing; the queries it had sent
      // land within the pause. If it holds nothing by then, it goes on and the next one is tried.
      let held: { documentId: string; name: string; lockedBy: string } | undefined;
      let killedAt = 0;
      for (let attempt = 0; !held && attempt < 20; attempt++) {
        const seen = await until('a worker to hold a job of the new documents', async () => (await heldJobs())[0], 60_000, 50);
        killed = workers.find((w) => w.pid === pidOf(seen))!;
        killed.process.kill('SIGSTOP');
        killedAt = Date.now();
        await new Promise((r) => setTimeout(r, 300));
        held = (await heldJobs()).find((job) => pidOf(job) === killed!.pid);
        if (!held) killed.process.kill('SIGCONT');
      }
      assert.ok(held && killed, 'a worker was stopped while it held a job of ours');
      const survivor = workers.find((w) => w !== killed)!;
      killed.process.kill('SIGKILL');
      await killed.exited;
      // Documents not Ready once the killed worker is gone can only be made Ready by the survivor.
      const afterKill = await listAll(clients[0]!);
      const notReadyAtKill = new Set(ids.filter((id) => afterKill.get(id)?.status !== 'Ready'));
      assert.ok(notReadyAtKill.size > 0, 'every document was Ready at the kill');

      const docs = await until(
        'the documents of the killed worker to settle',
        async () => {
          const all = await listAll(clients[1]!);
          const ours = ids.map((id) => all.get(id));
          return ours.every((d) => d && SETTLED.includes(d.status)) ? ours : undefined;
        },
        150_000,
        1000,
      );
      for (const d of docs) {
        const { file } = uploaded.get(d.id)!;
        assert.equal(d.status, 'Ready', `${path.basename(file)}: ${JSON.stringify(d)}`);
        assert.equal(d.pageCount, pagesOf(file), path.basename(file));
      }
      // The held job ran again on the surviving worker, after the lease: one job, retried, completed once.
      const rows = await finishedJobs(ids);
      for (const id of ids) {
        for (const queue of ['q_ingest', 'q_process']) {
          const mine = rows.filter((r) => r.documentId === id && r.queue === queue);
          assert.deepEqual(mine.map((r) => r.state), ['completed'], `${queue} jobs of ${id}: ${JSON.stringify(mine)}`);
        }
      }
      const heldRow = rows.find((r) => r.documentId === held.documentId && r.queue === held.name)!;
      assert.ok(heldRow.retries >= 1, `the held job was not run again: ${JSON.stringify(heldRow)}`);
      const takenOverIn = Number(heldRow.startedAt) - killedAt;
      const report = `killed worker ${workers.indexOf(killed) + 1} holding a ${held.name} job; the other worker took it over ${(takenOverIn / 1000).toFixed(1)} s after the kill (lease ${LEASE_MS / 1000} s) and completed it ${((Number(heldRow.completedAt) - killedAt) / 1000).toFixed(1)} s after`;
      t.diagnostic(report);
      console.log(`cluster: ${report}`);
      // Renewed every third of the lease while it ran, so it expired at least two thirds of a lease after the kill.
      assert.ok(takenOverIn >= (LEASE_MS * 2) / 3 - 1000, `taken over before the lease ran out (${takenOverIn} ms)`);
      assert.ok(takenOverIn <= TAKEOVER_WITHIN_MS, `taken over ${takenOverIn} ms after the kill, over ${TAKEOVER_WITHIN_MS} ms`);
      // Each document made Ready once, by one worker; those still in flight at the kill by the survivor.
      const bySurvivor = readyDocuments(survivor.logs()).filter((id) => ids.includes(id));
      const byKilled = readyDocuments(killed.logs()).filter((id) => ids.includes(id));
      assert.deepEqual([...bySurvivor, ...byKilled].sort(), [...ids].sort());
      for (const id of ids.filter((id) => notReadyAtKill.has(id))) assert.ok(bySurvivor.includes(id), `${id}, in flight at the kill, was not made Ready by the surviving worker`);

      // Everything created meanwhile reached the webhook too (at least once: a delivery the killed
      // worker sent but had not recorded yet is sent again).
      const events = (await db.query(`SELECT id FROM events WHERE type = 'Documents.Create' AND payload::jsonb->>'documentId' = ANY($1::text[])`, [ids])).rows as { id: string }[];
      assert.equal(events.length, ids.length);
      await rx.waitFor('the new events at the receiver', () => events.every((e) => rx.accepted.some((r) => r.id === e.id)), 60_000);
    });
  });
}

/** Document ids a worker logged as made Ready (pino JSON lines). */
function readyDocuments(logs: string): string[] {
  const out: string[] = [];
  for (const line of logs.split('\n')) {
    if (!line.includes('"document ready"')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; document?: string };
      if (entry.msg === 'document ready' && entry.document) out.push(entry.document);
    } catch {
      // a partial line at the end
    }
  }
  return out;
}
