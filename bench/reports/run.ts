// Report publishing benchmark (bench/README.md): a docset of BENCH_DOCS documents (1,000) with
// BENCH_ITEMS properties (20), every value seeded directly in the store, a TabularReport project
// over all of them; then the publish job is run in this process and timed: gathering the inputs,
// generating report.xlsx (streamed), report.csv and one report-values.xml per document, staging
// them in the blob store and recording the version. Peak RSS is sampled during the publish.
//
//   npx tsx bench/reports/run.ts [--postgres]
//
// Targets: ≤ 5 s to publish, ≤ 300 MB RSS. Results also go to bench/results/reports-<timestamp>.json.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../../src/runtime/config.js';
import { openServices } from '../../src/app/services.js';
import { PublishJob } from '../../src/reports/publish-job.js';
import { GENERATORS } from '../../src/reports/index.js';
import { newId } from '../../src/model/ids.js';
import type { PropertyRecord } from '../../src/model/records.js';
import { Rng } from '../../src/samples/prng.js';
import { ROOT, TEST_SECRET_KEY } from '../../test/helpers/quire.js';
import { startPgCluster } from '../../test/helpers/postgres.js';
import { envNumber, gitState, machine, printTable, procStatusBytes } from '../lib/machine.js';
import { cleanUp, onCleanUp, tempDir } from '../lib/cleanup.js';

const { values: flags } = parseArgs({ options: { postgres: { type: 'boolean', default: false } }, strict: true });
const DOCS = Math.round(envNumber('BENCH_DOCS', 1000));
const ITEMS = Math.round(envNumber('BENCH_ITEMS', 20));
const TARGET_S = 5;
const TARGET_MB = 300;
const MiB = 1024 * 1024;

async function run(label: string, databaseUrl: string | undefined) {
  const dataDir = tempDir('quire-bench-reports-');
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl, QUIRE_SECRET_KEY: TEST_SECRET_KEY } : {}), QUIRE_PROJECT_DEBOUNCE_MS: '0' });
  const logger = pino({ level: 'warn' });
  const services = await openServices(config, logger);
  const { store } = services;
  const workspaceId = (await store.workspaces.list())[0]!.id;
  const rng = new Rng(7);
  const docset = await services.docsets.create(workspaceId, { name: 'bench reports' });
  const labels = Array.from({ length: ITEMS }, (_, i) => `Field ${i + 1}`);
  const props: PropertyRecord[] = [];
  for (const l of labels) props.push(await services.properties.create(workspaceId, docset.id, { label: l }));

  let t = performance.now();
  const now = Date.now();
  for (let start = 0; start < DOCS; start += 100) {
    await store.tx(async (s) => {
      for (let i = start; i < Math.min(DOCS, start + 100); i++) {
        const id = newId();
        await s.documents.insert({
          id, workspaceId, docsetId: docset.id, docsetCandidates: [], name: `Contract ${String(i).padStart(4, '0')}.pdf`, format: 'pdf',
          contentType: 'application/pdf', size: 100_000, sha256: '0'.repeat(64), blobKey: `none/${id}`, status: 'Ready', pageCount: 10,
          isSample: false, error: null, createdAt: now, updatedAt: now, processedAt: now,
        });
        for (const p of props) {
          const value = rng.next() < 0.1 ? null : `Value ${i}-${p.label} ${Math.floor(rng.next() * 1e6)}`;
          await s.properties.setExtracted({ workspaceId, docsetId: docset.id, propertyId: p.id, documentId: id }, value, value === null ? null : { confidence: 0.5 + rng.next() / 2, location: { page: 1 + Math.floor(rng.next() * 10), boundingBox: { left: 100, top: 200, width: 300, height: 40 } }, candidates: [], anchor: null, evidence: null }, now + 1);
        }
      }
    });
  }
  await store.docsets.adjustCount(workspaceId, docset.id, DOCS, now);
  const seedSeconds = (performance.now() - t) / 1000;

  const project = await services.projects.create(workspaceId, { name: 'bench', type: 'TabularReport', docsetId: docset.id, items: labels.map((label) => ({ label })) });
  const job = new PublishJob(services.projects, services.artifacts, services.structure, services.blobs, GENERATORS, { debounceMs: 0, settleRetryMs: 1000, settleMaxMs: 0 }, logger, config.apiBase);
  global.gc?.();
  const rssBefore = procStatusBytes(process.pid, 'VmRSS');
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, procStatusBytes(process.pid, 'VmRSS'))), 10);
  t = performance.now();
  await job.run({ id: 'bench', queue: 'publish', workspaceId, payload: { projectId: project.id }, attempt: 1, maxAttempts: 1 });
  const publishSeconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, procStatusBytes(process.pid, 'VmRSS'));
  const published = await services.projects.get(workspaceId, project.id);
  if (published.latestVersion !== 1) throw new Error(`expected version 1, got ${published.latestVersion}`);
  const artifacts = await store.artifacts.ofVersion(project.id, 1);
  const bytes = artifacts.reduce((n, a) => n + a.size, 0);
  await services.close();
  return { label, seedSeconds, publishSeconds, artifacts: artifacts.length, bytes, rssBeforeMb: rssBefore / MiB, peakRssMb: peak / MiB };
}

const results = [];
try {
  results.push(await run('SQLite', undefined));
  if (flags.postgres) {
    const cluster = await startPgCluster();
    onCleanUp(() => cluster.stop());
    results.push(await run('PostgreSQL', await cluster.createDatabase('quire_bench_reports')));
  }
} finally {
  await cleanUp();
}

const rows = [['db', 'documents', 'items', 'artifacts', 'MB written', 'publish s', 'RSS before MB', 'peak RSS MB', `target ≤ ${TARGET_S} s, ≤ ${TARGET_MB} MB`]];
for (const r of results) {
  rows.push([r.label, String(DOCS), String(ITEMS), String(r.artifacts), (r.bytes / MiB).toFixed(1), r.publishSeconds.toFixed(2), r.rssBeforeMb.toFixed(0), r.peakRssMb.toFixed(0), r.publishSeconds <= TARGET_S && r.peakRssMb <= TARGET_MB ? 'PASS' : 'FAIL']);
}
printTable(rows, new Set([1, 2, 3, 4, 5, 6, 7]));
const resultsDir = path.join(ROOT, 'bench/results');
fs.mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `reports-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(file, JSON.stringify({ machine: machine(), git: gitState(), settings: { DOCS, ITEMS }, results }, null, 2));
console.log(`results: ${path.relative(ROOT, file)}`);
