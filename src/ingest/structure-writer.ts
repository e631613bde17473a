import { Worker } from 'node:worker_threads';
import { moduleBeside, threadEntry } from '../runtime/thread-entry.js';
import type { StructureFileRequest } from '../document/writers/structure-file.js';
import type { WriteReply, WriteRequest } from './write-thread.js';

export interface StructureWriterOptions {
  /** Time budget of one file. */
  timeoutMs: number;
  /** Heap budget of the writing thread. */
  memoryMb: number;
}

/**
 * Writes DGML, text and Markdown from stored structure models off the event loop, in one long-lived
 * thread (entry: write-thread.ts), one file at a time. A file over its time budget, or a crash, ends
 * the thread; the next request starts a new one.
 */
export class StructureWriter {
  private current: Worker | undefined;
  private nextId = 1;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: StructureWriterOptions) {}

  /** The file's UTF-8 bytes. */
  write(gz: Uint8Array, request: StructureFileRequest): Promise<Buffer> {
    const run = this.chain.then(() => this.writeNow(gz, request));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private thread(): Worker {
    if (!this.current) {
      const entry = threadEntry(moduleBeside(import.meta.url, 'write-thread'));
      const thread = new Worker(entry.file, { eval: entry.eval, resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb }, stdout: false, stderr: false });
      thread.unref();
      thread.on('error', () => {});
      thread.on('exit', () => {
        if (this.current === thread) this.current = undefined;
      });
      this.current = thread;
    }
    return this.current;
  }

  private writeNow(gz: Uint8Array, request: StructureFileRequest): Promise<Buffer> {
    const thread = this.thread();
    const id = this.nextId++;
    const copy = new Uint8Array(gz.byteLength);
    copy.set(gz);
    return new Promise<Buffer>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        fn();
      };
      const onMessage = (reply: WriteReply) => {
        if (reply.id !== id) return;
        done(() => (reply.ok ? resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength)) : reject(new Error(reply.message))));
      };
      const onError = (err: Error) => done(() => reject(new Error(`the writing thread failed: ${err.message}`)));
      const onExit = (code: number) => done(() => reject(new Error(`the writing thread exited (code ${code})`)));
      const timer = setTimeout(() => {
        done(() => reject(new Error(`writing the ${request.format} took longer than ${Math.round(this.opts.timeoutMs / 1000)} s`)));
        void thread.terminate();
      }, this.opts.timeoutMs);
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      thread.postMessage({ id, gz: copy, request } satisfies WriteRequest, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    await this.current?.terminate();
    this.current = undefined;
  }
}
