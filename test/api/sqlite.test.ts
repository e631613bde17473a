import { apiSuite } from './suite.js';
import { startQuire } from '../helpers/quire.js';

// The API suite sets document states itself (ingestion has its own tests): no workers here. Webhook
// pings go to a receiver of the test on 127.0.0.1.
apiSuite('SQLite', () => startQuire({ args: ['serve', '--no-worker'], extraEnv: { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } }));
