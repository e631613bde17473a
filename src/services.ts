import type { Logger } from 'pino';
import type { Config } from './config.js';
import { Store } from './store/db/index.js';
import { openBlobStore } from './store/blobs/index.js';
import type { BlobStore } from './store/blobs/blob-store.js';
import { DocumentService } from './domain/documents.js';
import { UploadSessionService } from './domain/uploads.js';
import { DocsetService } from './domain/docsets.js';
import { MetadataService } from './domain/metadata.js';
import { WorkspaceService } from './domain/workspace.js';
import { PageService } from './domain/pages.js';
import { StructureService } from './domain/structure.js';
import { PropertyService } from './domain/properties.js';
import { evidenceOfManualValue } from './ingest/stages/properties.js';
import { SampleService } from './domain/samples.js';
import { ClassificationService } from './domain/classification.js';
import { PageRenderer } from './ingest/page-renderer.js';
import type { Queue } from './store/queue/queue.js';
import { TableQueue } from './store/queue/table-queue.js';
import { PgBossQueue } from './store/queue/pgboss-queue.js';

/** The composition root: one store, one blob store, and the domain services over them. */
export interface Services {
  config: Config;
  store: Store;
  blobs: BlobStore;
  /** Durable jobs (pg-boss on PostgreSQL, the `jobs` table on SQLite); workers are started separately (src/ingest/workers.ts). */
  queue: Queue;
  documents: DocumentService;
  uploads: UploadSessionService;
  docsets: DocsetService;
  metadata: MetadataService;
  workspaces: WorkspaceService;
  pages: PageService;
  structure: StructureService;
  properties: PropertyService;
  samples: SampleService;
  close(): Promise<void>;
}

export async function openServices(config: Config, logger?: Logger): Promise<Services> {
  const store = await Store.open(config.database);
  const blobs = openBlobStore(config.storage);
  const workspaces = new WorkspaceService(store);
  await workspaces.ensureDefault();
  if (config.bootstrapKey) await workspaces.ensureBootstrapKey(config.bootstrapKey);
  // Durable jobs: pg-boss on PostgreSQL, the `jobs` table on SQLite (same Queue semantics).
  const queueOptions = { leaseMs: config.ingest.leaseMs, pollMs: config.ingest.pollMs, retryBaseMs: config.ingest.retryBaseMs };
  const queue: Queue =
    config.database.kind === 'postgres'
      ? new PgBossQueue(store, { ...queueOptions, connectionString: config.database.url }, logger)
      : new TableQueue(store, queueOptions, logger);
  const classification = new ClassificationService(store);
  const documents = new DocumentService(store, blobs, config.maxUploadBytes, queue, [(s, doc) => classification.removeDocument(doc.workspaceId, doc.id, s)]);
  const structure = new StructureService(store, blobs);
  const properties = new PropertyService(store, queue, async (doc, value) => evidenceOfManualValue(await structure.structureOf(doc), value));
  const docsets = new DocsetService(store, [properties, classification], classification);
  const uploads = new UploadSessionService(store, blobs, documents, {
    chunkBytes: config.uploadChunkBytes,
    ttlMs: config.uploadSessionTtlSeconds * 1000,
    maxUploadBytes: config.maxUploadBytes,
  });
  const renderer = new PageRenderer({ timeoutMs: 120_000, memoryMb: 1024 });
  const pages = new PageService(store, blobs, (pdf, page, dpi) => renderer.render(pdf, page, dpi));
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
    metadata: new MetadataService(store),
    workspaces,
    pages,
    structure,
    close: async () => {
      uploads.stopSweeper();
      await renderer.close();
      await queue.stop(0); // already stopped by the workers, if any; closes pg-boss's connections
      await store.close();
    },
  };
}
