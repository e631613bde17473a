import fs from 'node:fs';
import { withEngine, type PdfEngine } from './pdf.js';
import { PageTooLarge, renderPdfiumRgba, type PdfSource } from './pdfium.js';
import { rgbaPng } from '../write/png.js';

// PDFium draws page images (2.9× as many a second as pdf.js at 100 DPI, 1.5× at 300: bench/page-images),
// encoded by Quire's own PNG writer; pdf.js draws a page of a PDF PDFium cannot open. pdf.js and the
// canvas load on first use: a thread that draws only with PDFium never carries them.

export const MIN_DPI = 36;
export const MAX_DPI = 300;

/**
 * A PNG of one page (1-based) of a PDF at `dpi` (RGBA, opaque), turned upside down when asked: drawn
 * by PDFium, or by pdf.js when PDFium cannot read the PDF or `engine` asks for it.
 */
export async function renderPdfPage(pdf: Uint8Array, pageNumber: number, dpi: number, upsideDown = false, engine: PdfEngine = 'pdfium'): Promise<Buffer> {
  checkPageAndDpi(pageNumber, dpi);
  return withEngine(
    engine,
    async () => {
      const { data, width, height } = await renderPdfiumRgba(pdf, pageNumber, dpi, upsideDown);
      return rgbaPng(data, width, height);
    },
    () => drawPage(pdf, pageNumber, dpi, upsideDown, (canvas) => canvas.toBuffer('image/png')),
  );
}

/**
 * The PNG the API serves for a page: as `renderPdfPage`, from a PDF in a file, which PDFium reads
 * block by block (pdf.js, drawing what PDFium cannot read, reads the whole file), and never larger
 * than `maxPixels` (PageTooLarge, before any pixel is allocated).
 */
export async function renderPageImage(source: PdfSource, pageNumber: number, dpi: number, opts: { engine?: PdfEngine; maxPixels?: number } = {}): Promise<Buffer> {
  checkPageAndDpi(pageNumber, dpi);
  const maxPixels = opts.maxPixels ?? Infinity;
  return withEngine(
    opts.engine ?? 'pdfium',
    async () => {
      const { data, width, height } = await renderPdfiumRgba(source, pageNumber, dpi, false, maxPixels);
      return rgbaPng(data, width, height);
    },
    () => drawPage(source instanceof Uint8Array ? source : fs.readFileSync(source.file), pageNumber, dpi, false, (canvas) => canvas.toBuffer('image/png'), maxPixels),
  );
}

function checkPageAndDpi(pageNumber: number, dpi: number): void {
  if (!Number.isFinite(dpi) || dpi < MIN_DPI || dpi > MAX_DPI) {
    throw new RangeError(`dpi must be between ${MIN_DPI} and ${MAX_DPI}, got ${dpi}`);
  }
  if (!Number.isInteger(pageNumber) || pageNumber < 1) throw new RangeError(`no page ${pageNumber}`);
}

/** One page (1-based) drawn by pdf.js in grayscale at `dpi`, one byte a pixel, turned upside down when asked (OCR's image when PDFium cannot draw it). */
export async function renderPdfPageGray(pdf: Uint8Array, pageNumber: number, dpi: number, upsideDown = false): Promise<{ data: Uint8Array; width: number; height: number }> {
  return drawPage(pdf, pageNumber, dpi, upsideDown, (canvas) => {
    const { width, height } = canvas;
    const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const data = new Uint8Array(width * height);
    for (let i = 0, p = 0; i < data.length; i++, p += 4) data[i] = (rgba[p]! * 77 + rgba[p + 1]! * 150 + rgba[p + 2]! * 29) >> 8;
    return { data, width, height };
  });
}

type Canvas = import('@napi-rs/canvas').Canvas;

/** One page drawn by pdf.js onto a canvas filled white. */
async function drawPage<T>(pdf: Uint8Array, pageNumber: number, dpi: number, upsideDown: boolean, take: (canvas: Canvas) => T, maxPixels = Infinity): Promise<T> {
  checkPageAndDpi(pageNumber, dpi);
  const [{ createCanvas }, { openPdf, pdfError }] = await Promise.all([import('@napi-rs/canvas'), import('./pdfjs.js')]);
  const doc = await openPdf(pdf);
  try {
    if (pageNumber > doc.numPages) throw new RangeError(`no page ${pageNumber}: the PDF has ${doc.numPages}`);
    const page = await doc.getPage(pageNumber).catch((err: unknown) => Promise.reject(pdfError(err)));
    const vp = page.getViewport({ scale: dpi / 72, rotation: (page.rotate + (upsideDown ? 180 : 0)) % 360 });
    // Rounded like the page sizes the API reports (3300.0000000000005 px is a 3300 px page).
    const [width, height] = [Math.max(1, Math.round(vp.width)), Math.max(1, Math.round(vp.height))];
    if (width * height > maxPixels) throw new PageTooLarge(width, height, maxPixels);
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    // Pages without a painted background would come out transparent.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport: vp }).promise;
    return take(canvas);
  } finally {
    await doc.loadingTask.destroy();
  }
}
