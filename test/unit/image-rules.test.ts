import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import { renderPdfiumGray } from '../../src/ingest/readers/pdf/pdfium.js';
import { renderPdfPage, renderPdfPageGray } from '../../src/ingest/readers/pdf/render.js';
import type { Rule } from '../../src/document/pages.js';
import { imageRules, outsideWords } from '../../src/ingest/stages/ocr/image-rules.js';
import { stopTesseractJs } from '../../src/ingest/stages/ocr/tesseract-js.js';
import { latticeRules } from '../../src/ingest/stages/tables/grid.js';
import { pageLines, type Segment } from '../../src/ingest/stages/tables/rules.js';
import type { StructureNode, Table } from '../../src/document/structure.js';
import { imageOnlyPdf } from '../helpers/image-pdf.js';

const CORPUS = path.resolve('../shared/corpus');
const DOSAID = path.join(CORPUS, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf');
const GSA = path.join(CORPUS, 'kgrag/us-fed-agency-reports/GSA2022.pdf');
const LEASE = path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf');
const DPI = 200;

after(stopTesseractJs);

/** Whether a segment lies along one of `drawn` (same position, overlapping spans). */
function onDrawn(s: Segment, drawn: Segment[]): boolean {
  const tol = 8;
  return drawn.some((d) => Math.abs(d.pos - s.pos) <= tol + (d.thickness + s.thickness) / 2 && d.start <= s.end + tol && s.start <= d.end + tol);
}

function tables(nodes: StructureNode[]): Table[] {
  const out: Table[] = [];
  const stack = [...nodes];
  while (stack.length) {
    const n = stack.shift()!;
    if (n.type === 'table') out.push(n);
    else if (n.type === 'section') stack.unshift(...n.children);
    else if (n.type === 'list') stack.unshift(...n.items.flatMap((i) => i.children));
  }
  return out;
}

const shape = (t: Table) => `${t.rows.length}x${Math.max(...t.rows.map((r) => r.cells.reduce((n, c) => n + c.colspan, 0)))}`;
const cellWords = (t: Table) => t.rows.flatMap((r) => r.cells.flatMap((c) => c.leaf.text.toLowerCase().split(/\s+/).filter((w) => /\p{L}/u.test(w))));

describe('lines drawn in a page image', () => {
  test('the rules of ruled tables are found in the pixels, and no line through text (pages drawn at 200 DPI)', async () => {
    // Pages with ruled tables (shaded header rows among them) and a lease page of serif text.
    const cases: [string, number[]][] = [
      [DOSAID, [41, 50, 70]],
      [GSA, [20, 30]],
      [LEASE, [7, 9]],
    ];
    let found = 0;
    for (const [file, pages] of cases) {
      const pdf = new Uint8Array(readFileSync(file));
      const models = await readPdfPages(pdf);
      for (const n of pages) {
        const page = models[n - 1]!;
        const image = await renderPdfiumGray(pdf, n, DPI);
        const detected = pageLines(outsideWords(imageRules(image, DPI, 300 / DPI), page.items));
        const drawn = pageLines(page.rules ?? []);
        for (const [kind, segments, truth] of [['horizontal', detected.horizontal, drawn.horizontal], ['vertical', detected.vertical, drawn.vertical]] as const) {
          for (const s of segments) assert.ok(onDrawn(s, truth), `${path.basename(file)} p${n}: a ${kind} line at ${s.pos.toFixed(0)} (${s.start.toFixed(0)}–${s.end.toFixed(0)}) the page does not draw`);
        }
        found += detected.horizontal.length + detected.vertical.length;
        if (file === LEASE) assert.equal(detected.horizontal.length + detected.vertical.length, 0, `p${n}: a page of text has no lines`);
      }
    }
    assert.ok(found >= 40, `${found} lines found on the table pages`);
  });

  test("pdf.js's grayscale drawing (the OCR image when PDFium cannot draw a page) gives the same lattice", async () => {
    const pdf = new Uint8Array(readFileSync(DOSAID));
    const [pdfium, pdfjs] = [await renderPdfiumGray(pdf, 41, DPI), await renderPdfPageGray(pdf, 41, DPI)];
    assert.deepEqual([pdfjs.width, pdfjs.height], [pdfium.width, pdfium.height]);
    const positions = (rules: Rule[]) => {
      const lines = pageLines(latticeRules(rules));
      return [lines.horizontal.length, lines.vertical.length, lines.vertical.map((s) => Math.round(s.pos / 10))];
    };
    const a = positions(imageRules(pdfium, DPI, 300 / DPI));
    assert.deepEqual(positions(imageRules(pdfjs, DPI, 300 / DPI)), a);
    assert.ok((a[0] as number) >= 8 && (a[1] as number) >= 10, JSON.stringify(a));
  });

  test("a grid is kept when every line runs unbroken between crossing lines (a merged cell's edge included), dropped when a line has a hole", () => {
    const h = (y: number, x0: number, x1: number): Rule => ({ x: x0, y, width: x1 - x0, height: 2 });
    const v = (x: number, y0: number, y1: number): Rule => ({ x, y: y0, width: 2, height: y1 - y0 });
    // Three rows, three columns; the first column's two lower cells are one (the line between them stops at the column).
    const merged = [h(0, 0, 900), h(100, 0, 900), h(200, 300, 900), h(300, 0, 900), v(0, 0, 300), v(300, 0, 300), v(600, 0, 300), v(900, 0, 300)];
    assert.equal(latticeRules(merged).length, merged.length);
    // The same grid with a faint stretch lost from the middle of a line.
    const broken = [...merged.filter((_, i) => i !== 5), v(300, 0, 120), v(300, 190, 300)];
    assert.deepEqual(latticeRules(broken), []);
    // A line that stops short of the frame, in the middle of a cell.
    const short = [...merged.filter((_, i) => i !== 2), h(200, 450, 900)];
    assert.deepEqual(latticeRules(short), []);
  });
});

describe('a scanned ruled table', () => {
  test('reads as the table its text layer gives: rows, columns, merged cells and words (DOSAID and GSA pages scanned at 300 DPI)', async (t) => {
    for (const [file, n] of [
      [DOSAID, 41],
      [DOSAID, 70],
      [GSA, 30],
    ] as const) {
      const pdf = readFileSync(file);
      const model = await readDocument(pdf, 'pdf');
      const text = tables((await analyzeDocument({ ...model, pages: model.pages.filter((p) => p.number === n) }, { ocrBudgetMs: 60_000 })).structure.nodes);
      // The scan is pdf.js's drawing of the page, as this test was set with: PDFium's (the page images'
      // engine since issue 47, its text a little darker) reads DOSAID p70's table with a fourth row.
      const scan = await imageOnlyPdf([{ image: await renderPdfPage(pdf, n, 300, false, 'pdfjs'), dpi: 300 }]);
      const { structure } = await analyzeDocument(await readDocument(Buffer.from(scan), 'pdf'), { ocrBudgetMs: 60_000 });
      assert.deepEqual(structure.ocrPages, [1]);
      const scanned = tables(structure.nodes);
      t.diagnostic(`${path.basename(file)} p${n}: text ${text.map(shape).join(' ')}, scan ${scanned.map(shape).join(' ')}`);
      assert.deepEqual(scanned.map(shape), text.map(shape), `${path.basename(file)} p${n}`);
      for (const [k, table] of text.entries()) {
        const want = cellWords(table);
        const got = new Set(cellWords(scanned[k]!));
        const hits = want.filter((w) => got.has(w)).length;
        assert.ok(hits >= 0.9 * want.length, `${path.basename(file)} p${n} table ${k + 1}: ${hits} of ${want.length} words`);
      }
      // Merged cells come through: the text layer's spans are the scan's.
      assert.deepEqual(
        scanned.map((tb) => tb.rows.map((r) => r.cells.map((c) => `${c.rowspan}/${c.colspan}`).join(','))),
        text.map((tb) => tb.rows.map((r) => r.cells.map((c) => `${c.rowspan}/${c.colspan}`).join(','))),
      );
    }
  });
});
