import { Worker } from 'node:worker_threads';
import { moduleBeside, threadEntry } from '../runtime/thread-entry.js';
import type { PdfEngine } from './readers/pdf/pdf.js';
import { pdfiumModuleIfCompiled } from './readers/pdf/pdfium.js';
import type { RenderReply, RenderRequest, RenderThreadData } from './render-thread.js';
import { PageImageError } from '../domain/pages.js';

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
  private current: Worker | undefined;
  private nextId = 1;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: PageRendererOptions) {}

  render(source: { file: string }, page: number, dpi: number, maxPixels: number): Promise<Buffer> {
    const run = this.chain.then(() => this.renderNow({ id: this.nextId++, file: source.file, page, dpi, maxPixels }));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private thread(): Worker {
    if (!this.current) {
      const entry = threadEntry(moduleBeside(import.meta.url, 'render-thread'));
      const workerData: RenderThreadData = { engine: this.opts.engine ?? 'pdfium', pdfiumModule: pdfiumModuleIfCompiled() };
      const thread = new Worker(entry.file, { eval: entry.eval, workerData, resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb }, stdout: false, stderr: false });
      thread.unref();
      thread.on('exit', () => {
        if (this.current === thread) this.current = undefined;
      });
      this.current = thread;
    }
    return this.current;
  }

  private renderNow(req: RenderRequest): Promise<Buffer> {
    const thread = this.thread();
    return new Promise<Buffer>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        fn();
      };
      const fail = (message: string, reason: 'too-large' | 'unrenderable' = 'unrenderable') => done(() => reject(new PageImageError(reason, message)));
      const onMessage = (reply: RenderReply) => {
        if (reply.id !== req.id) return;
        if (reply.ok) done(() => resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength)));
        else if (reply.tooLarge) fail(`its image would be ${reply.tooLarge.width} x ${reply.tooLarge.height} pixels, over the limit of ${req.maxPixels}`, 'too-large');
        else fail(reply.message);
      };
      const onError = (err: Error) => fail(`the rendering thread failed on it (${err.message})`);
      const onExit = (code: number) => fail(`the rendering thread stopped while drawing it (exit code ${code})`);
      const timer = setTimeout(() => {
        fail(`drawing it took longer than ${Math.round(this.opts.timeoutMs / 1000)} s`);
        void thread.terminate();
      }, this.opts.timeoutMs);
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      thread.postMessage(req);
    });
  }

  async close(): Promise<void> {
    await this.current?.terminate();
    this.current = undefined;
  }
}
