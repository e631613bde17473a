import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../runtime/config.js';
import { observeQueue } from '../runtime/metrics.js';
import { Store } from '../store/db/index.js';
import { openBlobStore } from '../store/blobs/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import { DocumentService } from '../domain/documents.js';
import { UploadSessionService } from '../domain/upload-sessions.js';
import { DocsetService } from '../domain/docsets.js';
import { MetadataService } from '../domain/metadata.js';
import { WorkspaceService } from '../domain/workspaces.js';
import { PageService } from '../domain/pages.js';
import { StructureService } from '../domain/structure.js';
import { PropertyService } from '../domain/properties.js';
import { SemanticLabelService } from '../domain/semantic-labels.js';
import { evidenceOfManualValue } from '../ingest/stages/properties.js';
import { SampleService } from '../domain/samples.js';
import { ClassificationService } from '../domain/classification.js';
import { PartitionedListings } from '../domain/listings.js';
import { ProjectService } from '../domain/projects.js';
import { ArtifactService } from '../domain/artifacts.js';
import { PageRenderer } from '../ingest/page-renderer.js';
import { StructureWriter } from '../ingest/structure-writer.js';
import type { Queue } from '../store/queue/queue.js';
import { TableQueue } from '../store/queue/table-queue.js';
import { PgBossQueue } from '../store/queue/pgboss-queue.js';
import { WebhookService } from '../domain/webhooks.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { DomainServices } from '../domain/services.js';
import { refuseLiteralUrl } from '../webhooks/ssrf.js';
import { ConfigError } from '../runtime/config.js';
import { loadSecretBox, type SecretBox } from '../runtime/secret-box.js';

/** The composition root: one store, one blob store, and the domain services over them. */
export interface Services extends DomainServices {
  config: Config;
  store: Store;
  blobs: BlobStore;
  /** Durable jobs (pg-boss on PostgreSQL, the `jobs` table on SQLite); consumed by the job consumers, started separately (src/app/jobs.ts). */
  queue: Queue;
  /** Webhook fan-out and delivery; started with the job consumers (src/app/jobs.ts). */
  webhookDispatcher: WebhookDispatcher;
  /** Seals and opens secrets at rest (webhook secrets). */
  secrets: SecretBox;
  close(): Promise<void>;
}

/** Start-up stops, naming the key, when a stored secret was sealed with a key this process lacks. */
async function checkSecretKeys(store: Store, secrets: SecretBox): Promise<void> {
  const missing = (await store.webhooks.secretKeyIds()).filter((id) => !secrets.knows(id));
  if (missing.length) {
    throw new ConfigError(
      'QUIRE_SECRET_KEY',
      `does not open the webhook secrets sealed with key id ${missing.join(', ')}: set the key they were sealed with in QUIRE_SECRET_KEY_OLD (then run quire secrets rotate)`,
    );
  }
}

export async function openServices(config: Config, logger?: Logger): Promise<Services> {
  const { box: secrets, generated } = loadSecretBox(config);
  if (generated) logger?.info({ file: generated }, 'generated the key sealing webhook secrets (QUIRE_SECRET_KEY unset): back it up with the database');
  const store = await Store.open(config.database, { secrets });
  await checkSecretKeys(store, secrets).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const sealed = await store.webhooks.reseal({ rotate: false });
  if (sealed) logger?.info({ sealed }, 'sealed webhook secrets stored in plain text');
  const blobs = await openBlobStore(config.storage);
  const workspaces = new WorkspaceService(store);
  await workspaces.ensureDefault();
  if (config.bootstrapKey && (await workspaces.ensureBootstrapKey(config.bootstrapKey)) === 'revoked') {
    logger?.warn('QUIRE_BOOTSTRAP_KEY names a key that was revoked: it stays revoked (set a new value for a new bootstrap key)');
  }
  // Durable jobs: pg-boss on PostgreSQL, the `jobs` table on SQLite (same Queue semantics).
  const queueOptions = { leaseMs: config.ingest.leaseMs, pollMs: config.ingest.pollMs, retryBaseMs: config.ingest.retryBaseMs };
  const queue: Queue =
    config.database.kind === 'postgres'
      ? new PgBossQueue(store, { ...queueOptions, connectionString: config.database.url }, logger)
      : new TableQueue(store, queueOptions, logger);
  observeQueue(() => queue.stats());
  const classification = new ClassificationService(store);
  // DGML, text and Markdown are written in a thread of their own: a large document's takes a core for a second or more.
  const structureWriter = new StructureWriter({ timeoutMs: 120_000, memoryMb: 1024 });
  const structure = new StructureService(store, blobs, (gz, request) => structureWriter.write(gz, request));
  const properties = new PropertyService(store, queue, async (doc, value) => evidenceOfManualValue(await structure.structureOf(doc), value));
  const artifacts = new ArtifactService(store, blobs, config.maxUploadBytes);
  const projects = new ProjectService(
    store,
    properties,
    { debounceMs: config.projects.debounceMs, settleRetryMs: 1000, settleMaxMs: config.projects.settleMaxMs },
    queue,
    config.apiBase,
    (projectId) => artifacts.deleteProjectBlobs(projectId),
  );
  properties.onValuesChanged(projects);
  const documents = new DocumentService(store, blobs, config.maxUploadBytes, queue, [
    (s, doc) => classification.removeDocument(doc.workspaceId, doc.id, s),
    (s, doc) => projects.documentDeleted(s, doc),
  ], config.limits);
  const docsets = new DocsetService(store, [properties, classification, projects], classification);
  const uploads = new UploadSessionService(store, blobs, documents, {
    chunkBytes: config.uploadChunkBytes,
    ttlMs: config.uploadSessionTtlSeconds * 1000,
    maxUploadBytes: config.maxUploadBytes,
    limits: config.limits,
  });
  const renderer = new PageRenderer({ timeoutMs: 120_000, memoryMb: 1024, engine: config.ingest.pdfEngine });
  const webhookDispatcher = new WebhookDispatcher(store, queue, config, logger?.child({ component: 'webhooks' }));
  const webhooks = new WebhookService(store, {
    refuseUrl: (url) => refuseLiteralUrl(url, config.webhooks),
    ping: (hook) => webhookDispatcher.ping(hook),
    schedule: (s, hook) => webhookDispatcher.schedule(s, hook),
    wake: () => queue.wake(),
    limits: config.limits,
  });
  const pages = new PageService(store, blobs, (source, page, dpi, maxPixels) => renderer.render(source, page, dpi, maxPixels), {
    ...config.pageImages,
    spoolDir: path.join(config.dataDir, 'page-renders'),
  });
  return {
    config,
    store,
    blobs,
    queue,
    documents,
    uploads,
    docsets,
    samples: new SampleService(store, documents, docsets, (workspaceId, docsetId, label) => properties.create(workspaceId, docsetId, { label })),
    properties,
    labels: new SemanticLabelService(store, (key) => structure.structureAt(key), properties),
    projects,
    artifacts,
    webhooks,
    webhookDispatcher,
    secrets,
    metadata: new MetadataService(store),
    partitions: new PartitionedListings(store),
    workspaces,
    pages,
    structure,
    close: async () => {
      uploads.stopSweeper();
      await webhookDispatcher.stop();
      webhookDispatcher.close();
      await renderer.close();
      await structureWriter.close();
      await queue.stop(0); // already stopped by the job consumers, if any; closes pg-boss's connections
      await store.close();
      blobs.close?.();
    },
  };
}
