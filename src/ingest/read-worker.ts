// The entry of a reading thread: documents' bytes in, their DocumentModel (or a reason) out.
import { parentPort } from 'node:worker_threads';
import { readDocument } from './formats/index.js';
import { IngestError } from './model.js';

export interface ReadRequest {
  id: number;
  bytes: Uint8Array;
  ext: string;
}

export type ReadReply =
  | { id: number; ok: true; model: import('./model.js').DocumentModel }
  | { id: number; ok: false; ingestError?: { title: string; detail: string }; message: string };

// Long-lived: pdf.js and the readers load once; the pool sends one document at a time.
parentPort!.on('message', async ({ id, bytes, ext }: ReadRequest) => {
  try {
    const model = await readDocument(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), ext);
    const pdf = model.pdf;
    const transfer = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : [];
    parentPort!.postMessage({ id, ok: true, model } satisfies ReadReply, transfer);
  } catch (err) {
    const reply: ReadReply =
      err instanceof IngestError
        ? { id, ok: false, ingestError: { title: err.title, detail: err.detail }, message: err.message }
        : { id, ok: false, message: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage(reply);
  }
});
