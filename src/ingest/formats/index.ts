import type { DocumentModel } from '../model.js';

// Contract of the format readers (being written): every allowed format into one DocumentModel.

/**
 * Reads a document's bytes into the shared model. `declaredExt` is the extension the document was
 * uploaded as ('pdf', 'docx', 'doc', 'txt', 'html'); the content is checked against it from its
 * magic bytes. Throws IngestError with a reason a user understands.
 */
export async function readDocument(_bytes: Buffer, _declaredExt: string): Promise<DocumentModel> {
  throw new Error('readDocument: not implemented yet');
}

/** A PNG of one page (1-based) of a PDF at `dpi` (36..300). */
export async function renderPage(_pdf: Uint8Array, _pageNumber: number, _dpi: number): Promise<Buffer> {
  throw new Error('renderPage: not implemented yet');
}
