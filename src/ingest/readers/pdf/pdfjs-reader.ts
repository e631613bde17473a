// pdf.js's reading of a PDF into the page model. Loaded only when pdf.js reads (QUIRE_PDF_ENGINE=pdfjs,
// or a PDF PDFium cannot open): its two modules and core-js cost a thread ~40 MiB and ~0.3 s to load.
import { DPI, IngestError, textDirection, type PageModel, type Rule, type TextItem } from '../../../document/pages.js';
import { OPS, closePdf, openPdf, pdfError, type PDFPageProxy } from './pdfjs.js';
import { addSubpathRules, imageCover, multiply, round } from './path-rules.js';

/** Pages and positioned text of a PDF, read by pdf.js. */
export function readPdfjsPages(bytes: Uint8Array): Promise<PageModel[]> {
  return eachPage(bytes, readPage);
}

/** Only the pages' sizes, read by pdf.js. */
export function readPdfjsGeometry(bytes: Uint8Array): Promise<PageModel[]> {
  return eachPage(bytes, async (page, number) => {
    const vp = page.getViewport({ scale: DPI / 72 });
    return { number, width: Math.round(vp.width), height: Math.round(vp.height), items: [] };
  });
}

async function eachPage(bytes: Uint8Array, read: (page: PDFPageProxy, number: number) => Promise<PageModel>): Promise<PageModel[]> {
  const doc = await openPdf(bytes);
  try {
    if (doc.numPages === 0) throw new IngestError('Empty PDF', 'The PDF has no pages.');
    const pages: PageModel[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        pages.push(await read(page, n));
      } catch (err) {
        throw pdfError(err);
      } finally {
        page?.cleanup();
      }
    }
    return pages;
  } finally {
    await closePdf(doc);
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
  const opList = await page.getOperatorList();
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
    const dir = textDirection(ux, uy);
    if (dir) item.dir = dir;
    items.push(item);
  }
  items.push(...(await fieldValues(page, vp.transform, pxPerUnit)));
  const { rules, imageCover: cover } = drawing(opList, vp.transform, vp.width, vp.height);
  const model: PageModel = { number, width: Math.round(vp.width), height: Math.round(vp.height), items, rules };
  if (cover > 0) model.imageCover = cover;
  return model;
}

interface FieldAnnotation {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: number[];
  hidden?: boolean;
  defaultAppearanceData?: { fontSize?: number };
}

/**
 * The values filled into a page's text fields, as text items where the fields stand: PDFium's reader
 * gets them by flattening the page, pdf.js keeps annotations out of the page's text. The boxes are
 * estimated from the field (its left edge, its font size, half an em a character).
 */
async function fieldValues(page: PDFPageProxy, vt: number[], pxPerUnit: number): Promise<TextItem[]> {
  const items: TextItem[] = [];
  for (const a of (await page.getAnnotations()) as FieldAnnotation[]) {
    if (a.subtype !== 'Widget' || a.fieldType !== 'Tx' || a.hidden || typeof a.fieldValue !== 'string' || !a.rect || a.rect.length !== 4) continue;
    const [x1, y1, x2, y2] = a.rect as [number, number, number, number];
    const lines = a.fieldValue.split(/\r\n?|\n/).map((l) => l.trim()).filter(Boolean);
    const size = a.defaultAppearanceData?.fontSize || Math.min(12, 0.7 * Math.abs(y2 - y1));
    lines.forEach((text, k) => {
      // Lines from the field's top (its middle for one line), two points in from its left edge.
      const top = lines.length === 1 ? (Math.max(y1, y2) + Math.min(y1, y2)) / 2 + size / 2 : Math.max(y1, y2) - 2 - k * size * 1.15;
      const left = Math.min(x1, x2) + 2;
      const [dx, dy] = [vt[0]! * left + vt[2]! * top + vt[4]!, vt[1]! * left + vt[3]! * top + vt[5]!];
      items.push({
        text,
        x: round(dx),
        y: round(dy),
        width: round(Math.min(Math.abs(x2 - x1) - 4, 0.5 * size * text.length) * pxPerUnit),
        height: round(size * 1.15 * pxPerUnit),
        fontName: 'field',
        fontSize: round(size),
      });
    });
  }
  return items;
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

/** pdf.js ≥ 5 path segment codes inside constructPath's buffer (its DrawOPS, not exported). */
const PATH_MOVE = 0;
const PATH_LINE = 1;
const PATH_CURVE = 2;
const PATH_QUAD = 3;
const PATH_CLOSE = 4;

interface GraphicsState {
  ctm: number[];
  lineWidth: number;
  whiteFill: boolean;
  whiteStroke: boolean;
}

/**
 * The axis-aligned lines and rectangles a page strokes or fills, as pixel boxes: one per straight
 * segment of a stroked path, one per filled rectangle. Curves, clipping paths, white (invisible on
 * paper) paint, annotations and rectangles covering most of the page (backgrounds) are left out. One pass over the
 * operator list, tracking the graphics state's CTM, line width and paint colours.
 */
/** The page's drawn rules, and the share of the page its largest image covers (as PDFium's reader finds them). */
function drawing(opList: { fnArray: number[]; argsArray: unknown[] }, viewport: number[], pageWidth: number, pageHeight: number): { rules: Rule[]; imageCover: number } {
  const rules: Rule[] = [];
  let cover = 0;
  const stack: GraphicsState[] = [];
  let gs: GraphicsState = { ctm: [1, 0, 0, 1, 0, 0], lineWidth: 1, whiteFill: false, whiteStroke: false };
  // Annotation appearances (form widgets, stamps) carry their own placement; they are not page rules.
  let annotationDepth = 0;
  const { fnArray, argsArray } = opList;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
        stack.push({ ...gs });
        break;
      case OPS.restore:
        gs = stack.pop() ?? gs;
        break;
      case OPS.transform:
        gs.ctm = multiply(gs.ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ...gs });
        if (Array.isArray(args?.[0]) || ArrayBuffer.isView(args?.[0])) gs.ctm = multiply(gs.ctm, Array.from(args[0] as ArrayLike<number>));
        break;
      case OPS.paintFormXObjectEnd:
        gs = stack.pop() ?? gs;
        break;
      case OPS.setLineWidth:
        gs.lineWidth = args![0] as number;
        break;
      case OPS.setFillRGBColor:
        gs.whiteFill = isWhite(args![0]);
        break;
      case OPS.setStrokeRGBColor:
        gs.whiteStroke = isWhite(args![0]);
        break;
      case OPS.beginAnnotation:
        annotationDepth++;
        break;
      case OPS.endAnnotation:
        annotationDepth--;
        break;
      case OPS.constructPath:
        if (annotationDepth === 0) addPathRules(rules, args!, gs, multiply(viewport, gs.ctm), pageWidth * pageHeight);
        break;
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
      case OPS.paintImageMaskXObject:
        // An image fills the unit square of the current matrix.
        if (annotationDepth === 0) cover = Math.max(cover, imageCover(multiply(viewport, gs.ctm), { width: pageWidth, height: pageHeight }));
        break;
    }
  }
  return { rules, imageCover: cover };
}

function isWhite(color: unknown): boolean {
  return typeof color === 'string' && /^#f[c-f]f[c-f]f[c-f]$/i.test(color);
}

/** constructPath's arguments in pdf.js 5: [paint op, [segment buffer | null], bounding box | null]. */
function addPathRules(rules: Rule[], args: unknown[], gs: GraphicsState, m: number[], pageArea: number): void {
  const paint = args[0] as number;
  const buffer = (args[1] as (ArrayLike<number> | null)[] | undefined)?.[0];
  if (!buffer) return;
  const strokes = paint === OPS.stroke || paint === OPS.closeStroke || (paint >= OPS.fillStroke && paint <= OPS.closeEOFillStroke);
  const fills = paint >= OPS.fill && paint <= OPS.closeEOFillStroke;
  const stroked = strokes && !gs.whiteStroke;
  const filled = fills && !gs.whiteFill;
  if (!stroked && !filled) return;
  const strokePx = Math.max(1, gs.lineWidth * Math.hypot(m[0]!, m[1]!));
  // The current subpath's device-space points (straight parts only) and whether it curves anywhere.
  let xs: number[] = [];
  let ys: number[] = [];
  let curved = false;
  const flush = (): void => {
    if (xs.length > 1) addSubpathRules(rules, xs, ys, curved, stroked, filled, strokePx, pageArea);
    xs = [];
    ys = [];
    curved = false;
  };
  const point = (x: number, y: number): void => {
    xs.push(m[0]! * x + m[2]! * y + m[4]!);
    ys.push(m[1]! * x + m[3]! * y + m[5]!);
  };
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === PATH_MOVE) {
      flush();
      point(buffer[k]!, buffer[k + 1]!);
      k += 2;
    } else if (op === PATH_LINE) {
      point(buffer[k]!, buffer[k + 1]!);
      k += 2;
    } else if (op === PATH_CURVE || op === PATH_QUAD) {
      // A curve (a rounded corner) breaks the polyline: NaN marks the gap, the curve's end resumes it.
      const n = op === PATH_CURVE ? 6 : 4;
      curved = true;
      xs.push(NaN);
      ys.push(NaN);
      point(buffer[k + n - 2]!, buffer[k + n - 1]!);
      k += n;
    } else if (op === PATH_CLOSE) {
      if (xs.length) {
        xs.push(xs[0]!);
        ys.push(ys[0]!);
      }
    } else {
      return; // an unknown code: the buffer layout changed, do not guess
    }
  }
  flush();
}

function finiteOr(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) ? v : fallback;
}
