import type { DocumentModel, PageModel } from './model.js';
import { readPdfPages, type PdfEngine } from './formats/pdf.js';
import type { StructureModel, StructureNode } from './structure.js';
import { alignBoxes } from './stages/align.js';
import { tagEntities } from './stages/entities.js';
import { pdfStructure } from './stages/layout.js';
import { needsOcr, ocrPage } from './stages/ocr.js';
import { detectTables } from './stages/tables.js';
import { sidewaysTurn, turnBoxesBack, uprightPage, type Turn } from './stages/upright.js';

export interface AnalyzeOptions {
  /** Per-page OCR budget. */
  ocrBudgetMs: number;
  /** What reads the PDF's text (default PDFium). */
  pdfEngine?: PdfEngine;
  /** Called as pages are done (OCR and layout), for progress. */
  onPage?: (done: number, total: number) => void;
}

export interface AnalyzeTimings {
  /** Text extraction (with fonts and drawn rules) of the original or the rendition. */
  textMs: number;
  ocrMs: number;
  ocrPages: number;
  /** Pages whose OCR failed (the engine broke); they keep the text they had. */
  ocrFailedPages: number[];
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
  const timings: AnalyzeTimings = { textMs: 0, ocrMs: 0, ocrPages: 0, ocrFailedPages: [], layoutMs: 0, entitiesMs: 0 };
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
    const pages: PageModel[] = [];
    /** Pages scanned sideways, read turned upright. */
    const turned: { page: PageModel; turn: Turn }[] = [];
    for (const page of withText) {
      if (needsOcr(page)) {
        const o = performance.now();
        let items: PageModel['items'] = [];
        try {
          items = await ocrPage(model.pdf, page, { budgetMs: options.ocrBudgetMs, pdfEngine: options.pdfEngine });
        } catch {
          // One page the engine cannot read is no reason to lose the document's other pages.
          timings.ocrFailedPages.push(page.number);
        }
        timings.ocrMs += performance.now() - o;
        timings.ocrPages++;
        if (items.length) {
          const read: PageModel = { ...page, items, ocr: true };
          const turn = sidewaysTurn(items);
          if (turn) turned.push({ page: read, turn });
          pages.push(turn ? uprightPage(read, turn) : read);
          ocrPages.push(page.number);
          options.onPage?.(pages.length, model.pages.length);
          continue;
        }
      }
      pages.push(page);
    }
    t = performance.now();
    nodes = pdfStructure(pages, pages.map(detectTables));
    for (const { page, turn } of turned) turnBoxesBack(nodes, page, turn);
  }
  timings.layoutMs = performance.now() - t;
  t = performance.now();
  tagEntities(nodes);
  timings.entitiesMs = performance.now() - t;
  const structure: StructureModel = {
    version: 1,
    pages: model.pages.map((p) => ({ number: p.number, width: p.width, height: p.height })),
    paginated: true,
    nodes,
    ocrPages,
  };
  return { structure, timings };
}
