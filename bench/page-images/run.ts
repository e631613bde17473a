// Page-image benchmark (bench/README.md): page images (`GET /documents/{id}/pages/{n}/content`, a
// PNG) drawn per second by PDFium (today's default) and by pdf.js (before, and the fallback), as the
// rendering thread draws them: one thread, one page at a time, each page opened from the PDF's
// bytes and encoded as PNG. Every BENCH_EVERY-th page of ../shared/corpus/kgrag (its scanned page
// included), at the console's page view (100 DPI) and the API's default (300 DPI). Warm: each engine
// draws the sample once unmeasured, then BENCH_PASSES times (default 3), the engines' passes
// interleaved; the median pass counts.
//
//   npx tsx bench/page-images/run.ts
//
// Environment: BENCH_PASSES (3), BENCH_EVERY (8), BENCH_DPIS (100,300), BENCH_QUIET_WAIT (s, 180),
// BENCH_CORPUS (../shared/corpus/kgrag).
import fs from 'node:fs';
import path from 'node:path';
import { readPdfGeometry, type PdfEngine } from '../../src/ingest/readers/pdf/pdf.js';
import { readPdfiumPages } from '../../src/ingest/readers/pdf/pdfium.js';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { envNumber, gitState, machine, machineBusySeconds, median, printTable, waitForQuiet } from '../lib/machine.js';
import { pdfsUnder } from '../lib/corpus.js';
import { writeResults } from '../lib/results.js';

const PASSES = Math.max(1, Math.round(envNumber('BENCH_PASSES', 3)));
const EVERY = Math.max(1, Math.round(envNumber('BENCH_EVERY', 8)));
const DPIS = (process.env.BENCH_DPIS ?? '100,300').split(',').map(Number);
const CORPUS_DIR = process.env.BENCH_CORPUS ? path.resolve(process.env.BENCH_CORPUS) : path.join(CORPUS, 'kgrag');

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const started = new Date();
const files = pdfsUnder(CORPUS_DIR);
const sample: { file: string; bytes: Uint8Array; page: number }[] = [];
let pageCount = 0;
for (const file of files) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const pages = await readPdfiumPages(bytes);
  for (const p of pages) {
    pageCount++;
    // Every EVERY-th page, and every page without a text layer (the scanned one): a picture to draw.
    if (pageCount % EVERY === 1 || (p.items.length === 0 && (p.imageCover ?? 0) > 0.5)) sample.push({ file, bytes, page: p.number });
  }
  if ((await readPdfGeometry(bytes)).length !== pages.length) throw new Error(`${file}: page counts differ`);
}

async function pass(engine: PdfEngine, dpi: number): Promise<{ wallMs: number; cpuMs: number; bytes: number }> {
  const t0 = performance.now();
  const c0 = cpuMs();
  let bytes = 0;
  for (const s of sample) bytes += (await renderPdfPage(s.bytes, s.page, dpi, false, engine)).length;
  return { wallMs: performance.now() - t0, cpuMs: cpuMs() - c0, bytes };
}

await waitForQuiet();
const busy0 = machineBusySeconds();
const wall0 = performance.now();
const own0 = cpuMs();
const results: Record<string, { engine: PdfEngine; dpi: number; perSecond: number[]; cpuMsPerPage: number[]; pngBytesPerPage: number }> = {};
for (const dpi of DPIS) {
  const engines = ['pdfjs', 'pdfium'] as const;
  for (const engine of engines) {
    await pass(engine, dpi); // warm: modules loaded, code optimised
    results[`${engine}@${dpi}`] = { engine, dpi, perSecond: [], cpuMsPerPage: [], pngBytesPerPage: 0 };
  }
  // Passes interleaved (pdf.js, PDFium, pdf.js, ...): the host's speed drifts within minutes.
  for (let i = 0; i < PASSES; i++) {
    for (const engine of engines) {
      const r = results[`${engine}@${dpi}`]!;
      const p = await pass(engine, dpi);
      r.perSecond.push((1000 * sample.length) / p.wallMs);
      r.cpuMsPerPage.push(p.cpuMs / sample.length);
      r.pngBytesPerPage = p.bytes / sample.length;
    }
  }
}
const otherCpu = (machineBusySeconds() - busy0 - (cpuMs() - own0) / 1000) / ((performance.now() - wall0) / 1000);

const rows = [['engine', 'DPI', 'pages/s (median)', 'passes', 'CPU ms/page', 'PNG KiB/page', 'vs pdf.js']];
for (const r of Object.values(results)) {
  const before = median(results[`pdfjs@${r.dpi}`]!.perSecond);
  const m = median(r.perSecond);
  rows.push([r.engine === 'pdfium' ? 'PDFium (after)' : 'pdf.js (before)', String(r.dpi), m.toFixed(2), r.perSecond.map((v) => v.toFixed(2)).join(' '), median(r.cpuMsPerPage).toFixed(0), (r.pngBytesPerPage / 1024).toFixed(0), `${(m / before).toFixed(2)}×`]);
}
console.log(`\n${sample.length} pages of ${pageCount} (every ${EVERY}th and the scanned ones) from ${files.length} PDFs (${path.relative(ROOT, CORPUS_DIR)}), one thread, warm; other cpu ${Math.max(0, otherCpu).toFixed(2)} of a core\n`);
printTable(rows, new Set([1, 2, 4, 5, 6]));
writeResults('page-images', started, {
  date: started.toISOString(),
  command: 'npx tsx bench/page-images/run.ts',
  git: gitState(),
  machine: machine(),
  passes: PASSES,
  every: EVERY,
  pages: sample.map((s) => `${path.relative(CORPUS_DIR, s.file)}#${s.page}`),
  otherCpu,
  results,
});
