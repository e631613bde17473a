// Lines found in page images (bench/README.md): every page of the corpus PDFs that is not a picture is
// drawn at 200 DPI (as OCR draws scans), searched for the lines it draws (`imageRules`, then the lines
// through the page's own text dropped, `outsideWords`), and each line found is checked against the
// rules the PDF itself draws. Precision: the share of found lines that lie along a drawn rule (lines of
// underscores are text, not rules, and count against it). Recall: the share of the drawn thin rules at
// least 0.4 in long that are found along at least half their length (a rule drawn white, or the edge
// of a shaded area, counts as drawn, so recall is a floor). Also the time of the search a page.
//
//   npx tsx bench/image-rules/run.ts
//
// Environment: BENCH_CORPUS (../shared/corpus: every PDF under it).
import fs from 'node:fs';
import path from 'node:path';
import { readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import { renderPdfiumGray } from '../../src/ingest/readers/pdf/pdfium.js';
import { imageRules, outsideWords } from '../../src/ingest/stages/ocr/image-rules.js';
import { pageLines, type Segment } from '../../src/ingest/stages/tables/rules.js';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { gitState, machine, printTable } from '../lib/machine.js';
import { pdfsUnder } from '../lib/corpus.js';

const DPI = 200;
/** Pages whose pictures cover more of them than this are left out: a picture's edges are lines no PDF rule draws. */
const MAX_PICTURE = 0.05;
const TOLERANCE = 8;
const MIN_RULE = 120;

const dir = process.env.BENCH_CORPUS ? path.resolve(process.env.BENCH_CORPUS) : CORPUS;
const near = (s: Segment, set: Segment[]) =>
  set.some((r) => Math.abs(r.pos - s.pos) <= TOLERANCE + (r.thickness + s.thickness) / 2 && r.start <= s.end + TOLERANCE && s.start <= r.end + TOLERANCE);

const rows: Record<string, unknown>[] = [];
const totals = { pages: 0, found: 0, alongDrawn: 0, drawn: 0, drawnFound: 0, ms: 0 };
for (const file of pdfsUnder(dir)) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  let pages;
  try {
    pages = await readPdfPages(bytes);
  } catch {
    continue; // encrypted or broken: not a page image source
  }
  const t = { pages: 0, found: 0, alongDrawn: 0, drawn: 0, drawnFound: 0, ms: 0 };
  for (const page of pages) {
    if ((page.imageCover ?? 0) > MAX_PICTURE) continue;
    const image = await renderPdfiumGray(bytes, page.number, DPI);
    const started = performance.now();
    const found = pageLines(outsideWords(imageRules(image, DPI, 300 / DPI), page.items));
    t.ms += performance.now() - started;
    t.pages++;
    const drawn = pageLines(page.rules ?? []);
    for (const [mine, truth] of [[found.horizontal, drawn.horizontal], [found.vertical, drawn.vertical]] as const) {
      for (const s of mine) {
        t.found++;
        if (near(s, truth)) t.alongDrawn++;
      }
      for (const s of truth) {
        if (s.end - s.start < MIN_RULE || s.thickness > TOLERANCE) continue;
        t.drawn++;
        const covered = mine.filter((r) => Math.abs(r.pos - s.pos) <= TOLERANCE + (s.thickness + r.thickness) / 2).reduce((n, r) => n + Math.max(0, Math.min(r.end, s.end) - Math.max(r.start, s.start)), 0);
        if (covered >= 0.5 * (s.end - s.start)) t.drawnFound++;
      }
    }
  }
  for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += t[k];
  rows.push({ file: path.relative(dir, file), pages: t.pages, found: t.found, 'along a drawn rule': t.alongDrawn, 'drawn rules': t.drawn, 'of them found': t.drawnFound, 'ms a page': t.pages ? (t.ms / t.pages).toFixed(1) : '' });
}
const precision = totals.alongDrawn / Math.max(1, totals.found);
const recall = totals.drawnFound / Math.max(1, totals.drawn);
rows.push({ file: 'all', pages: totals.pages, found: totals.found, 'along a drawn rule': totals.alongDrawn, 'drawn rules': totals.drawn, 'of them found': totals.drawnFound, 'ms a page': (totals.ms / Math.max(1, totals.pages)).toFixed(1) });
const header = Object.keys(rows[0]!);
printTable([header, ...rows.map((r) => header.map((h) => String(r[h])))], new Set(header.map((_, i) => i).filter((i) => i > 0)));
console.log(`precision ${precision.toFixed(3)}, recall (a floor) ${recall.toFixed(3)}, ${(totals.ms / Math.max(1, totals.pages)).toFixed(1)} ms a page`);
const out = path.join(ROOT, 'bench/results', `image-rules-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), git: gitState(), machine: machine(), dpi: DPI, totals, precision, recall, rows }, null, 2));
console.log(`results: ${path.relative(ROOT, out)}`);
process.exit(0);
