import { apiSuite } from './suite.js';
import { startQuire } from '../helpers/quire.js';

apiSuite('SQLite', () => startQuire());
