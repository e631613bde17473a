// The entry of the page-rendering thread: kept alive so pdfjs is loaded once; one request at a time.
import { parentPort } from 'node:worker_threads';
import { renderPage } from './readers/index.js';

export interface RenderRequest {
  id: number;
  pdf: Uint8Array;
  page: number;
  dpi: number;
}

export type RenderReply = { id: number; ok: true; png: Uint8Array } | { id: number; ok: false; message: string };

parentPort!.on('message', async (req: RenderRequest) => {
  try {
    const png = await renderPage(req.pdf, req.page, req.dpi);
    const out = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    parentPort!.postMessage({ id: req.id, ok: true, png: out } satisfies RenderReply);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies RenderReply);
  }
});
