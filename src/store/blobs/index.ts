import type { Config } from '../../config.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs.js';
import { S3BlobStore } from './s3.js';

export function openBlobStore(storage: Config['storage']): BlobStore {
  if (storage.kind === 's3') return new S3BlobStore(storage);
  return new FsBlobStore(storage.root);
}
