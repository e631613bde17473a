#!/usr/bin/env node
// Runs the whole suite with node:test through tsx. Node 20 does not expand globs, so the files are
// listed here. The run fails when no test ran, and, under QUIRE_TEST_REQUIRE_ALL=1, when any skipped.
// First of all, the import rules of .dependency-cruiser.cjs (docs/architecture.md): a broken layer
// fails the run before any test starts.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILES = [
  'test/unit/config.test.ts',
  'test/unit/jit.test.ts',
  'test/unit/serializers.test.ts',
  'test/unit/classify.test.ts',
  'test/unit/cursors.test.ts',
  'test/unit/dgml.test.ts',
  'test/unit/entities.test.ts',
  'test/unit/formats.test.ts',
  'test/unit/formats-readers.test.ts',
  'test/unit/office-resident.test.ts',
  'test/unit/pdf-engines.test.ts',
  'test/unit/ids.test.ts',
  'test/unit/layout.test.ts',
  'test/unit/metadata.test.ts',
  'test/unit/native-structure.test.ts',
  'test/unit/ocr.test.ts',
  'test/unit/image-rules.test.ts',
  'test/unit/properties.test.ts',
  'test/unit/prose.test.ts',
  'test/unit/semantic-labels.test.ts',
  'test/unit/clause-labels.test.ts',
  'test/unit/queue.test.ts',
  'test/unit/reports.test.ts',
  'test/unit/samples.test.ts',
  'test/unit/tables.test.ts',
  'test/unit/worker-pool.test.ts',
  'test/unit/pdfium-shared.test.ts',
  'test/unit/webhooks.test.ts',
  'test/unit/webhook-dispatcher.test.ts',
  'test/unit/leader-lock.test.ts',
  'test/unit/point-reads.test.ts',
  'test/unit/sqlite-transactions.test.ts',
  'test/unit/migrations.test.ts',
  'test/unit/blob-store.test.ts',
  'test/unit/deploy.test.ts',
  'test/api/sqlite.test.ts',
  'test/api/postgres.test.ts',
  'test/api/cli.test.ts',
  'test/api/cli-client.test.ts',
  'test/api/ingestion.test.ts',
  'test/api/dgml.test.ts',
  'test/api/properties.test.ts',
  'test/api/prose-values.test.ts',
  'test/api/labels.test.ts',
  'test/api/projects.test.ts',
  'test/api/projects-coverage.test.ts',
  'test/api/readyz.test.ts',
  'test/api/classification.test.ts',
  'test/api/samples.test.ts',
  'test/api/lifecycle.test.ts',
  'test/api/pages.test.ts',
  'test/api/uploads.test.ts',
  'test/api/s3-storage.test.ts',
  'test/api/webhooks.test.ts',
  'test/api/should-retry.test.ts',
  'test/api/ops.test.ts',
  'test/api/ops-coverage.test.ts',
  'test/hostile/files.test.ts',
  'test/security/http-protections.test.ts',
  'test/security/tenants-scopes.test.ts',
  'test/cluster/cluster.test.ts',
  'test/hostile/openapi-fuzz.test.ts',
  'test/e2e/console.test.ts',
  'test/faults/database-restart.test.ts',
  'test/faults/storage.test.ts',
  'test/faults/sigkill.test.ts',
  'test/faults/publish-kill.test.ts',
];

const only = process.argv.slice(2);
const files = only.length ? only : FILES;
for (const f of files) {
  if (!fs.existsSync(f)) {
    console.error(`test file missing: ${f}`);
    process.exit(1);
  }
}

const DEPCRUISE = path.join('node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const layers = spawnSync(process.execPath, [DEPCRUISE, 'src', 'web', '--config', '.dependency-cruiser.cjs'], { stdio: 'inherit' });
if (layers.status !== 0) {
  console.error('the import rules of .dependency-cruiser.cjs are broken (docs/architecture.md): no test ran');
  process.exit(1);
}

const summaryFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-tests-')), 'summary.json');
const args = [
  '--import', 'tsx',
  '--test',
  // A file whose tests are done exits even if a failed test left a handle open, and no single test
  // may hang the run: a stuck test fails after 30 minutes instead.
  '--test-force-exit',
  '--test-timeout=1800000',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/summary-reporter.mjs', `--test-reporter-destination=${summaryFile}.stream`,
  ...files,
];
const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, QUIRE_TEST_SUMMARY: summaryFile } });
child.on('exit', (code, signal) => {
  let summary = { passed: 0, failed: 0, skipped: 0, todo: 0, skips: [] };
  try {
    summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
  } catch {
    console.error('the test summary was not written');
  }
  let ok = code === 0 && !signal;
  if (summary.passed + summary.failed === 0) {
    console.error('no test ran: a run without tests fails');
    ok = false;
  }
  if (process.env.QUIRE_TEST_REQUIRE_ALL === '1' && summary.skipped > 0) {
    console.error(`QUIRE_TEST_REQUIRE_ALL=1 and ${summary.skipped} test(s) skipped:`);
    for (const s of summary.skips) console.error(`  - ${s}`);
    ok = false;
  }
  console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
  process.exit(ok ? 0 : 1);
});
