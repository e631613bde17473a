import { apiSuite } from './suite.js';
import { startQuire } from '../helpers/quire.js';

// The API suite sets document states itself (ingestion has its own tests): no workers here.
apiSuite('SQLite', () => startQuire({ args: ['serve', '--no-worker'] }));
