// The entry of the page-rendering thread: kept alive so PDFium (and pdf.js, when a PDF needs it) loads once; one request at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { renderPage } from './readers/index.js';
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
  pdf: Uint8Array;
  page: number;
  dpi: number;
}

export type RenderReply = { id: number; ok: true; png: Uint8Array } | { id: number; ok: false; message: string };

const data = workerData as RenderThreadData | null;
if (data?.pdfiumModule) usePdfiumModule(data.pdfiumModule);
parentPort!.on('message', async (req: RenderRequest) => {
  try {
    const png = await renderPage(req.pdf, req.page, req.dpi, data?.engine);
    const out = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    parentPort!.postMessage({ id: req.id, ok: true, png: out } satisfies RenderReply);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies RenderReply);
  }
});
