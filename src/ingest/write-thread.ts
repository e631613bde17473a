// The entry of the thread that writes DGML, text and Markdown from stored structure models: kept
// alive between files, one request at a time.
import { parentPort } from 'node:worker_threads';
import { writeStructureFileFromStored, type StructureFileRequest } from '../document/writers/structure-file.js';

export interface WriteRequest {
  id: number;
  /** The structure model as stored (gzip of its JSON). */
  gz: Uint8Array;
  request: StructureFileRequest;
}

export type WriteReply = { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; message: string };

parentPort!.on('message', (req: WriteRequest) => {
  try {
    const file = writeStructureFileFromStored(req.gz, req.request);
    const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    // A Buffer this size may be a view of a shared pool: transfer a copy that owns its memory.
    const owned = file.byteOffset === 0 && file.byteLength === file.buffer.byteLength ? bytes : bytes.slice();
    parentPort!.postMessage({ id: req.id, ok: true, bytes: owned } satisfies WriteReply, [owned.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies WriteReply);
  }
});
