// The entry of a reading thread: one document's bytes in, its DocumentModel (or a reason) out.
import { parentPort, workerData } from 'node:worker_threads';
import { readDocument } from './formats/index.js';
import { IngestError } from './model.js';

export interface ReadRequest {
  bytes: Uint8Array;
  ext: string;
}

export type ReadReply =
  | { ok: true; model: import('./model.js').DocumentModel }
  | { ok: false; ingestError?: { title: string; detail: string }; message: string };

const { bytes, ext } = workerData as ReadRequest;
try {
  const model = await readDocument(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), ext);
  const pdf = model.pdf;
  parentPort!.postMessage({ ok: true, model } satisfies ReadReply, pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : []);
} catch (err) {
  const reply: ReadReply =
    err instanceof IngestError
      ? { ok: false, ingestError: { title: err.title, detail: err.detail }, message: err.message }
      : { ok: false, message: err instanceof Error ? err.message : String(err) };
  parentPort!.postMessage(reply);
}
