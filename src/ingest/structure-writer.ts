import { Worker } from 'node:worker_threads';
import { moduleBeside, threadEntry } from '../runtime/thread-entry.js';
import type { StructureFileRequest } from '../document/writers/structure-file.js';
import type { WriteReply, WriteRequest } from './write-thread.js';
import { SerialThread, ThreadFailure } from './serial-thread.js';

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
  private readonly thread: SerialThread<WriteRequest, WriteReply>;

  constructor(opts: StructureWriterOptions) {
    this.thread = new SerialThread(() => {
      const entry = threadEntry(moduleBeside(import.meta.url, 'write-thread'));
      return new Worker(entry.file, { eval: entry.eval, resourceLimits: { maxOldGenerationSizeMb: opts.memoryMb }, stdout: false, stderr: false });
    }, opts.timeoutMs);
  }

  /** The file's UTF-8 bytes. */
  async write(gz: Uint8Array, request: StructureFileRequest): Promise<Buffer> {
    let reply: WriteReply;
    try {
      reply = await this.thread.ask((id) => {
        const copy = new Uint8Array(gz.byteLength);
        copy.set(gz);
        return { request: { id, gz: copy, request }, transfer: [copy.buffer] };
      });
    } catch (err) {
      if (!(err instanceof ThreadFailure)) throw err;
      const why = {
        error: `the writing thread failed: ${err.detail}`,
        exit: `the writing thread exited (code ${err.detail})`,
        timeout: `writing the ${request.format} took longer than ${err.detail} s`,
      };
      throw new Error(why[err.kind]);
    }
    if (!reply.ok) throw new Error(reply.message);
    return Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
