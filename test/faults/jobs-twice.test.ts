/**
 * Every job is safe to run twice, at once or one after the other (a job whose lease was lost runs
 * again elsewhere; a job whose process died after its commit runs again after the restart). The real
 * handlers of a worker (app/jobs.ts) run the same job twice at once, then a third time, on SQLite and
 * PostgreSQL:
 * - expansion (a ZIP's ingest job): each member is created once, with one Documents.Create event;
 * - publishing a document (its process job: Processing → Ready, the DGML event the webhooks hear): one
 *   Ready, one event, and neither run fails (a duplicate run's failure on a last attempt would end the
 *   document in Error);
 * - extraction (a docset's extract job): one value per property and document.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { jobHandlers } from '../../src/app/jobs.js';
import { openServices, type Services } from '../../src/app/services.js';
import { DGML_EVENT } from '../../src/model/events.js';
import { EXTRACT_JOB, INGEST_JOB, PROCESS_JOB } from '../../src/model/jobs.js';
import { loadConfig } from '../../src/runtime/config.js';
import type { Job, JobHandler } from '../../src/store/queue/queue.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { TEST_SECRET_KEY } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';
import { makeZip } from '../helpers/zip.js';

const CONTRACT = `SERVICE AGREEMENT

Effective Date: March 3, 2024

This agreement is made between Acme Corporation and Globex Limited.

Term: The term of this agreement is two years from the Effective Date.
`;

onBothDatabases('jobs run twice', 'quire_jobs_twice', (dialect, database, teardown) => {
  describe(`every job is safe to run twice (${dialect})`, () => {
    let services: Services;
    let handlers: ReturnType<typeof jobHandlers>;
    let workspaceId: string;
    const handler = (queue: string): JobHandler<unknown> => handlers.jobs.find((j) => j.queue === queue)!.handler;
    let n = 0;
    const jobOf = (queue: string, payload: unknown, attempt = 3): Job => ({ id: `twice-${++n}`, queue, workspaceId, payload, attempt, maxAttempts: 3 });

    /** Runs the job twice at once, then once more (on its last attempt each: a failure would be final); none may fail. */
    async function runThrice(queue: string, payload: unknown): Promise<void> {
      const h = handler(queue);
      const runs = await Promise.allSettled([h.run(jobOf(queue, payload), new AbortController().signal), h.run(jobOf(queue, payload), new AbortController().signal)]);
      for (const r of runs) assert.equal(r.status, 'fulfilled', `a run failed: ${r.status === 'rejected' ? (r.reason as Error).stack : ''}`);
      await h.run(jobOf(queue, payload), new AbortController().signal);
    }

    async function upload(name: string, bytes: Buffer | string, docsetSpec?: string): Promise<string> {
      const intent = await services.documents.prepareUpload(workspaceId, { fileName: name, docsetSpec, metadataJson: undefined });
      const staged = await services.documents.stageUpload(intent, Readable.from([Buffer.from(bytes)]));
      return (await services.documents.createFromStaged(intent, staged)).id;
    }

    async function eventsOf(type: string, documentId: string): Promise<number> {
      const sql = dialect === 'PostgreSQL' ? 'SELECT payload FROM events WHERE type = $1' : 'SELECT payload FROM events WHERE type = ?';
      const { rows } = await services.store.raw.executeSql(sql, [type]);
      return rows.filter((r: { payload: unknown }) => JSON.stringify(r.payload).includes(documentId)).length;
    }

    before(async () => {
      const db = await database();
      const config = loadConfig({
        QUIRE_DATA_DIR: scratchDir('quire-jobs-twice-'),
        QUIRE_LOG_LEVEL: 'silent',
        QUIRE_PDFIUM_COMPILE: 'lazy',
        QUIRE_WORKER_CONCURRENCY: '2',
        ...(db.kind === 'postgres' ? { DATABASE_URL: db.url, QUIRE_SECRET_KEY: TEST_SECRET_KEY } : {}),
      });
      const logger = pino({ level: 'silent' });
      services = await openServices(config, logger);
      // The handlers only: nothing consumes the queues, the test runs each job itself.
      handlers = jobHandlers(services, logger);
      workspaceId = (await services.workspaces.ensureDefault()).id;
    });
    after(async () => {
      await handlers?.pool.close();
      await services?.close();
      await teardown();
    });

    test('expansion: a ZIP expanded twice at once, and again, has each member once', async () => {
      const zip = await upload('bundle.zip', makeZip([
        { name: 'one.txt', data: 'The first member.\n' },
        { name: 'two.txt', data: 'The second member.\n' },
        { name: 'dir/three.txt', data: 'The third member.\n' },
      ]));
      await runThrice(INGEST_JOB, { documentId: zip });
      const { items } = await services.store.documents.list(workspaceId, {}, { limit: 100 });
      const members = items.filter((d) => d.id !== zip && ['one.txt', 'two.txt', 'three.txt'].includes(d.name));
      assert.deepEqual(members.map((d) => d.name).sort(), ['one.txt', 'three.txt', 'two.txt']);
      assert.equal((await services.store.documents.get(workspaceId, zip))?.status, 'Ready');
      for (const m of members) assert.equal(await eventsOf('Documents.Create', m.id), 1, `${m.name}: Documents.Create events`);
    });

    test('publishing: a document processed twice at once, and again, is Ready once with one DGML event', async () => {
      const id = await upload('contract.txt', CONTRACT);
      await handler(INGEST_JOB).run(jobOf(INGEST_JOB, { documentId: id }), new AbortController().signal);
      assert.equal((await services.store.documents.get(workspaceId, id))?.status, 'Ingested');
      // The ingest job ran twice too: still one process job (checked by running ingest again now).
      await handler(INGEST_JOB).run(jobOf(INGEST_JOB, { documentId: id }), new AbortController().signal);
      await runThrice(PROCESS_JOB, { documentId: id, startedAt: Date.now() });
      const doc = await services.store.documents.get(workspaceId, id);
      assert.equal(doc?.status, 'Ready', JSON.stringify(doc?.error));
      assert.equal(await eventsOf(DGML_EVENT, id), 1, 'DGML events of the document');
    });

    test('extraction: a docset extracted twice at once, and again, has one value per property and document', async () => {
      const docset = await services.docsets.create(workspaceId, { name: `twice-${dialect}` });
      const labels = ['Effective Date', 'Term'];
      const properties: { id: string }[] = [];
      for (const label of labels) properties.push(await services.properties.create(workspaceId, docset.id, { label }));
      const id = await upload('contract-in-docset.txt', CONTRACT, docset.id);
      await handler(INGEST_JOB).run(jobOf(INGEST_JOB, { documentId: id }), new AbortController().signal);
      await handler(PROCESS_JOB).run(jobOf(PROCESS_JOB, { documentId: id, startedAt: Date.now() }), new AbortController().signal);
      assert.equal((await services.store.documents.get(workspaceId, id))?.status, 'Ready');
      await runThrice(EXTRACT_JOB, { docsetId: docset.id });
      await runThrice(EXTRACT_JOB, { docsetId: docset.id, documentId: id });
      const values = await services.store.properties.valuesOf(docset.id, id);
      assert.deepEqual(values.map((v) => v.propertyId).sort(), properties.map((p) => p.id).sort(), 'one value per property');
      const dated = values.find((v) => v.propertyId === properties[0]!.id);
      assert.match(dated?.extractedValue ?? '', /March 3, 2024/, 'the value was extracted');
    });
  });
});
