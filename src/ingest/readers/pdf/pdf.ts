import type { PageModel } from '../../../document/pages.js';
import { PdfiumCannotRead, readPdfiumGeometry, readPdfiumPages } from './pdfium.js';

/**
 * Which engine reads PDFs: PDFium (the default: the same model, about four times faster) or pdf.js.
 * A PDF that PDFium cannot open (other than for a password) is read by pdf.js, which repairs more.
 */
export type PdfEngine = 'pdfium' | 'pdfjs';

/** `withPdfium` when the engine is PDFium and it can read the PDF, else `withPdfjs`. */
export async function withEngine<T>(engine: PdfEngine, withPdfium: () => Promise<T>, withPdfjs: () => Promise<T>): Promise<T> {
  if (engine === 'pdfium') {
    try {
      return await withPdfium();
    } catch (err) {
      if (!(err instanceof PdfiumCannotRead)) throw err;
    }
  }
  return withPdfjs();
}

/** Pages and positioned text of a PDF, in 300-DPI pixels with a top-left origin. */
export function readPdfPages(bytes: Uint8Array, engine: PdfEngine = 'pdfium'): Promise<PageModel[]> {
  return withEngine(engine, () => readPdfiumPages(bytes), async () => (await pdfjsReader()).readPdfjsPages(bytes));
}

/**
 * Only the pages' sizes (their text left empty): what `Ingested` needs, without parsing any page's
 * content, so page counts, quotas and page images come long before the text does.
 */
export function readPdfGeometry(bytes: Uint8Array, engine: PdfEngine = 'pdfium'): Promise<PageModel[]> {
  return withEngine(engine, () => readPdfiumGeometry(bytes), async () => (await pdfjsReader()).readPdfjsGeometry(bytes));
}

/** pdf.js's reader, loaded on first use (see pdfjs-reader.ts). */
const pdfjsReader = () => import('./pdfjs-reader.js');

