// How a fresh thread's analysis warms up: the PDFs of ../shared/corpus/kgrag (the scanned one left
// out: its OCR is a separate process) analysed BENCH_PASSES times in a row in this one thread, as an
// analysing thread does (PDFium compiled once and optimised at start, the server's JIT tuning).
// Per pass: this thread's CPU, V8's helper threads' CPU (mostly the optimising compiler), and the
// analysis's own timings summed (text = PDFium reading, layout = tables and layout, entities).
// With BENCH_PER_DOC=1, each document's layout/entities ms in the first two passes.
//
//   npm run build && npx tsx bench/ingest/passes.ts
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../../test/helpers/quire.js';
import { envNumber } from '../lib/machine.js';
import { checkDist } from '../lib/quire-dist.js';
import { pdfsUnder } from '../lib/corpus.js';

checkDist();
const dist = (m: string) => new URL(`../../dist/${m}`, import.meta.url).href;
const { tuneJit } = (await import(dist('runtime/jit.js'))) as typeof import('../../src/runtime/jit.js');
const { loadConfig } = (await import(dist('runtime/config.js'))) as typeof import('../../src/runtime/config.js');
const pdfium = (await import(dist('ingest/readers/pdf/pdfium.js'))) as typeof import('../../src/ingest/readers/pdf/pdfium.js');
const { analyzeDocument } = (await import(dist('ingest/pipeline.js'))) as typeof import('../../src/ingest/pipeline.js');

const config = loadConfig(process.env);
tuneJit({ initialOldSpaceMb: config.ingest.initialOldSpaceMb });
const module = pdfium.compiledPdfiumModule(config.ingest.pdfiumCompile);
if (module) pdfium.usePdfiumModule(module);

const PASSES = Math.max(1, Math.round(envNumber('BENCH_PASSES', 5)));
const files = pdfsUnder(path.join(CORPUS, 'kgrag'))
  .filter((f) => !f.includes('NCT06155240'))
  .map((f) => ({ name: path.basename(f), bytes: new Uint8Array(fs.readFileSync(f)) }));

/** CPU ms of one thread (this one: its tid is the pid), or of the whole process. */
function cpuMs(file: string): number {
  const st = fs.readFileSync(file, 'utf8');
  const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
const thisThread = () => cpuMs(`/proc/self/task/${process.pid}/stat`);
const wholeProcess = () => cpuMs('/proc/self/stat');

await new Promise((r) => setTimeout(r, 6000)); // the optimised compilation of PDFium, in V8's threads
for (let pass = 0; pass < PASSES; pass++) {
  const t0 = thisThread();
  const p0 = wholeProcess();
  const sum = { textMs: 0, layoutMs: 0, entitiesMs: 0 };
  const perDoc: string[] = [];
  for (const f of files) {
    const { timings } = await analyzeDocument({ format: 'pdf', pagination: 'pdf', pages: [], hasText: false, pdf: f.bytes, pdfIsOriginal: true }, { ocrBudgetMs: 60_000 });
    sum.textMs += timings.textMs;
    sum.layoutMs += timings.layoutMs;
    sum.entitiesMs += timings.entitiesMs;
    perDoc.push(`${f.name} ${timings.layoutMs.toFixed(0)}/${timings.entitiesMs.toFixed(0)}`);
  }
  const own = thisThread() - t0;
  const helpers = wholeProcess() - p0 - own;
  console.log(`pass ${pass}: thread ${own} ms, V8 helpers ${helpers} ms; text ${sum.textMs.toFixed(0)}, layout ${sum.layoutMs.toFixed(0)}, entities ${sum.entitiesMs.toFixed(0)} ms`);
  if (process.env.BENCH_PER_DOC === '1' && pass < 2) console.log(`  layout/entities ms: ${perDoc.join(', ')}`);
}
