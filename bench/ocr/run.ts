// OCR benchmark (bench/README.md): a scanned document, upload to `Ready`, against the `tesseract`
// CLI reading the same page images on its own in the same run.
//
//   npm run build && npx tsx bench/ocr/run.ts
//
// The document: the first BENCH_PAGES (default 8) pages of the Shorebucks lease drawn at 300 DPI and
// put into an image-only PDF (JPEG pages, no text), as a scanner makes them. The reference: the
// `tesseract` CLI with Quire's own settings over the same 200-DPI grayscale page images Quire gives
// it, one page at a time and as many at a time as the machine has cores. Quire: the built service
// (`node dist/main.js serve`, fresh data directory) with QUIRE_OCR_CONCURRENCY=1 and with its default
// (one engine per core), BENCH_RUNS (default 3) uploads each; the median counts.
// Results also go to bench/results/ocr-<timestamp>.json.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderPdfiumGrayPng } from '../../src/ingest/readers/pdf/pdfium.js';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';
import { imageOnlyPdf } from '../../test/helpers/image-pdf.js';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { checkDist, startDistQuire } from '../lib/quire-dist.js';
import { envNumber, gitState, machine, median, printTable, waitForQuiet } from '../lib/machine.js';

const PAGES = Math.max(1, Math.round(envNumber('BENCH_PAGES', 8)));
const RUNS = Math.max(1, Math.round(envNumber('BENCH_RUNS', 3)));
const CORES = Math.max(1, os.availableParallelism());
const SOURCE = path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf');
/** What Quire renders a Letter page at for OCR (src/ingest/stages/ocr.ts). */
const OCR_DPI = 200;

if (spawnSync('tesseract', ['--version']).error) {
  console.error('bench/ocr: the `tesseract` CLI is not installed (apt-get install -y tesseract-ocr tesseract-ocr-eng); it is both the engine and the reference.');
  process.exit(2);
}
checkDist();

const source = fs.readFileSync(SOURCE);
const images = [];
for (let n = 1; n <= PAGES; n++) images.push({ image: await renderPdfPage(source, n, 300), dpi: 300 });
const scan = await imageOnlyPdf(images);
const pngs = await Promise.all(images.map((_, i) => renderPdfiumGrayPng(new Uint8Array(scan), i + 1, OCR_DPI)));
console.log(`bench/ocr: ${PAGES} scanned pages (${(scan.length / 2 ** 20).toFixed(1)} MiB), ${CORES} cores, ${RUNS} runs`);

function tesseract(png: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['-', '-', '-l', 'eng', '--oem', '1', '--psm', '3', '--dpi', String(OCR_DPI), 'tsv'];
    const child = spawn('tesseract', args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tesseract exited with ${code}`))));
    child.stdin.end(png);
  });
}

/** Seconds to read every page with `width` engines at a time. */
async function reference(width: number): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    for (let i = next++; i < pngs.length; i = next++) await tesseract(pngs[i]!);
  }));
  return (performance.now() - t0) / 1000;
}

/** Seconds from the start of the upload to `Ready`, on a fresh built server. */
async function quire(env: NodeJS.ProcessEnv): Promise<number> {
  const q = await startDistQuire({ extraEnv: env });
  try {
    await waitForQuiet();
    const auth = { authorization: `Bearer ${q.key}` };
    const form = new FormData();
    form.append('file', new Blob([scan], { type: 'application/pdf' }), 'scan.pdf');
    const t0 = performance.now();
    const res = await fetch(`${q.api}/documents/content`, { method: 'POST', headers: auth, body: form });
    if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    for (;;) {
      const doc = (await (await fetch(`${q.api}/documents/${id}`, { headers: auth })).json()) as { status: string; error?: unknown };
      if (doc.status === 'Ready') return (performance.now() - t0) / 1000;
      if (doc.status === 'Error') throw new Error(`the scan ended Error: ${JSON.stringify(doc.error)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await q.stop();
  }
}

const results: Record<string, number[]> = { 'tesseract, 1 at a time': [], [`tesseract, ${CORES} at a time`]: [], 'Quire, QUIRE_OCR_CONCURRENCY=1': [], [`Quire, default (${CORES})`]: [] };
for (let run = 0; run < RUNS; run++) {
  await waitForQuiet();
  results['tesseract, 1 at a time']!.push(await reference(1));
  results[`tesseract, ${CORES} at a time`]!.push(await reference(CORES));
  results['Quire, QUIRE_OCR_CONCURRENCY=1']!.push(await quire({ QUIRE_OCR_CONCURRENCY: '1' }));
  results[`Quire, default (${CORES})`]!.push(await quire({}));
}

const parallelRef = median(results[`tesseract, ${CORES} at a time`]!);
const rows = [['measure', 'runs (s)', 's', 'pages/s', 's a page', `vs tesseract ×${CORES}`]];
for (const [name, xs] of Object.entries(results)) {
  const s = median(xs);
  rows.push([name, xs.map((x) => x.toFixed(2)).join(' '), s.toFixed(2), (PAGES / s).toFixed(2), (s / PAGES).toFixed(2), (parallelRef / s).toFixed(2)]);
}
printTable(rows, new Set([2, 3, 4, 5]));

const out = path.join(ROOT, 'bench/results', `ocr-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({ machine: machine(), git: gitState(), pages: PAGES, runs: RUNS, results }, null, 2));
console.log(`results: ${path.relative(ROOT, out)}`);
process.exit(0);
