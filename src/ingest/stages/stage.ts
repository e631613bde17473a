import type { DocumentModel, PageModel } from '../../document/pages.js';
import type { StructureNode } from '../../document/structure.js';
import type { PdfEngine } from '../readers/pdf/pdf.js';
import type { OcrSlots } from './ocr/slots.js';
import type { PageTables } from './tables.js';
import type { Turn } from './upright.js';

// The one signature of the `Processing` stages (ingest/pipeline.ts lists them in order): each reads
// and adds to one AnalysisState, as docling's page models each take the conversion result.

export interface AnalyzeOptions {
  /** Per-page OCR budget. */
  ocrBudgetMs: number;
  /** The languages scanned pages are read in, tesseract's `eng+deu` form (default `eng`). */
  ocrLanguages?: string;
  /** What reads the PDF's text (default PDFium). */
  pdfEngine?: PdfEngine;
  /** Slots for OCR processes, shared with the process's other analysing threads (default: one per core). */
  ocrSlots?: OcrSlots;
  /** Told how many pages are read, as scanned pages are (OCR is the slow part). */
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
}

export interface AnalyzeTimings {
  /** Text extraction (with fonts and drawn rules) of the original or the rendition. */
  textMs: number;
  /** Wall time of the OCR of the document's pages (read several at a time). */
  ocrMs: number;
  ocrPages: number;
  /** The engine that read them (set when there were any). */
  ocrEngine?: 'tesseract-cli' | 'tesseract.js';
  /** Pages whose OCR failed (the engine broke); they keep the text they had. */
  ocrFailedPages: number[];
  /** Pages whose OCR ran past the per-page budget; they keep the text they had. */
  ocrTimedOutPages: number[];
  layoutMs: number;
  entitiesMs: number;
}

/** The figures of AnalyzeTimings a stage's wall time counts in (several stages may share one). */
export type StageTiming = 'textMs' | 'ocrMs' | 'layoutMs' | 'entitiesMs';

/** One document on its way through the stages. */
export interface AnalysisState {
  /** What the reader produced. */
  readonly model: DocumentModel;
  /** The pages with their text (`text`), read by OCR and set upright where needed (`ocr`). */
  pages: PageModel[];
  /** Pages scanned or set sideways, read turned upright: their boxes are turned back (`upright`). */
  turned: { page: PageModel; turn: Turn }[];
  /** Pages scanned at a slant, read straightened: their boxes are slanted back (`upright`). */
  skewed: { page: PageModel; skew: number }[];
  /** Each of `pages`' tables (`tables`), for the layout. */
  tables: PageTables[];
  /** The structure so far (`layout`, or the format's own), tagged by the later stages. */
  nodes: StructureNode[];
  /** Pages whose text OCR gave. */
  ocrPages: number[];
  /** A short document without headings that is one clause as a whole: what it is (`clause-labels`). */
  clause?: string;
  timings: AnalyzeTimings;
}

export interface StageContext {
  options: AnalyzeOptions;
}

/** A stage: reads and changes the document's state. */
export type Stage = (doc: AnalysisState, ctx: StageContext) => void | Promise<void>;
