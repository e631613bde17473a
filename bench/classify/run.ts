// Classification benchmark (bench/README.md): 10,000 documents across 50 docsets in the store, then
// the time of classify() for a new document whose text is known (features computed), p50/p99 over
// 100 classifications against all 50 docsets.
//
//   npx tsx bench/classify/run.ts [--postgres]
//
// The documents are synthetic (seeded PRNG, the same on every run), drawn from the vocabulary of the
// 16 PDFs of ../shared/corpus/kgrag: each docset has a topic (400 terms of that vocabulary); each
// document takes 256 terms, 70 % from its docset's topic and 30 % from the whole vocabulary, with
// Zipf-like counts, 32 heading terms, and layout shares around its docset's. With --postgres the
// same runs again on a throwaway cluster (startPgCluster, as the tests do).
//
// Environment: BENCH_DOCS (10000), BENCH_DOCSETS (50), BENCH_QUERIES (100).
// Results also go to bench/results/classify-<timestamp>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../../src/runtime/config.js';
import { ClassificationService } from '../../src/domain/classification.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import { MAX_HEADING_TERMS, MAX_TERMS, termsOf, type ClassificationFeatures } from '../../src/document/classification.js';
import { Store } from '../../src/store/db/index.js';
import { Rng } from '../../src/samples/prng.js';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';
import { envNumber, gitState, machine, printTable } from '../lib/machine.js';

const { values: flags } = parseArgs({ options: { postgres: { type: 'boolean', default: false } }, strict: true });
const DOCS = Math.round(envNumber('BENCH_DOCS', 10_000));
const DOCSETS = Math.round(envNumber('BENCH_DOCSETS', 50));
const QUERIES = Math.round(envNumber('BENCH_QUERIES', 100));
const TOPIC_TERMS = 400;
const TARGET_MS = 50;
const WORKSPACE = 'ws-bench';
const INSERT_BATCH = 100;


/** Every word and bigram of the corpus's PDFs (their text as pdf.js reads it; no OCR). */
async function corpusVocabulary(): Promise<string[]> {
  const dir = path.join(CORPUS, 'kgrag');
  const vocabulary = new Set<string>();
  for (const sub of fs.readdirSync(dir).sort()) {
    for (const file of fs.readdirSync(path.join(dir, sub)).sort()) {
      const model = await readDocument(fs.readFileSync(path.join(dir, sub, file)), 'pdf');
      const pages = model.hasText ? model.pages : await readPdfPages(model.pdf);
      for (const page of pages) {
        const terms = termsOf(page.items.map((i) => i.text).join(' '));
        terms.forEach((t, i) => {
          if (!t) return;
          vocabulary.add(t);
          if (terms[i + 1]) vocabulary.add(`${t} ${terms[i + 1]}`);
        });
      }
    }
  }
  return [...vocabulary].sort();
}

interface Docset {
  id: string;
  name: string;
  topic: string[];
  layout: ClassificationFeatures['layout'];
}

function synthesize(vocabulary: string[]) {
  const rng = new Rng(42);
  const random = () => rng.next();
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const docsets: Docset[] = [];
  for (let i = 0; i < DOCSETS; i++) {
    const topic = new Set<string>();
    while (topic.size < TOPIC_TERMS) topic.add(pick(vocabulary));
    const form = random() < 0.3 ? 0.3 + random() * 0.4 : random() * 0.05;
    docsets.push({
      id: `docset-${String(i).padStart(2, '0')}`,
      name: `${pick(vocabulary)} ${pick(vocabulary)}`,
      topic: [...topic],
      layout: { words: 0, form, table: form + random() * 0.1, prose: (1 - form) * random(), list: random() * 0.2, heading: random() * 0.1 },
    });
  }
  const document = (docset: Docset): ClassificationFeatures => {
    const counts = new Map<string, number>();
    while (counts.size < MAX_TERMS) {
      const term = random() < 0.7 ? pick(docset.topic) : pick(vocabulary);
      // Zipf-like: most terms are seen once or twice, a few dozens of times.
      counts.set(term, (counts.get(term) ?? 0) + Math.max(1, Math.floor(1 / (random() + 0.02))));
    }
    const headings = new Map<string, number>();
    while (headings.size < MAX_HEADING_TERMS) headings.set(`#${pick(docset.topic).split(' ')[0]}`, 1 + Math.floor(random() * 3));
    const jitter = (v: number) => Math.min(1, Math.max(0, v + (random() - 0.5) * 0.1));
    const l = docset.layout;
    return {
      terms: [...counts, ...headings].map(([term, count]) => ({ term, count })),
      layout: { words: 1000 + Math.floor(random() * 20_000), form: jitter(l.form), table: jitter(l.table), prose: jitter(l.prose), list: jitter(l.list), heading: jitter(l.heading) },
    };
  };
  return { docsets, document, random };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function run(label: string, database: Config['database'], vocabulary: string[]) {
  const store = await Store.open(database);
  const service = new ClassificationService(store);
  const { docsets, document, random } = synthesize(vocabulary);
  let t = performance.now();
  for (let start = 0; start < DOCS; start += INSERT_BATCH) {
    await store.tx(async (s) => {
      for (let i = start; i < Math.min(DOCS, start + INSERT_BATCH); i++) {
        await service.addDocument(WORKSPACE, docsets[i % DOCSETS]!.id, `doc-${i}`, document(docsets[i % DOCSETS]!), s);
      }
    });
  }
  const insertSeconds = (performance.now() - t) / 1000;
  if (store.dialect === 'sqlite') await store.analyze();
  else await store.raw.executeSql('ANALYZE', []);

  const candidates = docsets.map((d) => ({ id: d.id, name: d.name }));
  const times: number[] = [];
  let correct = 0;
  // Warm-up: the first queries pay for preparing statements and filling the page cache.
  for (let i = 0; i < 5; i++) await service.classify(WORKSPACE, candidates, document(docsets[i]!));
  for (let i = 0; i < QUERIES; i++) {
    const truth = docsets[Math.floor(random() * DOCSETS)]!;
    const features = document(truth);
    t = performance.now();
    const result = await service.classify(WORKSPACE, candidates, features);
    times.push(performance.now() - t);
    if (result.chosen === truth.id) correct++;
  }
  await store.close();
  times.sort((a, b) => a - b);
  return { label, insertSeconds, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1)!, accuracy: correct / QUERIES };
}

const vocabulary = await corpusVocabulary();
console.log(`vocabulary: ${vocabulary.length} terms; ${DOCS} documents in ${DOCSETS} docsets; ${QUERIES} classifications`);
const results = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-classify-'));
try {
  results.push(await run('SQLite', { kind: 'sqlite', file: path.join(dir, 'quire.db') }, vocabulary));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (flags.postgres) {
  let cluster: PgCluster | undefined;
  try {
    cluster = await startPgCluster();
    results.push(await run('PostgreSQL', { kind: 'postgres', url: await cluster.createDatabase('quire_bench_classify') }, vocabulary));
  } finally {
    cluster?.stop();
  }
}

const rows = [['db', 'insert s', 'docs/s', 'p50 ms', 'p99 ms', 'max ms', 'accuracy', `target p99 ≤ ${TARGET_MS} ms`]];
for (const r of results) {
  rows.push([r.label, r.insertSeconds.toFixed(1), (DOCS / r.insertSeconds).toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2), r.max.toFixed(2), `${(r.accuracy * 100).toFixed(0)} %`, r.p99 <= TARGET_MS ? 'PASS' : 'FAIL']);
}
printTable(rows, new Set([1, 2, 3, 4, 5, 6]));
const resultsDir = path.join(ROOT, 'bench/results');
fs.mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `classify-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(file, JSON.stringify({ machine: machine(), git: gitState(), settings: { DOCS, DOCSETS, QUERIES, TOPIC_TERMS, vocabulary: vocabulary.length }, results }, null, 2));
console.log(`results: ${path.relative(ROOT, file)}`);
