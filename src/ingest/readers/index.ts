import { IngestError, type DocumentModel } from '../../document/pages.js';
import type { StructureNode } from '../../document/structure.js';
import { layoutBlocks, type Block } from './blocks.js';
import { describeFormat, detectFormat, type DetectedFormat } from './detect.js';
import { readDoc } from './office/doc.js';
import { readDocx, type DocxRead } from './office/docx.js';
import { htmlStructure } from './html/html.js';
import { canIsolateNetwork, convertWithLibreOffice, findSoffice, isolationRefusal } from './office/libreoffice.js';
import { readPdfGeometry, readPdfPages, type PdfEngine } from './pdf/pdf.js';
import { renderPdfPage } from './pdf/render.js';
import { MONOSPACE, PROPORTIONAL, textLayoutPdf } from './text/text-layout-pdf.js';
import { textTooLarge } from './limits.js';
import { decodeHtml, decodeText } from './text/encoding.js';
import { readTxt, txtStructure } from './text/txt.js';

// Contract of the format readers: every allowed format into one DocumentModel.

export interface ReadOptions {
  /** Use LibreOffice for office formats when `soffice` is on PATH (default true). */
  libreoffice?: boolean;
  /**
   * Extract the pages' positioned text (default true). Without it only the page sizes are read
   * (`hasText: false`), which is all `Ingested` needs; `Processing` extracts the text.
   */
  text?: boolean;
  /** What reads PDFs (default PDFium). */
  pdfEngine?: PdfEngine;
  /**
   * Keep one LibreOffice running in this thread between conversions, stopped after this many ms idle
   * (default 0: each conversion starts its own).
   */
  officeIdleMs?: number;
  /**
   * Refuse DOCX and DOC (an IngestError) rather than have LibreOffice convert them with network access
   * when `unshare -rn` cannot run here (QUIRE_OFFICE_REQUIRE_ISOLATION; default false).
   */
  officeRequireIsolation?: boolean;
}

/** The two pipelines of `Processing` (ingest/pipeline.ts): pages laid out from their text, or the format's own structure kept. */
export type PipelineName = 'paginated' | 'declarative';

/** What reads one format, and the pipeline its model goes through. */
interface FormatOption {
  /** The detected contents the declared extension accepts. */
  accepts: readonly DetectedFormat[];
  /** Paginated formats are read as PDF pages; declarative ones from their own structure (`structure`), then given pages. */
  pipeline: PipelineName;
  /** A declarative format's own structure, and the blocks Quire's text layout draws when there is no LibreOffice. */
  structure?: (bytes: Buffer) => Promise<Structure>;
}

interface Structure {
  native: StructureNode[];
  blocks: Block[];
  shown?: Buffer | null;
}

const fromNodes = (native: StructureNode[]): Structure => ({ native, blocks: layoutBlocks(native) });

/**
 * Every readable format: its reader and its pipeline, like docling's format options. A DOCX without
 * word/document.xml is still a ZIP: its reader reports it as a corrupt DOCX. Text and HTML are told
 * apart by a guess; either reads as the other.
 */
export const FORMAT_OPTIONS: Readonly<Record<string, FormatOption>> = {
  pdf: { accepts: ['pdf'], pipeline: 'paginated' },
  docx: {
    accepts: ['docx', 'zip'],
    pipeline: 'declarative',
    structure: async (bytes) => {
      const docx = await readDocx(bytes);
      return { native: docx.nodes, blocks: layoutBlocks(docx.nodes), shown: docx.shown };
    },
  },
  doc: { accepts: ['doc'], pipeline: 'declarative', structure: async (bytes) => fromNodes(await readDoc(bytes)) },
  // A text file keeps its own line breaks on the page.
  txt: {
    accepts: ['txt', 'html'],
    pipeline: 'declarative',
    structure: async (bytes) => {
      const text = decodeText(bytes);
      return { native: txtStructure(text), blocks: readTxt(text) };
    },
  },
  html: { accepts: ['txt', 'html'], pipeline: 'declarative', structure: async (bytes) => fromNodes(htmlStructure(decodeHtml(bytes))) },
};

/** The pipeline a document of `format` goes through (a format without an entry is read as pages). */
export function pipelineOf(format: string): PipelineName {
  return Object.hasOwn(FORMAT_OPTIONS, format) ? FORMAT_OPTIONS[format]!.pipeline : 'paginated';
}

/**
 * Reads a document's bytes into the shared model. `declaredExt` is the extension the document was
 * uploaded as ('pdf', 'docx', 'doc', 'txt', 'html'); the content is checked against it from its
 * magic bytes. Throws IngestError with a reason a user understands.
 */
export async function readDocument(bytes: Buffer, declaredExt: string, options: ReadOptions = {}): Promise<DocumentModel> {
  const ext = declaredExt.replace(/^\./, '').toLowerCase().replace(/^htm$/, 'html');
  const option = Object.hasOwn(FORMAT_OPTIONS, ext) ? FORMAT_OPTIONS[ext]! : undefined;
  if (!option) {
    throw new IngestError('Unsupported file type', `Extension .${ext} cannot be ingested`);
  }
  if (bytes.length === 0) throw new IngestError('Empty file', 'The file has no content');
  const detected = detectFormat(bytes);
  if (!option.accepts.includes(detected)) {
    throw new IngestError('Wrong file type', `Extension .${ext} but content is ${describeFormat(detected)}`);
  }
  const tooLarge = textTooLarge(ext, bytes.length);
  if (tooLarge) throw tooLarge;
  const text = options.text ?? true;
  const readPages = (pdf: Uint8Array) => (text ? readPdfPages : readPdfGeometry)(pdf, options.pdfEngine);
  if (!option.structure) {
    const pages = await readPages(bytes);
    return { format: 'pdf', pagination: 'pdf', pages, hasText: text, pdf: bytes, pdfIsOriginal: true };
  }
  // The structure is read first in any case: it validates the file, and its text is the fallback layout.
  const read = await option.structure(bytes);
  const { blocks } = read;
  let { native } = read;
  // A text file has no layout beyond its lines, which Quire's own monospaced rendition keeps as a
  // printer would: LibreOffice would draw the same in ~4 CPU-seconds of start-up a file. An HTML page
  // names stylesheets, images and frames anywhere, which LibreOffice fetches: only without a network.
  const useSoffice = options.libreoffice !== false && ext !== 'txt' && (ext !== 'html' || canIsolateNetwork());
  const soffice = useSoffice ? findSoffice() : null;
  if (soffice) {
    // HTML never gets here without isolation. A Word file is refused, not laid out by Quire: the
    // operator asked for it to fail visibly rather than get pages unlike Word's without a word.
    const refused = isolationRefusal(options.officeRequireIsolation ?? false);
    if (refused) throw refused;
    const idleMs = options.officeIdleMs ?? 0;
    const docx = ext === 'doc' ? docAsDocx(bytes, soffice, idleMs) : null;
    try {
      let pdf = await convertWithLibreOffice(read.shown ?? bytes, ext, soffice, undefined, 'pdf', idleMs);
      const fromDoc = await docx;
      // A DOC with tracked changes, drawn directly, shows its deletions: its DOCX as shown does not.
      if (fromDoc?.shown) pdf = await convertWithLibreOffice(fromDoc.shown, 'docx', soffice, undefined, 'pdf', idleMs);
      const pages = await readPages(pdf);
      native = fromDoc?.nodes ?? native;
      return { format: ext, pagination: 'libreoffice', pages, hasText: text, pdf, pdfIsOriginal: false, native };
    } catch {
      // A failed conversion (or an unreadable rendition) is not the document's fault: Quire's own
      // layout of the text extracted above still gives it pages.
    }
    native = (await docx)?.nodes ?? native;
  }
  const pdf = textLayoutPdf(blocks, ext === 'txt' ? MONOSPACE : PROPORTIONAL);
  const pages = await readPages(pdf);
  return { format: ext, pagination: 'text-layout', pages, hasText: text, pdf, pdfIsOriginal: false, native };
}

/**
 * A Word 97-2003 file's structure as Word shows it (heading styles, numbering labels, tables), read
 * from LibreOffice's DOCX of it; null when that fails (word-extractor's text then stands).
 */
async function docAsDocx(bytes: Buffer, soffice: string, idleMs: number): Promise<DocxRead | null> {
  try {
    return await readDocx(await convertWithLibreOffice(bytes, 'doc', soffice, undefined, 'docx', idleMs));
  } catch {
    return null;
  }
}

/** A PNG of one page (1-based) of a PDF at `dpi` (36..300), drawn by PDFium (default) or pdf.js; pdf.js draws what PDFium cannot read. */
export async function renderPage(pdf: Uint8Array, pageNumber: number, dpi: number, engine: PdfEngine = 'pdfium'): Promise<Buffer> {
  return renderPdfPage(pdf, pageNumber, dpi, false, engine);
}

export { renderPageImage } from './pdf/render.js';
export { PageTooLarge } from './pdf/pdfium.js';

export { detectFormat, type DetectedFormat } from './detect.js';
export { expandZip, type ZipMember, type ZipSkipped } from './zip/zip.js';
