import { describe, test } from 'node:test';
import { apiSuite } from './suite.js';
import { startQuire } from '../helpers/quire.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';
import { s3Unavailable, startS3, type S3Server } from '../helpers/s3.js';

// The same suite in the scale-out configuration: a throwaway PostgreSQL cluster for state and jobs,
// and a local S3-compatible server (moto) for every blob. (sqlite.test.ts runs it embedded: SQLite and
// files.) Without initdb/pg_ctl or moto the suite is reported as skipped with the reason
// (QUIRE_TEST_REQUIRE_ALL=1 turns that skip into a failure).
const BUCKET = 'quire-api-suite';
const missing = findPgBin() ? s3Unavailable() : 'PostgreSQL server binaries (initdb, pg_ctl) are not installed';
if (!missing) {
  let cluster: PgCluster | undefined;
  let s3: S3Server | undefined;
  apiSuite(
    'PostgreSQL + S3',
    async () => {
      cluster = await startPgCluster();
      s3 = await startS3();
      const storageUrl = await s3.createBucket(BUCKET);
      return startQuire({ databaseUrl: await cluster.createDatabase('quire_api'), args: ['serve', '--no-worker'], extraEnv: { ...s3.env, QUIRE_STORAGE_URL: storageUrl, QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    },
    async () => {
      await cluster?.stop();
      await s3?.stop();
    },
    () => ({
      documentBlobs: async () => (await s3!.listKeys(BUCKET)).filter((k) => !k.startsWith('.staging/')),
      stagedBlobs: async () => [...(await s3!.listKeys(BUCKET)).filter((k) => k.startsWith('.staging/')), ...(await s3!.listMultipartUploads(BUCKET))],
    }),
  );
} else {
  describe('API (PostgreSQL + S3)', () => {
    test('PostgreSQL + S3 suite', { skip: missing }, () => {});
  });
}
