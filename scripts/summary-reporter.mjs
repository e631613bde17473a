// A node:test reporter that writes one JSON summary: counts, and the name and reason of each skip.
// The summary file (QUIRE_TEST_SUMMARY) is rewritten synchronously after every result, because the
// run ends with --test-force-exit, which does not wait for reporters' streams to flush.
import fs from 'node:fs';

export default async function* summaryReporter(source) {
  const summary = { passed: 0, failed: 0, skipped: 0, todo: 0, skips: [] };
  const save = () => process.env.QUIRE_TEST_SUMMARY && fs.writeFileSync(process.env.QUIRE_TEST_SUMMARY, JSON.stringify(summary));
  save();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    queueMicrotask(save);
    // Suites (describe) report too; count only leaf tests.
    if (event.data.details?.type === 'suite') {
      if (event.data.skip !== undefined && event.data.skip !== false) {
        summary.skipped++;
        summary.skips.push(`${event.data.name}: ${event.data.skip === true ? 'skipped' : event.data.skip}`);
      }
      if (event.type === 'test:fail' && event.data.details?.error?.failureType !== 'subtestsFailed') summary.failed++;
      continue;
    }
    if (event.data.skip !== undefined && event.data.skip !== false) {
      summary.skipped++;
      summary.skips.push(`${event.data.name}: ${event.data.skip === true ? 'skipped' : event.data.skip}`);
    } else if (event.data.todo !== undefined && event.data.todo !== false) summary.todo++;
    else if (event.type === 'test:pass') summary.passed++;
    else summary.failed++;
  }
  save();
  yield JSON.stringify(summary);
}
