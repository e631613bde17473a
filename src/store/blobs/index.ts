import type { Config } from '../../runtime/config.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs.js';

/** The configured store. The AWS SDK (~0.2 s to load) is loaded only when the storage is S3. */
export async function openBlobStore(storage: Config['storage']): Promise<BlobStore> {
  if (storage.kind === 's3') return new (await import('./s3.js')).S3BlobStore(storage);
  return new FsBlobStore(storage.root);
}
