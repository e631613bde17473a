// First: it keeps the engine's own builtins before pdf.js's core-js replaces them.
import { restoreNatives } from './pdfjs-natives.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
// pdf.js runs its "worker" in this thread; loaded here (not on the first document) so that its
// core-js, too, is loaded before the builtins are put back.
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { IngestError } from '../../../document/pages.js';

(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;
restoreNatives();

export { OPS, type PDFPageProxy };

const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * Opens a PDF with pdf.js, mapping its failures to IngestErrors. pdf.js detaches the buffer it is
 * given, so it always gets a copy. Local font data and wasm (JPX images) paths keep it off the network
 * and let it draw the 14 standard fonts. (pdf.js 6 has no eval code path left, so no isEvalSupported;
 * a document is closed through its loading task: `closePdf`.)
 */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const task = getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    // pdf.js 6 sends a font's name (ABCDEF+Arial-BoldMT, whence bold and italic where the font's flags
    // say nothing) only among these extras; 5 sent it always.
    fontExtraProperties: true,
    verbosity: 0,
    standardFontDataUrl: PDFJS_DIR + '/standard_fonts/',
    cMapUrl: PDFJS_DIR + '/cmaps/',
    cMapPacked: true,
    wasmUrl: PDFJS_DIR + '/wasm/',
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    throw pdfError(err);
  }
}

/** Closes a document `openPdf` opened (pdf.js 6 closes it through its loading task). */
export async function closePdf(doc: PDFDocumentProxy): Promise<void> {
  await doc.loadingTask.destroy();
}

export function pdfError(err: unknown): Error {
  if (err instanceof IngestError) return err;
  const name = (err as { name?: string } | null)?.name;
  const message = (err as { message?: string } | null)?.message ?? String(err);
  if (name === 'PasswordException') {
    return new IngestError('Encrypted PDF', 'The PDF is password-protected; upload it without a password.');
  }
  return new IngestError('Corrupt PDF', `The PDF cannot be read (${message}).`);
}
