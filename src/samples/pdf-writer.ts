import { textWidth, toWinAnsi } from '../ingest/readers/write/helvetica.js';
import { LETTER, helveticaPdf } from '../ingest/readers/write/pdf.js';
import { isNumericCell, type SampleBlock, type SampleDocumentContent } from './document.js';

// A sample document as a real PDF: US Letter pages, Helvetica, headings, wrapped paragraphs, bold
// keys, ruled tables with a shaded header row, and a running footer with page numbers.

const PAGE_W = LETTER.width;
const PAGE_H = LETTER.height;
const MARGIN = 72;
const TEXT_W = PAGE_W - 2 * MARGIN;
const FOOTER_Y = 40;
const LEADING = 1.3;
const CELL_PAD = 4;
const MIN_COLUMN_W = 40;

const STYLE = {
  title: { size: 18, bold: true, before: 0 },
  h1: { size: 14, bold: true, before: 16 },
  h2: { size: 12, bold: true, before: 12 },
  body: { size: 11, bold: false, before: 7 },
  field: { size: 11, bold: false, before: 3 },
  table: { size: 10, bold: false, before: 10 },
} as const;


class PageWriter {
  readonly pages: string[][] = [[]];
  /** Top of the free space on the current page, in PDF points from the bottom. */
  y = PAGE_H - MARGIN;

  get ops(): string[] {
    return this.pages[this.pages.length - 1]!;
  }

  /** Starts a new page unless `height` more points fit above the bottom margin. */
  ensure(height: number): void {
    if (this.y - height >= MARGIN || this.y === PAGE_H - MARGIN) return;
    this.pages.push([]);
    this.y = PAGE_H - MARGIN;
  }

  text(codes: number[], x: number, baseline: number, size: number, bold: boolean): void {
    if (!codes.length) return;
    this.ops.push(`BT /${bold ? 'F2' : 'F1'} ${fmt(size)} Tf ${fmt(x)} ${fmt(baseline)} Td <${Buffer.from(codes).toString('hex')}> Tj ET`);
  }
}

/** Greedy word wrap of `text` to `width` points; a word longer than a line overflows it. */
function wrap(text: string, width: number, size: number, bold: boolean): number[][] {
  const space = toWinAnsi(' ');
  const spaceW = textWidth(space, bold, size);
  const lines: number[][] = [];
  let line: number[] = [];
  let lineW = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const codes = toWinAnsi(word);
    const w = textWidth(codes, bold, size);
    if (line.length && lineW + spaceW + w > width) {
      lines.push(line);
      line = [];
      lineW = 0;
    }
    if (line.length) {
      line.push(...space);
      lineW += spaceW;
    }
    line.push(...codes);
    lineW += w;
  }
  if (line.length) lines.push(line);
  return lines;
}

function writeLines(pw: PageWriter, text: string, style: { size: number; bold: boolean; before: number }, center = false): void {
  const leading = style.size * LEADING;
  pw.y -= style.before;
  for (const codes of wrap(text, TEXT_W, style.size, style.bold)) {
    pw.ensure(leading);
    pw.y -= leading;
    const x = center ? MARGIN + (TEXT_W - textWidth(codes, style.bold, style.size)) / 2 : MARGIN;
    pw.text(codes, x, pw.y + style.size * 0.25, style.size, style.bold);
  }
}

function writeField(pw: PageWriter, key: string, value: string): void {
  const { size, before } = STYLE.field;
  const leading = size * LEADING;
  const label = toWinAnsi(`${key}: `);
  const labelW = textWidth(label, true, size);
  pw.y -= before;
  const lines = wrap(value, TEXT_W - labelW, size, false);
  lines.forEach((codes, i) => {
    pw.ensure(leading);
    pw.y -= leading;
    const baseline = pw.y + size * 0.25;
    if (i === 0) pw.text(label, MARGIN, baseline, size, true);
    pw.text(codes, MARGIN + labelW, baseline, size, false);
  });
}

/** Column widths in proportion to each column's widest cell, filling the text width. */
function columnWidths(rows: string[][], size: number): number[] {
  const natural = rows[0]!.map((_, c) =>
    Math.max(MIN_COLUMN_W, ...rows.map((r, i) => textWidth(toWinAnsi(r[c] ?? ''), i === 0, size) + 2 * CELL_PAD)),
  );
  const total = natural.reduce((a, b) => a + b, 0);
  return natural.map((w) => (w * TEXT_W) / total);
}

function writeTable(pw: PageWriter, rows: string[][]): void {
  const { size, before } = STYLE.table;
  const leading = size * LEADING;
  const widths = columnWidths(rows, size);
  const lefts = widths.map((_, c) => MARGIN + widths.slice(0, c).reduce((a, b) => a + b, 0));
  pw.y -= before;
  rows.forEach((row, r) => {
    const header = r === 0;
    const cells = row.map((cell, c) => wrap(cell, widths[c]! - 2 * CELL_PAD, size, header));
    const height = Math.max(1, ...cells.map((l) => l.length)) * leading + 2 * CELL_PAD;
    pw.ensure(height);
    const top = pw.y;
    const bottom = top - height;
    if (header) pw.ops.push(`0.88 g ${fmt(MARGIN)} ${fmt(bottom)} ${fmt(TEXT_W)} ${fmt(height)} re f 0 g`);
    // The row's frame: its top and bottom rules and a rule at every column boundary.
    const rules = [`${fmt(MARGIN)} ${fmt(top)} m ${fmt(MARGIN + TEXT_W)} ${fmt(top)} l`, `${fmt(MARGIN)} ${fmt(bottom)} m ${fmt(MARGIN + TEXT_W)} ${fmt(bottom)} l`];
    for (const x of [...lefts, MARGIN + TEXT_W]) rules.push(`${fmt(x)} ${fmt(top)} m ${fmt(x)} ${fmt(bottom)} l`);
    pw.ops.push(`0.6 w ${rules.join(' ')} S`);
    cells.forEach((lines, c) => {
      const alignRight = !header && isNumericCell(row[c]!.trim());
      lines.forEach((codes, i) => {
        const baseline = top - CELL_PAD - (i + 1) * leading + size * 0.25;
        const x = alignRight ? lefts[c]! + widths[c]! - CELL_PAD - textWidth(codes, header, size) : lefts[c]! + CELL_PAD;
        pw.text(codes, x, baseline, size, header);
      });
    });
    pw.y = bottom;
  });
}

function writeBlock(pw: PageWriter, b: SampleBlock): void {
  switch (b.kind) {
    case 'heading':
      // A heading is kept with what follows it (a subheading and two lines, or four lines).
      pw.ensure(STYLE.h1.before + STYLE.h1.size * LEADING + 4 * STYLE.body.size * LEADING);
      return writeLines(pw, b.text, b.level === 1 ? STYLE.h1 : STYLE.h2);
    case 'paragraph':
      return writeLines(pw, b.text, STYLE.body);
    case 'field':
      return writeField(pw, b.key, b.value);
    case 'table':
      return writeTable(pw, b.rows);
  }
}

/** The document as PDF bytes; the same content always gives the same bytes (no dates, no ids). */
export function renderSamplePdf(doc: SampleDocumentContent): Buffer {
  const pw = new PageWriter();
  writeLines(pw, doc.title, STYLE.title, true);
  pw.y -= 6;
  for (const b of doc.blocks) writeBlock(pw, b);
  const count = pw.pages.length;
  pw.pages.forEach((ops, i) => {
    const footer = toWinAnsi(`Page ${i + 1} of ${count}`);
    const x = PAGE_W - MARGIN - textWidth(footer, false, 8);
    ops.push(`BT /F1 8 Tf ${fmt(x)} ${FOOTER_Y} Td <${Buffer.from(footer).toString('hex')}> Tj ET`);
  });
  return helveticaPdf(
    pw.pages.map((ops) => ops.join('\n')),
    `<< /Title ${pdfString(doc.title)} /Producer (Quire sample generator) >>`,
  );
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** A PDF literal string of WinAnsi text, with its delimiters escaped. */
function pdfString(text: string): string {
  return `(${Buffer.from(toWinAnsi(text)).toString('latin1').replace(/[\\()]/g, (c) => `\\${c}`)})`;
}
