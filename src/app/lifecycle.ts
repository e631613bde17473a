import pino from 'pino';
import type { Config } from '../runtime/config.js';
import type { RunningConsumers } from './jobs.js';

/** A staged blob (an upload in progress) older than this was left by a crash. */
const STAGED_MAX_AGE_MS = 60 * 60 * 1000;
/** How often blobs no row points to are looked for (each pass lists every blob). */
const ORPHAN_SWEEP_EVERY_MS = 24 * 3600_000;

/** How long a stopping process lets running documents finish before releasing their jobs. */
const CONSUMERS_STOP_DEADLINE_MS = 20_000;

/**
 * SIGTERM/SIGINT handling from the first moment: a signal that arrives while the process is still
 * starting is kept and acted on once it is ready, instead of killing it half-started.
 */
function onStopSignal(): { ready: (stop: (signal: string) => Promise<void>) => void } {
  let pending: string | null = null;
  let handler: ((signal: string) => Promise<void>) | null = null;
  let stopping = false;
  const fire = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void handler!(signal);
  };
  const receive = (signal: string) => (handler ? fire(signal) : (pending = signal));
  process.on('SIGTERM', () => receive('SIGTERM'));
  process.on('SIGINT', () => receive('SIGINT'));
  return {
    ready: (stop) => {
      handler = stop;
      if (pending) fire(pending);
    },
  };
}

/** Waits for `work` at most `ms`; past that, says so and goes on (the exit must not hang on it). */
async function bounded(work: Promise<unknown>, ms: number, onLate: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onLate();
      resolve();
    }, ms);
  });
  await Promise.race([work.then(() => undefined), late]);
  clearTimeout(timer);
}

/** A line per optional system tool (LibreOffice, fonts, tesseract, isolation): what it changes. In the background. */
function reportOptionalTools(config: Config, logger: pino.Logger): void {
  void import('./optional-tools.js')
    .then((m) => m.logOptionalTools(logger, { officeRequireIsolation: config.ingest.officeRequireIsolation }))
    .catch((err: unknown) => logger.warn({ err }, 'could not check the optional tools'));
}

/** Stops start-up (a ConfigError) when the OCR engine that will read scans lacks a configured language. */
async function checkOcrLanguages(config: Config, logger: pino.Logger): Promise<void> {
  const { ocrEngineFor } = await import('../ingest/stages/ocr/languages.js');
  const engine = await ocrEngineFor(config.ingest.ocrLanguages);
  logger.info({ engine, languages: config.ingest.ocrLanguages }, 'scanned pages are read by %s in %s', engine, config.ingest.ocrLanguages);
}

/** `quire serve`: the API, and a worker too (the job consumers) unless `worker` is false, until SIGTERM. */
export async function serve(config: Config, opts: { worker: boolean }): Promise<void> {
  const signals = onStopSignal();
  const logger = pino({ level: config.logLevel });
  for (const warning of config.warnings) logger.warn(warning);
  if (opts.worker) await checkOcrLanguages(config, logger);
  const [{ openServices }, { buildServer }, { Cursors }, { serverSecret }, { runAsLeader }, { startConsumers }, { purgeExpired }, { sweepOrphanBlobs }] = await Promise.all([
    import('./services.js'),
    import('../http/server.js'),
    import('../http/pagination.js'),
    import('../domain/secrets.js'),
    import('../store/db/cluster-lock.js'),
    import('./jobs.js'),
    import('../domain/retention.js'),
    import('../domain/blob-sweep.js'),
  ]);
  const services = await openServices(config, logger);
  // Staged blobs of uploads that never completed (a crash): at start and hourly, one process of the cluster at a time.
  const sweepStaged = async () => {
    const run = await runAsLeader(services.store, 'stagedBlobSweep', () => services.blobs.sweepStaged(STAGED_MAX_AGE_MS));
    if (run.ran && run.value) logger.info({ swept: run.value }, 'removed staged blobs left by an earlier crash');
  };
  const onStagedError = (err: unknown) => logger.warn({ err }, 'staged blob sweep failed');
  await sweepStaged().catch(onStagedError);
  setInterval(() => void sweepStaged().catch(onStagedError), STAGED_MAX_AGE_MS).unref();
  // Committed blobs no row points to (a crash between a blob's commit and its row's): in the
  // background from start-up (it lists every blob), then daily, one process of the cluster at a time.
  const sweepOrphans = async () => {
    const run = await runAsLeader(services.store, 'orphanBlobSweep', () => sweepOrphanBlobs(services.store, services.blobs));
    if (run.ran && run.value.removed) logger.info(run.value, 'removed blobs no row points to (left by an earlier crash)');
  };
  const onOrphansError = (err: unknown) => logger.warn({ err }, 'orphan blob sweep failed');
  void sweepOrphans().catch(onOrphansError);
  setInterval(() => void sweepOrphans().catch(onOrphansError), ORPHAN_SWEEP_EVERY_MS).unref();
  if (config.eventRetentionMs > 0) {
    // Old events and finished deliveries: at start and then a tenth of the retention apart (1 s to 1 h), one process of the cluster at a time.
    const purge = async () => {
      const run = await runAsLeader(services.store, 'eventRetention', () => purgeExpired(services.store, config.eventRetentionMs));
      if (run.ran && run.value && run.value.events + run.value.deliveries > 0) logger.info(run.value, 'deleted events and webhook deliveries past QUIRE_EVENT_RETENTION');
    };
    const onPurgeError = (err: unknown) => logger.warn({ err }, 'event retention purge failed');
    await purge().catch(onPurgeError);
    setInterval(() => void purge().catch(onPurgeError), Math.min(3600_000, Math.max(1000, Math.round(config.eventRetentionMs / 10)))).unref();
  }
  const onSweepError = (err: unknown) => logger.warn({ err }, 'upload session sweep failed');
  const expiredUploads = await services.uploads.startSweeper(onSweepError).catch((err: unknown) => (onSweepError(err), 0));
  if (expiredUploads) logger.info({ expiredUploads }, 'removed expired upload sessions');
  const app = await buildServer(
    {
      config,
      documents: services.documents,
      uploads: services.uploads,
      pages: services.pages,
      structure: services.structure,
      properties: services.properties,
      labels: services.labels,
      samples: services.samples,
      projects: services.projects,
      artifacts: services.artifacts,
      docsets: services.docsets,
      metadata: services.metadata,
      workspaces: services.workspaces,
      webhooks: services.webhooks,
      cursors: new Cursors(await serverSecret(services.store, 'cursor')),
      partitions: services.partitions,
      probes: {
        database: () => services.store.ping(),
        storage: () => services.blobs.ping(),
        queue: () => services.queue.ping(),
      },
    },
    logger,
  );
  await app.listen({ port: config.port, host: config.host });
  logger.info({ publicUrl: config.publicUrl, database: config.database.kind }, 'quire is serving');
  const consumers: RunningConsumers | null = opts.worker ? await startConsumers(services, logger) : null;
  if (opts.worker) reportOptionalTools(config, logger);

  signals.ready(async (signal) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error('the service did not stop within 45 s; exiting');
      process.exit(1);
    }, 45_000);
    force.unref();
    // In-flight requests get 10 s; connections still open then are closed.
    const httpClosed = bounded(app.close(), 10_000, () => {
      logger.warn('HTTP connections still open after 10 s; closing them');
      app.server.closeAllConnections();
    });
    await Promise.all([httpClosed, consumers?.stop(CONSUMERS_STOP_DEADLINE_MS)]);
    await bounded(services.close(), 10_000, () => logger.warn('closing storage and queue took over 10 s; exiting anyway'));
    logger.info('stopped');
    process.exit(0);
  });
}

/** `quire worker`: the job consumers only (no HTTP) until SIGTERM, then lets running jobs finish or releases them. */
export async function worker(config: Config): Promise<void> {
  const signals = onStopSignal();
  const logger = pino({ level: config.logLevel });
  for (const warning of config.warnings) logger.warn(warning);
  await checkOcrLanguages(config, logger);
  const [{ openServices }, { startConsumers }] = await Promise.all([import('./services.js'), import('./jobs.js')]);
  const services = await openServices(config, logger);
  const consumers = await startConsumers(services, logger);
  reportOptionalTools(config, logger);
  const metrics = config.metricsPort === null ? null : await (await import('../http/metrics-server.js')).serveMetrics(config.host, config.metricsPort);
  if (metrics) logger.info({ port: config.metricsPort }, 'metrics at GET /metrics');
  signals.ready(async (signal) => {
    metrics?.close();
    logger.info({ signal }, 'shutting down: no new jobs; finishing running documents');
    const force = setTimeout(() => {
      logger.error('the worker did not stop within 45 s; exiting');
      process.exit(1);
    }, 45_000);
    force.unref();
    await consumers.stop(CONSUMERS_STOP_DEADLINE_MS);
    await bounded(services.close(), 10_000, () => logger.warn('closing storage and queue took over 10 s; exiting anyway'));
    logger.info('stopped');
    process.exit(0);
  });
}
