import fs from 'node:fs';
import v8 from 'node:v8';
import { createRequire } from 'node:module';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { DPI, IngestError, textDirection, type PageModel, type Rule, type TextItem } from '../../../document/pages.js';
import { addSubpathRules, imageCover, multiply, round } from './path-rules.js';
import { grayPng } from '../write/png.js';

/*
 * PDFium (Chromium's PDF engine, BSD; compiled to WebAssembly by @hyzyla/pdfium) reads a page's
 * characters and drawn paths about four times faster than pdf.js's text content plus operator list
 * (bench/README.md). Its C API is called through the module's raw exports: the package's own
 * JavaScript wrappers cost more than the reading itself. The model it produces is the one pdf.js's
 * reader produces (`pdf.ts`): text runs split where pdf.js splits them, in 300-DPI pixels.
 */

type Fn = (...args: number[]) => number;
/** The wasm instance's memory (typed here: this project compiles without the DOM library). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface Exports {
  memory: WasmMemory;
  malloc: Fn;
  free: Fn;
  [name: string]: Fn | WasmMemory;
}

/** FPDF_GetLastError's code for a document that needs a password. */
const ERR_PASSWORD = 4;
const OBJ_PATH = 2;
const FLAT_NORMALDISPLAY = 0;
const FLATTEN_SUCCESS = 1;
const OBJ_IMAGE = 3;
const OBJ_FORM = 5;
const SEG_LINETO = 0;
const SEG_BEZIERTO = 1;
const SEG_MOVETO = 2;
/** FPDF_RenderPageBitmap's flag to draw annotations (form fields, stamps) as pdf.js's rendering does. */
const RENDER_ANNOTATIONS = 0x01;
/** FPDF_RenderPageBitmap's flag for RGB(x) byte order instead of BGR(x). */
const REVERSE_BYTE_ORDER = 0x10;
/** FPDF_RenderPageBitmap's rotation for 180° (clockwise quarter turns, after the page's own). */
const HALF_TURN = 2;
/** Font descriptor flag ForceBold. */
const FLAG_FORCE_BOLD = 1 << 18;
const FLAG_ITALIC = 1 << 6;

/** pdf.js's text-content thresholds, in ems of the run's font size (its evaluator's constants). */
const SPACE_IN_FLOW_MIN = 0.102;
const SPACE_IN_FLOW_MAX = 0.6;
const NEGATIVE_SPACE_MAX = -0.2;
const VERTICAL_SHIFT_RATIO = 0.25;

class Pdfium {
  private readonly f: Record<string, Fn>;
  private readonly memory: WasmMemory;
  private buffer!: ArrayBuffer;
  private u8!: Uint8Array;
  private i32!: Int32Array;
  private u32!: Uint32Array;
  private f32!: Float32Array;
  private f64!: Float64Array;
  /** 256 bytes of out-parameters, 8-aligned. */
  private readonly scratch: number;
  private readonly nameBuffer: number;
  private readonly utf8 = new TextDecoder();

  constructor(exports: Exports) {
    this.f = exports as unknown as Record<string, Fn>;
    this.memory = exports.memory;
    this.f.FPDF_InitLibrary!();
    this.scratch = this.f.malloc!(256);
    this.nameBuffer = this.f.malloc!(NAME_BYTES);
    this.blockReader = installBlockReader(exports, (param, position, at, size) => this.readBlock(param, position, at, size));
  }

  /** Whether `withFile` can read files block by block (table slot 0 holds `readBlock`). */
  private readonly blockReader: boolean;

  /** Bytes of WebAssembly memory the instance has taken (it never gives any back). */
  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  private views(): void {
    if (this.buffer !== this.memory.buffer) {
      this.buffer = this.memory.buffer;
      this.u8 = new Uint8Array(this.buffer);
      this.i32 = new Int32Array(this.buffer);
      this.u32 = new Uint32Array(this.buffer);
      this.f32 = new Float32Array(this.buffer);
      this.f64 = new Float64Array(this.buffer);
    }
  }

  /** Runs `read` over the open document (its bytes, or a file read block by block), closing it afterwards. */
  withDocument<T>(source: PdfSource, read: (doc: number, pages: number) => T): T {
    if (!(source instanceof Uint8Array)) return this.withFile(source.file, read);
    const bytes = source;
    const f = this.f;
    const data = f.malloc!(Math.max(1, bytes.byteLength));
    if (!data) throw new PdfiumCannotRead(-1, new Error('no memory for the PDF'));
    this.views();
    this.u8.set(bytes, data);
    try {
      return this.withLoaded(f.FPDF_LoadMemDocument!(data, bytes.byteLength, 0), read);
    } finally {
      f.free!(data);
    }
  }

  /**
   * Runs `read` over the PDF in `file`, which PDFium reads block by block as it needs them
   * (FPDF_LoadCustomDocument): only the parts a page uses enter the instance's memory, never the
   * whole file. Its FPDF_FILEACCESS names the reader in table slot 0 (see `installBlockReader`).
   */
  private withFile<T>(file: string, read: (doc: number, pages: number) => T): T {
    const f = this.f;
    if (!this.blockReader) throw new PdfiumCannotRead(-1, new Error('no block reader: the instance has no free table slot'));
    const fd = fs.openSync(file, 'r');
    const access = f.malloc!(12);
    try {
      const size = fs.fstatSync(fd).size;
      if (size > 0xffff_ffff) throw new PdfiumCannotRead(-1, new Error('the PDF is over 4 GiB'));
      if (!access) throw new PdfiumCannotRead(-1, new Error('no memory for the file access'));
      this.views();
      // FPDF_FILEACCESS in wasm32: m_FileLen, m_GetBlock (a table index), m_Param (our own pointer, naming this file).
      this.u32[access >> 2] = size;
      this.u32[(access >> 2) + 1] = 0;
      this.u32[(access >> 2) + 2] = access;
      this.files.set(access, fd);
      return this.withLoaded(f.FPDF_LoadCustomDocument!(access, 0), read);
    } finally {
      this.files.delete(access);
      if (access) f.free!(access);
      fs.closeSync(fd);
    }
  }

  private withLoaded<T>(doc: number, read: (doc: number, pages: number) => T): T {
    const f = this.f;
    try {
      if (!doc) {
        const code = f.FPDF_GetLastError!();
        if (code === ERR_PASSWORD) throw new IngestError('Encrypted PDF', 'The PDF is password-protected; upload it without a password.');
        throw new PdfiumCannotRead(code);
      }
      const count = f.FPDF_GetPageCount!(doc);
      if (count <= 0) throw new IngestError('Empty PDF', 'The PDF has no pages.');
      return read(doc, count);
    } finally {
      if (doc) f.FPDF_CloseDocument!(doc);
    }
  }

  /** Open files by their FPDF_FILEACCESS's address (its m_Param). */
  private readonly files = new Map<number, number>();

  /**
   * PDFium's m_GetBlock: copies `size` bytes at `position` of the file `param` names straight into
   * the instance's memory at `at`; 1 when it could, 0 when not (PDFium then reports the PDF unreadable).
   */
  private readBlock(param: number, position: number, at: number, size: number): number {
    const fd = this.files.get(param);
    // Only a FILEACCESS of ours names this reader; anything else called a null function pointer.
    if (fd === undefined) throw new Error('PDFium called a null function pointer');
    this.views();
    const target = this.u8.subarray(at >>> 0, (at >>> 0) + (size >>> 0));
    try {
      for (let done = 0; done < target.length; ) {
        const n = fs.readSync(fd, target, done, target.length - done, (position >>> 0) + done);
        if (n === 0) return 0;
        done += n;
      }
      return 1;
    } catch {
      return 0;
    }
  }

  /** Runs `read` over every page of the document (each page loaded, so its content parsed). */
  eachPage<T>(bytes: PdfSource, read: (page: number, number: number) => T): T[] {
    const f = this.f;
    return this.withDocument(bytes, (doc, count) => {
      const out: T[] = [];
      for (let i = 0; i < count; i++) {
        let page = f.FPDF_LoadPage!(doc, i);
        if (!page) throw new PdfiumCannotRead(f.FPDF_GetLastError!());
        // Filled-in form fields and other annotations shown on the page (their appearances) become
        // page content, as a viewer shows them and pdftotext reads them; the page is then loaded anew.
        if (f.FPDFPage_GetAnnotCount!(page) > 0 && f.FPDFPage_Flatten!(page, FLAT_NORMALDISPLAY) === FLATTEN_SUCCESS) {
          f.FPDF_ClosePage!(page);
          page = f.FPDF_LoadPage!(doc, i);
          if (!page) throw new PdfiumCannotRead(f.FPDF_GetLastError!());
        }
        try {
          out.push(read(page, i + 1));
        } finally {
          f.FPDF_ClosePage!(page);
        }
      }
      return out;
    });
  }

  /** One page (0-based) drawn in grays at `scale` pixels a point, on white. */
  renderGray(bytes: PdfSource, index: number, scale: number): { gray: Uint8Array; width: number; height: number } {
    return this.draw(bytes, index, scale, Infinity, 0, 0, (bgrx, at, stride, width, height) => {
      const gray = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) {
        let p = at + y * stride;
        const row = y * width;
        for (let x = 0; x < width; x++, p += 4) gray[row + x] = (bgrx[p]! * 29 + bgrx[p + 1]! * 150 + bgrx[p + 2]! * 77) >> 8;
      }
      return { gray, width, height };
    });
  }

  /** One page (0-based) drawn in colour at `scale` pixels a point, on white, turned half a turn when asked: RGBA, 4 bytes a pixel, opaque. */
  renderRgba(bytes: PdfSource, index: number, scale: number, upsideDown: boolean, maxPixels = Infinity): { rgba: Uint8ClampedArray; width: number; height: number } {
    return this.draw(bytes, index, scale, maxPixels, REVERSE_BYTE_ORDER, upsideDown ? HALF_TURN : 0, (rgbx, at, stride, width, height) => {
      const rgba = new Uint8ClampedArray(width * height * 4);
      const row = width * 4;
      if (stride === row) rgba.set(rgbx.subarray(at, at + row * height));
      else for (let y = 0; y < height; y++) rgba.set(rgbx.subarray(at + y * stride, at + y * stride + row), y * row);
      // The bitmap has no alpha channel (its fourth byte is undefined): every pixel is opaque.
      for (let p = 3; p < rgba.length; p += 4) rgba[p] = 255;
      return { rgba, width, height };
    });
  }

  /**
   * Draws one page (0-based) at `scale` into a 4-byte-a-pixel bitmap filled white (BGRx, or RGBx
   * with REVERSE_BYTE_ORDER), sized as pdf.js's viewport rounds it, and hands its rows to `take`
   * (the instance's memory, the bitmap's offset in it, bytes a row) before the bitmap is freed.
   */
  private draw<T>(bytes: PdfSource, index: number, scale: number, maxPixels: number, flags: number, rotate: number, take: (memory: Uint8Array, at: number, stride: number, width: number, height: number) => T): T {
    const f = this.f;
    return this.withDocument(bytes, (doc, count) => {
      if (index >= count) throw new RangeError(`no page ${index + 1}: the PDF has ${count}`);
      const page = f.FPDF_LoadPage!(doc, index);
      if (!page) throw new PdfiumCannotRead(f.FPDF_GetLastError!());
      try {
        const width = Math.max(1, Math.round(writtenNumber(f.FPDF_GetPageWidthF!(page)) * scale));
        const height = Math.max(1, Math.round(writtenNumber(f.FPDF_GetPageHeightF!(page)) * scale));
        if (width * height > maxPixels) throw new PageTooLarge(width, height, maxPixels);
        const bitmap = f.FPDFBitmap_Create!(width, height, 0);
        if (!bitmap) throw new PdfiumCannotRead(-1, new Error('no memory for the page image'));
        try {
          f.FPDFBitmap_FillRect!(bitmap, 0, 0, width, height, 0xffffffff);
          f.FPDF_RenderPageBitmap!(bitmap, page, 0, 0, width, height, rotate, RENDER_ANNOTATIONS | flags);
          const stride = f.FPDFBitmap_GetStride!(bitmap);
          const at = f.FPDFBitmap_GetBuffer!(bitmap);
          this.views();
          return take(this.u8, at, stride, width, height);
        } finally {
          f.FPDFBitmap_Destroy!(bitmap);
        }
      } finally {
        f.FPDF_ClosePage!(page);
      }
    });
  }

  /** Page sizes (crop box within the media box, rotated) without loading any page's content. */
  pageSizes(bytes: PdfSource): { width: number; height: number }[] {
    const f = this.f;
    const s = this.scratch;
    return this.withDocument(bytes, (doc, count) => {
      const sizes: { width: number; height: number }[] = [];
      for (let i = 0; i < count; i++) {
        if (!f.FPDF_GetPageSizeByIndexF!(doc, i, s)) throw new PdfiumCannotRead(f.FPDF_GetLastError!());
        this.views();
        sizes.push({ width: this.f32[s >> 2]!, height: this.f32[(s >> 2) + 1]! });
      }
      return sizes;
    });
  }

  /** The page's device transform, as pdf.js's viewport at 300 DPI: crop box, rotation, top-left origin. */
  viewport(page: number): { transform: number[]; width: number; height: number } {
    const f = this.f;
    const s = this.scratch;
    const box = (get: Fn): number[] | null => {
      if (!get(page, s, s + 4, s + 8, s + 12)) return null;
      this.views();
      const q = s >> 2;
      return [this.f32[q]!, this.f32[q + 1]!, this.f32[q + 2]!, this.f32[q + 3]!]; // left, bottom, right, top
    };
    const media = box(f.FPDFPage_GetMediaBox!) ?? [0, 0, f.FPDF_GetPageWidthF!(page), f.FPDF_GetPageHeightF!(page)];
    const crop = box(f.FPDFPage_GetCropBox!) ?? media;
    const norm = (b: number[]) => [Math.min(b[0]!, b[2]!), Math.min(b[1]!, b[3]!), Math.max(b[0]!, b[2]!), Math.max(b[1]!, b[3]!)];
    const [m0, m1, m2, m3] = norm(media) as [number, number, number, number];
    const [c0, c1, c2, c3] = norm(crop) as [number, number, number, number];
    // pdf.js's page.view: the crop box clipped to the media box (the media box when they do not meet).
    let view = [Math.max(c0, m0), Math.max(c1, m1), Math.min(c2, m2), Math.min(c3, m3)] as [number, number, number, number];
    if (view[2] <= view[0] || view[3] <= view[1]) view = [m0, m1, m2, m3];
    return viewportOf(view, (((f.FPDFPage_GetRotation!(page) % 4) + 4) % 4) * 90, DPI / 72);
  }

  /** Characters grouped into runs as pdf.js's text content groups them, in device pixels. */
  textItems(page: number, vt: number[]): TextItem[] {
    const f = this.f;
    const s = this.scratch;
    const tp = f.FPDFText_LoadPage!(page);
    if (!tp) return [];
    const items: TextItem[] = [];
    const fonts = new Map<number, RunFont>();
    const faces = new Map<number, Face>();
    const runFonts: RunFonts = new Map();
    let run: Run | null = null;
    const flush = () => {
      if (run && run.text.trim()) items.push(toItem(run, vt));
      run = null;
    };
    try {
      const n = f.FPDFText_CountChars!(tp);
      for (let i = 0; i < n; i++) {
        const u = f.FPDFText_GetUnicode!(tp, i);
        // PDFium's own line breaks and word spaces are left out: pdf.js's rules below decide both.
        if (u === 13 || u === 10 || u === 32 || u === 0xa0 || u === 9 || u === 0) continue;
        const obj = f.FPDFText_GetTextObject!(tp, i);
        let font = fonts.get(obj);
        if (!font) {
          font = this.fontOf(obj, tp, i, faces, runFonts);
          fonts.set(obj, font);
        }
        f.FPDFText_GetLooseCharBox!(tp, i, s); // FS_RECTF: left, top, right, bottom
        f.FPDFText_GetCharOrigin!(tp, i, s + 16, s + 24);
        this.views();
        const q = s >> 2;
        const left = this.f32[q]!;
        const top = this.f32[q + 1]!;
        const right = this.f32[q + 2]!;
        const bottom = this.f32[q + 3]!;
        const ox = this.f64[(s + 16) >> 3]!;
        const oy = this.f64[(s + 24) >> 3]!;
        // Along and across the run's writing direction (its text matrix's x axis).
        const along = ox * font.ux + oy * font.uy;
        const across = -ox * font.uy + oy * font.ux;
        const advance = Math.abs((right - left) * font.ux) + Math.abs((top - bottom) * font.uy);
        const text = charText(u);
        // The glyph's box as pdf.js's reader draws it: its advance along the baseline, the font's
        // ascent above and descent below (PDFium's loose box uses the font's bounding box instead).
        // Its four corners: the origin and the end of the advance, each at the ascent and the descent.
        const nx = -font.uy;
        const ny = font.ux;
        const ex = ox + font.ux * advance;
        const ey = oy + font.uy * advance;
        const ax = nx * font.ascent;
        const dx = nx * font.descent;
        const ay = ny * font.ascent;
        const dy = ny * font.descent;
        const gl = Math.min(ox, ex) + Math.min(ax, dx);
        const gr = Math.max(ox, ex) + Math.max(ax, dx);
        const gb = Math.min(oy, ey) + Math.min(ay, dy);
        const gt = Math.max(oy, ey) + Math.max(ay, dy);
        // The further characters of a ligature ("fi" drawn as one glyph) share its origin.
        const ligature = run !== null && (run.font === font || run.font.key === font.key) && Math.abs(along - run.start) < 0.01 && Math.abs(across - run.across) < 0.01;
        if (run && !ligature) {
          const r: Run = run;
          const size = r.font.size || 1;
          const gap = along - r.end;
          if ((r.font !== font && r.font.key !== font.key) || Math.abs(across - r.across) > size * VERTICAL_SHIFT_RATIO || gap < NEGATIVE_SPACE_MAX * size || gap > SPACE_IN_FLOW_MAX * size) {
            flush();
          } else if (gap >= SPACE_IN_FLOW_MIN * size && !r.spaced) {
            r.text += ' ';
            r.spaced = true;
          }
        }
        if (!run) run = { font, across, start: along, end: along, text: '', spaced: false, left: gl, top: gt, right: gr, bottom: gb };
        const r: Run = run;
        r.text += text;
        if (text) r.spaced = text.endsWith(' ');
        r.start = along;
        r.end = Math.max(r.end, along + advance);
        if (gl < r.left) r.left = gl;
        if (gr > r.right) r.right = gr;
        if (gt > r.top) r.top = gt;
        if (gb < r.bottom) r.bottom = gb;
      }
      flush();
    } finally {
      f.FPDFText_ClosePage!(tp);
    }
    return items;
  }

  /** A font's name, weight, slant and vertical metrics (per em), as pdf.js's reader takes them. */
  private faceOf(font: number): Face {
    const f = this.f;
    const s = this.scratch;
    let name = '';
    let flags = 0;
    let ascentEm = NaN;
    let descentEm = NaN;
    if (font) {
      // Asked at size 1: per em, as pdf.js's text styles give them.
      if (f.FPDFFont_GetAscent!(font, 1, s)) {
        this.views();
        ascentEm = this.f32[s >> 2]!;
      }
      if (f.FPDFFont_GetDescent!(font, 1, s)) {
        this.views();
        descentEm = this.f32[s >> 2]!;
      }
      const n = f.FPDFFont_GetBaseFontName!(font, this.nameBuffer, NAME_BYTES);
      this.views();
      if (n > 1) name = this.utf8.decode(this.u8.subarray(this.nameBuffer, this.nameBuffer + Math.min(n, NAME_BYTES) - 1));
      flags = f.FPDFFont_GetFlags!(font);
    }
    name = name.replace(/^[A-Z]{6}\+/, '') || 'unknown';
    // Fonts without usable metrics: pdf.js's reader assumes 0.8 and -0.2 of the size.
    if (!Number.isFinite(ascentEm) || ascentEm <= 0 || ascentEm > 2) ascentEm = 0.8;
    if (!Number.isFinite(descentEm) || descentEm > 0 || descentEm < -1) descentEm = -0.2;
    return {
      name,
      bold: (flags & FLAG_FORCE_BOLD) !== 0 || /bold|black|heavy|semibold|demi/i.test(name),
      italic: (flags & FLAG_ITALIC) !== 0 || /italic|oblique/i.test(name),
      ascentEm,
      descentEm,
    };
  }

  /** The font of a text object, at its size on the page (`i`: one of its characters). */
  private fontOf(obj: number, tp: number, i: number, faces: Map<number, Face>, runFonts: RunFonts): RunFont {
    const f = this.f;
    const s = this.scratch;
    let size = 0;
    let ux = 1;
    let uy = 0;
    const handle = obj ? f.FPDFTextObj_GetFont!(obj) : 0;
    let face = faces.get(handle);
    if (!face) {
      face = this.faceOf(handle);
      faces.set(handle, face);
    }
    if (obj) {
      if (f.FPDFTextObj_GetFontSize!(obj, s)) {
        this.views();
        size = this.f32[s >> 2]!;
      }
      // The character's matrix is in page space (form XObjects' matrices included), the object's is not.
      if (f.FPDFText_GetMatrix!(tp, i, s + 8)) {
        this.views();
        const q = (s + 8) >> 2;
        const a = this.f32[q]!;
        const b = this.f32[q + 1]!;
        const c = this.f32[q + 2]!;
        const d = this.f32[q + 3]!;
        const x = Math.sqrt(a * a + b * b) || 1;
        ux = a / x;
        uy = b / x;
        // The size as printed: the font size times the text matrix's (and CTM's) vertical scale.
        size *= Math.sqrt(c * c + d * d) || 1;
      }
    }
    // Text objects of one font at one size and direction share one RunFont (a page can have thousands).
    let bySize = runFonts.get(face);
    if (!bySize) runFonts.set(face, (bySize = new Map()));
    let byUx = bySize.get(size);
    if (!byUx) bySize.set(size, (byUx = new Map()));
    let byUy = byUx.get(ux);
    if (!byUy) byUx.set(ux, (byUy = new Map()));
    let font = byUy.get(uy);
    if (!font) {
      const { name, bold, italic, ascentEm, descentEm } = face;
      font = { name, size, ascent: ascentEm * size, descent: descentEm * size, bold, italic, ux, uy, key: `${name}|${Math.round(size * 100)}|${Math.round(ux * 1000)}|${Math.round(uy * 1000)}` };
      byUy.set(uy, font);
    }
    return font;
  }

  /**
   * The axis-aligned strokes and filled rectangles the page draws (as pdf.js's reader finds them), and
   * the share of the page its largest image covers.
   */
  drawing(page: number, vt: number[], pageWidth: number, pageHeight: number): { rules: Rule[]; imageCover: number } {
    const found = { rules: [] as Rule[], imageCover: 0 };
    this.walk(this.f.FPDFPage_CountObjects!, this.f.FPDFPage_GetObject!, page, [1, 0, 0, 1, 0, 0], vt, { width: pageWidth, height: pageHeight }, found, 0);
    return found;
  }

  private walk(count: Fn, get: Fn, owner: number, ctm: number[], vt: number[], page: { width: number; height: number }, found: { rules: Rule[]; imageCover: number }, depth: number): void {
    const f = this.f;
    const n = count(owner);
    for (let i = 0; i < n; i++) {
      const obj = get(owner, i);
      const type = f.FPDFPageObj_GetType!(obj);
      if (type === OBJ_FORM && depth < 12) {
        this.walk(f.FPDFFormObj_CountObjects!, f.FPDFFormObj_GetObject!, obj, multiply(ctm, this.matrixOf(obj)), vt, page, found, depth + 1);
      } else if (type === OBJ_PATH) {
        this.pathRules(obj, multiply(vt, multiply(ctm, this.matrixOf(obj))), page.width * page.height, found.rules);
      } else if (type === OBJ_IMAGE) {
        found.imageCover = Math.max(found.imageCover, imageCover(multiply(vt, multiply(ctm, this.matrixOf(obj))), page));
      }
    }
  }

  private matrixOf(obj: number): number[] {
    const s = this.scratch;
    if (!this.f.FPDFPageObj_GetMatrix!(obj, s)) return [1, 0, 0, 1, 0, 0];
    this.views();
    const q = s >> 2;
    return [this.f32[q]!, this.f32[q + 1]!, this.f32[q + 2]!, this.f32[q + 3]!, this.f32[q + 4]!, this.f32[q + 5]!];
  }

  private pathRules(obj: number, m: number[], pageArea: number, rules: Rule[]): void {
    const f = this.f;
    const s = this.scratch;
    f.FPDFPath_GetDrawMode!(obj, s, s + 4);
    f.FPDFPageObj_GetStrokeColor!(obj, s + 8, s + 12, s + 16, s + 20);
    f.FPDFPageObj_GetFillColor!(obj, s + 24, s + 28, s + 32, s + 36);
    f.FPDFPageObj_GetStrokeWidth!(obj, s + 40);
    this.views();
    const q = s >> 2;
    const fillMode = this.i32[q]!;
    const stroke = this.i32[q + 1]! !== 0;
    const visible = (r: number, g: number, b: number, a: number) => a > 0 && !(r >= 0xfc && g >= 0xfc && b >= 0xfc);
    const stroked = stroke && visible(this.u32[q + 2]!, this.u32[q + 3]!, this.u32[q + 4]!, this.u32[q + 5]!);
    const filled = fillMode !== 0 && visible(this.u32[q + 6]!, this.u32[q + 7]!, this.u32[q + 8]!, this.u32[q + 9]!);
    if (!stroked && !filled) return;
    const strokePx = Math.max(1, this.f32[q + 10]! * Math.hypot(m[0]!, m[1]!));
    let xs: number[] = [];
    let ys: number[] = [];
    let curved = false;
    const flush = () => {
      if (xs.length > 1) addSubpathRules(rules, xs, ys, curved, stroked, filled, strokePx, pageArea);
      xs = [];
      ys = [];
      curved = false;
    };
    const segments = f.FPDFPath_CountSegments!(obj);
    let bezier = 0;
    for (let k = 0; k < segments; k++) {
      const seg = f.FPDFPath_GetPathSegment!(obj, k);
      f.FPDFPathSegment_GetPoint!(seg, s, s + 4);
      this.views();
      const x = this.f32[s >> 2]!;
      const y = this.f32[(s >> 2) + 1]!;
      const px = m[0]! * x + m[2]! * y + m[4]!;
      const py = m[1]! * x + m[3]! * y + m[5]!;
      const type = f.FPDFPathSegment_GetType!(seg);
      bezier = type === SEG_BEZIERTO ? bezier + 1 : 0;
      if (type === SEG_MOVETO) {
        flush();
        xs.push(px);
        ys.push(py);
      } else if (type === SEG_LINETO) {
        xs.push(px);
        ys.push(py);
      } else if (type === SEG_BEZIERTO) {
        // A Bézier is three points; only its end (the third) resumes the straight polyline.
        curved = true;
        if (!Number.isNaN(xs[xs.length - 1])) {
          xs.push(NaN);
          ys.push(NaN);
        }
        if (bezier % 3 === 0) {
          xs.push(px);
          ys.push(py);
        }
      } else {
        return; // unknown segment type: do not guess
      }
      if (f.FPDFPathSegment_GetClose!(seg) && xs.length) {
        const first = xs.findIndex(Number.isFinite);
        if (first >= 0) {
          xs.push(xs[first]!);
          ys.push(ys[first]!);
        }
      }
    }
    flush();
  }
}

const NAME_BYTES = 256;

/**
 * The number a PDF most likely wrote, from PDFium's single-precision copy of it: the shortest decimal
 * that is the same float. pdf.js reads "842.04" as a double; PDFium's 842.0399780 at 100 DPI is
 * 1169.49997 pixels where pdf.js's is 1169.5, which rounds to a pixel more.
 */
function writtenNumber(f32: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(f32.toPrecision(digits));
    if (Math.fround(shortest) === f32) return shortest;
  }
  return f32;
}

interface Face {
  name: string;
  bold: boolean;
  italic: boolean;
  ascentEm: number;
  descentEm: number;
}

/** RunFonts of a page by face, size, and direction (ux, uy). */
type RunFonts = Map<Face, Map<number, Map<number, Map<number, RunFont>>>>;

interface RunFont {
  name: string;
  size: number;
  /** Above and below the baseline (descent negative), in page units, at this size. */
  ascent: number;
  descent: number;
  bold: boolean;
  italic: boolean;
  /** The writing direction (unit vector, page space). */
  ux: number;
  uy: number;
  key: string;
}

interface Run {
  font: RunFont;
  /** Baseline position across the writing direction, and where the last glyph's advance ends along it. */
  across: number;
  /** Where the last character's advance starts and the run's ends, along the writing direction. */
  start: number;
  end: number;
  text: string;
  /** The text ends with the word space this reader put in (checked without flattening the string). */
  spaced: boolean;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** PDFium marks a hyphen at a line end with U+FFFE (or U+0002); ligatures come as one code point. */
function charText(u: number): string {
  if (u === 0xfffe || u === 2) return '-';
  const s = String.fromCodePoint(u);
  return u >= 0xfb00 && u <= 0xfb4f ? s.normalize('NFKC') : s;
}

/**
 * Word's PDFs map Calibri's "ti" and "tt" ligatures to U+019F and U+01A9 ("corporaƟon"). Inside a
 * lowercase word they can only be those ligatures.
 */
const LIGATURES: Record<string, string> = { '\u019f': 'ti', '\u01a9': 'tt' };
function fixLigatures(text: string): string {
  return /[\u019f\u01a9]/.test(text) ? text.replace(/(?<=\p{Ll})[\u019f\u01a9]|[\u019f\u01a9](?=\p{Ll})/gu, (c) => LIGATURES[c]!) : text;
}

function toItem(run: Run, vt: number[]): TextItem {
  const xs = [run.left, run.right];
  const ys = [run.bottom, run.top];
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const x of xs) {
    for (const y of ys) {
      const dx = vt[0]! * x + vt[2]! * y + vt[4]!;
      const dy = vt[1]! * x + vt[3]! * y + vt[5]!;
      x0 = Math.min(x0, dx);
      y0 = Math.min(y0, dy);
      x1 = Math.max(x1, dx);
      y1 = Math.max(y1, dy);
    }
  }
  const item: TextItem = {
    text: fixLigatures(run.text.replace(/\s+$/, '')),
    x: round(x0),
    y: round(y0),
    width: round(x1 - x0),
    height: round(y1 - y0),
    fontName: run.font.name,
    fontSize: round(run.font.size),
  };
  if (run.font.bold) item.bold = true;
  if (run.font.italic) item.italic = true;
  const dir = textDirection(vt[0]! * run.font.ux + vt[2]! * run.font.uy, vt[1]! * run.font.ux + vt[3]! * run.font.uy);
  if (dir) item.dir = dir;
  return item;
}

/** pdf.js's PageViewport transform for a view box, rotation (degrees) and scale. */
function viewportOf(view: [number, number, number, number], rotation: number, scale: number): { transform: number[]; width: number; height: number } {
  const [x0, y0, x1, y1] = view;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const [a, b, c, d] = rotation === 90 ? [0, 1, 1, 0] : rotation === 180 ? [-1, 0, 0, 1] : rotation === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  let offX: number;
  let offY: number;
  let width: number;
  let height: number;
  if (a === 0) {
    offX = Math.abs(cy - y0) * scale;
    offY = Math.abs(cx - x0) * scale;
    width = (y1 - y0) * scale;
    height = (x1 - x0) * scale;
  } else {
    offX = Math.abs(cx - x0) * scale;
    offY = Math.abs(cy - y0) * scale;
    width = (x1 - x0) * scale;
    height = (y1 - y0) * scale;
  }
  const transform = [a * scale, b * scale, c * scale, d * scale, offX - a * scale * cx - c * scale * cy, offY - b * scale * cx - d * scale * cy];
  return { transform, width, height };
}

/** A PDF as bytes, or as a file to be read block by block (page images: see `Pdfium.withFile`). */
export type PdfSource = Uint8Array | { file: string };

/** A page whose image at the asked resolution would have more pixels than allowed: nothing was allocated for it. */
export class PageTooLarge extends RangeError {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly maxPixels: number,
  ) {
    super(`the page image would be ${width} x ${height} pixels, over the limit of ${maxPixels}`);
  }
}

interface WasmTable {
  get(index: number): unknown;
  set(index: number, value: unknown): void;
}

/**
 * A WebAssembly module importing one function of PDFium's m_GetBlock type, (i32, i32, i32, i32) -> i32,
 * and exporting it: the way a JavaScript function becomes something a function table can hold
 * (Emscripten's convertJsFunctionToWasm does the same; this build does not export addFunction).
 */
const BLOCK_READER_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x09, 0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, // type 0: (i32 i32 i32 i32) -> i32
  0x02, 0x07, 0x01, 0x01, 0x65, 0x01, 0x66, 0x00, 0x00, // import "e" "f" of type 0
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export it as "f"
]);

/**
 * Puts `read` into the instance's function table, for FPDF_FILEACCESS.m_GetBlock to name. The table
 * cannot grow (it has a fixed maximum) and its one empty slot is 0, the null function pointer: the
 * reader goes there, and refuses any call that is not for a file of ours (a null-pointer call, which
 * would otherwise have trapped, still fails). False when slot 0 is not empty (another build).
 */
function installBlockReader(exports: Exports, read: (param: number, position: number, at: number, size: number) => number): boolean {
  const table = (exports as unknown as { __indirect_function_table?: WasmTable }).__indirect_function_table;
  if (!table || table.get(0) !== null) return false;
  table.set(0, new WebAssembly.Instance(new WebAssembly.Module(BLOCK_READER_MODULE), { e: { f: read } }).exports.f);
  return true;
}

/** PDFium could not open or parse the document; pdf.js, which repairs more, gets to try. */
export class PdfiumCannotRead extends Error {
  constructor(
    readonly code: number,
    cause?: unknown,
  ) {
    super(code < 0 ? `PDFium failed reading the PDF (${cause instanceof Error ? cause.message : String(cause)})` : `PDFium cannot read the PDF (error ${code})`, { cause });
  }
}

/** A compiled PDFium WebAssembly module (opaque here: WebAssembly's types are the DOM library's). */
export type PdfiumModule = object & { readonly __brand?: 'PdfiumModule' };
interface WasmInstance {
  readonly exports: Exports;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => PdfiumModule;
  Instance: new (module: PdfiumModule, imports: object) => { exports: Record<string, unknown> };
  instantiate(module: PdfiumModule, imports: object): Promise<WasmInstance>;
};

const wasmBytes = (): Buffer => fs.readFileSync(createRequire(import.meta.url).resolve('@hyzyla/pdfium/pdfium.wasm'));

/**
 * How PDFium's WebAssembly is compiled: `optimized` runs all of it through V8's optimising compiler
 * once, in V8's background threads (about 4 core-seconds, right after start-up); `lazy` leaves it to
 * V8, which optimises a function once it has run hot, in each process.
 */
export type PdfiumCompile = 'optimized' | 'lazy';

let compiled: PdfiumModule | null | undefined;

/**
 * PDFium's WebAssembly compiled once for the process (on the first call, which decides `mode`), for
 * its threads to share, or undefined if it cannot be compiled (each thread then tries on its own and
 * reports what fails). V8 keeps a module's machine code with the module, not with the thread running
 * it, so what one thread optimised serves every other thread and every replacement thread. Each
 * thread compiling its own copy spent its first documents optimising the same functions again, and
 * a server's first batch in bench/ingest took ~15% more CPU than with `optimized` (bench/README.md).
 */
export function compiledPdfiumModule(mode: PdfiumCompile): PdfiumModule | undefined {
  if (compiled === undefined) {
    const optimized = mode === 'optimized';
    // Only this compilation: V8 reads these flags when a module is compiled, and the defaults come back at once.
    if (optimized) v8.setFlagsFromString('--no-wasm-lazy-compilation --no-wasm-dynamic-tiering');
    try {
      compiled = new WebAssembly.Module(wasmBytes());
    } catch {
      compiled = null;
    } finally {
      if (optimized) v8.setFlagsFromString('--wasm-lazy-compilation --wasm-dynamic-tiering');
    }
  }
  return compiled ?? undefined;
}

/**
 * The module `compiledPdfiumModule` compiled, if the process has compiled one: for a thread that
 * should not make the caller wait for a compilation (the page-rendering thread then compiles its own).
 */
export function pdfiumModuleIfCompiled(): PdfiumModule | undefined {
  return compiled ?? undefined;
}

let sharedModule: PdfiumModule | undefined;

/** Makes this thread instantiate `module` (from `compiledPdfiumModule`) instead of compiling its own. */
export function usePdfiumModule(module: PdfiumModule): void {
  sharedModule = module;
}

const arrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** PDFium's library instantiated from a compiled module (the package's hook for it never reports a failure: raced here). */
function initFrom(module: PdfiumModule): ReturnType<typeof PDFiumLibrary.init> {
  let failed!: (err: unknown) => void;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  const instantiateWasm = (imports: object, done: (instance: WasmInstance, module: PdfiumModule) => void) => {
    WebAssembly.instantiate(module, imports).then((made) => done(made, module), failed);
    return {};
  };
  type Options = NonNullable<Parameters<typeof PDFiumLibrary.init>[0]>;
  return Promise.race([PDFiumLibrary.init({ instantiateWasm } as unknown as Options), failure]);
}

let instance: Promise<Pdfium> | undefined;

/** The thread's PDFium (loaded on first use: about 40 ms, a few ms from a shared module). */
function pdfium(): Promise<Pdfium> {
  instance ??= (async () => {
    const lib = await (sharedModule ? initFrom(sharedModule) : PDFiumLibrary.init({ wasmBinary: arrayBuffer(wasmBytes()) }));
    const module = (lib as unknown as { module: { wasmExports: Exports } }).module;
    return new Pdfium(module.wasmExports);
  })();
  return instance;
}

/**
 * Loads the thread's PDFium now (compiling its 4 MB of WebAssembly takes ~40 ms), so that a thread
 * started ahead of time does not make its first document wait for it.
 */
export function preloadPdfium(): void {
  pdfium().catch(() => {
    instance = undefined; // the first document will try again, and report the failure
  });
}

/**
 * Runs `use` on the thread's PDFium. A failure of the engine itself (a WebAssembly trap, its memory
 * exhausted) discards the instance, so the next document gets a fresh one, and is reported as
 * PdfiumCannotRead: pdf.js then reads the document.
 */
async function withPdfium<T>(bytes: PdfSource, use: (p: Pdfium) => T): Promise<T> {
  const p = await pdfium();
  try {
    return use(p);
  } catch (err) {
    if (err instanceof IngestError || err instanceof PdfiumCannotRead || err instanceof RangeError) throw err;
    instance = undefined;
    throw new PdfiumCannotRead(-1, err);
  } finally {
    // WebAssembly memory only grows: after a large document, or once the documents read so far have
    // grown it past a bound, the thread starts a fresh instance, so the memory goes back when this
    // one is collected.
    const held = bytes instanceof Uint8Array ? bytes.byteLength : 0;
    if (instance && (held > LARGE_PDF_BYTES || p.memoryBytes > LARGE_MEMORY_BYTES)) instance = undefined;
  }
}

/** The WebAssembly memory of the thread's PDFium instance (loading one if there is none). */
export async function pdfiumMemoryBytes(): Promise<number> {
  return (await pdfium()).memoryBytes;
}

/** Documents above this size get a PDFium instance of their own (see `withPdfium`). */
const LARGE_PDF_BYTES = 32 * 1024 * 1024;
/** An instance whose memory has grown past this is replaced after its document (see `withPdfium`). */
const LARGE_MEMORY_BYTES = 256 * 1024 * 1024;

/** Pages with their text runs and drawn rules. */
export async function readPdfiumPages(bytes: Uint8Array): Promise<PageModel[]> {
  return withPdfium(bytes, (p) => p.eachPage(bytes, (page, number) => {
    const vp = p.viewport(page);
    const width = Math.round(vp.width);
    const height = Math.round(vp.height);
    const { rules, imageCover } = p.drawing(page, vp.transform, vp.width, vp.height);
    const model: PageModel = { number, width, height, items: p.textItems(page, vp.transform), rules };
    if (imageCover > 0) model.imageCover = imageCover;
    return model;
  }));
}

/** A grayscale PNG of one page (1-based) at `dpi`: what OCR reads. */
export async function renderPdfiumGrayPng(bytes: Uint8Array, pageNumber: number, dpi: number, upsideDown = false): Promise<Buffer> {
  const { data, width, height } = await renderPdfiumGray(bytes, pageNumber, dpi, upsideDown);
  return grayPng(data, width, height);
}

/** One page (1-based) drawn in grayscale at `dpi`, one byte a pixel, turned upside down when asked. */
export async function renderPdfiumGray(bytes: Uint8Array, pageNumber: number, dpi: number, upsideDown = false): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { gray, width, height } = await withPdfium(bytes, (p) => p.renderGray(bytes, pageNumber - 1, dpi / 72));
  // One byte a pixel, row after row: the image turned upside down is the same bytes backwards.
  if (upsideDown) gray.reverse();
  return { data: gray, width, height };
}

/** One page (1-based) drawn in colour at `dpi`, turned upside down when asked: RGBA, 4 bytes a pixel, opaque (the page image the API serves). */
export async function renderPdfiumRgba(bytes: PdfSource, pageNumber: number, dpi: number, upsideDown = false, maxPixels = Infinity): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const { rgba, width, height } = await withPdfium(bytes, (p) => p.renderRgba(bytes, pageNumber - 1, dpi / 72, upsideDown, maxPixels));
  return { data: rgba, width, height };
}

/** Only the pages' sizes. */
export async function readPdfiumGeometry(bytes: Uint8Array): Promise<PageModel[]> {
  const scale = DPI / 72;
  return (await withPdfium(bytes, (p) => p.pageSizes(bytes))).map((size, i) => ({ number: i + 1, width: Math.round(size.width * scale), height: Math.round(size.height * scale), items: [] }));
}

