import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CORPUS } from '../helpers/quire.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { scratchDir } from '../helpers/scratch.js';
import { renderPageImage, renderPage, PageTooLarge } from '../../src/ingest/readers/index.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');

/** One page `width` x `height` pt with a line of text. */
function pagePdf(width: number, height: number): Buffer {
  const content = 'BT /F1 24 Tf 72 72 Td (A very large page) Tj ET';
  return makePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

describe('page images from a file (renderPageImage)', () => {
  test('PDFium reading the file block by block draws the same PNG as from its bytes', async () => {
    for (const [page, dpi] of [[1, 72], [2, 150]] as const) {
      const fromFile = await renderPageImage({ file: NDA }, page, dpi);
      const fromBytes = await renderPage(fs.readFileSync(NDA), page, dpi);
      assert.ok(fromFile.equals(fromBytes), `page ${page} at ${dpi} DPI differs`);
    }
  });

  test('an image over maxPixels is refused before it is drawn, by PDFium and by pdf.js', async () => {
    // 14,400 pt square: at 300 DPI a 60,000 x 60,000 image, 14.4 GB of RGBA.
    const file = path.join(scratchDir('huge-page-'), 'huge.pdf');
    fs.writeFileSync(file, pagePdf(14_400, 14_400));
    for (const engine of ['pdfium', 'pdfjs'] as const) {
      const started = performance.now();
      await assert.rejects(renderPageImage({ file }, 1, 300, { engine, maxPixels: 50_000_000 }), (err: unknown) => {
        assert.ok(err instanceof PageTooLarge, `${engine}: ${String(err)}`);
        assert.deepEqual([err.width, err.height], [60_000, 60_000]);
        return true;
      });
      // Generous: refusing takes no drawing at all (drawing would take minutes, or fail).
      assert.ok(performance.now() - started < 20_000, `${engine} took ${performance.now() - started} ms to refuse`);
    }
    const small = await renderPageImage({ file }, 1, 36, { maxPixels: 60_000_000 });
    assert.deepEqual([small.readUInt32BE(16), small.readUInt32BE(20)], [7200, 7200]);
  });

  test('a file that is not a PDF fails with an error, not a crash', async () => {
    const file = path.join(scratchDir('not-pdf-'), 'junk.pdf');
    fs.writeFileSync(file, Buffer.from('%PDF-1.4\nnothing here at all\n'));
    await assert.rejects(renderPageImage({ file }, 1, 72), Error);
    // The engine is fine afterwards.
    assert.ok((await renderPageImage({ file: NDA }, 1, 36)).length > 100);
  });
});
