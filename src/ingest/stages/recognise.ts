import type { PageModel } from '../../document/pages.js';
import { needsOcr, recognisePages, stampedScan } from './ocr.js';
import { hasTesseractCli } from './ocr/tesseract-cli.js';
import { unskewBox } from './ocr/deskew.js';
import { mapPageBoxes, sidewaysTextTurn, sidewaysTurn, turnBoxesBack, uprightPage } from './upright.js';
import type { AnalysisState, StageContext } from './stage.js';

/**
 * OCR of the pages without usable text, each page set upright (and straightened) for the layout.
 * Each page's text is judged once: unreadable (OCR it), or a stamp over a scan (OCR it, keep the
 * stamp unless sure).
 */
export async function recognise(doc: AnalysisState, ctx: StageContext): Promise<void> {
  const { options } = ctx;
  const { timings } = doc;
  const withText = doc.pages;
  const stamped = new Set<PageModel>();
  const scanned = withText.filter((p) => needsOcr(p) || (stampedScan(p) && stamped.add(p)));
  let pagesDone = withText.length - scanned.length;
  if (scanned.length) options.onProgress?.(pagesDone, withText.length);
  const onPageRead = () => options.onProgress?.(++pagesDone, withText.length);
  const read = await recognisePages(doc.model.pdf, scanned, { budgetMs: options.ocrBudgetMs, languages: options.ocrLanguages, pdfEngine: options.pdfEngine, slots: options.ocrSlots, onPageRead });
  timings.ocrPages = scanned.length;
  // The engine recognisePages chose, for the metrics the main thread counts (read-thread.ts returns the timings).
  if (scanned.length) timings.ocrEngine = (await hasTesseractCli(options.ocrLanguages)) ? 'tesseract-cli' : 'tesseract.js';
  const pages: PageModel[] = [];
  for (const page of withText) {
    const reading = read.get(page);
    // One page the engine cannot read is no reason to lose the document's other pages.
    if (reading instanceof Error) timings.ocrFailedPages.push(page.number);
    else if (reading?.timedOut) timings.ocrTimedOutPages.push(page.number);
    // A stamp's text gives way only to a reading the engine is sure of.
    if (!reading || reading instanceof Error || !reading.items.length || (stamped.has(page) && !reading.sure)) {
      const turn = sidewaysTextTurn(page.items);
      if (turn) doc.turned.push({ page, turn });
      pages.push(turn ? uprightPage(page, turn) : page);
      continue;
    }
    // The scan's drawn lines join any the page draws over it: its ruled tables are found as a PDF's are.
    const recognised: PageModel = { ...page, items: reading.items, ocr: true, rules: [...(page.rules ?? []), ...reading.rules] };
    const turn = reading.upsideDown ? 'over' : sidewaysTurn(reading.items);
    if (turn) doc.turned.push({ page: recognised, turn });
    if (reading.skew) doc.skewed.push({ page: recognised, skew: reading.skew });
    pages.push(turn ? uprightPage(recognised, turn) : recognised);
    doc.ocrPages.push(page.number);
  }
  doc.pages = pages;
}

/** The boxes of pages `recognise` turned upright or straightened, put back where the page has them. */
export function turnBack(doc: AnalysisState): void {
  for (const { page, turn } of doc.turned) turnBoxesBack(doc.nodes, page, turn);
  for (const { page, skew } of doc.skewed) mapPageBoxes(doc.nodes, page.number, (r) => unskewBox(r, skew, page.width, page.height));
}
