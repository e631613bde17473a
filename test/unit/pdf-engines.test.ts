import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { readPdfGeometry, readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import { pdfiumMemoryBytes, renderPdfiumGray, renderPdfiumGrayPng } from '../../src/ingest/readers/pdf/pdfium.js';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';
import type { PageModel } from '../../src/document/pages.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { CORPUS, ROOT } from '../helpers/quire.js';

// PDFium (the default) and pdf.js (QUIRE_PDF_ENGINE=pdfjs, and the fallback for PDFs PDFium cannot
// open) must give the layout stages the same page model.

function pdfsUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? pdfsUnder(p) : e.name.toLowerCase().endsWith('.pdf') ? [p] : [];
  });
}

// Word's "ti"/"tt" ligatures: pdf.js gives them as their own items (Ɵ, Ʃ), PDFium's reader spells them out.
const letters = (pages: PageModel[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const p of pages) {
    for (const it of p.items) {
      for (const ch of it.text.replace(/\u019f/g, 'ti').replace(/\u01a9/g, 'tt')) {
        if (/[\p{L}\p{N}]/u.test(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
      }
    }
  }
  return counts;
};

function overlap(a: Map<string, number>, b: Map<string, number>): number {
  let total = 0;
  let common = 0;
  for (const [ch, n] of a) {
    total += n;
    common += Math.min(n, b.get(ch) ?? 0);
  }
  return total ? common / total : 1;
}

test('PDFium and pdf.js read every corpus PDF alike: pages, sizes, text, fonts, rules', async () => {
  const files = pdfsUnder(CORPUS);
  assert.ok(files.length >= 20, `only ${files.length} corpus PDFs`);
  for (const file of files) {
    const name = path.relative(CORPUS, file);
    const bytes = new Uint8Array(fs.readFileSync(file));
    const [a, b] = [await readPdfPages(bytes, 'pdfjs'), await readPdfPages(bytes, 'pdfium')];
    assert.equal(b.length, a.length, `${name}: pages`);
    const geometry = await readPdfGeometry(bytes, 'pdfium');
    for (let i = 0; i < a.length; i++) {
      const [pa, pb] = [a[i]!, b[i]!];
      assert.ok(Math.abs(pa.width - pb.width) <= 1 && Math.abs(pa.height - pb.height) <= 1, `${name} p${i + 1}: ${pa.width}x${pa.height} vs ${pb.width}x${pb.height}`);
      assert.deepEqual([geometry[i]!.width, geometry[i]!.height], [pb.width, pb.height], `${name} p${i + 1}: geometry`);
      const rules = [pa.rules?.length ?? 0, pb.rules?.length ?? 0];
      assert.ok(Math.abs(rules[0]! - rules[1]!) <= Math.max(3, 0.02 * rules[0]!), `${name} p${i + 1}: rules ${rules}`);
    }
    const [la, lb] = [letters(a), letters(b)];
    assert.ok(overlap(la, lb) >= 0.995 && overlap(lb, la) >= 0.995, `${name}: the same letters and digits (${overlap(la, lb).toFixed(4)}, ${overlap(lb, la).toFixed(4)})`);
    // Runs at the same place carry the same font size and weight.
    const at = new Map<string, PageModel['items']>();
    for (const p of b) for (const it of p.items) at.set(`${p.number}|${it.text}|${Math.round(it.x)}`, [...(at.get(`${p.number}|${it.text}|${Math.round(it.x)}`) ?? []), it]);
    let matched = 0;
    for (const p of a) {
      for (const it of p.items) {
        const candidates = at.get(`${p.number}|${it.text}|${Math.round(it.x)}`) ?? [];
        const other = candidates.find((c) => Math.abs(c.y - it.y) <= it.height * 0.5);
        if (!other) continue;
        matched++;
        assert.ok(Math.abs(other.fontSize - it.fontSize) <= 0.1, `${name} p${p.number} "${it.text}": size ${it.fontSize} vs ${other.fontSize}`);
        assert.equal(!!other.bold, !!it.bold, `${name} p${p.number} "${it.text}": bold`);
        assert.ok(Math.abs(other.height - it.height) <= it.height * 0.35, `${name} p${p.number} "${it.text}": height ${it.height} vs ${other.height}`);
      }
    }
    const items = a.reduce((n, p) => n + p.items.length, 0);
    // Where pdf.js splits runs at every ligature, few of its runs exist as such in PDFium's.
    const ligatures = a.some((p) => p.items.some((it) => /[\u019f\u01a9]/.test(it.text)));
    if (items > 0 && !ligatures) assert.ok(matched / items >= 0.5, `${name}: only ${matched} of ${items} runs found at the same place`);
  }
});

test("PDFium spells out Word's Calibri ligatures and keeps a ligature's letters in one run", async () => {
  const [page] = await readPdfPages(fs.readFileSync(path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf')));
  const text = page!.items.map((i) => i.text).join('\n');
  assert.match(text, /Widget Corp\., a Delaware corporation with/);
  assert.match(text, /1\. Definition of Confidential Information/);
  assert.doesNotMatch(text, /[\u019f\u01a9]/);
});

test('rotated pages, crop boxes and form XObjects: both engines place text and rules alike', async () => {
  const content = 'BT /F1 14 Tf 72 700 Td (Rotated heading) Tj ET 1 w 72 690 m 300 690 l S 0 0 1 rg 72 600 200 20 re f q 0.5 0 0 0.5 100 100 cm /X1 Do Q';
  const page = (extra: string) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${extra} /Resources << /Font << /F1 4 0 R >> /XObject << /X1 5 0 R >> >> /Contents 3 0 R >>`;
  const form = 'BT /F1 20 Tf 10 10 Td (Inside a form) Tj ET 0 0 m 400 0 l S';
  const pdf = makePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [6 0 R 7 0 R 8 0 R 9 0 R] /Count 4 >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
    `<< /Type /XObject /Subtype /Form /BBox [0 0 500 100] /Resources << /Font << /F1 4 0 R >> >> /Length ${form.length} >>\nstream\n${form}\nendstream`,
    page('/Rotate 90'),
    page('/CropBox [50 40 560 760]'),
    page('/Rotate 180 /CropBox [0 100 612 792]'),
    page('/Rotate 270'),
  ]);
  const [a, b] = [await readPdfPages(pdf, 'pdfjs'), await readPdfPages(pdf, 'pdfium')];
  const geometry = await readPdfGeometry(pdf, 'pdfium');
  assert.equal(b.length, 4);
  for (let i = 0; i < 4; i++) {
    const [pa, pb] = [a[i]!, b[i]!];
    const where = `page ${i + 1}`;
    assert.deepEqual([pb.width, pb.height], [pa.width, pa.height], `${where}: size`);
    assert.deepEqual([geometry[i]!.width, geometry[i]!.height], [pa.width, pa.height], `${where}: geometry`);
    assert.deepEqual(pb.items.map((it) => it.text).sort(), pa.items.map((it) => it.text).sort(), `${where}: runs`);
    for (const it of pa.items) {
      const other = pb.items.find((o) => o.text === it.text)!;
      // Across the baseline the engines' ascent and descent of a standard font differ a little.
      const slack = Math.max(2, (0.12 * it.fontSize * 300) / 72);
      for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(other[k] - it[k]) <= slack, `${where} "${it.text}" ${k}: ${it[k]} vs ${other[k]}`);
      assert.equal(other.fontSize, it.fontSize, `${where} "${it.text}" size`);
      assert.equal(other.bold, true, `${where} "${it.text}" bold`);
    }
    const box = (r: { x: number; y: number; width: number; height: number }) => [r.x, r.y, r.width, r.height].map(Math.round).join(',');
    assert.deepEqual((pb.rules ?? []).map(box).sort(), (pa.rules ?? []).map(box).sort(), `${where}: rules`);
    assert.equal(pb.rules?.length, 3, `${where}: the stroke, the filled box and the form's stroke`);
  }
});

test('filled-in form fields: both engines give their values as text, where the fields stand beside their labels', async () => {
  const labels = 'BT /F1 11 Tf 72 700 Td (Applicant name:) Tj ET BT /F1 11 Tf 72 670 Td (Date of birth:) Tj ET';
  const appearance = (v: string) => `/Tx BMC q BT /F1 11 Tf 2 5 Td (${v}) Tj ET Q EMC`;
  const field = (name: string, value: string, y: number, ap: number) =>
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (${name}) /V (${value}) /Rect [180 ${y} 400 ${y + 18}] /F 4 /P 3 0 R /DA (/F1 11 Tf 0 g) /AP << /N ${ap} 0 R >> >>`;
  const form = (value: string) => `<< /Type /XObject /Subtype /Form /BBox [0 0 220 18] /Resources << /Font << /F1 5 0 R >> >> /Length ${appearance(value).length} >>\nstream\n${appearance(value)}\nendstream`;
  const pdf = makePdf([
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R 8 0 R] /DA (/F1 11 Tf 0 g) /DR << /Font << /F1 5 0 R >> >> >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [6 0 R 8 0 R] >>',
    `<< /Length ${labels.length} >>\nstream\n${labels}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    field('name', 'Jane Q. Doe', 695, 7),
    form('Jane Q. Doe'),
    field('dob', 'March 3, 1990', 665, 9),
    form('March 3, 1990'),
  ]);
  const read = await Promise.all((['pdfium', 'pdfjs'] as const).map(async (engine) => (await readPdfPages(pdf, engine))[0]!));
  for (const [k, page] of read.entries()) {
    const at = (text: string) => page.items.find((i) => i.text === text);
    for (const [label, value] of [['Applicant name:', 'Jane Q. Doe'], ['Date of birth:', 'March 3, 1990']] as const) {
      const l = at(label);
      const v = at(value);
      assert.ok(l && v, `${k ? 'pdf.js' : 'PDFium'}: ${JSON.stringify(page.items.map((i) => i.text))}`);
      assert.ok(Math.abs(v.y + v.height / 2 - (l.y + l.height / 2)) < 10 && v.x > l.x + l.width, `${value} on the line of ${label}, right of it`);
    }
  }
  const [a, b] = read.map((p) => p.items.find((i) => i.text === 'Jane Q. Doe')!);
  assert.ok(Math.abs(a!.x - b!.x) < 5 && Math.abs(a!.y - b!.y) < 8, `${JSON.stringify(a)} ${JSON.stringify(b)}`);
});

test("OCR's page image from PDFium (grayscale PNG) matches pdf.js's rendering of the page", async () => {
  const pdf = fs.readFileSync(path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf'));
  const bands = async (png: Buffer) => {
    const image = await loadImage(png);
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const { data } = ctx.getImageData(0, 0, image.width, image.height);
    const out = new Array(16).fill(0);
    const rowsPerBand = Math.ceil(image.height / 16);
    for (let i = 0; i < data.length; i += 4) out[Math.floor(i / 4 / image.width / rowsPerBand)] += (data[i]! + data[i + 1]! + data[i + 2]!) / 3 / 255;
    return { width: image.width, height: image.height, bands: out.map((v) => v / (rowsPerBand * image.width)) };
  };
  const [a, b] = [await bands(await renderPdfPage(pdf, 1, 100, false, 'pdfjs')), await bands(await renderPdfiumGrayPng(pdf, 1, 100))];
  assert.deepEqual([b.width, b.height], [a.width, a.height]);
  a.bands.forEach((v, i) => assert.ok(Math.abs(v - b.bands[i]!) < 0.02, `band ${i}: ${v.toFixed(3)} vs ${b.bands[i]!.toFixed(3)}`));
  assert.ok(Math.min(...b.bands) < 0.97, 'the page has text on it');
});

test('a PDF PDFium refuses is read by pdf.js, which a thread loads only then', () => {
  // A fresh process: this one has loaded pdf.js for the tests above.
  const script = `
    import fs from 'node:fs';
    const { readPdfPages } = await import('./src/ingest/readers/pdf/pdf.ts');
    const { readPdfiumPages, PdfiumCannotRead } = await import('./src/ingest/readers/pdf/pdfium.ts');
    const bytes = fs.readFileSync(process.env.PDF);
    const clean = await readPdfPages(new Uint8Array(bytes));
    const loadedForClean = globalThis.pdfjsWorker !== undefined;
    // 2 KB of junk before the header: PDFium looks for it in the first 1,024 bytes only.
    const junk = new Uint8Array(Buffer.concat([Buffer.alloc(2048, 0x41), bytes]));
    const refused = await readPdfiumPages(junk).then(() => false, (e) => e instanceof PdfiumCannotRead);
    const repaired = await readPdfPages(junk);
    console.log(JSON.stringify({ loadedForClean, refused, loadedAfter: globalThis.pdfjsWorker !== undefined,
      clean: clean.map((p) => p.items.map((i) => i.text).join(' ')), repaired: repaired.map((p) => p.items.map((i) => i.text).join(' ')) }));
  `;
  const pdf = path.join(CORPUS, 'kgrag/ntsb-aviation-incident-accident-reports/20080102X00002.pdf');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, PDF: pdf }, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { loadedForClean: boolean; refused: boolean; loadedAfter: boolean; clean: string[]; repaired: string[] };
  assert.equal(out.loadedForClean, false, 'reading a PDF PDFium opens does not load pdf.js');
  assert.equal(out.refused, true, 'PDFium refuses the damaged copy');
  assert.equal(out.loadedAfter, true);
  assert.equal(out.repaired.length, out.clean.length);
  // The same text, page by page.
  const asPages = (texts: string[]): PageModel[] => texts.map((text, i) => ({ number: i + 1, width: 0, height: 0, items: [{ text, x: 0, y: 0, width: 0, height: 0, fontName: '', fontSize: 0 }] }));
  assert.ok(overlap(letters(asPages(out.repaired)), letters(asPages(out.clean))) > 0.97);
});

test('PDFium gives back the memory a very large page image took: the next document gets a fresh instance', async () => {
  const pdf = fs.readFileSync(path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf'));
  await renderPdfiumGray(pdf, 1, 72);
  const usual = await pdfiumMemoryBytes();
  assert.ok(usual < 64 * 1024 * 1024, `a page at 72 DPI leaves the instance small (${usual} bytes)`);
  // 900 DPI: 7,650 × 9,900 pixels, drawn 4 bytes a pixel, grows the instance's memory past 256 MiB.
  const big = await renderPdfiumGray(pdf, 1, 900);
  assert.equal(big.width, 7650, 'the page was drawn at 900 DPI');
  const after = await pdfiumMemoryBytes();
  assert.ok(after <= usual, `the next use starts an instance as small as the first (${after} against ${usual} bytes)`);
  const again = await readPdfPages(pdf);
  assert.ok(again[0]!.items.length > 0, 'the fresh instance reads the document');
});
