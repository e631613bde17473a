/**
 * Word equations (Office Math, `m:oMath`) as linear text that mammoth reads as a run: "E=mc²",
 * "(a+b)/2", "∑_(i=1)^n x_i", "√(x²+y²)". mammoth drops them, text and all.
 *
 * The notation is the linear one Word itself types and shows for an equation ("UnicodeMath"): what a
 * reader of the text, or a search for it, can follow. Raised and lowered digits and signs become
 * Unicode's superscript and subscript characters; anything else raised or lowered takes ^ or _.
 */

interface MathNode {
  name: string;
  attrs: string;
  children: (MathNode | string)[];
}

const TOKEN = /<(\/?)([\w:.-]+)([^<>]*?)(\/?)>|([^<]+)/g;
const MATH_START = /<m:oMath(?:Para)?[\s>]/g;

const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
  '+': '⁺', '-': '⁻', '−': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', n: 'ⁿ', i: 'ⁱ',
};
const SUBSCRIPT: Record<string, string> = {
  '0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
  '+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎',
};

/** A part's equations as runs of their linear text; the same string when it has none. */
export function mathAsText(xml: string): string {
  if (!xml.includes('<m:oMath')) return xml;
  const out: string[] = [];
  let from = 0;
  MATH_START.lastIndex = 0;
  for (let m = MATH_START.exec(xml); m; m = MATH_START.exec(xml)) {
    const parsed = parseElement(xml, m.index);
    if (!parsed) break; // never closed: the rest is left as it is (the XML check refuses such parts)
    const lines = linear(parsed.node)
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    out.push(xml.slice(from, m.index));
    if (lines.length) out.push(`<w:r><w:t xml:space="preserve">${lines.join('</w:t><w:br/><w:t xml:space="preserve">')}</w:t></w:r>`);
    from = parsed.end;
    MATH_START.lastIndex = parsed.end;
  }
  out.push(xml.slice(from));
  return out.join('');
}

/** The element starting at `start` and where it ends, read in one pass; null when it is never closed. */
function parseElement(xml: string, start: number): { node: MathNode; end: number } | null {
  const stack: MathNode[] = [];
  let root: MathNode | null = null;
  TOKEN.lastIndex = start;
  for (let t = TOKEN.exec(xml); t; t = TOKEN.exec(xml)) {
    const [, closing, name, attrs, selfClosing, text] = t;
    if (text !== undefined) {
      stack.at(-1)?.children.push(text);
      continue;
    }
    if (closing) {
      const done = stack.pop();
      if (!done || done.name !== name) return null;
      if (stack.length === 0) return { node: done, end: TOKEN.lastIndex };
      continue;
    }
    const node: MathNode = { name: name!, attrs: attrs ?? '', children: [] };
    stack.at(-1)?.children.push(node);
    root ??= node;
    if (selfClosing) {
      if (node === root) return { node, end: TOKEN.lastIndex };
    } else {
      stack.push(node);
    }
  }
  return null;
}

const local = (n: MathNode) => n.name.slice(n.name.indexOf(':') + 1);
const child = (n: MathNode, name: string) => n.children.find((c): c is MathNode => typeof c !== 'string' && local(c) === name);
const childrenNamed = (n: MathNode, name: string) => n.children.filter((c): c is MathNode => typeof c !== 'string' && local(c) === name);

/** A property of an element's `…Pr` child (`<m:chr m:val="∑"/>`): its value, '' when it has none, undefined when absent. */
function property(n: MathNode, name: string): string | undefined {
  const props = n.children.find((c): c is MathNode => typeof c !== 'string' && local(c).endsWith('Pr'));
  const p = props && child(props, name);
  if (!p) return undefined;
  return /\bm:val="([^"]*)"/.exec(p.attrs)?.[1] ?? '';
}
const on = (v: string | undefined) => v !== undefined && !/^(?:0|off|false)$/.test(v);

const part = (n: MathNode, name: string) => {
  const c = child(n, name);
  return c ? linear(c) : '';
};

/** A term as an operand: as it is when it is one symbol, a number, a word or already bracketed; else in brackets. */
function group(text: string): string {
  const t = text.trim();
  if (/^(?:[\p{L}\p{N}.,]+|&\w+;|.)$/u.test(t) || /^\(.*\)$/.test(t) || /^\[.*\]$/.test(t)) return t;
  return `(${t})`;
}

function raised(text: string, table: Record<string, string>, mark: string): string {
  const t = text.trim();
  if (!t) return '';
  const chars = [...t];
  return chars.every((c) => table[c]) ? chars.map((c) => table[c]).join('') : `${mark}${group(t)}`;
}

function linear(n: MathNode): string {
  const name = local(n);
  if (name.endsWith('Pr')) return '';
  switch (name) {
    case 'oMathPara':
      return childrenNamed(n, 'oMath').map(linear).join('\n');
    case 't':
      return n.children.filter((c): c is string => typeof c === 'string').join('');
    case 'r':
      return childrenNamed(n, 't').map(linear).join('');
    case 'f': {
      const num = part(n, 'num');
      const den = part(n, 'den');
      return property(n, 'type') === 'noBar' ? `(${num.trim()}¦${den.trim()})` : `${group(num)}/${group(den)}`;
    }
    case 'sSup':
      return part(n, 'e') + raised(part(n, 'sup'), SUPERSCRIPT, '^');
    case 'sSub':
      return part(n, 'e') + raised(part(n, 'sub'), SUBSCRIPT, '_');
    case 'sSubSup':
      return part(n, 'e') + raised(part(n, 'sub'), SUBSCRIPT, '_') + raised(part(n, 'sup'), SUPERSCRIPT, '^');
    case 'sPre':
      return raised(part(n, 'sub'), SUBSCRIPT, '_') + raised(part(n, 'sup'), SUPERSCRIPT, '^') + part(n, 'e');
    case 'rad': {
      const degree = on(property(n, 'degHide')) ? '' : part(n, 'deg').trim();
      const base = part(n, 'e');
      if (!degree) return `√${group(base)}`;
      if (degree === '3') return `∛${group(base)}`;
      if (degree === '4') return `∜${group(base)}`;
      return `√(${degree}&amp;${base.trim()})`; // UnicodeMath's "√(n&x)", escaped: it goes back into the XML
    }
    case 'nary': {
      const operator = property(n, 'chr') || '∫';
      const sub = on(property(n, 'subHide')) ? '' : part(n, 'sub').trim();
      const sup = on(property(n, 'supHide')) ? '' : part(n, 'sup').trim();
      return `${operator}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${part(n, 'e').trim()}`;
    }
    case 'd': {
      const begin = property(n, 'begChr') ?? '(';
      const end = property(n, 'endChr') ?? ')';
      const separator = property(n, 'sepChr') ?? '|';
      return `${begin}${childrenNamed(n, 'e').map((e) => linear(e).trim()).join(separator)}${end}`;
    }
    case 'func': {
      const argument = part(n, 'e').trim();
      return `${part(n, 'fName').trim()}${/^[([]/.test(argument) ? '' : ' '}${argument}`;
    }
    case 'limLow':
      return `${part(n, 'e')}_${group(part(n, 'lim'))}`;
    case 'limUpp':
      return `${part(n, 'e')}^${group(part(n, 'lim'))}`;
    case 'eqArr':
      return childrenNamed(n, 'e').map(linear).join('\n');
    case 'm':
      return childrenNamed(n, 'mr')
        .map((row) => childrenNamed(row, 'e').map((e) => linear(e).trim()).join(' '))
        .join('; ');
    default:
      // oMath, e, num, den, sub, sup, deg, fName, lim, box, borderBox, bar, acc, groupChr, phant, and
      // anything newer: their text in order.
      return n.children.map((c) => (typeof c === 'string' ? '' : linear(c))).join('');
  }
}
