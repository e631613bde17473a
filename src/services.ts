import type { Config } from './config.js';
import { Store } from './store/db/index.js';
import { openBlobStore } from './store/blobs/index.js';
import type { BlobStore } from './store/blobs/blob-store.js';
import { DocumentService } from './domain/documents.js';
import { DocsetService } from './domain/docsets.js';
import { MetadataService } from './domain/metadata.js';
import { WorkspaceService } from './domain/workspace.js';

/** The composition root: one store, one blob store, and the domain services over them. */
export interface Services {
  config: Config;
  store: Store;
  blobs: BlobStore;
  documents: DocumentService;
  docsets: DocsetService;
  metadata: MetadataService;
  workspaces: WorkspaceService;
  close(): Promise<void>;
}

export async function openServices(config: Config): Promise<Services> {
  const store = await Store.open(config.database);
  const blobs = openBlobStore(config.storage);
  const workspaces = new WorkspaceService(store);
  await workspaces.ensureDefault();
  if (config.bootstrapKey) await workspaces.ensureBootstrapKey(config.bootstrapKey);
  return {
    config,
    store,
    blobs,
    documents: new DocumentService(store, blobs, config.maxUploadBytes),
    docsets: new DocsetService(store),
    metadata: new MetadataService(store),
    workspaces,
    close: () => store.close(),
  };
}
