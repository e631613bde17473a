// The thread behind HashingFileSink: hashes and writes the blocks of every open file it is sent, so
// that an upload's SHA-256 and its file writes cost the HTTP event loop nothing but one copy.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { SinkReply, SinkRequest } from './file-sink.js';

const open = new Map<number, { fd: number; hash: Hash }>();
const port = parentPort!;
const reply = (r: SinkReply) => port.postMessage(r);

function fail(id: number, err: unknown) {
  const f = open.get(id);
  open.delete(id);
  try {
    if (f) fs.closeSync(f.fd);
  } catch {
    // the write's own error is the one to report
  }
  const e = err as NodeJS.ErrnoException;
  reply({ id, error: { message: e.message ?? String(err), code: e.code } });
}

port.on('message', (m: SinkRequest) => {
  try {
    switch (m.op) {
      case 'open':
        open.set(m.id, { fd: fs.openSync(m.file, 'wx'), hash: createHash('sha256') });
        return reply({ id: m.id, opened: true });
      case 'write': {
        const f = open.get(m.id);
        if (!f) return; // failed or aborted already: the error was sent
        const block = new Uint8Array(m.block, 0, m.length);
        f.hash.update(block);
        for (let off = 0; off < block.length; ) off += fs.writeSync(f.fd, block, off);
        // The block goes back to be filled again: no allocation per block on either side.
        return port.postMessage({ id: m.id, written: m.length, block: m.block } satisfies SinkReply, [m.block]);
      }
      case 'end': {
        const f = open.get(m.id);
        if (!f) return;
        // On disk before the sink finishes: the row naming the blob commits only after that (fs.ts).
        // A failing fsync (EIO, ENOSPC) fails the sink, closing the file.
        fs.fsyncSync(f.fd);
        open.delete(m.id);
        fs.closeSync(f.fd);
        return reply({ id: m.id, sha256: f.hash.digest('hex') });
      }
      case 'abort': {
        const f = open.get(m.id);
        open.delete(m.id);
        if (f) fs.closeSync(f.fd);
        return reply({ id: m.id, aborted: true });
      }
    }
  } catch (err) {
    fail(m.id, err);
  }
});
