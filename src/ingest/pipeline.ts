import type { DocumentModel, PageModel } from '../document/pages.js';
import { readPdfPages, type PdfEngine } from './readers/pdf/pdf.js';
import type { StructureModel, StructureNode } from '../document/structure.js';
import { alignBoxes } from './stages/align.js';
import { tagEntities } from './stages/entities.js';
import { tagSemanticLabels } from './stages/semantic-labels.js';
import { nameClauses } from './stages/clause-labels.js';
import { pdfStructure } from './stages/layout.js';
import { needsOcr, recognisePages, stampedScan } from './stages/ocr.js';
import type { OcrSlots } from './stages/ocr/slots.js';
import { detectTables } from './stages/tables.js';
import { mapPageBoxes, sidewaysTextTurn, sidewaysTurn, turnBoxesBack, uprightPage, withSidewaysTables, type Turn } from './stages/upright.js';
import { unskewBox } from './stages/ocr/deskew.js';

export interface AnalyzeOptions {
  /** Per-page OCR budget. */
  ocrBudgetMs: number;
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
  /** Pages whose OCR failed (the engine broke); they keep the text they had. */
  ocrFailedPages: number[];
  /** Pages whose OCR ran past the per-page budget; they keep the text they had. */
  ocrTimedOutPages: number[];
  layoutMs: number;
  entitiesMs: number;
}

/**
 * The `Processing` stage: the document's structure from the model its reader produced. PDFs go
 * OCR (pages without usable text) → tables → layout (lines, blocks, reading order, headings, lists,
 * sections); formats with a structure of their own keep it and take boxes from their rendition.
 * Entities are tagged last, on whichever structure came out.
 */
export async function analyzeDocument(model: DocumentModel, options: AnalyzeOptions): Promise<{ structure: StructureModel; timings: AnalyzeTimings }> {
  const timings: AnalyzeTimings = { textMs: 0, ocrMs: 0, ocrPages: 0, ocrFailedPages: [], ocrTimedOutPages: [], layoutMs: 0, entitiesMs: 0 };
  const ocrPages: number[] = [];
  let nodes: StructureNode[];
  let t = performance.now();
  const withText = model.hasText ? model.pages : await readPdfPages(model.pdf, options.pdfEngine);
  timings.textMs = performance.now() - t;
  t = performance.now();
  if (model.native) {
    nodes = model.native;
    alignBoxes(nodes, withText);
  } else {
    const o = performance.now();
    // Each page's text is judged once: unreadable (OCR it), or a stamp over a scan (OCR it, keep the stamp unless sure).
    const stamped = new Set<PageModel>();
    const scanned = withText.filter((p) => needsOcr(p) || (stampedScan(p) && stamped.add(p)));
    let pagesDone = withText.length - scanned.length;
    if (scanned.length) options.onProgress?.(pagesDone, withText.length);
    const onPageRead = () => options.onProgress?.(++pagesDone, withText.length);
    const read = await recognisePages(model.pdf, scanned, { budgetMs: options.ocrBudgetMs, pdfEngine: options.pdfEngine, slots: options.ocrSlots, onPageRead });
    timings.ocrMs = performance.now() - o;
    timings.ocrPages = scanned.length;
    const pages: PageModel[] = [];
    /** Pages scanned or set sideways, read turned upright. */
    const turned: { page: PageModel; turn: Turn }[] = [];
    /** Pages scanned at a slant, read straightened. */
    const skewed: { page: PageModel; skew: number }[] = [];
    for (const page of withText) {
      const reading = read.get(page);
      // One page the engine cannot read is no reason to lose the document's other pages.
      if (reading instanceof Error) timings.ocrFailedPages.push(page.number);
      else if (reading?.timedOut) timings.ocrTimedOutPages.push(page.number);
      // A stamp's text gives way only to a reading the engine is sure of.
      if (!reading || reading instanceof Error || !reading.items.length || (stamped.has(page) && !reading.sure)) {
        const turn = sidewaysTextTurn(page.items);
        if (turn) turned.push({ page, turn });
        pages.push(turn ? uprightPage(page, turn) : page);
        continue;
      }
      // The scan's drawn lines join any the page draws over it: its ruled tables are found as a PDF's are.
      const recognised: PageModel = { ...page, items: reading.items, ocr: true, rules: [...(page.rules ?? []), ...reading.rules] };
      const turn = reading.upsideDown ? 'over' : sidewaysTurn(reading.items);
      if (turn) turned.push({ page: recognised, turn });
      if (reading.skew) skewed.push({ page: recognised, skew: reading.skew });
      pages.push(turn ? uprightPage(recognised, turn) : recognised);
      ocrPages.push(page.number);
    }
    t = performance.now();
    nodes = pdfStructure(pages, pages.map((page) => withSidewaysTables(page, detectTables(page))));
    for (const { page, turn } of turned) turnBoxesBack(nodes, page, turn);
    for (const { page, skew } of skewed) mapPageBoxes(nodes, page.number, (r) => unskewBox(r, skew, page.width, page.height));
  }
  timings.layoutMs = performance.now() - t;
  t = performance.now();
  tagEntities(nodes);
  // Counted with the entities: the labels name the values the entity pass found.
  tagSemanticLabels(nodes);
  timings.entitiesMs = performance.now() - t;
  const structure: StructureModel = {
    version: 1,
    pages: model.pages.map((p) => ({ number: p.number, width: p.width, height: p.height })),
    paginated: true,
    nodes,
    ocrPages,
  };
  // Clauses, lists and tables named for what they are (counted with the entities: the same kind of pass).
  t = performance.now();
  nameClauses(structure);
  timings.entitiesMs += performance.now() - t;
  return { structure, timings };
}
