/**
 * The one document model every format reader produces. Coordinates are pixels at 300 DPI with the
 * origin at the page's top-left corner: the space of page images and of DGML bounding boxes.
 */
import type { StructureNode } from './structure.js';

export const DPI = 300;

export interface TextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontName: string;
  fontSize: number;
  bold?: boolean;
  italic?: boolean;
  /** The baseline runs up or down the page (text set sideways), or right to left (upside down); absent: as it reads. */
  dir?: TextDirection;
}

export type TextDirection = 'up' | 'down' | 'over';

/** The direction of a baseline from its unit vector in page pixels (y down); undefined left to right. */
export function textDirection(dx: number, dy: number): TextDirection | undefined {
  if (Math.abs(dy) <= Math.abs(dx)) return dx < 0 ? 'over' : undefined;
  return dy > 0 ? 'down' : 'up';
}

/**
 * Text set under about 2.5 pt (its box under 10 px at 300 DPI) is no one's reading: an authoring
 * tool's anchor or tag. (OCR words have no font: their size is their line's, however small a glyph.)
 */
const MIN_READABLE_PT = 2.5;
const MIN_READABLE_HEIGHT = 10;

export function isTagText(item: TextItem): boolean {
  return item.fontSize < MIN_READABLE_PT && item.height < MIN_READABLE_HEIGHT;
}

/**
 * A line or rectangle the page draws (stroked or filled), in the same pixel space: what ruled tables
 * and form boxes are made of. A horizontal rule has a small height, a vertical one a small width.
 */
export interface Rule {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageModel {
  /** 1-based. */
  number: number;
  width: number;
  height: number;
  items: TextItem[];
  /** Drawn lines and rectangles (PDF pages; absent when unknown). */
  rules?: Rule[];
  /** The text came from OCR of the page image. */
  ocr?: boolean;
  /** The share of the page its largest image covers (0–1, to the percent; absent: none, or unknown). */
  imageCover?: number;
}

/** How the pages were obtained, recorded in the document's processing details. */
export type PaginationPath = 'pdf' | 'libreoffice' | 'text-layout';

export interface DocumentModel {
  format: string;
  pagination: PaginationPath;
  pages: PageModel[];
  /** The pages carry their text items; false when only their sizes were read (`items` empty). */
  hasText: boolean;
  /**
   * A PDF whose pages are the document's pages: the original for PDFs, otherwise a rendition
   * (LibreOffice's, or Quire's own text layout on Letter pages). Page images render from it.
   */
  pdf: Uint8Array;
  /** The original is a PDF, so no separate rendition needs storing. */
  pdfIsOriginal: boolean;
  /**
   * Formats with a structure of their own (DOCX, DOC, HTML, TXT): that structure, without positions
   * (the layout stage gives its leaves boxes from `pages`). Absent for PDFs.
   */
  native?: StructureNode[];
}

/** A document that cannot be ingested, with a reason a user understands ("Encrypted PDF"). */
export class IngestError extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
  ) {
    super(`${title}: ${detail}`);
  }
}
