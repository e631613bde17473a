import { Worker } from 'node:worker_threads';
import { moduleBeside, threadEntry } from '../runtime/thread-entry.js';
import type { PdfEngine } from './readers/pdf/pdf.js';
import { pdfiumModuleIfCompiled } from './readers/pdf/pdfium.js';
import type { RenderReply, RenderRequest, RenderThreadData } from './render-thread.js';

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
 * compiled one), one page at a time. A page over its time budget, or a crash, ends the thread; the next request starts a new one.
 */
export class PageRenderer {
  private current: Worker | undefined;
  private nextId = 1;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: PageRendererOptions) {}

  render(pdf: Uint8Array, page: number, dpi: number): Promise<Buffer> {
    const run = this.chain.then(() => this.renderNow(pdf, page, dpi));
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

  private renderNow(pdf: Uint8Array, page: number, dpi: number): Promise<Buffer> {
    const thread = this.thread();
    const id = this.nextId++;
    const copy = new Uint8Array(pdf.byteLength);
    copy.set(pdf);
    return new Promise<Buffer>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        fn();
      };
      const onMessage = (reply: RenderReply) => {
        if (reply.id !== id) return;
        done(() => (reply.ok ? resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength)) : reject(new Error(reply.message))));
      };
      const onError = (err: Error) => done(() => reject(new Error(`the rendering thread failed: ${err.message}`)));
      const onExit = (code: number) => done(() => reject(new Error(`the rendering thread exited (code ${code})`)));
      const timer = setTimeout(() => {
        done(() => reject(new Error(`rendering the page took longer than ${Math.round(this.opts.timeoutMs / 1000)} s`)));
        void thread.terminate();
      }, this.opts.timeoutMs);
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      thread.postMessage({ id, pdf: copy, page, dpi } satisfies RenderRequest, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    await this.current?.terminate();
    this.current = undefined;
  }
}
