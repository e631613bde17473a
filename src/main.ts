#!/usr/bin/env node
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './runtime/config.js';
import type { Services } from './app/services.js';
import { parseScopes } from './model/scopes.js';
import { DomainError } from './domain/errors.js';
import type { RunningWorkers } from './app/jobs.js';
import { CLIENT_USAGE, isClientCommand, runClient } from './cli/index.js';
import { tuneJit } from './runtime/jit.js';

const USAGE = `usage: quire <command>
  serve [--no-worker]                         run the API and ingestion workers (default command);
                                              --no-worker: the API only
  worker                                      run ingestion workers only (no HTTP)
  migrate                                     apply database migrations and exit
  workspaces create NAME [--type TYPE]        create a workspace
  workspaces list                             list workspaces
  workspaces set-quota NAME [--pages N] [--pages-per-document N] [--users N]
                                              change a workspace's quotas
  keys create --workspace NAME --scopes a,b [--name N]
                                              create an API key (printed once)
  keys list [--workspace NAME]                list API keys (never their secrets)
  keys revoke ID                              revoke an API key
  help                                        this text

${CLIENT_USAGE}`;

class UsageError extends Error {}

/** A staged blob (an upload in progress) older than this was left by a crash. */
const STAGED_MAX_AGE_MS = 60 * 60 * 1000;

/** How long a stopping process lets running documents finish before releasing their jobs. */
const WORKER_STOP_DEADLINE_MS = 20_000;

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

async function serve(config: Config, opts: { worker: boolean }): Promise<void> {
  const signals = onStopSignal();
  const logger = pino({ level: config.logLevel });
  // Loaded here, not at the top: client commands start without the server's modules.
  const [{ openServices }, { buildServer }, { Cursors }, { serverSecret }, { runAsLeader }, { startWorkers }] = await Promise.all([
    import('./app/services.js'),
    import('./http/server.js'),
    import('./http/pagination.js'),
    import('./domain/secrets.js'),
    import('./store/db/cluster-lock.js'),
    import('./app/jobs.js'),
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
  const workers: RunningWorkers | null = opts.worker ? await startWorkers(services, logger) : null;

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
    await Promise.all([httpClosed, workers?.stop(WORKER_STOP_DEADLINE_MS)]);
    await bounded(services.close(), 10_000, () => logger.warn('closing storage and queue took over 10 s; exiting anyway'));
    logger.info('stopped');
    process.exit(0);
  });
}

/** Workers only: claims ingest jobs until SIGTERM, then lets running ones finish or releases them. */
async function worker(config: Config): Promise<void> {
  const signals = onStopSignal();
  const logger = pino({ level: config.logLevel });
  const [{ openServices }, { startWorkers }] = await Promise.all([import('./app/services.js'), import('./app/jobs.js')]);
  const services = await openServices(config, logger);
  const workers = await startWorkers(services, logger);
  const metrics = config.metricsPort === null ? null : await (await import('./http/metrics-server.js')).serveMetrics(config.host, config.metricsPort);
  if (metrics) logger.info({ port: config.metricsPort }, 'metrics at GET /metrics');
  signals.ready(async (signal) => {
    metrics?.close();
    logger.info({ signal }, 'shutting down: no new jobs; finishing running documents');
    const force = setTimeout(() => {
      logger.error('workers did not stop within 45 s; exiting');
      process.exit(1);
    }, 45_000);
    force.unref();
    await workers.stop(WORKER_STOP_DEADLINE_MS);
    await bounded(services.close(), 10_000, () => logger.warn('closing storage and queue took over 10 s; exiting anyway'));
    logger.info('stopped');
    process.exit(0);
  });
}

async function withServices<T>(config: Config, fn: (s: Services) => Promise<T>): Promise<T> {
  const { openServices } = await import('./app/services.js');
  const services = await openServices(config);
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)';
  const cols = Object.keys(rows[0]!);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => String(r[c] ?? ''))))].join('\n');
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

async function run(argv: string[]): Promise<void> {
  const [command = 'serve', sub, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  // Client commands need no server configuration: only QUIRE_URL and QUIRE_API_KEY (or flags).
  if (isClientCommand(command)) {
    const code = await runClient(command, argv.slice(1));
    process.stdout.write('', () => process.exit(code));
    return;
  }
  const config = loadConfig();
  // Before any worker thread starts (they take the process's V8 flags as they are then).
  if (command === 'serve' || command === 'worker') tuneJit({ interruptBudget: config.ingest.jitInterruptBudget, initialOldSpaceMb: config.ingest.initialOldSpaceMb });

  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: argv.slice(1), options: { 'no-worker': { type: 'boolean' } }, strict: true });
      return serve(config, { worker: !values['no-worker'] });
    }
    case 'worker': {
      parseArgs({ args: argv.slice(1), options: {}, strict: true });
      return worker(config);
    }
    case 'migrate': {
      const { Store } = await import('./store/db/index.js');
      const store = await Store.open(config.database);
      await store.close();
      console.log(`migrations applied (${config.database.kind})`);
      return;
    }
    case 'workspaces': {
      if (sub === 'create') {
        const { values, positionals } = parseArgs({ args: rest, options: { type: { type: 'string' } }, allowPositionals: true });
        const name = positionals[0];
        if (!name || positionals.length > 1) throw new UsageError('workspaces create takes one NAME');
        const w = await withServices(config, (s) => s.workspaces.create(name, { type: values.type }));
        console.log(`created workspace ${w.name} (${w.id})`);
        return;
      }
      if (sub === 'list') {
        const list = await withServices(config, (s) => s.workspaces.list());
        console.log(table(list.map((w) => ({ id: w.id, name: w.name, type: w.type, created: iso(w.createdAt) }))));
        return;
      }
      if (sub === 'set-quota') {
        const { values, positionals } = parseArgs({
          args: rest,
          options: { pages: { type: 'string' }, 'pages-per-document': { type: 'string' }, users: { type: 'string' } },
          allowPositionals: true,
        });
        const name = positionals[0];
        if (!name || positionals.length > 1) throw new UsageError('workspaces set-quota takes one NAME');
        const count = (flag: string, raw: string | undefined) => {
          if (raw === undefined) return undefined;
          if (!/^\d{1,15}$/.test(raw)) throw new UsageError(`--${flag} must be a non-negative integer`);
          return Number(raw);
        };
        const quota = {
          pageMax: count('pages', values.pages),
          pagePerDocument: count('pages-per-document', values['pages-per-document']),
          userMax: count('users', values.users),
        };
        if (Object.values(quota).every((v) => v === undefined)) {
          throw new UsageError('workspaces set-quota needs --pages, --pages-per-document or --users');
        }
        const w = await withServices(config, (s) => s.workspaces.setQuota(name, quota));
        console.log(`workspace ${w.name}: pages ${w.pageQuotaMax}, pages per document ${w.pageQuotaPerDocument}, users ${w.userQuotaMax}`);
        return;
      }
      throw new UsageError('workspaces needs create NAME, list or set-quota NAME');
    }
    case 'keys': {
      if (sub === 'create') {
        const { values } = parseArgs({
          args: rest,
          options: { workspace: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' } },
        });
        if (!values.workspace) throw new UsageError('keys create needs --workspace NAME');
        if (!values.scopes) throw new UsageError('keys create needs --scopes a,b');
        let scopes;
        try {
          scopes = parseScopes(values.scopes);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
        const { key, secret } = await withServices(config, (s) => s.workspaces.createKey(values.workspace!, scopes, values.name));
        console.error(`created key ${key.id} in workspace ${values.workspace} with scopes ${key.scopes.join(',')}; it is shown only now:`);
        console.log(secret);
        return;
      }
      if (sub === 'list') {
        const { values } = parseArgs({ args: rest, options: { workspace: { type: 'string' } } });
        const keys = await withServices(config, (s) => s.workspaces.listKeys(values.workspace));
        console.log(
          table(
            keys.map((k) => ({ id: k.id, workspace: k.workspaceId, name: k.name, prefix: `${k.keyPrefix}…`, scopes: k.scopes.join(','), created: iso(k.createdAt), revoked: iso(k.revokedAt) })),
          ),
        );
        return;
      }
      if (sub === 'revoke') {
        const id = rest[0];
        if (!id || rest.length > 1) throw new UsageError('keys revoke takes one ID');
        const key = await withServices(config, (s) => s.workspaces.revokeKey(id));
        console.log(`revoked key ${key.id}`);
        return;
      }
      throw new UsageError('keys needs create, list or revoke');
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) console.error(`quire: ${err.message}\n${USAGE}`);
  else if (err instanceof ConfigError || err instanceof DomainError) console.error(`quire: ${err.message}`);
  else if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`quire: ${(err as Error).message}`);
  else console.error(`quire: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
});
