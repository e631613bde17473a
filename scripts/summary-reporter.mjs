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
  // The runner's own test of each file (its first test announced for that file): it ends once the
  // file's process has, and reports a passing file only as complete, not as passed.
  const fileTests = new Map();
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
      if (event.data.file && !fileTests.has(event.data.file)) fileTests.set(event.data.file, key);
      waiting.set(key, (waiting.get(key) ?? 0) + 1);
      continue;
    }
    const key = keyOf(event.data);
    // A file's process marks its tests with the file it runs (entryFile; a test a helper module declares
    // has that module as its file); where Node does not, the file's first announced test is the runner's.
    const ofFile = !event.data.entryFile && event.data.file !== undefined && fileTests.get(event.data.file) === key;
    const verdict = event.type === 'test:pass' || event.type === 'test:fail';
    const from = event.data.entryFile ?? event.data.file;
    if (ofFile && event.type === 'test:complete') ranFiles.add(event.data.file);
    else if (!ofFile && from && (verdict || event.type === 'test:complete')) reportingFiles.add(from);
    // A test of a file's process is done when its verdict arrives; the runner's test of the file when it completes.
    if (ofFile ? event.type === 'test:complete' : verdict) {
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
