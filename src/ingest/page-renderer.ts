import { Worker } from 'node:worker_threads';
import { moduleBeside, threadEntry } from '../runtime/thread-entry.js';
import type { PdfEngine } from './readers/pdf/pdf.js';
import { pdfiumModuleIfCompiled } from './readers/pdf/pdfium.js';
import type { RenderReply, RenderRequest, RenderThreadData } from './render-thread.js';
import { PageImageError } from '../domain/pages.js';
import { SerialThread, ThreadFailure } from './serial-thread.js';

export interface PageRendererOptions {
  /** Time budget of one page. */
  timeoutMs: number;
  /** Heap budget of the rendering thread. */
  memoryMb: number;
  /** What draws the pages (default PDFium; pdf.js draws those PDFium cannot). */
  engine?: PdfEngine;
}

/**
 * Renders page images off the event loop, in one long-lived thread (PDFium, and pdf.js when a PDF
 * needs it, load once; PDFium from the module the reading threads share when the process has
 * compiled one), one page at a time, in the order asked (PageService limits each workspace's turns).
 * The thread reads the PDF from its file block by block: no request holds the whole file. A page over
 * its time budget, or a crash, ends the thread; the next request starts a new one. Every failure is a
 * PageImageError: `too-large` past `maxPixels` (checked before any pixel is allocated), else `unrenderable`.
 */
export class PageRenderer {
  private readonly thread: SerialThread<RenderRequest, RenderReply>;

  constructor(opts: PageRendererOptions) {
    this.thread = new SerialThread(() => {
      const entry = threadEntry(moduleBeside(import.meta.url, 'render-thread'));
      const workerData: RenderThreadData = { engine: opts.engine ?? 'pdfium', pdfiumModule: pdfiumModuleIfCompiled() };
      return new Worker(entry.file, { eval: entry.eval, workerData, resourceLimits: { maxOldGenerationSizeMb: opts.memoryMb }, stdout: false, stderr: false });
    }, opts.timeoutMs);
  }

  async render(source: { file: string }, page: number, dpi: number, maxPixels: number): Promise<Buffer> {
    let reply: RenderReply;
    try {
      reply = await this.thread.ask((id) => ({ request: { id, file: source.file, page, dpi, maxPixels } }));
    } catch (err) {
      if (!(err instanceof ThreadFailure)) throw err;
      const why = {
        error: `the rendering thread failed on it (${err.detail})`,
        exit: `the rendering thread stopped while drawing it (exit code ${err.detail})`,
        timeout: `drawing it took longer than ${err.detail} s`,
      };
      throw new PageImageError('unrenderable', why[err.kind]);
    }
    if (reply.ok) return Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength);
    if (reply.tooLarge) throw new PageImageError('too-large', `its image would be ${reply.tooLarge.width} x ${reply.tooLarge.height} pixels, over the limit of ${maxPixels}`);
    throw new PageImageError('unrenderable', reply.message);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
