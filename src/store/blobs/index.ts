import type { Config } from '../../config.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs.js';

export function openBlobStore(storage: Config['storage']): BlobStore {
  return new FsBlobStore(storage.root);
}
