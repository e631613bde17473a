import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { moduleBeside, threadEntry } from '../../runtime/thread-entry.js';

export type SinkRequest =
  | { op: 'open'; id: number; file: string }
  | { op: 'write'; id: number; block: ArrayBuffer; length: number }
  | { op: 'end'; id: number }
  | { op: 'abort'; id: number };
export type SinkReply =
  | { id: number; opened: true }
  | { id: number; written: number; block: ArrayBuffer }
  | { id: number; sha256: string }
  | { id: number; aborted: true }
  | { id: number; error: { message: string; code?: string } };

/**
 * Bytes gathered before a block goes to the thread, and how many may be on their way at once. 256 KiB
 * blocks measured faster than 1 MiB ones (bench/upload): a block stays in cache from the copy to the
 * hash to the write.
 */
const BLOCK = 256 * 1024;
const IN_FLIGHT = 8 * BLOCK;

type Handler = (r: SinkReply) => void;

/** One thread, started on first use, shared by every sink of the process. */
class SinkThread {
  private worker: Worker | null = null;
  private readonly handlers = new Map<number, Handler>();
  private nextId = 1;

  register(handler: Handler): number {
    const id = this.nextId++;
    this.handlers.set(id, handler);
    this.ensure().ref();
    return id;
  }

  unregister(id: number) {
    this.handlers.delete(id);
    if (this.handlers.size === 0) this.worker?.unref();
  }

  post(m: SinkRequest, transfer: ArrayBuffer[] = []) {
    this.ensure().postMessage(m, transfer);
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const entry = threadEntry(moduleBeside(import.meta.url, 'file-sink-thread'));
    const w = new Worker(entry.file, { eval: entry.eval, stdout: false, stderr: false });
    w.on('message', (r: SinkReply) => this.handlers.get(r.id)?.(r));
    // A thread that dies fails every sink it held; the next sink starts a new one.
    const lost = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      for (const [id, h] of [...this.handlers]) h({ id, error: { message: `file writer thread failed: ${err.message}` } });
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`exited with ${code}`)));
    w.unref();
    this.worker = w;
    return w;
  }
}

const thread = new SinkThread();

/**
 * Blocks the thread has written and handed back, for the next block of any sink: a new one is a
 * zeroed 256 KiB allocation, which cost more than the copy into it for the small files most sinks
 * write (a structure of a few KiB, a page image).
 */
const MAX_SPARE_BLOCKS = 16;
const spareBlocks: ArrayBuffer[] = [];

function takeBlock(): ArrayBuffer {
  return spareBlocks.pop() ?? new ArrayBuffer(BLOCK);
}

function giveBack(block: ArrayBuffer): void {
  if (spareBlocks.length < MAX_SPARE_BLOCKS && block.byteLength === BLOCK) spareBlocks.push(block);
}

/**
 * A writable file (created exclusively) whose bytes are hashed and written by a thread: the event
 * loop only copies each chunk into a 1 MiB block and hands the block over. `sha256` is known once
 * the stream has finished. Errors of the file (ENOSPC, EROFS, …) arrive with their `code`.
 */
export class HashingFileSink extends Writable {
  sha256 = '';
  private readonly id: number;
  /** The block being filled (taken on the first write after the last one was sent). */
  private block: ArrayBuffer | null = null;
  private filled = 0;
  private inFlight = 0;
  private waiting: (() => void) | null = null;
  private finishing: ((err?: Error | null) => void) | null = null;
  private failed: Error | null = null;
  private terminal = false;
  private settle!: () => void;
  /** Resolves once the thread is done with the file (finished, failed or aborted): it may be removed then. */
  readonly settled = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(file: string) {
    super({ highWaterMark: BLOCK });
    this.id = thread.register((r) => this.onReply(r));
    thread.post({ op: 'open', id: this.id, file });
  }

  private release() {
    this.terminal = true;
    if (this.block) giveBack(this.block);
    this.block = null;
    thread.unregister(this.id);
    this.settle();
  }

  private onReply(r: SinkReply) {
    if ('aborted' in r) return this.release();
    if ('error' in r) {
      const err = Object.assign(new Error(r.error.message), r.error.code ? { code: r.error.code } : {});
      this.failed = err;
      this.release();
      const cb = this.finishing ?? this.waiting;
      this.finishing = this.waiting = null;
      if (cb) cb(err as never);
      else this.destroy(err);
      return;
    }
    if ('written' in r) {
      this.inFlight -= r.written;
      giveBack(r.block);
      if (this.waiting && this.inFlight < IN_FLIGHT) {
        const go = this.waiting;
        this.waiting = null;
        go();
      }
    } else if ('sha256' in r) {
      this.sha256 = r.sha256;
      this.release();
      const done = this.finishing;
      this.finishing = null;
      done?.();
    }
  }

  private send() {
    const block = this.block;
    if (!block || this.filled === 0) return;
    thread.post({ op: 'write', id: this.id, block, length: this.filled }, [block]);
    this.inFlight += this.filled;
    this.block = null;
    this.filled = 0;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    if (this.failed) return done(this.failed);
    let off = 0;
    while (off < chunk.length) {
      const n = Math.min(chunk.length - off, BLOCK - this.filled);
      this.block ??= takeBlock();
      new Uint8Array(this.block, this.filled, n).set(chunk.subarray(off, off + n));
      this.filled += n;
      off += n;
      if (this.filled === BLOCK) this.send();
    }
    if (this.inFlight < IN_FLIGHT) return done();
    this.waiting = () => done(this.failed);
  }

  override _final(done: (err?: Error | null) => void) {
    if (this.failed) return done(this.failed);
    this.send();
    this.finishing = done;
    thread.post({ op: 'end', id: this.id });
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void) {
    if (!this.terminal) thread.post({ op: 'abort', id: this.id });
    done(err);
  }
}
