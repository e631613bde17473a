/**
 * Ingestion against a real server process: the durable `ingest` job takes documents from `New` to
 * `Ready` (or `Error`, `OverQuota`), and survives the server being killed mid-way.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { makeZip } from '../helpers/zip.js';
import { CORPUS, ROOT, freePort, startQuire, type Quire, type StartOptions } from '../helpers/quire.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { assertJson, client, type Client } from '../helpers/http.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');
const PDFS = [NDA, path.join(CORPUS, 'reference-dgml/20071204X01896.pdf'), path.join(CORPUS, 'pdf/A - Package Proposal.pdf')];
const SETTLED = ['Ready', 'Error', 'OverQuota'];

async function withStore<T>(q: Quire, fn: (s: Store) => Promise<T>): Promise<T> {
  const store = await Store.open(loadConfig(q.env).database);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Polls the document until it settles (or `until` holds), with a deadline. */
async function settle(c: Client, id: string, timeoutMs = 60_000, until = (d: any) => SETTLED.includes(d.status)): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const r = await c.get(`/documents/${id}`);
    assertJson(r);
    last = r.json;
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`document ${id} did not settle within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}


/** The value of one series in `GET /metrics` (0 when it has not been counted yet). */
async function metric(q: Quire, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${q.origin}/metrics`)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).sort().join(',');
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (m && m[1] === name && m[2]!.split(',').sort().join(',') === wanted) return Number(m[3]);
  }
  return 0;
}

/** Asserts that a series reaches `value` (a document's status may show a moment before its count). */
async function assertMetric(q: Quire, name: string, labels: Record<string, string>, value: number) {
  const deadline = Date.now() + 5_000;
  let seen = await metric(q, name, labels);
  while (seen !== value && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await metric(q, name, labels);
  }
  assert.equal(seen, value, `${name}${JSON.stringify(labels)}`);
}

/** `database()` gives the options of a fresh database (nothing for SQLite: the data dir holds it). */
function ingestionSuite(label: string, database: () => Promise<StartOptions>, teardown: () => Promise<void> = async () => {}) {
describe(`ingestion (${label})`, () => {
  let q: Quire;
  let c: Client;

  before(async () => {
    q = await startQuire(await database());
    c = client(q.api, q.key);
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('a corpus PDF goes from New to Ready with its page count, and a Documents.Create event', async () => {
    const up = await c.upload({ path: NDA });
    assertJson(up, 201);
    assert.equal(up.json.status, 'New');
    const d = await settle(c, up.json.id, 60_000, (d) => {
      if (d.status !== 'Ready') assert.ok(!d.processedAt);
      // In flight, the document says how far it is.
      if (['Ingesting', 'Ingested', 'Processing'].includes(d.status)) {
        assert.equal(typeof d.progress?.stage, 'string', JSON.stringify(d));
        assert.equal(typeof d.progress.pagesDone, 'number');
      }
      return SETTLED.includes(d.status);
    });
    assert.equal(d.status, 'Ready', JSON.stringify(d));
    assert.equal(d.pageCount, 2);
    assert.ok(d.processedAt);
    assert.equal(d.progress, undefined);
    assert.equal(d.error, undefined);
    await withStore(q, async (s) => {
      const pages = await s.ingest.pages(d.id);
      assert.deepEqual(pages.map((p) => p.number), [1, 2]);
      assert.ok(pages.every((p) => p.width > 0 && p.height > 0));
      const events = await s.events.list((await s.workspaces.getByName('default'))!.id, undefined, 1000);
      assert.ok(events.some((e) => e.type === 'Documents.Create' && (e.payload as any).documentId === d.id));
      // The ingest job: a row of `jobs` on SQLite, a pg-boss job on PostgreSQL.
      const job =
        s.dialect === 'postgres'
          ? (await s.raw.executeSql(`SELECT state FROM pgboss.job WHERE name = 'q_ingest' AND data->'payload'->>'documentId' = $1`, [d.id])).rows[0]
          : (await (s as any).db.selectFrom('jobs').selectAll().execute()).find((j: any) => JSON.parse(j.payload).documentId === d.id);
      assert.equal(job?.state, 'completed');
    });
    const ws = (await c.get('/workspace')).json;
    assert.ok(ws.quota.page.used >= 2);
  });

  test('GET /metrics counts what ingestion did: documents by stage and outcome, renditions, pages, stage times', async () => {
    // The server's first document (the test above) is counted exactly.
    await assertMetric(q, 'quire_ingest_documents_total', { stage: 'ingest', outcome: 'ok' }, 1);
    await assertMetric(q, 'quire_ingest_documents_total', { stage: 'process', outcome: 'ok' }, 1);
    await assertMetric(q, 'quire_ingest_renditions_total', { pagination: 'pdf' }, 1);
    await assertMetric(q, 'quire_ingest_pages_total', { kind: 'ready' }, 2);
    await assertMetric(q, 'quire_ingest_stage_seconds_count', { stage: 'process' }, 1);
    const txt = await settle(c, (await c.upload({ bytes: 'Counted.\n', name: 'counted.txt' })).json.id);
    const bad = await settle(c, (await c.upload({ bytes: Buffer.from('%PDF-1.7\n' + 'x'.repeat(2000)), name: 'bad.pdf' })).json.id);
    assert.equal(txt.status, 'Ready');
    assert.equal(bad.status, 'Error');
    await assertMetric(q, 'quire_ingest_documents_total', { stage: 'ingest', outcome: 'ok' }, 2);
    await assertMetric(q, 'quire_ingest_documents_total', { stage: 'ingest', outcome: 'error' }, 1);
    await assertMetric(q, 'quire_ingest_documents_total', { stage: 'process', outcome: 'ok' }, 2);
    await assertMetric(q, 'quire_ingest_renditions_total', { pagination: 'text-layout' }, 1);
    await assertMetric(q, 'quire_ingest_pages_total', { kind: 'ready' }, 2 + txt.pageCount);
    await assertMetric(q, 'quire_ingest_pages_total', { kind: 'ocr' }, 0);
    await assertMetric(q, 'quire_ingest_stage_seconds_count', { stage: 'ingest' }, 2);
  });

  test('a text file gets a stored PDF rendition; deleting it removes rendition, pages, and records Documents.Delete', async () => {
    const up = await c.upload({ bytes: 'Hello, Quire.\n\nA second paragraph.\n', name: 'hello.txt' });
    assertJson(up, 201);
    const d = await settle(c, up.json.id);
    assert.equal(d.status, 'Ready', JSON.stringify(d));
    assert.ok(d.pageCount >= 1);
    const rendition = path.join(q.dataDir, 'blobs', 'workspaces');
    const files = () => fs.readdirSync(rendition, { recursive: true }).map(String).filter((f) => f.includes(d.id));
    assert.ok(files().some((f) => f.endsWith('rendition.pdf')), files().join(','));
    const pdf = fs.readFileSync(path.join(rendition, files().find((f) => f.endsWith('rendition.pdf'))!));
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    // Its DGML and text files may still be being written (they are, just after Ready).
    const deleted = await c.del(`/documents/${d.id}`);
    assert.equal(deleted.status, 204, JSON.stringify(deleted.json));
    assert.deepEqual(files().filter((f) => f.endsWith('.pdf') || f.endsWith('original')), []);
    await withStore(q, async (s) => {
      assert.deepEqual(await s.ingest.pages(d.id), []);
      const events = await s.events.list((await s.workspaces.getByName('default'))!.id, undefined, 1000);
      assert.ok(events.some((e) => e.type === 'Documents.Delete' && (e.payload as any).documentId === d.id));
    });
  });

  test('garbage named .pdf ends in Error with a readable reason, without retries', async () => {
    const up = await c.upload({ bytes: 'this is not a PDF at all', name: 'fake.pdf' });
    assertJson(up, 201);
    const d = await settle(c, up.json.id);
    assert.equal(d.status, 'Error');
    assert.equal(typeof d.error.title, 'string');
    assert.ok(d.error.title.length > 3 && !/not implemented|undefined/i.test(d.error.title), d.error.title);
    assert.ok(d.error.detail.length > 0);
    assert.equal(d.pageCount, undefined);
  });

  test('quotas: over the per-document limit is OverQuota and not counted; the workspace total is enforced; deleting frees pages', async () => {
    assert.equal((await q.cli(['workspaces', 'create', 'small'])).code, 0);
    const set = await q.cli(['workspaces', 'set-quota', 'small', '--pages-per-document', '1', '--pages', '3']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /pages 3, pages per document 1/);
    assert.equal((await q.cli(['workspaces', 'set-quota', 'small', '--pages', 'x'])).code, 2);
    assert.equal((await q.cli(['workspaces', 'set-quota', 'nope', '--pages', '1'])).code, 1);
    const key = (await q.cli(['keys', 'create', '--workspace', 'small', '--scopes', 'admin'])).stdout.trim();
    const small = client(q.api, key);

    const big = await settle(small, (await small.upload({ path: NDA })).json.id);
    assert.equal(big.status, 'OverQuota', JSON.stringify(big));
    assert.equal(big.pageCount, 2);
    assert.match(big.error.detail, /limited to 1 pages/);
    assert.equal((await small.get('/workspace')).json.quota.page.used, 0);

    assert.equal((await q.cli(['workspaces', 'set-quota', 'small', '--pages-per-document', '100'])).code, 0);
    const first = await settle(small, (await small.upload({ path: NDA })).json.id);
    assert.equal(first.status, 'Ready');
    assert.equal((await small.get('/workspace')).json.quota.page.used, 2);
    const second = await settle(small, (await small.upload({ path: NDA })).json.id);
    assert.equal(second.status, 'OverQuota');
    assert.equal((await small.get('/workspace')).json.quota.page.used, 2);

    assert.equal((await small.del(`/documents/${first.id}`)).status, 204);
    assert.equal((await small.get('/workspace')).json.quota.page.used, 0);
    const third = await settle(small, (await small.upload({ path: NDA })).json.id);
    assert.equal(third.status, 'Ready');
    await assertMetric(q, 'quire_ingest_documents_total', { stage: 'ingest', outcome: 'over-quota' }, 2);
  });

  test('a ZIP upload becomes one document per member, in its docset with its metadata', async () => {
    const ds = (await c.post('/docsets', { json: { name: 'zipped' } })).json;
    const zip = makeZip([
      { name: 'folder/nda.pdf', data: fs.readFileSync(NDA) },
      { name: 'note.txt', data: 'A note inside a ZIP.\n' },
      { name: 'image.png', data: 'not a document' },
    ]);
    const up = await c.upload({ bytes: zip, name: 'bundle.zip' }, { 'docset.id': ds.id, metadata: JSON.stringify({ metadata: [{ key: 'batch', value: 'z1' }] }) });
    assertJson(up, 201);
    const parent = await settle(c, up.json.id);
    assert.equal(parent.status, 'Ready', JSON.stringify(parent));
    const deadline = Date.now() + 60_000;
    let members: any[] = [];
    while (Date.now() < deadline) {
      members = (await c.get(`/documents?metadata.batch=z1&limit=100`)).json.documents.filter((d: any) => d.id !== parent.id);
      if (members.length === 2 && members.every((d) => SETTLED.includes(d.status))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(members.map((d) => d.name).sort(), ['nda.pdf', 'note.txt']);
    for (const m of members) {
      assert.equal(m.status, 'Ready', JSON.stringify(m));
      assert.equal(m.docset.id, ds.id);
    }
    assert.equal(members.find((m) => m.name === 'nda.pdf').pageCount, 2);
    // The ZIP's own processing details name its members and what was skipped, and why.
    assert.deepEqual([...parent.processing.members].sort(), members.map((m) => m.id).sort());
    assert.deepEqual(parent.processing.skipped.map((k: { name: string }) => k.name), ['image.png']);
    assert.equal(members.find((m) => m.name === 'nda.pdf').processing.pagination, 'pdf');
  });
});

describe(`ingestion limits and crashes (${label})`, () => {
  after(teardown);

  test('a document over the time budget ends in Error "Processing time limit exceeded"; the server lives on', async () => {
    const q = await startQuire({ ...(await database()), extraEnv: { QUIRE_INGEST_TIMEOUT_MS: '100' } });
    try {
      const c = client(q.api, q.key);
      // Laying out 2 MB of text (about 480 pages) takes over a second here, with LibreOffice or
      // without: far over the 100 ms budget on any machine. (A small PDF is read within it now.)
      const line = 'The quick brown fox jumps over the lazy dog and keeps running along the river bank. ';
      const d = await settle(c, (await c.upload({ bytes: line.repeat(Math.ceil((2 << 20) / line.length)), name: 'long.txt' })).json.id);
      assert.equal(d.status, 'Error');
      assert.equal(d.error.title, 'Processing time limit exceeded');
      assert.equal((await fetch(`${q.origin}/healthz`)).status, 200);
    } finally {
      assert.equal(await q.stop(), 0);
    }
  });

  test('serve --no-worker leaves documents New; a separate `quire worker` ingests them and stops on SIGTERM', async () => {
    const q = await startQuire({ ...(await database()), args: ['serve', '--no-worker'] });
    try {
      const c = client(q.api, q.key);
      const id = (await c.upload({ path: NDA })).json.id;
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal((await c.get(`/documents/${id}`)).json.status, 'New');
      const metricsPort = await freePort();
      const env = { ...q.env, QUIRE_METRICS_PORT: String(metricsPort), QUIRE_LOG_LEVEL: 'info' };
      const worker = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'worker'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      worker.stdout!.on('data', (d) => (out += d));
      worker.stderr!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((r) => worker.on('exit', (code) => r(code)));
      try {
        const d = await settle(c, id);
        assert.equal(d.status, 'Ready', JSON.stringify(d));
        // The worker counts the document and answers for it on QUIRE_METRICS_PORT; the API process did no ingestion.
        const workerMetrics = { origin: `http://127.0.0.1:${metricsPort}` } as Quire;
        await assertMetric(workerMetrics, 'quire_ingest_documents_total', { stage: 'process', outcome: 'ok' }, 1);
        await assertMetric(workerMetrics, 'quire_ingest_pages_total', { kind: 'ready' }, 2);
        assert.equal(await metric(q, 'quire_ingest_documents_total', { stage: 'process', outcome: 'ok' }), 0);
        const other = await fetch(`${workerMetrics.origin}/v1preview1/documents`);
        assert.equal(other.status, 404);
        assert.equal(other.headers.get('content-type'), 'application/problem+json');
      } finally {
        worker.kill('SIGTERM');
      }
      assert.equal(await exited, 0, out);
    } finally {
      assert.equal(await q.stop(), 0);
    }
  });

  test('SIGKILL mid-ingestion: after a restart on the same data every document reaches Ready', async () => {
    const env = { QUIRE_JOB_LEASE_MS: '1500', QUIRE_JOB_RETRY_MS: '100' };
    const db = await database();
    const q1 = await startQuire({ ...db, extraEnv: env });
    const c1 = client(q1.api, q1.key);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) for (const f of PDFS) ids.push((await c1.upload({ path: f })).json.id);
    ids.push((await c1.upload({ bytes: 'plain text\n'.repeat(200), name: 'text.txt' })).json.id);
    // Kill once something is in flight (or at the latest after 5 s).
    const deadline = Date.now() + 5_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      statuses = await Promise.all(ids.map(async (id) => (await c1.get(`/documents/${id}`)).json.status));
      if (statuses.some((s) => s === 'Ingesting' || s === 'Processing')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    q1.process.kill('SIGKILL');
    assert.ok(statuses.some((s) => !SETTLED.includes(s)), `nothing was left to do at the kill: ${statuses}`);
    await q1.exited;

    const q2 = await startQuire({ ...db, dataDir: q1.dataDir, extraEnv: { ...env, QUIRE_BOOTSTRAP_KEY: q1.key } });
    try {
      const c2 = client(q2.api, q2.key);
      for (const id of ids) {
        const d = await settle(c2, id, 90_000);
        assert.equal(d.status, 'Ready', JSON.stringify(d));
        assert.ok(d.pageCount >= 1);
        assert.equal(d.progress, undefined);
      }
    } finally {
      assert.equal(await q2.stop(), 0);
    }
  });
});
}

ingestionSuite('SQLite', async () => ({}));

if (findPgBin()) {
  let cluster: PgCluster | undefined;
  let n = 0;
  ingestionSuite(
    'PostgreSQL',
    async () => {
      cluster ??= await startPgCluster();
      return { databaseUrl: await cluster.createDatabase(`quire_ingest_${n++}`) };
    },
    async () => cluster?.stop(),
  );
} else {
  describe('ingestion (PostgreSQL)', () => {
    test('PostgreSQL ingestion', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
