import path from 'node:path';
import type { Logger } from 'pino';
import type { Services } from './services.js';
import type { JobHandler } from '../store/queue/queue.js';
import { IngestJob } from '../ingest/jobs/ingest.js';
import { ProcessJob } from '../ingest/jobs/process.js';
import { Handoff } from '../ingest/jobs/handoff.js';
import { ExtractionJob } from '../ingest/jobs/extract.js';
import { ThreadPool } from '../ingest/thread-pool.js';
import { removeDeadOfficeDirs, useOfficeRoot } from '../ingest/readers/office/office-dirs.js';
import { PublishJob } from '../reports/publish-job.js';
import { GENERATORS } from '../reports/index.js';

/** One queue this process serves, with its handler and how many of its jobs run at once. */
function job<P>(queue: string, handler: JobHandler<P>, concurrency: number): { queue: string; handler: JobHandler<unknown>; concurrency: number } {
  return { queue, handler: handler as JobHandler<unknown>, concurrency };
}

export interface RunningConsumers {
  /** Stops claiming; lets running documents finish within `deadlineMs`, then releases their jobs. */
  stop(deadlineMs: number): Promise<void>;
}

/** The handler of every job of a worker, by queue, and the thread pool they read and analyse in. */
export function jobHandlers(services: Services, logger: Logger): { pool: ThreadPool; jobs: { queue: string; handler: JobHandler<unknown>; concurrency: number }[] } {
  const { config, store, blobs, queue, documents, properties } = services;
  // LibreOffice works in folders under the data directory; those of a process that died go at start.
  const officeRoot = path.join(config.dataDir, 'office');
  useOfficeRoot(officeRoot);
  const stale = removeDeadOfficeDirs(officeRoot);
  if (stale) logger.info({ folders: stale, dir: officeRoot }, 'removed LibreOffice working folders of processes that ended');
  const pool = new ThreadPool({ size: config.ingest.concurrency, timeoutMs: config.ingest.timeoutMs, memoryMb: config.ingest.memoryMb, pdfEngine: config.ingest.pdfEngine, pdfiumCompile: config.ingest.pdfiumCompile, warmUpMs: config.ingest.analysisWarmUpMs, ocrConcurrency: config.ingest.ocrConcurrency, ocrLanguages: config.ingest.ocrLanguages, officeIdleMs: config.ingest.officeIdleMs, officeRequireIsolation: config.ingest.officeRequireIsolation, officeRoot });
  // The two jobs of a document share the models `ingest` read, kept in memory for `process`.
  const handoff = new Handoff();
  const processJob = new ProcessJob(store, blobs, pool, handoff, logger.child({ component: 'ingest' }), {
    ocrPageTimeoutMs: config.ingest.ocrPageTimeoutMs,
    onReady: async (s, doc, features, labels) => {
      await services.labels.recordReady(s, doc, labels);
      await services.docsets.documentProcessed(s, doc, features);
    },
    afterReady: (doc) => services.structure.writeFiles(doc.workspaceId, doc.id),
  });
  const ingestJob = new IngestJob(store, blobs, pool, handoff, logger.child({ component: 'ingest' }), {
    createZipMembers: (doc, members, skipped) => documents.createZipMembers(doc, members, skipped),
    enqueueProcess: async (s, workspaceId, payload) => void (await queue.enqueue(ProcessJob.queue, payload, { workspaceId }, s)),
  });
  const extraction = new ExtractionJob(store, properties, services.structure, logger.child({ component: 'extract' }));
  const publish = new PublishJob(
    services.projects,
    services.artifacts,
    services.structure,
    blobs,
    GENERATORS,
    { debounceMs: config.projects.debounceMs, settleRetryMs: 1000, settleMaxMs: config.projects.settleMaxMs },
    logger.child({ component: 'publish' }),
    config.apiBase,
  );
  // Every job of the process, by queue name; the webhook dispatcher runs its own queue (webhooks/dispatcher.ts).
  const jobs = [
    job(IngestJob.queue, ingestJob, config.ingest.concurrency),
    job(ProcessJob.queue, processJob, config.ingest.concurrency),
    job(ExtractionJob.queue, extraction, 1),
    job(PublishJob.queue, publish, 1),
  ];
  return { pool, jobs };
}

/**
 * Makes this process a worker: starts consuming the job queues (documents: `config.ingest.concurrency`
 * at once, in a pool of reading and analysing threads) and the webhook dispatcher.
 */
export async function startConsumers(services: Services, logger: Logger): Promise<RunningConsumers> {
  const { config, store, queue } = services;
  const { pool, jobs } = jobHandlers(services, logger);
  pool.warm();
  const recovered = (await queue.recoverLocal?.(jobs.map((j) => j.queue))) ?? 0;
  const inFlight = await store.ingest.countInFlight();
  if (inFlight || recovered) {
    logger.info({ documents: inFlight, resumedNow: recovered }, 'documents left mid-ingestion resume (at once if their process is gone from this host, else once their job lease expires)');
  }
  for (const j of jobs) queue.work(j.queue, j.handler, { concurrency: j.concurrency });
  logger.info({ concurrency: config.ingest.concurrency }, 'job consumers started');
  await services.webhookDispatcher.start();
  return {
    stop: async (deadlineMs) => {
      await services.webhookDispatcher.stop();
      await queue.stop(deadlineMs);
      await pool.close();
    },
  };
}
