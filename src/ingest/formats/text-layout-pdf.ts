import type { Block } from './blocks.js';

// A minimal PDF writer: extracted text laid out on US Letter pages with the standard Helvetica fonts.

const PAGE_W = 612;
const PAGE_H = 792;
const MARGIN = 72;
const BODY_SIZE = 11;
const HEADING_SIZES = [18, 15, 13, 12, 11, 11];
const LIST_INDENT = 18;
/** Deeper list levels share the last indent, so text keeps a usable width. */
const MAX_INDENTS = 6;
const MARKER_GAP = 8;

// Advance widths (1/1000 em) of WinAnsi codes 32..255, from the Adobe AFM metrics of the two fonts.
const HELVETICA = widths('278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584,350,556,350,222,556,333,1000,556,556,333,1000,667,333,1000,350,611,350,350,222,222,333,333,350,556,1000,333,1000,500,333,944,350,500,667,278,333,556,556,556,556,260,556,333,737,370,556,584,333,737,333,400,584,333,333,333,556,537,278,333,333,365,556,834,834,834,611,667,667,667,667,667,667,1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,500,556,556,556,556,278,278,278,278,556,556,556,556,556,556,556,584,611,556,556,556,556,500,556,500');
const HELVETICA_BOLD = widths('278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584,350,556,350,278,556,500,1000,556,556,333,1000,667,333,1000,350,611,350,350,278,278,500,500,350,556,1000,333,1000,556,333,944,350,500,667,278,333,556,556,556,556,280,556,333,737,370,556,584,333,737,333,400,584,333,333,333,611,556,278,333,333,365,556,834,834,834,611,722,722,722,722,722,722,1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,556,556,556,556,556,278,278,278,278,611,611,611,611,611,611,611,584,611,611,611,611,611,556,611,556');

function widths(csv: string): number[] {
  return csv.split(',').map(Number);
}

// Unicode characters with a WinAnsi code in 0x80..0x9f (the rest of 0xa0..0xff is Latin-1 itself).
const WIN_ANSI_HIGH: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89,
  'Š': 0x8a, '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95,
  '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};
const FALLBACKS: Record<string, string> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2212': '-', '\u2022': '•', '\u25cf': '•', '\u25aa': '•',
  '\u2032': "'", '\u2033': '"', '\u00a0': ' ', '\u2009': ' ', '\u200a': ' ', '\u2002': ' ', '\u2003': ' ',
  '\u200b': '', '\u200c': '', '\u200d': '', '\ufeff': '', '\u00ad': '',
};

/** WinAnsi codes for a string: accents are dropped where the base letter exists, the rest become '?'. */
export function toWinAnsi(text: string): number[] {
  const out: number[] = [];
  for (const ch of text.replace(/\t/g, '    ')) {
    const c = encodeChar(ch);
    if (c !== undefined) {
      out.push(c);
      continue;
    }
    const fb = FALLBACKS[ch] ?? ch.normalize('NFKD').replace(/\p{M}/gu, '');
    const codes = [...fb].map(encodeChar);
    if (fb && fb !== ch && codes.every((x) => x !== undefined)) out.push(...(codes as number[]));
    else if (fb !== '') out.push(0x3f);
  }
  return out;
}

function encodeChar(ch: string): number | undefined {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa1 && cp <= 0xff && cp !== 0xad)) return cp;
  return WIN_ANSI_HIGH[ch];
}

function textWidth(codes: number[], bold: boolean, size: number): number {
  const table = bold ? HELVETICA_BOLD : HELVETICA;
  let w = 0;
  for (const c of codes) w += table[c - 32] ?? 556;
  return (w * size) / 1000;
}

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
function wrap(codes: number[], width: number, bold: boolean, size: number): number[][] {
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
    let w = textWidth(tok, bold, size);
    const spaceW = textWidth(pendingSpace, bold, size);
    if (lineW + spaceW + w <= width) {
      line.push(...pendingSpace, ...tok);
      lineW += spaceW + w;
      pendingSpace = [];
      continue;
    }
    if (line.length) push();
    pendingSpace = [];
    while (w > width) {
      // A "word" wider than the line (a URL, a hash) is cut where it fills the line.
      let n = 1;
      while (n < tok.length && textWidth(tok.slice(0, n + 1), bold, size) <= width) n++;
      line = tok.slice(0, n);
      push();
      tok = tok.slice(n);
      w = textWidth(tok, bold, size);
    }
    line = tok;
    lineW = w;
  }
  if (line.length) lines.push(line);
  return lines;
}

function layoutLines(blocks: Block[]): Line[] {
  const lines: Line[] = [];
  const textW = PAGE_W - 2 * MARGIN;
  for (const b of blocks) {
    const heading = b.kind === 'heading';
    const size = heading ? (HEADING_SIZES[(b.level ?? 1) - 1] ?? BODY_SIZE) : BODY_SIZE;
    const before = heading ? size * 0.8 : b.kind === 'line' ? 0 : size * 0.5;
    const indent = b.kind === 'list-item' ? LIST_INDENT * Math.min(b.depth ?? 1, MAX_INDENTS) : 0;
    const codes = toWinAnsi(b.text);
    const wrapped = wrap(codes, textW - indent, heading, size);
    const marker = b.kind === 'list-item' && b.marker ? toWinAnsi(b.marker) : undefined;
    // An empty line of a text file still takes its place, and so does a list item's marker.
    if (!wrapped.length && (b.kind === 'line' || marker)) wrapped.push([]);
    wrapped.forEach((codes, i) => {
      const item: Line = { codes, x: MARGIN + indent, size, bold: heading, before: i === 0 ? before : 0 };
      if (marker && i === 0) item.marker = marker;
      lines.push(item);
    });
  }
  return lines;
}

/** A valid PDF of US Letter pages (1-inch margins) with the blocks wrapped in Helvetica. */
export function textLayoutPdf(blocks: Block[]): Buffer {
  const pages: string[] = [];
  let ops: string[] = [];
  let y = PAGE_H - MARGIN;
  let first = true;
  for (const line of layoutLines(blocks)) {
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
      const x = line.x - textWidth(line.marker, false, line.size) - MARKER_GAP;
      ops.push(textOp({ codes: line.marker, x, size: line.size, bold: false, before: 0 }, y));
    }
    if (line.codes.length) ops.push(textOp(line, y));
  }
  pages.push(ops.join('\n'));
  return buildPdf(pages);
}

function textOp(line: Line, baseline: number): string {
  const hex = Buffer.from(line.codes).toString('hex');
  return `BT /${line.bold ? 'F2' : 'F1'} ${fmt(line.size)} Tf ${fmt(line.x)} ${fmt(baseline)} Td <${hex}> Tj ET`;
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function buildPdf(contents: string[]): Buffer {
  // Objects: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold, then a page and its content each.
  const objects: string[] = [];
  const kids = contents.map((_, i) => `${5 + 2 * i} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${contents.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  contents.forEach((content, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${6 + 2 * i} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  });
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
