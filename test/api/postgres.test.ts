import { describe, test } from 'node:test';
import { apiSuite } from './suite.js';
import { startQuire } from '../helpers/quire.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';

// The same suite against a throwaway PostgreSQL cluster. Without initdb/pg_ctl the suite is reported
// as skipped with the reason (QUIRE_TEST_REQUIRE_ALL=1 turns that skip into a failure).
if (findPgBin()) {
  let cluster: PgCluster | undefined;
  apiSuite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return startQuire({ databaseUrl: await cluster.createDatabase('quire_api'), args: ['serve', '--no-worker'] });
    },
    async () => cluster?.stop(),
  );
} else {
  describe('API (PostgreSQL)', () => {
    test('PostgreSQL suite', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
