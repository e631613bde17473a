import { withEngine, type PdfEngine } from '../readers/pdf/pdf.js';
import { renderPdfiumGray } from '../readers/pdf/pdfium.js';
import { MIN_DPI, renderPdfPageGray } from '../readers/pdf/render.js';
import { grayPng } from '../readers/write/png.js';
import { DPI, type PageModel, type Rule, type TextItem } from '../../document/pages.js';
import { measureSkew, rotateImage } from './ocr/deskew.js';
import { imageRules, outsideWords, type GrayImage } from './ocr/image-rules.js';
import { latticeRules } from './tables/grid.js';
import { inOcrSlot, localOcrSlots, type OcrSlots } from './ocr/slots.js';
import { hasTesseractCli, recognizeWithCli } from './ocr/tesseract-cli.js';
import { recognizeWithTesseractJs } from './ocr/tesseract-js.js';
import { parseTsv, type OcrLine, type OcrWord } from './ocr/tsv.js';

// Runs of leader dots, dashes or underscores (tables of contents, fill-in lines) are not words.
const LEADERS = /([.\-_·…])\1{2,}/g;
const SKIPPED = /[\s\p{M}]/u;
const ALPHANUMERIC = /[\p{L}\p{N}]/u;
// What pdf.js yields for glyphs it cannot map: U+FFFD, control and private-use code points.
const UNMAPPED = /[\uFFFD\p{Cc}\p{Co}\p{Cn}\p{Cs}]/u;
const LATIN = /[a-z]/i;
const VOWEL = /[aeiouy]/i;

/**
 * Below this share of letters and digits a page's text is garbage (glyphs mapped to symbols). Normal
 * pages of the corpus, leaders aside, are at least 0.86, figures-heavy financial tables included.
 */
const MIN_ALPHANUMERIC_SHARE = 0.5;
const MAX_UNMAPPED_SHARE = 0.25;
/**
 * Latin letters this poor in vowels are glyphs mapped to the wrong letters (a font's own encoding
 * read as a standard one). Text in Latin-script languages runs 35–40% vowels, accents aside; the
 * corpus's lowest page has 34%.
 */
const MIN_VOWEL_SHARE = 0.2;
const MIN_LATIN_LETTERS = 200;

/**
 * The page has no text layer, or text that is mostly unreadable: OCR it. (A scan stamped with a
 * line of real text is `stampedScan`.)
 */
export function needsOcr(page: PageModel): boolean {
  const count = { chars: 0, alphanumeric: 0, unmapped: 0, latin: 0, vowels: 0 };
  for (const item of page.items) countChars(item.text.replace(LEADERS, ''), count);
  const { chars, alphanumeric, unmapped, latin, vowels } = count;
  if (chars === 0) return true;
  if (alphanumeric / chars < MIN_ALPHANUMERIC_SHARE || unmapped / chars > MAX_UNMAPPED_SHARE) return true;
  return latin >= MIN_LATIN_LETTERS && vowels / latin < MIN_VOWEL_SHARE;
}

/** An image covering this much of the page, under less text than this, is most likely a scan. */
const SCAN_COVER = 0.7;
const STAMP_CHARS = 300;

/**
 * A scanned page stamped with a line or two of real text (a court's e-filing header, a Bates number):
 * the text layer holds the stamp, the image the page. OCR reads it; the reading replaces the stamp
 * only when the engine is sure of it (a photograph under a cover title is no scan).
 */
export function stampedScan(page: PageModel): boolean {
  if ((page.imageCover ?? 0) < SCAN_COVER) return false;
  const count = { chars: 0, alphanumeric: 0, unmapped: 0, latin: 0, vowels: 0 };
  for (const item of page.items) countChars(item.text, count);
  return count.alphanumeric < STAMP_CHARS;
}

interface CharCount {
  chars: number;
  alphanumeric: number;
  unmapped: number;
  latin: number;
  vowels: number;
}

// ASCII, nearly all of most pages, is classified by table; other characters by Unicode property.
const enum CharClass {
  Space,
  Unmapped,
  Other,
  Digit,
  Consonant,
  Vowel,
}
const ASCII_CLASS: CharClass[] = [];
for (let code = 0; code < 128; code++) {
  const ch = String.fromCharCode(code);
  ASCII_CLASS.push(
    /\s/.test(ch) ? CharClass.Space : code < 32 || code === 127 ? CharClass.Unmapped : /[0-9]/.test(ch) ? CharClass.Digit : VOWEL.test(ch) ? CharClass.Vowel : LATIN.test(ch) ? CharClass.Consonant : CharClass.Other,
  );
}

function countChars(text: string, count: CharCount) {
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    let cls: CharClass;
    if (code < 128) {
      cls = ASCII_CLASS[code]!;
    } else {
      // Decomposed, an accented letter is its base letter (é counts as a vowel).
      const base = ch.normalize('NFD').charCodeAt(0);
      if (base < 128) cls = ASCII_CLASS[base]!;
      else if (SKIPPED.test(ch)) cls = CharClass.Space;
      else {
        count.chars++;
        if (ALPHANUMERIC.test(ch)) count.alphanumeric++;
        else if (UNMAPPED.test(ch)) count.unmapped++;
        continue;
      }
    }
    if (cls === CharClass.Space) continue;
    count.chars++;
    if (cls === CharClass.Unmapped) count.unmapped++;
    if (cls === CharClass.Unmapped || cls === CharClass.Other) continue;
    count.alphanumeric++;
    if (cls === CharClass.Digit) continue;
    count.latin++;
    if (cls === CharClass.Vowel) count.vowels++;
  }
}

/**
 * Measured on the same 200-DPI page images (corpus pages, one thread each): the Tesseract 5.3 CLI
 * takes 1.3 s of CPU a page, tesseract.js (the same engine in WASM) 2.3 s, so the CLI is used when
 * installed; tesseract.js, with the model from npm, always works.
 */
export type OcrEngine = 'tesseract-cli' | 'tesseract.js';

export interface OcrOptions {
  /** Per-page time budget; a page that exceeds it keeps whatever text it had. */
  budgetMs: number;
  /** The languages to read in, tesseract's `eng+deu` form (default `eng`). */
  languages?: string;
  /** The engine to use (default: the CLI when installed with `languages`, else tesseract.js). */
  engine?: OcrEngine;
  /** What draws the page image (default PDFium). */
  pdfEngine?: PdfEngine;
}

/**
 * Each of `pages` read from its image (its words, and whether it was scanned upside down); a page
 * the engine failed on maps to its error. With the CLI, pages are read as many at a time as `slots` allow (shared by the
 * process's threads); tesseract.js has one engine per thread and reads one page at a time.
 */
export async function recognisePages(
  pdf: Uint8Array,
  pages: readonly PageModel[],
  options: OcrOptions & { slots?: OcrSlots; onPageRead?: () => void },
): Promise<Map<PageModel, PageReading | Error>> {
  const read = new Map<PageModel, PageReading | Error>();
  if (!pages.length) return read;
  const engine = options.engine ?? ((await hasTesseractCli(options.languages)) ? 'tesseract-cli' : 'tesseract.js');
  const slots = options.slots ?? localOcrSlots();
  let next = 0;
  const readPages = async () => {
    for (let i = next++; i < pages.length; i = next++) {
      const page = pages[i]!;
      const one = () => readScannedPage(pdf, page, { ...options, engine });
      try {
        read.set(page, await (engine === 'tesseract-cli' ? inOcrSlot(slots, one) : one()));
      } catch (err) {
        read.set(page, err instanceof Error ? err : new Error(String(err)));
      }
      options.onPageRead?.();
    }
  };
  const readers = engine === 'tesseract-cli' ? Math.min(slots.size, pages.length) : 1;
  await Promise.all(Array.from({ length: readers }, readPages));
  return read;
}

/**
 * Pages are read from images at this DPI: on the corpus as accurate as 300 (the model's own space)
 * and 25–30% faster. Pages larger than about four Letter pages are read at less, so the image (and
 * the engine's memory) stays under MAX_PIXELS.
 */
const OCR_DPI = 200;
const MAX_PIXELS = 16e6;

/**
 * Words below this confidence are mostly specks and smudges read as letters; between 20 and 40 the
 * corpus scan still has real words ("Discussion" 29, "Awareness" 36).
 */
const MIN_CONFIDENCE = 20;
/** Words without a letter or digit (rules and borders read as "|", "—") need more. */
const MIN_SYMBOL_CONFIDENCE = 80;

/** The page as OCR reads it: PDFium's grayscale rendering (pdf.js's when asked, or when PDFium cannot). */
function pageImage(pdf: Uint8Array, pageNumber: number, dpi: number, engine: PdfEngine, upsideDown: boolean): Promise<GrayImage> {
  return withEngine(engine, () => renderPdfiumGray(pdf, pageNumber, dpi, upsideDown), () => renderPdfPageGray(pdf, pageNumber, dpi, upsideDown));
}

/**
 * A page scanned upside down reads as nonsense the engine is unsure of: the corpus's pages average
 * 90–96, the NDA's page turned over 39. Below this average (over enough words to tell) the page is
 * read once more, turned over, and the reading the engine is surer of is kept.
 */
const UNSURE_CONFIDENCE = 60;
const MIN_WORDS_TO_JUDGE = 20;
/** The turned reading must be this much surer to replace the first. */
const SURER_BY = 15;

/**
 * A scanned page's words and the lines drawn in its image (table rulings, form boxes), in 300-DPI
 * pixels of the page as it is, and whether it was scanned upside down.
 */
export interface PageReading {
  items: TextItem[];
  rules: Rule[];
  upsideDown: boolean;
  /** The engine is sure of its reading (an average confidence of UNSURE_CONFIDENCE or more, over enough words). */
  sure: boolean;
  /**
   * The page was scanned at this slant (degrees, positive: its lines run down to the right) and read
   * straightened: `items` and `rules` are boxes of the page turned by -skew about its centre (0: as it is).
   */
  skew: number;
  /** Its reading ran past the page's budget and was given up (no items). */
  timedOut?: boolean;
}

/** Words of one page (1-based) of `pdf`, recognised from its image, as text items in 300-DPI pixels. */
export async function ocrPage(pdf: Uint8Array, page: PageModel, options: OcrOptions): Promise<TextItem[]> {
  return (await readScannedPage(pdf, page, options)).items;
}

/** Reads a scanned page, turning it over when it was scanned upside down. */
export async function readScannedPage(pdf: Uint8Array, page: PageModel, options: OcrOptions): Promise<PageReading> {
  const started = performance.now();
  const engine = options.engine ?? ((await hasTesseractCli(options.languages)) ? 'tesseract-cli' : 'tesseract.js');
  const pixelsAtOcrDpi = page.width * page.height * (OCR_DPI / DPI) ** 2;
  const dpi = Math.max(MIN_DPI, Math.min(OCR_DPI, Math.floor(OCR_DPI * Math.sqrt(MAX_PIXELS / pixelsAtOcrDpi))));
  const recognize = engine === 'tesseract-cli' ? recognizeWithCli : recognizeWithTesseractJs;
  let drawn: Rule[] = [];
  // Lines drawn through the words are letters; a scan's own lines count where they make a whole lattice.
  const ruled = (items: TextItem[]) => latticeRules(outsideWords(drawn, items));
  const read = async (upsideDown: boolean): Promise<{ words: OcrWord[]; skew: number } | undefined> => {
    let image = await pageImage(pdf, page.number, dpi, options.pdfEngine ?? 'pdfium', upsideDown);
    // A page fed in at a slant is read straightened (turned over, its slant is the same).
    const skew = measureSkew(image);
    if (skew) image = rotateImage(image, -skew);
    const remainingMs = options.budgetMs - (performance.now() - started);
    if (remainingMs <= 0) return undefined;
    const reading = recognize(grayPng(image.data, image.width, image.height), dpi, remainingMs, options.languages);
    // The page as it is (not turned over) gives the rules, in the page's own coordinates (straightened),
    // found while the engine reads.
    let lines: Rule[] | null = null;
    try {
      if (!upsideDown) lines = imageRules(image, dpi, DPI / dpi);
    } catch {
      // The lines are a refinement; the engine's reading stands without them (and is awaited below).
    }
    const tsv = await reading;
    if (tsv !== undefined && lines) drawn = lines;
    return tsv === undefined ? undefined : { words: parseTsv(tsv), skew };
  };
  const upright = await read(false);
  if (!upright) return { items: [], rules: [], upsideDown: false, sure: false, skew: 0, timedOut: true };
  const sureness = averageConfidence(upright.words);
  const items = wordItems(upright.words, DPI / dpi);
  const asRead = { items, rules: ruled(items), upsideDown: false, skew: upright.skew };
  if (sureness === null || sureness >= UNSURE_CONFIDENCE) return { ...asRead, sure: sureness !== null };
  const over = await read(true);
  const overSureness = over ? averageConfidence(over.words) : null;
  if (!over || overSureness === null || overSureness < sureness + SURER_BY) return { ...asRead, sure: false };
  // Read turned over: the boxes go back onto the page as it is.
  const turned = wordItems(over.words, DPI / dpi).map((it) => ({ ...it, x: round(page.width - it.x - it.width), y: round(page.height - it.y - it.height) }));
  return { items: turned, rules: ruled(turned), upsideDown: true, sure: overSureness >= UNSURE_CONFIDENCE, skew: over.skew };
}

/** The engine's average confidence in the words it read, or null when they are too few to judge by. */
function averageConfidence(words: readonly OcrWord[]): number | null {
  const judged = words.filter((w) => w.confidence >= 0 && /[\p{L}\p{N}]/u.test(w.text));
  if (judged.length < MIN_WORDS_TO_JUDGE) return null;
  return judged.reduce((sum, w) => sum + w.confidence, 0) / judged.length;
}

/**
 * A word of a character or two in a box a pixel or two thin (at 200 DPI) is a piece of a ruled line the
 * engine read as a letter ("|", "i", "\\" one pixel tall): no glyph but a dash or an underscore is
 * that thin.
 */
const MAX_FRAGMENT_PX_300 = 3;
const DASHES = /^[-‐‑‒–—―_]+$/;

function ruleFragment(w: OcrWord, scale: number): boolean {
  return w.text.length <= 2 && Math.min(w.box.width, w.box.height) * scale <= MAX_FRAGMENT_PX_300 && !DASHES.test(w.text);
}

function wordItems(words: OcrWord[], scale: number): TextItem[] {
  const emOf = lineEms(words);
  const items: TextItem[] = [];
  for (const w of words) {
    if (w.confidence < MIN_CONFIDENCE) continue;
    if (!ALPHANUMERIC.test(w.text) && w.confidence < MIN_SYMBOL_CONFIDENCE) continue;
    if (ruleFragment(w, scale)) continue;
    items.push({
      text: w.text,
      x: round(w.box.x * scale),
      y: round(w.box.y * scale),
      width: round(w.box.width * scale),
      height: round(w.box.height * scale),
      fontName: 'ocr',
      fontSize: round((emOf.get(w.line)! * scale * 72) / DPI),
    });
  }
  return items;
}

/**
 * A line's words' median thickness (height; width up a sideways line) is 0.7–0.85 em on the corpus.
 * The line's own box would serve on a straight page, but grows with the skew of a scan.
 */
const EM_PER_THICKNESS = 1.3;

/** The font size of each line, in image pixels. */
function lineEms(words: OcrWord[]): Map<OcrLine, number> {
  const thicknesses = new Map<OcrLine, number[]>();
  for (const w of words) {
    let t = thicknesses.get(w.line);
    if (!t) thicknesses.set(w.line, (t = []));
    t.push(w.line.sideways ? w.box.width : w.box.height);
  }
  const ems = new Map<OcrLine, number>();
  for (const [line, t] of thicknesses) ems.set(line, EM_PER_THICKNESS * t.sort((a, b) => a - b)[t.length >> 1]!);
  return ems;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
