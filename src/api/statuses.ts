// The status lists the API's clients show, re-exported from the model for the console (web/), which
// may import src/api/ only: this module pulls in nothing but the lists.
export { DOCUMENT_STATUSES, SETTLED_DOCUMENT_STATUSES, SAMPLE_STATUSES, type DocumentStatus, type SampleStatus } from '../model/lifecycle.js';
