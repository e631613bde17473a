import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DPI, IngestError, type PageModel, type TextItem } from '../model.js';
import { openPdf, pdfError } from './pdfjs.js';

/** Pages and positioned text of a PDF, in 300-DPI pixels with a top-left origin. */
export async function readPdfPages(bytes: Uint8Array): Promise<PageModel[]> {
  const doc = await openPdf(bytes);
  try {
    if (doc.numPages === 0) throw new IngestError('Empty PDF', 'The PDF has no pages.');
    const pages: PageModel[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        pages.push(await readPage(page, n));
      } catch (err) {
        throw pdfError(err);
      } finally {
        page?.cleanup();
      }
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

interface FontInfo {
  name: string;
  bold: boolean;
  italic: boolean;
}

interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

async function readPage(page: PDFPageProxy, number: number): Promise<PageModel> {
  const vp = page.getViewport({ scale: DPI / 72 });
  // Pixels per user-space unit, userUnit included (vp.scale leaves it out).
  const pxPerUnit = Math.hypot(vp.transform[0]!, vp.transform[1]!);
  // Fonts reach commonObjs (with their real PostScript names) only through the operator list;
  // the text content alone names them g_d0_fN. That costs about 40% more time than text alone.
  await page.getOperatorList();
  const content = await page.getTextContent();
  const fonts = new Map<string, FontInfo>();
  const fontOf = (id: string): FontInfo => {
    let f = fonts.get(id);
    if (!f) {
      f = fontInfo(page, id, content.styles[id]?.fontFamily);
      fonts.set(id, f);
    }
    return f;
  };
  const items: TextItem[] = [];
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    const it = raw as PdfTextItem;
    if (!it.str.trim()) continue;
    const style = content.styles[it.fontName];
    // Fonts pdf.js could not measure (non-embedded standard fonts) report NaN metrics.
    const ascent = finiteOr(style?.ascent, 0.8);
    const descent = finiteOr(style?.descent, -0.2);
    const t = multiply(vp.transform, it.transform);
    const fontPx = Math.hypot(t[2]!, t[3]!);
    const along = Math.hypot(t[0]!, t[1]!) || 1;
    // Unit vectors in device space: u along the baseline, up towards the glyph tops.
    const ux = t[0]! / along;
    const uy = t[1]! / along;
    const upx = fontPx ? t[2]! / fontPx : 0;
    const upy = fontPx ? t[3]! / fontPx : -1;
    const w = finiteOr(it.width, 0) * pxPerUnit;
    const xs: number[] = [];
    const ys: number[] = [];
    for (const k of [ascent, descent]) {
      for (const l of [0, w]) {
        xs.push(t[4]! + upx * k * fontPx + ux * l);
        ys.push(t[5]! + upy * k * fontPx + uy * l);
      }
    }
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    const font = fontOf(it.fontName);
    const item: TextItem = {
      text: it.str,
      x: round(x),
      y: round(y),
      width: round(Math.max(...xs) - x),
      height: round(Math.max(...ys) - y),
      fontName: font.name,
      fontSize: round((fontPx * 72) / DPI),
    };
    if (font.bold) item.bold = true;
    if (font.italic) item.italic = true;
    items.push(item);
  }
  return { number, width: Math.round(vp.width), height: Math.round(vp.height), items };
}

function fontInfo(page: PDFPageProxy, id: string, family: string | undefined): FontInfo {
  let name = '';
  let bold = false;
  let italic = false;
  try {
    if (page.commonObjs.has(id)) {
      const f = page.commonObjs.get(id) as { name?: string; bold?: boolean; italic?: boolean; black?: boolean };
      name = f.name ?? '';
      bold = !!(f.bold || f.black);
      italic = !!f.italic;
    }
  } catch {
    // Type3 and failed fonts are not in commonObjs: the family is all there is.
  }
  // Subset prefixes ("ABCDEF+Arial-BoldMT") are noise for users.
  name = name.replace(/^[A-Z]{6}\+/, '') || family || 'unknown';
  if (/bold|black|heavy|semibold|demi/i.test(name)) bold = true;
  if (/italic|oblique/i.test(name)) italic = true;
  return { name, bold, italic };
}

function multiply(m1: number[], m2: number[]): number[] {
  const [a1, b1, c1, d1, e1, f1] = m1 as [number, number, number, number, number, number];
  const [a2, b2, c2, d2, e2, f2] = m2 as [number, number, number, number, number, number];
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}

function finiteOr(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) ? v : fallback;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
