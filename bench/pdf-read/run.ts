// PDF reading benchmark (bench/README.md): CPU per page of each engine Quire can read PDFs with
// (PDFium, pdf.js), turning every page of ../shared/corpus/kgrag into the page model (text runs with
// positions and fonts, drawn rules), against `pdftotext -bbox-layout` on the same files in the same
// run (its wall time, one process at a time). One process, one thread, warm: every engine reads the corpus once unmeasured, then
// BENCH_PASSES times (default 3); the median pass counts.
//
//   npx tsx bench/pdf-read/run.ts
//
// Environment: BENCH_PASSES (3), BENCH_QUIET_WAIT (s, 180), BENCH_CORPUS (../shared/corpus/kgrag).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readPdfPages, type PdfEngine } from '../../src/ingest/readers/pdf/pdf.js';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { envNumber, gitState, machine, median, printTable, waitForQuiet } from '../lib/machine.js';
import { pdfsUnder } from '../lib/corpus.js';

const PASSES = Math.max(1, Math.round(envNumber('BENCH_PASSES', 3)));
const CORPUS_DIR = process.env.BENCH_CORPUS ? path.resolve(process.env.BENCH_CORPUS) : path.join(CORPUS, 'kgrag');


const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const files = pdfsUnder(CORPUS_DIR);
const bytes = files.map((f) => new Uint8Array(fs.readFileSync(f)));

async function engine(name: PdfEngine): Promise<{ pages: number; cpuMs: number; items: number; rules: number }> {
  const c0 = cpuMs();
  let pages = 0;
  let items = 0;
  let rules = 0;
  for (const b of bytes) {
    for (const p of await readPdfPages(b, name)) {
      pages++;
      items += p.items.length;
      rules += p.rules?.length ?? 0;
    }
  }
  return { pages, cpuMs: cpuMs() - c0, items, rules };
}

/**
 * pdftotext's time is its wall time, one process at a time (it is single-threaded, so this is its CPU
 * time plus starting the process): the kernel counts a child's CPU in 10 ms ticks, too coarse here.
 */
function pdftotext(): { pages: number; cpuMs: number } {
  const t0 = performance.now();
  for (const f of files) {
    const r = spawnSync('pdftotext', ['-bbox-layout', f, '/dev/null']);
    if (r.status !== 0) throw new Error(`pdftotext failed on ${f}: ${r.stderr}`);
  }
  return { pages: NaN, cpuMs: performance.now() - t0 };
}

const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;
await waitForQuiet();
const results: Record<string, { perPage: number[]; items?: number; rules?: number }> = {};
let pages = 0;
for (const name of ['pdfium', 'pdfjs'] as const) {
  await engine(name); // warm: modules loaded, code optimised
  results[name] = { perPage: [] };
  for (let i = 0; i < PASSES; i++) {
    const r = await engine(name);
    pages = r.pages;
    results[name]!.perPage.push(r.cpuMs / r.pages);
    results[name]!.items = r.items;
    results[name]!.rules = r.rules;
  }
}
if (hasPdftotext) {
  pdftotext();
  results.pdftotext = { perPage: [] };
  for (let i = 0; i < PASSES; i++) results.pdftotext.perPage.push(pdftotext().cpuMs / pages);
}
const ref = hasPdftotext ? median(results.pdftotext!.perPage) : NaN;
const rows = [['reader', 'pages', 'CPU ms/page (median)', 'passes', 'vs pdftotext', 'runs', 'rules']];
for (const [name, r] of Object.entries(results)) {
  const m = median(r.perPage);
  rows.push([name === 'pdfjs' ? 'pdf.js (getTextContent + getOperatorList)' : name === 'pdfium' ? 'PDFium (wasm, raw C API)' : 'pdftotext -bbox-layout (wall, one at a time)', String(pages), m.toFixed(2), r.perPage.map((v) => v.toFixed(2)).join(' '), (m / ref).toFixed(2) + '×', String(r.items ?? ''), String(r.rules ?? '')]);
}
console.log(`\n${files.length} PDFs, ${pages} pages (${path.relative(ROOT, CORPUS_DIR)}), one thread, warm\n`);
printTable(rows, new Set([1, 2, 4, 5, 6]));
const out = path.join(ROOT, 'bench/results', `pdf-read-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), command: 'npx tsx bench/pdf-read/run.ts', git: gitState(), machine: machine(), passes: PASSES, pages, results }, null, 2));
console.log(`\nresults: ${path.relative(ROOT, out)}`);
