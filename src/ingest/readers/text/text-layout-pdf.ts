import type { Block } from '../blocks.js';
import { textWidth, toWinAnsi } from '../write/helvetica.js';
import { LETTER, standardFontPdf } from '../write/pdf.js';

// A minimal PDF writer: extracted text laid out on US Letter pages with two of the standard fonts.

const PAGE_W = LETTER.width;
const PAGE_H = LETTER.height;
/** Top and bottom margin. */
const MARGIN = 72;
const HEADING_SIZES = [18, 15, 13, 12, 11, 11];
const LIST_INDENT = 18;
/** Deeper list levels share the last indent, so text keeps a usable width. */
const MAX_INDENTS = 6;
const MARKER_GAP = 8;

/** How the rendition sets text: its fonts (regular, bold), body size and side margins. */
export interface PageStyle {
  fonts: readonly [string, string];
  bodySize: number;
  marginX: number;
  /** The width in points of WinAnsi codes at `size`. */
  width(codes: number[], bold: boolean, size: number): number;
}

/** Text read out of DOCX, DOC and HTML files: Helvetica 11 pt between 1-inch margins. */
export const PROPORTIONAL: PageStyle = { fonts: ['Helvetica', 'Helvetica-Bold'], bodySize: 11, marginX: 72, width: textWidth };

/**
 * Text files, set as a printer sets them: Courier 10 pt (every character 6 pt wide), 84 columns
 * between 0.75-inch margins, so that columns aligned with spaces stay aligned on the page and an
 * 80-column file is not wrapped.
 */
export const MONOSPACE: PageStyle = {
  fonts: ['Courier', 'Courier-Bold'],
  bodySize: 10,
  marginX: 54,
  width: (codes, _bold, size) => codes.length * 0.6 * size,
};

interface Line {
  codes: number[];
  x: number;
  size: number;
  bold: boolean;
  /** Extra space above the line. */
  before: number;
  /** First line of a list item: its marker goes in the indent. */
  marker?: number[];
}

/**
 * Wraps codes to `width` at spaces, breaking words longer than a line. Runs of spaces inside a line
 * (indentation, table cells) are kept; the run at a line break is dropped.
 */
function wrap(codes: number[], width: number, bold: boolean, size: number, measure: PageStyle['width']): number[][] {
  // Alternating tokens: runs of spaces and words.
  const tokens: number[][] = [];
  for (const c of codes) {
    const last = tokens[tokens.length - 1];
    if (last && (last[0] === 0x20) === (c === 0x20)) last.push(c);
    else tokens.push([c]);
  }
  const lines: number[][] = [];
  let line: number[] = [];
  let lineW = 0;
  let pendingSpace: number[] = [];
  const push = () => {
    lines.push(line);
    line = [];
    lineW = 0;
    pendingSpace = [];
  };
  for (let tok of tokens) {
    if (tok[0] === 0x20) {
      // Leading spaces of a line are indentation; others wait for the next word.
      if (line.length || lines.length === 0) pendingSpace = tok;
      continue;
    }
    let w = measure(tok, bold, size);
    const spaceW = measure(pendingSpace, bold, size);
    if (lineW + spaceW + w <= width) {
      line.push(...pendingSpace, ...tok);
      lineW += spaceW + w;
      pendingSpace = [];
      continue;
    }
    if (line.length) push();
    pendingSpace = [];
    if (w > width) {
      // A "word" wider than the line (a URL, a hash) is cut where each piece fills a line, in one
      // pass (a single-line file of megabytes is one such word).
      let start = 0;
      let pieceW = 0;
      for (let i = 0; i < tok.length; i++) {
        const cw = measure([tok[i]!], bold, size);
        if (pieceW + cw > width && i > start) {
          line = tok.slice(start, i);
          push();
          start = i;
          pieceW = 0;
        }
        pieceW += cw;
      }
      tok = tok.slice(start);
      w = pieceW;
    }
    line = tok;
    lineW = w;
  }
  if (line.length) lines.push(line);
  return lines;
}

function layoutLines(blocks: Block[], style: PageStyle): Line[] {
  const lines: Line[] = [];
  const textW = PAGE_W - 2 * style.marginX;
  for (const b of blocks) {
    const heading = b.kind === 'heading';
    const size = heading ? (HEADING_SIZES[(b.level ?? 1) - 1] ?? style.bodySize) : style.bodySize;
    const before = heading ? size * 0.8 : b.kind === 'line' ? 0 : size * 0.5;
    const indent = b.kind === 'list-item' ? LIST_INDENT * Math.min(b.depth ?? 1, MAX_INDENTS) : 0;
    const codes = toWinAnsi(b.text);
    const wrapped = wrap(codes, textW - indent, heading, size, style.width);
    const marker = b.kind === 'list-item' && b.marker ? toWinAnsi(b.marker) : undefined;
    // An empty line of a text file still takes its place, and so does a list item's marker.
    if (!wrapped.length && (b.kind === 'line' || marker)) wrapped.push([]);
    wrapped.forEach((codes, i) => {
      const item: Line = { codes, x: style.marginX + indent, size, bold: heading, before: i === 0 ? before : 0 };
      if (marker && i === 0) item.marker = marker;
      lines.push(item);
    });
  }
  return lines;
}

/** A valid PDF of US Letter pages with the blocks wrapped in the style's fonts. */
export function textLayoutPdf(blocks: Block[], style: PageStyle = PROPORTIONAL): Buffer {
  const pages: string[] = [];
  let ops: string[] = [];
  let y = PAGE_H - MARGIN;
  let first = true;
  for (const line of layoutLines(blocks, style)) {
    const leading = line.size * 1.25;
    let step = (first ? 0 : line.before) + leading;
    if (y - step < MARGIN && !first) {
      pages.push(ops.join('\n'));
      ops = [];
      y = PAGE_H - MARGIN;
      step = leading;
    }
    y -= step;
    first = false;
    if (line.marker) {
      const x = line.x - style.width(line.marker, false, line.size) - MARKER_GAP;
      ops.push(textOp({ codes: line.marker, x, size: line.size, bold: false, before: 0 }, y));
    }
    if (line.codes.length) ops.push(textOp(line, y));
  }
  pages.push(ops.join('\n'));
  return standardFontPdf(pages, style.fonts);
}

function textOp(line: Line, baseline: number): string {
  const hex = Buffer.from(line.codes).toString('hex');
  return `BT /${line.bold ? 'F2' : 'F1'} ${fmt(line.size)} Tf ${fmt(line.x)} ${fmt(baseline)} Td <${hex}> Tj ET`;
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}
