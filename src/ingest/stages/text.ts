import { readPdfPages } from '../readers/pdf/pdf.js';
import type { AnalysisState, StageContext } from './stage.js';

/** The pages' positioned text: the reader's when it kept it, else read now from the PDF (original or rendition). */
export async function readText(doc: AnalysisState, ctx: StageContext): Promise<void> {
  doc.pages = doc.model.hasText ? doc.model.pages : await readPdfPages(doc.model.pdf, ctx.options.pdfEngine);
}
