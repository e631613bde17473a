// A node:test reporter that writes one JSON summary: counts, the name and reason of each skip, and
// the tests that were declared (enqueued) but whose result never arrived. A test file's process
// announces each of its tests when it declares them and sends each verdict when the test ends; a
// result lost on the way (the process exited first) would otherwise just make the counts smaller.
// The summary file (QUIRE_TEST_SUMMARY) is rewritten synchronously after every result, because the
// run ends with --test-force-exit, which does not wait for reporters' streams to flush.
import fs from 'node:fs';

const keyOf = (data) => `${data.file ?? '?'}:${data.line ?? '?'}:${data.column ?? '?'} ${data.name}`;

export default async function* summaryReporter(source) {
  const summary = { passed: 0, failed: 0, skipped: 0, todo: 0, skips: [], lost: { count: 0, tests: [] } };
  // Declared tests still waiting for their result, by place and name (a loop declares several at one place).
  const waiting = new Map();
  // Files the runner ran, and the files some result came from: a file's process that exits before
  // it sends anything (process.exit in a test drops what it had not written) announced nothing.
  const ranFiles = new Set();
  const reportingFiles = new Set();
  const save = () => {
    if (!process.env.QUIRE_TEST_SUMMARY) return;
    let count = 0;
    const tests = [];
    for (const [key, n] of waiting) {
      count += n;
      if (tests.length < 20) tests.push(key);
    }
    for (const file of ranFiles) {
      if (reportingFiles.has(file)) continue;
      count++;
      if (tests.length < 20) tests.push(`${file}: not one result of its tests arrived`);
    }
    summary.lost = { count, tests };
    fs.writeFileSync(process.env.QUIRE_TEST_SUMMARY, JSON.stringify(summary));
  };
  save();
  for await (const event of source) {
    if (event.type === 'test:enqueue') {
      const key = keyOf(event.data);
      waiting.set(key, (waiting.get(key) ?? 0) + 1);
      continue;
    }
    // A test of a file's process is done when its verdict arrives; the runner's own test of each
    // file (no entryFile) reports a passing file only as complete.
    if (event.data.entryFile) reportingFiles.add(event.data.entryFile);
    else if (event.type === 'test:complete' && event.data.file) ranFiles.add(event.data.file);
    const settles = event.data.entryFile ? event.type === 'test:pass' || event.type === 'test:fail' : event.type === 'test:complete';
    if (settles) {
      const key = keyOf(event.data);
      const left = (waiting.get(key) ?? 0) - 1;
      if (left > 0) waiting.set(key, left);
      else waiting.delete(key);
    }
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
