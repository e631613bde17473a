/**
 * The document lifecycle as data (DOCUMENT_TRANSITIONS, src/model/lifecycle.ts) and the one place
 * that writes statuses (src/domain/ingestion.ts): the table covers every status, a move it does not
 * allow is refused with a clear error and writes nothing, and every move a real ingest makes (PDF,
 * text, ZIP, an unreadable file, a document over quota) is in the table.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { CORPUS, ROOT } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';
import { makeZip } from '../helpers/zip.js';
import { canMove, DOCUMENT_STATUSES, DOCUMENT_TRANSITIONS, SETTLED_DOCUMENT_STATUSES, type DocumentStatus } from '../../src/model/lifecycle.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { loadConfig } from '../../src/runtime/config.js';
import { Store } from '../../src/store/db/index.js';
import { IngestRepo } from '../../src/store/db/ingest.js';
import { failedAfterAttempts, IllegalTransitionError, recordReady, startIngesting, startProcessing } from '../../src/domain/ingestion.js';
import { openServices, type Services } from '../../src/app/services.js';
import { startConsumers } from '../../src/app/jobs.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');

describe('the transition table', () => {
  test('has a row for every status of the model, and names only statuses of the model', () => {
    assert.deepEqual(Object.keys(DOCUMENT_TRANSITIONS).sort(), [...DOCUMENT_STATUSES].sort());
    for (const [from, tos] of Object.entries(DOCUMENT_TRANSITIONS)) {
      for (const to of tos) assert.ok((DOCUMENT_STATUSES as readonly string[]).includes(to), `${from} → ${to}: not a status`);
      assert.equal(new Set(tos).size, tos.length, `${from} lists a status twice`);
    }
  });

  test('every status is reached from New, and the settled ones are exactly those that lead nowhere', () => {
    const reached = new Set<DocumentStatus>(['New']);
    for (const from of reached) for (const to of DOCUMENT_TRANSITIONS[from]) reached.add(to); // a Set's iteration visits what is added during it
    assert.deepEqual([...reached].sort(), [...DOCUMENT_STATUSES].sort());
    const final = DOCUMENT_STATUSES.filter((s) => DOCUMENT_TRANSITIONS[s].length === 0);
    assert.deepEqual([...final].sort(), [...SETTLED_DOCUMENT_STATUSES].sort());
    assert.ok(!canMove('Ready', 'Ingesting') && canMove('New', 'Ingesting'));
  });
});

describe('status writes go through the domain, which checks the table', () => {
  let store: Store;
  const now = Date.now();
  const ws = 'ws-lifecycle';
  const doc = (id: string, status: DocumentStatus): DocumentRecord => ({
    id, workspaceId: ws, docsetId: null, docsetCandidates: [], name: `${id}.txt`, format: 'txt', contentType: 'text/plain', size: 1,
    sha256: '0'.repeat(64), blobKey: `k/${id}`, status, pageCount: null, isSample: false, error: null, createdAt: now, updatedAt: now, processedAt: null,
  });

  before(async () => {
    store = await Store.open({ kind: 'sqlite', file: path.join(scratchDir('lifecycle-'), 'quire.db'), readCacheBytes: 0 });
    await store.workspaces.insert({ id: ws, name: ws, type: 'Trial', createdAt: now, expiresAt: null, pageQuotaMax: 10, pageQuotaPerDocument: 10, userQuotaMax: 10 });
  });
  after(async () => store.close());

  test('a move the table does not allow is refused with an error naming it, and writes nothing', async () => {
    await store.documents.insert(doc('done', 'Ready'));
    const err = await startIngesting(store.ingest, { workspaceId: ws, id: 'done' }, { stage: 'reading', pagesDone: 0, pagesTotal: null }).then(
      () => assert.fail('Ready → Ingesting was written'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof IllegalTransitionError, String(err));
    assert.deepEqual([err.from, err.to], ['Ready', 'Ingesting']);
    assert.match(err.message, /^Document done cannot go from Ready to Ingesting: the lifecycle \(src\/model\/lifecycle\.ts\) ends at Ready\.$/);
    const after = await store.documents.get(ws, 'done');
    assert.equal(after?.status, 'Ready');
    assert.equal(after?.updatedAt, now);
    assert.equal(after?.progress ?? null, null);
  });

  test("a move the table allows but the step does not start from is refused too (a ZIP's Ingesting → Ready is not the pipeline's)", async () => {
    await store.documents.insert(doc('reading', 'Ingesting'));
    await assert.rejects(
      recordReady(store.ingest, { workspaceId: ws, id: 'reading' }, { structureBlobKey: 'k', processing: { format: 'txt' } as never, now }),
      (e: unknown) => e instanceof IllegalTransitionError && /cannot go from Ingesting to Ready: this step takes a document to Ready only from Processing\./.test(e.message),
    );
    assert.equal((await store.documents.get(ws, 'reading'))?.status, 'Ingesting');
  });

  test('an allowed move is written; a document deleted meanwhile answers false', async () => {
    await store.documents.insert(doc('fresh', 'Ingested'));
    assert.equal(await startProcessing(store.ingest, { workspaceId: ws, id: 'fresh' }, { stage: 'processing', pagesDone: 0, pagesTotal: 1 }), true);
    const moved = await store.documents.get(ws, 'fresh');
    assert.equal(moved?.status, 'Processing');
    assert.deepEqual(moved?.progress, { stage: 'processing', pagesDone: 0, pagesTotal: 1 });
    assert.equal(await startIngesting(store.ingest, { workspaceId: ws, id: 'gone' }, { stage: 'reading', pagesDone: 0, pagesTotal: null }), false);
  });

  test('a job that failed its last attempt ends its in-flight document in Error, and leaves a settled one as it is', async () => {
    await store.documents.insert(doc('stuck', 'New'));
    await failedAfterAttempts(store.ingest, ws, 'stuck', 3, new Error('database unreachable'));
    const stuck = await store.documents.get(ws, 'stuck');
    assert.equal(stuck?.status, 'Error');
    assert.deepEqual(stuck?.error, { title: 'Processing failed', detail: 'Processing failed after 3 attempts: database unreachable' });
    await store.documents.insert(doc('finished', 'Ready'));
    await assert.rejects(failedAfterAttempts(store.ingest, ws, 'finished', 3, new Error('late')), /cannot go from Ready to Error/);
    assert.equal((await store.documents.get(ws, 'finished'))?.status, 'Ready');
  });

  test('no module but domain/ingestion.ts calls the store\'s status writes', () => {
    const writes = /\.(setStatus|setIngested|setOverQuota|setReady|setExpanded|setError)\(/;
    const allowed = new Set(['src/domain/ingestion.ts', 'src/store/db/ingest.ts']);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (rel.endsWith('.ts') && !allowed.has(rel) && writes.test(fs.readFileSync(path.join(ROOT, rel), 'utf8'))) offenders.push(rel);
      }
    };
    walk('src');
    assert.deepEqual(offenders, []);
  });
});

describe('a real ingest makes only moves of the table', () => {
  const moves: { id: string; from: DocumentStatus | null; to: DocumentStatus | null }[] = [];
  type Move = (this: IngestRepo, workspaceId: string, id: string, ...rest: unknown[]) => Promise<boolean>;
  const proto = IngestRepo.prototype as unknown as { move: Move };
  const original = proto.move;
  let services: Services;
  let consumers: Awaited<ReturnType<typeof startConsumers>>;

  before(async () => {
    // Every status write passes the repository's one `move`: the status before and after it, read in its transaction.
    proto.move = async function (this: IngestRepo, workspaceId, id, ...rest) {
      const from = await this.statusOf(workspaceId, id);
      const written = await original.call(this, workspaceId, id, ...rest);
      if (written) moves.push({ id, from, to: await this.statusOf(workspaceId, id) });
      return written;
    };
    const dataDir = scratchDir('lifecycle-ingest-');
    const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', QUIRE_PDFIUM_COMPILE: 'lazy', QUIRE_WORKER_CONCURRENCY: '1', QUIRE_JOB_POLL_MS: '50' });
    const logger = pino({ level: 'silent' });
    services = await openServices(config, logger);
    consumers = await startConsumers(services, logger);
  });
  after(async () => {
    await consumers?.stop(5_000);
    await services?.close();
    proto.move = original;
  });

  async function upload(workspaceId: string, fileName: string, bytes: Buffer): Promise<string> {
    const intent = await services.documents.prepareUpload(workspaceId, { fileName, docsetSpec: undefined, metadataJson: undefined });
    const staged = await services.documents.stageUpload(intent, Readable.from([bytes]));
    return (await services.documents.createFromStaged(intent, staged)).id;
  }

  async function settled(workspaceId: string): Promise<DocumentRecord[]> {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const { items } = await services.store.documents.list(workspaceId, {}, { limit: 100 });
      if (items.every((d) => SETTLED_DOCUMENT_STATUSES.includes(d.status))) return items;
      if (Date.now() > deadline) assert.fail(`not settled: ${items.map((d) => `${d.name} ${d.status}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test('PDF and text to Ready, a ZIP expanded, an unreadable file to Error, a document over quota to OverQuota', async () => {
    const main = await services.workspaces.ensureDefault();
    const small = { id: 'ws-tiny-quota', name: 'tiny-quota', type: 'Trial', createdAt: Date.now(), expiresAt: null, pageQuotaMax: 100, pageQuotaPerDocument: 0, userQuotaMax: 10 };
    await services.store.workspaces.insert(small);
    const ids = {
      pdf: await upload(main.id, 'nda.pdf', fs.readFileSync(NDA)),
      text: await upload(main.id, 'note.txt', Buffer.from('A short note.\n\nIt has two paragraphs.\n')),
      zip: await upload(main.id, 'bundle.zip', makeZip([{ name: 'inner.txt', data: 'A member of the archive.\n' }])),
      broken: await upload(main.id, 'broken.pdf', Buffer.from('%PDF-1.7\nthis is not a PDF at all\n')),
      over: await upload(small.id, 'too-long.txt', Buffer.from('One page is already over a quota of none.\n')),
    };
    const docs = [...(await settled(main.id)), ...(await settled(small.id))];
    const status = (id: string) => docs.find((d) => d.id === id)?.status;
    assert.deepEqual(
      { pdf: status(ids.pdf), text: status(ids.text), zip: status(ids.zip), broken: status(ids.broken), over: status(ids.over) },
      { pdf: 'Ready', text: 'Ready', zip: 'Ready', broken: 'Error', over: 'OverQuota' },
    );
    const member = docs.find((d) => d.name === 'inner.txt');
    assert.equal(member?.status, 'Ready');

    for (const m of moves) assert.ok(m.from && m.to && canMove(m.from, m.to), `a move outside the table: ${m.from} → ${m.to} (${m.id})`);
    const path = (id: string) => moves.filter((m) => m.id === id).map((m) => `${m.from}→${m.to}`);
    const ready = ['New→Ingesting', 'Ingesting→Ingested', 'Ingested→Processing', 'Processing→Ready'];
    assert.deepEqual(path(ids.pdf), ready);
    assert.deepEqual(path(ids.text), ready);
    assert.deepEqual(path(member!.id), ready);
    assert.deepEqual(path(ids.zip), ['New→Ingesting', 'Ingesting→Ready']);
    assert.deepEqual(path(ids.broken), ['New→Ingesting', 'Ingesting→Error']);
    assert.deepEqual(path(ids.over), ['New→Ingesting', 'Ingesting→Ingested', 'Ingested→OverQuota']);
  });
});
