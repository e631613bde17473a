import { IngestError } from '../../document/pages.js';

/**
 * Text and HTML have no pages of their own: Quire lays them out (or LibreOffice does), which takes
 * memory and time in proportion to the text, several times its size. Past this much text a document
 * is refused with a reason instead of taking gigabytes (a 300 MB single-line text file needed
 * 3 GiB); 32 MiB of text is several thousand pages, more than any per-document page quota allows.
 */
export const MAX_LAID_OUT_TEXT_BYTES = 32 * 1024 * 1024;

/** The refusal for a text or HTML document of `size` bytes, or null when it may be laid out. */
export function textTooLarge(format: string, size: number): IngestError | null {
  if ((format !== 'txt' && format !== 'html') || size <= MAX_LAID_OUT_TEXT_BYTES) return null;
  const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
  return new IngestError(
    'Text document too large',
    `The ${format === 'txt' ? 'text' : 'HTML'} file holds ${mb(size)}; Quire lays out ${format === 'txt' ? 'text' : 'HTML'} documents of up to ${mb(MAX_LAID_OUT_TEXT_BYTES)} (several thousand pages). Split it, or convert it to PDF first.`,
  );
}
