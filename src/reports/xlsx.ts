import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { ArtifactSink, ArtifactSpec } from './report.js';
import { xmlSafe } from './xml.js';

/** A cell: text, a number, empty, or a link shown as its text. */
export type Cell = string | number | null | { text: string; hyperlink: string };

export interface Row {
  cells: readonly Cell[];
  /** Per cell, an ARGB fill colour (flagged values). */
  fills?: readonly (string | undefined)[];
}

export interface Sheet {
  name: string;
  header: readonly string[];
  /** Called twice, once to fit the column widths and once to write, so rows need not be kept in memory. */
  rows: () => Iterable<Row>;
}

const HEADER_FILL = 'FFD9E1F2';
// At least 10: exceljs leaves out a column of width 9, its default, and Excel's default is narrower.
const MIN_WIDTH = 10;
const MAX_WIDTH = 60;
/** Excel refuses longer cell texts. */
const MAX_CELL_CHARS = 32767;

function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  return typeof cell === 'string' ? cell : cell.text;
}

/** Text safe for a cell: no characters XML forbids, within Excel's length limit. */
export function excelText(text: string): string {
  const safe = xmlSafe(text);
  return safe.length > MAX_CELL_CHARS ? safe.slice(0, MAX_CELL_CHARS) : safe;
}

function longestLine(text: string): number {
  let max = 0;
  for (const line of text.split('\n')) if (line.length > max) max = line.length;
  return max;
}

/** Column widths in characters: the longest line of the header or any cell, plus a margin, capped. */
export function fitWidths(sheet: Sheet): number[] {
  const widths = sheet.header.map((h) => longestLine(h));
  for (const row of sheet.rows()) {
    row.cells.forEach((c, i) => {
      // Only the first MAX_WIDTH characters matter: skip measuring long texts line by line.
      const t = cellText(c);
      const w = t.length <= MAX_WIDTH ? t.length : t.includes('\n') ? longestLine(t) : t.length;
      if (w > (widths[i] ?? 0)) widths[i] = w;
    });
  }
  return widths.map((w) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w + 2)));
}

function excelValue(cell: Cell): ExcelJS.CellValue {
  if (cell === null || typeof cell === 'number') return cell;
  if (typeof cell === 'string') return cell === '' ? null : excelText(cell);
  return { text: excelText(cell.text), hyperlink: xmlSafe(cell.hyperlink) };
}

/**
 * Streams `bytes` (a producer writing into a PassThrough) to the sink as one artifact, resolving once
 * both the producer finished and the sink stored the bytes.
 */
export async function streamArtifact(sink: ArtifactSink, spec: ArtifactSpec, produce: (out: PassThrough) => Promise<void>): Promise<void> {
  const out = new PassThrough();
  const producing = produce(out).catch((err: unknown) => {
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  });
  const storing = sink.write(spec, out).catch((err: unknown) => {
    // Nobody reads any more: let the producer fail instead of waiting on back-pressure forever.
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    throw err;
  });
  await Promise.all([producing, storing]);
}

/**
 * An XLSX written with exceljs' streaming writer: rows go out as they are made, so memory stays
 * bounded whatever the number of documents. Each sheet has a bold, filled, frozen header row and
 * columns fitted to their content.
 */
export async function writeXlsx(sink: ArtifactSink, spec: ArtifactSpec, generatedAt: Date, sheets: readonly Sheet[]): Promise<void> {
  // Loaded when a workbook is first written, not at every process's start (~0.3 s). Before the sink
  // is called: the writer must own the stream before a failing sink can destroy it.
  const { default: excel } = await import('exceljs');
  return streamArtifact(sink, spec, async (stream) => {
    const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    workbook.creator = 'Quire';
    workbook.created = generatedAt;
    workbook.modified = generatedAt;
    for (const sheet of sheets) {
      const widths = fitWidths(sheet);
      const ws = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
      ws.columns = widths.map((width) => ({ width }));
      const header = ws.addRow(sheet.header.map(excelText));
      header.eachCell((cell) => {
        cell.font = { bold: true };
        cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: HEADER_FILL } };
        cell.border = { bottom: { style: 'thin' } };
      });
      header.commit();
      for (const r of sheet.rows()) {
        const row = ws.addRow(r.cells.map(excelValue));
        r.cells.forEach((c, i) => {
          if (c !== null && typeof c === 'object') row.getCell(i + 1).font = { color: { argb: 'FF0563C1' }, underline: true };
          const fill = r.fills?.[i];
          if (fill) row.getCell(i + 1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: fill } };
        });
        row.commit();
      }
      ws.commit();
    }
    await workbook.commit();
  });
}
