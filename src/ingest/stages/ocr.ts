import type { PageModel, TextItem } from '../model.js';

/** The page has no text layer, or text that is mostly unreadable: OCR it. */
export function needsOcr(page: PageModel): boolean {
  void page;
  return false;
}

export interface OcrOptions {
  /** Per-page time budget; a page that exceeds it keeps whatever text it had. */
  budgetMs: number;
}

/** Words of one page (1-based) of `pdf`, recognised from its image, as text items in 300-DPI pixels. */
export async function ocrPage(pdf: Uint8Array, page: PageModel, options: OcrOptions): Promise<TextItem[]> {
  void pdf;
  void page;
  void options;
  return [];
}
