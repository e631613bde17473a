// The entry of the page-rendering thread: kept alive so PDFium (and pdf.js, when a PDF needs it) loads once; one request at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { PageTooLarge, renderPageImage } from './readers/index.js';
import type { PdfEngine } from './readers/pdf/pdf.js';
import { usePdfiumModule, type PdfiumModule } from './readers/pdf/pdfium.js';

/** What the rendering thread is started with (`workerData`). */
export interface RenderThreadData {
  /** What draws the pages (pdf.js draws those PDFium cannot). */
  engine: PdfEngine;
  /** PDFium compiled by the process, shared with its threads (`compiledPdfiumModule`). */
  pdfiumModule?: PdfiumModule;
}

export interface RenderRequest {
  id: number;
  /** The PDF's file, read block by block (not sent whole). */
  file: string;
  page: number;
  dpi: number;
  maxPixels: number;
}

export type RenderReply =
  | { id: number; ok: true; png: Uint8Array }
  | { id: number; ok: false; message: string; tooLarge?: { width: number; height: number } };

const data = workerData as RenderThreadData | null;
if (data?.pdfiumModule) usePdfiumModule(data.pdfiumModule);
parentPort!.on('message', async (req: RenderRequest) => {
  try {
    const png = await renderPageImage({ file: req.file }, req.page, req.dpi, { engine: data?.engine, maxPixels: req.maxPixels });
    const out = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    parentPort!.postMessage({ id: req.id, ok: true, png: out } satisfies RenderReply);
  } catch (err) {
    const tooLarge = err instanceof PageTooLarge ? { width: err.width, height: err.height } : undefined;
    parentPort!.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err), tooLarge } satisfies RenderReply);
  }
});
