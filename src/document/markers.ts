/**
 * List markers and heading numbers at the start of a line: "1.", "1.2.3", "(a)", "iv)", "•", and
 * "Article IV" / "Section 3(b)" headings.
 */
import type { ListStyle } from './structure.js';

export interface Marker {
  /** Where the marker ends in the line's text. */
  end: number;
  /**
   * Identity of the list the marker belongs to: items of one list share it ("dec" for 1. and
   * 1.2.3 alike, "(a)", "i)", "bullet:•").
   */
  key: string;
  style: ListStyle;
  ordered: boolean;
  /** Number of parts of a dotted number (1.2.3 → 3); 1 for every other marker. */
  depth: number;
  /** The item's ordinal (a → 1, iv → 4); 0 for bullets. */
  value: number;
}

const DOTTED_RE = /^(\d{1,3}(?:\.\d{1,3})+)\.?(?=\s|$)/;
const NUMBER_RE = /^(\(?)(\d{1,3})([.)])(?=\s|$)/;
const LETTER_RE = /^(\(?)([a-zA-Z]|[ivxlcIVXLC]{1,6})([.)])(?=\s|$)/;
const BULLET_RE = /^(?:[-–—*](?=\s)|[•●○◦▪■□‣∙·➢►✓\uf0b7\uf0a7])/;
const ROMAN_RE = /^(?:[ivxlc]+|[IVXLC]+)$/;

/**
 * Decides the letters that are both roman numerals and alphabet letters ("i", "v", "x"…): true when
 * they continue an alphabetic list (after "(h)" comes "(i)"), given that list's key and last value.
 */
export type AlphaContinues = (key: string, value: number) => boolean;

const ENDS_NUMBER_WORD_RE =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)$/iu;
const STARTS_FIGURE_RE = /^\(\d[\d,.]*\s?%?\)/u;

/** "… within thirty" over "(30) days of …": a figure in brackets under a number in words repeats it; it is no list marker. */
export function repeatsNumberInWords(previousLine: string, line: string): boolean {
  return STARTS_FIGURE_RE.test(line.trimStart()) && ENDS_NUMBER_WORD_RE.test(previousLine.trimEnd());
}

export function parseMarker(text: string, alphaContinues: AlphaContinues): Marker | null {
  let m = DOTTED_RE.exec(text);
  if (m) return { end: m[0].length, key: 'dec', style: 'decimal', ordered: true, depth: m[1]!.split('.').length, value: Number(m[1]!.split('.').pop()) };
  m = NUMBER_RE.exec(text);
  if (m) {
    const [, open, digits, close] = m;
    // "(408) 996-1010" is a telephone number: list numbers in parentheses are short.
    if (open && (close !== ')' || digits!.length > 2)) return null;
    const key = open ? '(1)' : close === '.' ? 'dec' : '1)';
    return { end: m[0].length, key, style: 'decimal', ordered: true, depth: 1, value: Number(digits) };
  }
  m = LETTER_RE.exec(text);
  if (m) {
    const [, open, letters, close] = m;
    if (open && close !== ')') return null;
    const upper = letters === letters!.toUpperCase();
    const alphaKey = `${open}${upper ? 'A' : 'a'}${close}`;
    const alphaValue = letters!.length === 1 ? letters!.toLowerCase().charCodeAt(0) - 96 : 0;
    const isRoman = ROMAN_RE.test(letters!) && !(alphaValue && alphaContinues(alphaKey, alphaValue));
    if (isRoman) {
      // A lone capital "I." is more often a pronoun or an initial than a numeral.
      if (letters === 'I' && close === '.') return null;
      return { end: m[0].length, key: `${open}${upper ? 'I' : 'i'}${close}`, style: upper ? 'upper-roman' : 'lower-roman', ordered: true, depth: 1, value: romanValue(letters!) };
    }
    if (!alphaValue) return null;
    return { end: m[0].length, key: alphaKey, style: upper ? 'upper-alpha' : 'lower-alpha', ordered: true, depth: 1, value: alphaValue };
  }
  m = BULLET_RE.exec(text);
  if (m) return { end: m[0].length, key: `bullet:${m[0]}`, style: 'circle', ordered: false, depth: 1, value: 0 };
  return null;
}

function romanValue(s: string): number {
  const v: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
  let total = 0;
  const lower = s.toLowerCase();
  for (let i = 0; i < lower.length; i++) {
    const cur = v[lower[i]!]!;
    const next = v[lower[i + 1] ?? ''] ?? 0;
    total += cur < next ? -cur : cur;
  }
  return total;
}

/**
 * "Article IV", "ARTICLE 1.", "Section 3(b)", "PART I", "Item 2.", "Note 4": how far the number reaches
 * and the heading's rank (articles and parts above sections and items, and those above the notes of
 * financial statements, which sit under an item).
 */
export function parseHeadingNumber(text: string): { end: number; rank: 'article' | 'section' | 'note' } | null {
  const m = /^(article|part|section|item|note|§)\s*(\d{1,3}[a-z]?(?:\.\d{1,3})*|[ivxlc]{1,6})(?:\([a-z0-9]{1,4}\))*[.:]?(?=\s|$)/i.exec(text);
  if (!m) return null;
  const word = m[1]!.toLowerCase();
  return { end: m[0].length, rank: word === 'article' || word === 'part' ? 'article' : word === 'note' ? 'note' : 'section' };
}
