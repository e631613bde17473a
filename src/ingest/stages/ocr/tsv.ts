export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OcrLine extends Box {
  /** Its text runs up or down the page (a rotated scan, a table's sideways header). */
  sideways: boolean;
}

/** A recognised word with its box and its line's, in the pixels of the image it was read from. */
export interface OcrWord {
  text: string;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
  box: Box;
  line: OcrLine;
}

// Tesseract's TSV levels and columns (the same from the CLI and from tesseract.js).
const LINE_LEVEL = '4';
const WORD_LEVEL = '5';
const LEFT = 6;
const TOP = 7;
const WIDTH = 8;
const HEIGHT = 9;
const CONF = 10;
const TEXT = 11;

/** The words of Tesseract's TSV output, each with the box of the line it belongs to. */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  let line: OcrLine = { x: 0, y: 0, width: 0, height: 0, sideways: false };
  let lineChars = 0;
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols[0] === LINE_LEVEL) {
      line = { ...boxOf(cols), sideways: false };
      lineChars = 0;
    } else if (cols[0] === WORD_LEVEL) {
      const text = (cols[TEXT] ?? '').trim();
      if (!text) continue;
      words.push({ text, confidence: Number(cols[CONF]), box: boxOf(cols), line });
      lineChars += text.length;
      // Upright, three characters are wider than tall; a line of one or two could be either.
      line.sideways = line.height > line.width && lineChars >= 3;
    }
  }
  return words;
}

function boxOf(cols: string[]): Box {
  return { x: Number(cols[LEFT]), y: Number(cols[TOP]), width: Number(cols[WIDTH]), height: Number(cols[HEIGHT]) };
}
