/**
 * Word's list numbering as Word shows it ("40.", "(a)", "41.1", "iv."): mammoth turns numbered
 * paragraphs into nested lists but drops their number formats, start values and continuation, so a
 * lease's "(a) Not to cause…" came out as "1.". This reads numbering.xml, styles.xml and
 * document.xml, finds each paragraph's numbering level the way mammoth does, and counts as Word
 * counts: one counter per abstract numbering (list instances sharing one continue it) unless an
 * instance overrides its start; a level restarts after a higher one.
 */
import { Parser } from 'htmlparser2';

interface Level {
  start: number;
  format: string;
  text: string;
  legal: boolean;
  /** Restarts after a level above this 1-based level; 0 never; undefined after any level above. */
  restart?: number;
  paragraphStyle?: string;
}

interface AbstractNum {
  levels: Map<number, Level>;
  styleLink?: string;
}

interface Num {
  abstractId: string;
  startOverrides: Map<number, number>;
}

/** A numbered paragraph of the body, in document order: Word's label for it (null for bullets) and its text. */
export interface NumberedParagraph {
  label: string | null;
  text: string;
}

const MAX_LEVELS = 9;

export function numberedParagraphs(documentXml: string, numberingXml: string, stylesXml = ''): NumberedParagraph[] {
  const { abstracts, nums } = readNumbering(numberingXml);
  const numberingStyles = readNumberingStyles(stylesXml);
  const byParagraphStyle = new Map<string, { abstractId: string; ilvl: number }>();
  for (const [abstractId, a] of abstracts) for (const [ilvl, l] of a.levels) if (l.paragraphStyle) byParagraphStyle.set(l.paragraphStyle, { abstractId, ilvl });

  const find = (numId: string, ilvl: number): { abstractId: string; ilvl: number; numId?: string } | null => {
    const seen = new Set<string>();
    for (let id: string | undefined = numId; id !== undefined && !seen.has(id); ) {
      seen.add(id);
      const num = nums.get(id);
      const abstract = num && abstracts.get(num.abstractId);
      if (!num || !abstract) return null;
      if (abstract.styleLink === undefined) return abstract.levels.has(ilvl) ? { abstractId: num.abstractId, ilvl, numId: id } : null;
      id = numberingStyles.get(abstract.styleLink);
    }
    return null;
  };

  const counters = new Map<string, (number | undefined)[]>();
  const overridden = new Set<string>();
  const out: NumberedParagraph[] = [];
  for (const p of readParagraphs(documentXml)) {
    // As mammoth: the paragraph's own numbering, else its style's, else level 0 of its numbering.
    let at: { abstractId: string; ilvl: number; numId?: string } | null = null;
    if (p.numId !== undefined && p.ilvl !== undefined) at = find(p.numId, p.ilvl);
    else at = (p.style !== undefined ? byParagraphStyle.get(p.style) : undefined) ?? (p.numId !== undefined ? find(p.numId, 0) : null);
    if (!at) continue;
    const abstract = abstracts.get(at.abstractId)!;
    const count = counters.get(at.abstractId) ?? new Array<number | undefined>(MAX_LEVELS).fill(undefined);
    counters.set(at.abstractId, count);
    const level = abstract.levels.get(at.ilvl)!;
    const override = at.numId !== undefined ? nums.get(at.numId)!.startOverrides.get(at.ilvl) : undefined;
    const key = `${at.numId}:${at.ilvl}`;
    if (override !== undefined && !overridden.has(key)) {
      overridden.add(key);
      count[at.ilvl] = override;
    } else {
      count[at.ilvl] = count[at.ilvl] === undefined ? level.start : count[at.ilvl]! + 1;
    }
    for (let k = at.ilvl + 1; k < MAX_LEVELS; k++) {
      const deeper = abstract.levels.get(k);
      const restartBelow = deeper?.restart ?? k;
      if (at.ilvl < restartBelow) count[k] = undefined;
    }
    out.push({ label: labelOf(abstract, at.ilvl, count), text: p.text });
  }
  return out;
}

function labelOf(abstract: AbstractNum, ilvl: number, count: (number | undefined)[]): string | null {
  const level = abstract.levels.get(ilvl)!;
  if (level.format === 'bullet' || level.format === 'none') return null;
  const label = level.text.replace(/%([1-9])/g, (_, n: string) => {
    const k = Number(n) - 1;
    const l = abstract.levels.get(k);
    const value = count[k] ?? l?.start ?? 1;
    return formatNumber(value, level.legal ? 'decimal' : (l?.format ?? 'decimal'));
  });
  return label.trim() || null;
}

const ROMAN: [number, string][] = [
  [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
];

function roman(n: number): string {
  let out = '';
  for (const [value, digits] of ROMAN) for (; n >= value; n -= value) out += digits;
  return out;
}

/** Beyond these, letters and roman numerals would be absurdly long (a start of 10⁹ in numbering.xml): digits. */
const MAX_LETTERS = 26 * 10;
const MAX_ROMAN = 3999;

/** Word's letters: a…z, then aa…zz, aaa… */
function letters(n: number): string {
  if (n < 1 || n > MAX_LETTERS) return String(n);
  return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

export function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return n > 0 && n <= MAX_ROMAN ? roman(n) : String(n);
    case 'upperRoman':
      return n > 0 && n <= MAX_ROMAN ? roman(n).toUpperCase() : String(n);
    case 'decimalZero':
      return n < 10 && n >= 0 ? `0${n}` : String(n);
    case 'ordinal':
      return ordinal(n);
    default:
      return String(n);
  }
}

/** An integer attribute; whatever else a hostile or broken file holds counts as `fallback`. */
function int(value: string | undefined, fallback: number): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isSafeInteger(n) ? n : fallback;
}

function attr(attrs: Record<string, string>, name: string): string | undefined {
  return attrs[`w:${name}`];
}

function readNumbering(xml: string): { abstracts: Map<string, AbstractNum>; nums: Map<string, Num> } {
  const abstracts = new Map<string, AbstractNum>();
  const nums = new Map<string, Num>();
  let abstract: AbstractNum | null = null;
  let level: Level | null = null;
  let num: Num | null = null;
  let overrideLevel: number | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const val = attr(attrs, 'val');
        if (name === 'w:abstractNum') {
          abstract = { levels: new Map() };
          abstracts.set(attr(attrs, 'abstractNumId') ?? '', abstract);
        } else if (name === 'w:num') {
          num = { abstractId: '', startOverrides: new Map() };
          nums.set(attr(attrs, 'numId') ?? '', num);
        } else if (num && name === 'w:abstractNumId') {
          num.abstractId = val ?? '';
        } else if (num && name === 'w:lvlOverride') {
          overrideLevel = int(attr(attrs, 'ilvl'), 0);
        } else if (num && overrideLevel !== null && name === 'w:startOverride') {
          num.startOverrides.set(overrideLevel, int(val, 0));
        } else if (abstract && name === 'w:lvl') {
          level = { start: 1, format: 'decimal', text: '', legal: false };
          const ilvl = int(attr(attrs, 'ilvl'), 0);
          // Word has nine levels (0–8); others are never shown.
          if (ilvl >= 0 && ilvl < MAX_LEVELS) abstract.levels.set(ilvl, level);
        } else if (abstract && name === 'w:numStyleLink') {
          abstract.styleLink = val;
        } else if (level) {
          if (name === 'w:start') level.start = int(val, 1);
          else if (name === 'w:numFmt') level.format = val ?? 'decimal';
          else if (name === 'w:lvlText') level.text = val ?? '';
          else if (name === 'w:isLgl') level.legal = val !== '0' && val !== 'false';
          else if (name === 'w:lvlRestart') level.restart = int(val, 0);
          else if (name === 'w:pStyle') level.paragraphStyle = val;
        }
      },
      onclosetag(name) {
        if (name === 'w:abstractNum') abstract = null;
        else if (name === 'w:num') num = null;
        else if (name === 'w:lvl') level = null;
        else if (name === 'w:lvlOverride') overrideLevel = null;
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  return { abstracts, nums };
}

/** Numbering styles (w:style w:type="numbering") and the numbering instance each names. */
function readNumberingStyles(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  let style: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'w:style') style = attr(attrs, 'type') === 'numbering' ? (attr(attrs, 'styleId') ?? null) : null;
        else if (style && name === 'w:numId') out.set(style, attr(attrs, 'val') ?? '');
      },
      onclosetag(name) {
        if (name === 'w:style') style = null;
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  return out;
}

interface RawParagraph {
  style?: string;
  numId?: string;
  ilvl?: number;
  text: string;
}

/** The body's paragraphs in document order, with their style, numbering properties and text. */
function readParagraphs(xml: string): RawParagraph[] {
  const out: RawParagraph[] = [];
  const open: RawParagraph[] = [];
  /** Element names from the innermost paragraph down: properties count only as its pPr's own children. */
  let path: string[] = [];
  const paths: string[][] = [];
  let inText = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'w:p') {
          const p: RawParagraph = { text: '' };
          open.push(p);
          out.push(p);
          paths.push(path);
          path = [];
          return;
        }
        path.push(name);
        const p = open[open.length - 1];
        if (!p) return;
        if (name === 'w:t') inText = true;
        // Only the paragraph's own properties (joined only that deep: nesting costs nothing).
        if (path[0] !== 'w:pPr' || path.length > 3) return;
        const where = path.join('/');
        const val = attr(attrs, 'val');
        if (where === 'w:pPr/w:pStyle') p.style = val;
        else if (where === 'w:pPr/w:numPr/w:numId') p.numId = val;
        else if (where === 'w:pPr/w:numPr/w:ilvl') p.ilvl = int(val, 0);
      },
      ontext(text) {
        if (inText) open[open.length - 1]!.text += text;
      },
      onclosetag(name) {
        if (name === 'w:p') {
          open.pop();
          path = paths.pop() ?? [];
          return;
        }
        if (name === 'w:t') inText = false;
        path.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return out;
}
