/**
 * Page images (`GET /documents/{id}/pages/{n}/content`) are drawn by PDFium, by pdf.js when PDFium
 * cannot read the PDF. Both draw corpus pages to the same size and, within a stated tolerance, the
 * same pixels: glyph edges are anti-aliased differently (PDFium's text is a little darker), so
 * single pixels at the edges of letters differ, while anything drawn by one and not the other (a
 * missing image, a shifted line, a wrong colour) moves whole blocks.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';
import { readPdfiumPages } from '../../src/ingest/readers/pdf/pdfium.js';
import { CORPUS } from '../helpers/quire.js';
import { makePdf } from '../helpers/pdf-objects.js';

/**
 * The tolerance (measured on 58 corpus pages at 100 DPI: mean difference 0.6–7.2, pixels over 128
 * apart 0.00–0.64 %, blocks over 32 apart 0.00–0.08 %).
 */
const TOLERANCE = {
  /** Mean absolute difference of a channel (0–255) over every pixel. */
  meanDifference: 10,
  /** Share of pixels with a channel more than 128 apart. */
  pixelsFarApart: 0.01,
  /** Share of 8×8-pixel blocks whose mean gray is more than 32 apart. */
  blocksApart: 0.005,
};
const DPI = 100;
const BLOCK = 8;

const PAGES: [string, number][] = [
  ['reference-dgml/Jane Doe NDA.pdf', 1],
  ['reference-dgml/Shorebucks LLC_AZ.pdf', 11],
  ['reference-dgml/20071204X01896.pdf', 1],
  ['pdf/A - Package Proposal.pdf', 1],
  ['kgrag/sec-10-q/2023 Q1 AAPL.pdf', 23],
  ['kgrag/us-fed-agency-reports/DOSAID2022.pdf', 36],
  ['kgrag/us-fed-agency-reports/DOSAID2022.pdf', 71],
  ['kgrag/us-fed-agency-reports/GSA2022.pdf', 21],
  // An A4 page 842.04 points tall: 1169.5 pixels, which PDFium's single-precision size makes 1169.49997.
  ['kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf', 1],
  ['kgrag/nih-clinical-trial-protocols/NCT06159946_Prot_000.pdf', 1],
];

interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

async function pixelsOf(png: Buffer): Promise<Pixels> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: ctx.getImageData(0, 0, image.width, image.height).data };
}

function difference(a: Pixels, b: Pixels): { meanDifference: number; pixelsFarApart: number; blocksApart: number } {
  let sum = 0;
  let far = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let most = 0;
    for (let k = 0; k < 3; k++) {
      const d = Math.abs(a.data[i + k]! - b.data[i + k]!);
      sum += d;
      if (d > most) most = d;
    }
    if (most > 128) far++;
  }
  let blocks = 0;
  let apart = 0;
  for (let by = 0; by + BLOCK <= a.height; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= a.width; bx += BLOCK) {
      let sa = 0;
      let sb = 0;
      for (let y = by; y < by + BLOCK; y++) {
        for (let x = bx, i = (y * a.width + bx) * 4; x < bx + BLOCK; x++, i += 4) {
          sa += a.data[i]! + a.data[i + 1]! + a.data[i + 2]!;
          sb += b.data[i]! + b.data[i + 1]! + b.data[i + 2]!;
        }
      }
      blocks++;
      if (Math.abs(sa - sb) / (BLOCK * BLOCK * 3) > 32) apart++;
    }
  }
  const pixels = a.width * a.height;
  return { meanDifference: sum / pixels / 3, pixelsFarApart: far / pixels, blocksApart: apart / blocks };
}

const within = (d: ReturnType<typeof difference>) => d.meanDifference <= TOLERANCE.meanDifference && d.pixelsFarApart <= TOLERANCE.pixelsFarApart && d.blocksApart <= TOLERANCE.blocksApart;
const shown = (d: ReturnType<typeof difference>) => `mean ${d.meanDifference.toFixed(2)}, pixels ${(100 * d.pixelsFarApart).toFixed(2)} %, blocks ${(100 * d.blocksApart).toFixed(2)} %`;

describe('page images: PDFium and pdf.js draw the same pages', () => {
  for (const [file, page] of PAGES) {
    test(`${path.basename(file)} p${page} at ${DPI} DPI`, async () => {
      const pdf = new Uint8Array(fs.readFileSync(path.join(CORPUS, file)));
      const [pdfium, pdfjs] = [await renderPdfPage(pdf, page, DPI), await renderPdfPage(pdf, page, DPI, false, 'pdfjs')];
      assert.ok(!pdfium.equals(pdfjs), 'two drawings, not one twice');
      const [a, b] = [await pixelsOf(pdfium), await pixelsOf(pdfjs)];
      assert.deepEqual([a.width, a.height], [b.width, b.height], 'the same size');
      const d = difference(a, b);
      assert.ok(within(d), `${file} p${page}: ${shown(d)}`);
    });
  }

  test('the comparison tells different pages apart, and a page with a quarter of it blanked', async () => {
    const nda = new Uint8Array(fs.readFileSync(path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf')));
    const [one, two] = [await pixelsOf(await renderPdfPage(nda, 1, DPI)), await pixelsOf(await renderPdfPage(nda, 2, DPI))];
    assert.ok(!within(difference(one, two)), shown(difference(one, two)));
    // DOSAID p71 is mostly pictures: the same page with its picture area painted white is not the page.
    const report = new Uint8Array(fs.readFileSync(path.join(CORPUS, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf')));
    const drawn = await pixelsOf(await renderPdfPage(report, 71, DPI));
    const blanked = { ...drawn, data: Uint8ClampedArray.from(drawn.data) };
    const rows = Math.round(drawn.height / 4);
    blanked.data.fill(255, drawn.width * 4 * rows, drawn.width * 4 * rows * 2);
    assert.ok(!within(difference(drawn, blanked)), shown(difference(drawn, blanked)));
  });

  test('rotated pages, crop boxes and pages turned upside down: the same size and pixels from both', async () => {
    const content = 'BT /F1 14 Tf 72 700 Td (Rotated heading) Tj ET 1 w 72 690 m 300 690 l S 0 0 1 rg 72 600 200 20 re f 1 0 0 rg 400 100 100 300 re f';
    const page = (extra: string) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${extra} /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>`;
    const pdf = makePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [5 0 R 6 0 R 7 0 R 8 0 R] /Count 4 >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
      page('/Rotate 90'),
      page('/CropBox [50 40 560 760]'),
      page('/Rotate 180 /CropBox [0 100 612 792]'),
      page('/Rotate 270'),
    ]);
    for (let n = 1; n <= 4; n++) {
      for (const upsideDown of [false, true]) {
        const [a, b] = [await pixelsOf(await renderPdfPage(pdf, n, DPI, upsideDown)), await pixelsOf(await renderPdfPage(pdf, n, DPI, upsideDown, 'pdfjs'))];
        assert.deepEqual([a.width, a.height], [b.width, b.height], `page ${n}: the same size`);
        const d = difference(a, b);
        assert.ok(within(d), `page ${n}${upsideDown ? ' upside down' : ''}: ${shown(d)}`);
        assert.ok(d.blocksApart === 0, `page ${n}${upsideDown ? ' upside down' : ''}: ${shown(d)}`);
      }
    }
  });

  test('the API sizes hold: pixels from the page size at the DPI, PNG, RGBA', async () => {
    const pdf = new Uint8Array(fs.readFileSync(path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf')));
    const png = await renderPdfPage(pdf, 1, 72);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]], [612, 792, 8, 6], '612×792, 8-bit RGBA');
    const [model] = await readPdfiumPages(pdf);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [Math.round((model!.width * 72) / 300), Math.round((model!.height * 72) / 300)]);
  });

  test('a PDF PDFium refuses is drawn by pdf.js', async () => {
    const bytes = fs.readFileSync(path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf'));
    // 2 KB of junk before the header: PDFium looks for it in the first 1,024 bytes only, pdf.js repairs it.
    const junk = new Uint8Array(Buffer.concat([Buffer.alloc(2048, 0x41), bytes]));
    await assert.rejects(readPdfiumPages(junk));
    const [repaired, clean] = [await pixelsOf(await renderPdfPage(junk, 1, DPI)), await pixelsOf(await renderPdfPage(new Uint8Array(bytes), 1, DPI, false, 'pdfjs'))];
    assert.equal(difference(repaired, clean).meanDifference, 0, 'the same drawing as pdf.js gives of the clean file');
  });
});
