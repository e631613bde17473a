/**
 * What CSS says of an HTML element that the reader uses: whether it is shown, whether its text is bold,
 * and its font size. Rules come from the page's `<style>` sheets (selectors of one element: `p`, `.c3`,
 * `p.c3`, `#id`, `*`, in groups), then `<font size>`, then the `style` attribute, with the cascade's
 * order (importance, inline, specificity, source order). Google Docs and Word export their bold and
 * title sizes as classes; filings style inline and hide their XBRL facts with `display:none`.
 * Selectors with combinators, attributes or pseudo-classes are not matched, and at-rules (`@media`,
 * `@page`) are passed over.
 */

/** Browsers' default font size (16 px), in points. */
export const DEFAULT_PT = 12;

export interface ElementStyle {
  /** `display: none` or the `hidden` attribute: neither it nor anything inside it is shown. */
  hidden: boolean;
  /** true: bold; false: a normal weight, even inside bold; null: as its parent. */
  bold: boolean | null;
  /** Its font size, absolute or relative to its parent's; null: its parent's. */
  size: FontSize | null;
}

export type FontSize = { pt: number } | { factor: number };

/** An element's font size in points, given its parent's. */
export function resolveSize(size: FontSize, parentPt: number): number {
  const pt = 'pt' in size ? size.pt : size.factor * parentPt;
  return Math.min(Math.max(pt, 0.5), 999);
}

interface Declaration {
  property: 'display' | 'font-weight' | 'font-size' | 'font';
  value: string;
  important: boolean;
}

interface Rule {
  tag: string | null;
  id: string | null;
  classes: string[];
  specificity: number;
  order: number;
  declarations: Declaration[];
}

const PROPERTIES = new Set(['display', 'font-weight', 'font-size', 'font']);
/** One element's selector: an optional tag or `*`, then classes and ids. */
const SIMPLE_SELECTOR = /^(\*|[a-z][a-z0-9-]*)?((?:[.#][_a-z0-9-]+)*)$/i;
const KEYWORD_PX: Record<string, number> = {
  'xx-small': 9, 'x-small': 10, small: 13, medium: 16, large: 18, 'x-large': 24, 'xx-large': 32, 'xxx-large': 48,
};
/** `<font size="1">` … `"7"`, in px, as browsers size them. */
const FONT_TAG_PX = [10, 13, 16, 18, 24, 32, 48];
const UNIT_PT: Record<string, number> = { pt: 1, px: 0.75, pc: 12, in: 72, cm: 72 / 2.54, mm: 72 / 25.4 };
const NO_STYLE: ElementStyle = { hidden: false, bold: null, size: null };
const CACHE_LIMIT = 4096;

export class Stylesheet {
  private readonly byTag = new Map<string, Rule[]>();
  private readonly byClass = new Map<string, Rule[]>();
  private readonly byId = new Map<string, Rule[]>();
  private readonly universal: Rule[] = [];
  private readonly cache = new Map<string, ElementStyle>();
  private readonly empty: boolean;

  private constructor(rules: Rule[]) {
    this.empty = rules.length === 0;
    for (const rule of rules) {
      const index = rule.id !== null ? push(this.byId, rule.id) : rule.classes.length ? push(this.byClass, rule.classes[0]!) : rule.tag !== null ? push(this.byTag, rule.tag) : this.universal;
      index.push(rule);
    }
  }

  /** The rules of every `<style>` element of a page. */
  static of(html: string): Stylesheet {
    const rules: Rule[] = [];
    // Found with indexOf, not a lazy regular expression: unclosed `<style`s would make that quadratic.
    const lower = /<style/i.test(html) ? html.toLowerCase() : '';
    for (let at = lower.indexOf('<style'); at >= 0; ) {
      const open = lower.indexOf('>', at);
      const close = open < 0 ? -1 : lower.indexOf('</style', open);
      if (close < 0) break;
      if (/^<style[\s>/]/.test(lower.slice(at, at + 7))) parseSheet(html.slice(open + 1, close), rules);
      at = lower.indexOf('<style', close);
    }
    return new Stylesheet(rules);
  }

  /** The style of an element with these (lower-cased) tag name and attributes. */
  style(tag: string, attrs: Readonly<Record<string, string>>): ElementStyle {
    const inline = attrs.style;
    const fontSize = tag === 'font' ? attrs.size : undefined;
    if (this.empty && !inline && fontSize === undefined && !('hidden' in attrs)) return NO_STYLE;
    const key = `${tag}\0${attrs.class ?? ''}\0${attrs.id ?? ''}\0${inline ?? ''}\0${fontSize ?? ''}\0${'hidden' in attrs}`;
    let style = this.cache.get(key);
    if (!style) {
      style = this.compute(tag, attrs, inline, fontSize);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, style);
    }
    return style;
  }

  private compute(tag: string, attrs: Readonly<Record<string, string>>, inline: string | undefined, fontSize: string | undefined): ElementStyle {
    const classes = attrs.class ? attrs.class.split(/\s+/).filter(Boolean) : [];
    const id = attrs.id ?? null;
    const candidates = new Set<Rule>(this.universal);
    for (const rule of this.byTag.get(tag) ?? []) candidates.add(rule);
    for (const name of classes) for (const rule of this.byClass.get(name) ?? []) candidates.add(rule);
    if (id !== null) for (const rule of this.byId.get(id) ?? []) candidates.add(rule);
    // Declarations by weight: importance, then inline over the sheet, then specificity, then order.
    const weighted: { declaration: Declaration; weight: number }[] = [];
    for (const rule of candidates) {
      if ((rule.tag !== null && rule.tag !== tag) || (rule.id !== null && rule.id !== id) || !rule.classes.every((c) => classes.includes(c))) continue;
      for (const declaration of rule.declarations) weighted.push({ declaration, weight: rule.specificity * 1e6 + rule.order });
    }
    const tagSize = fontSize !== undefined ? fontTagSize(fontSize) : null;
    if (tagSize) weighted.push({ declaration: { property: 'font-size', value: `${tagSize}px`, important: false }, weight: -1 });
    if (inline) for (const declaration of parseDeclarations(inline)) weighted.push({ declaration, weight: 1e15 });
    for (const w of weighted) if (w.declaration.important) w.weight += 2e15;
    weighted.sort((a, b) => a.weight - b.weight);
    const style: ElementStyle = { hidden: 'hidden' in attrs, bold: null, size: null };
    let display: string | null = null;
    for (const { declaration } of weighted) {
      const value = declaration.value.toLowerCase();
      if (declaration.property === 'display') display = value;
      else if (declaration.property === 'font-weight') style.bold = weightIsBold(value) ?? style.bold;
      else if (declaration.property === 'font-size') style.size = parseSize(value) ?? style.size;
      else {
        const font = parseFontShorthand(value);
        if (font) {
          style.bold = font.bold;
          style.size = font.size;
        }
      }
    }
    if (display !== null) style.hidden = display === 'none';
    return style;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** The rules of one style sheet, appended to `rules` (their order continues its numbering). */
function parseSheet(css: string, rules: Rule[]): void {
  const text = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ').replace(/<!--|-->/g, ' ');
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open < 0) return;
    const prelude = text.slice(at, open).trim();
    const close = blockEnd(text, open);
    if (prelude.startsWith('@') || prelude.includes('@')) {
      // An at-rule: its block (nested rules of `@media`, `@page`'s margins) is passed over whole.
      at = close + 1;
      continue;
    }
    const body = text.slice(open + 1, close);
    at = close + 1;
    const declarations = parseDeclarations(body);
    if (!declarations.length) continue;
    for (const selector of prelude.split(',')) {
      const m = SIMPLE_SELECTOR.exec(selector.trim());
      if (!m || (!m[1] && !m[2])) continue;
      const parts = m[2]!.match(/[.#][^.#]+/g) ?? [];
      const ids = parts.filter((p) => p[0] === '#').map((p) => p.slice(1));
      if (ids.length > 1) continue;
      const classes = parts.filter((p) => p[0] === '.').map((p) => p.slice(1));
      const tag = m[1] && m[1] !== '*' ? m[1].toLowerCase() : null;
      rules.push({
        tag,
        id: ids[0] ?? null,
        classes,
        specificity: ids.length * 10_000 + classes.length * 100 + (tag ? 1 : 0),
        order: rules.length,
        declarations,
      });
    }
  }
}

/** Where the block opened at `open` closes (its nested blocks included), or the end of the text. */
function blockEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length;
}

function parseDeclarations(block: string): Declaration[] {
  const out: Declaration[] = [];
  for (const part of block.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    if (!PROPERTIES.has(property)) continue;
    let value = part.slice(colon + 1).trim();
    const important = /!\s*important\s*$/i.test(value);
    if (important) value = value.replace(/!\s*important\s*$/i, '').trim();
    if (value) out.push({ property: property as Declaration['property'], value, important });
  }
  return out;
}

function weightIsBold(value: string): boolean | null {
  if (value === 'bold' || value === 'bolder') return true;
  if (value === 'normal' || value === 'lighter' || value === 'initial') return false;
  const n = /^\d{3}$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n >= 600 : null;
}

function parseSize(value: string): FontSize | null {
  const keyword = KEYWORD_PX[value];
  if (keyword) return { pt: keyword * 0.75 };
  if (value === 'larger') return { factor: 1.2 };
  if (value === 'smaller') return { factor: 1 / 1.2 };
  const m = /^(\d{0,4}(?:\.\d+)?)(pt|px|pc|in|cm|mm|em|rem|%)$/.exec(value);
  if (!m || !m[1]) return null;
  const n = Number(m[1]);
  if (!(n > 0)) return null;
  const unit = m[2]!;
  if (unit === 'em') return { factor: n };
  if (unit === '%') return { factor: n / 100 };
  if (unit === 'rem') return { pt: n * DEFAULT_PT };
  return { pt: n * UNIT_PT[unit]! };
}

/** `font: [style variant weight] size[/line-height] family`: its weight (normal unless given) and size. */
function parseFontShorthand(value: string): { bold: boolean; size: FontSize } | null {
  let bold = false;
  for (const token of value.split(/\s+/)) {
    const size = parseSize(token.split('/')[0]!);
    if (size) return { bold, size };
    const weight = weightIsBold(token);
    if (weight !== null) bold = weight;
    else if (!/^(?:italic|oblique|small-caps|normal)$/.test(token)) return null;
  }
  return null;
}

/** `<font size="5">` or `"+1"` (from 3), in px. */
function fontTagSize(value: string): number | null {
  const m = /^\s*([+-]?)(\d)\s*$/.exec(value);
  if (!m) return null;
  const n = m[1] ? 3 + (m[1] === '+' ? 1 : -1) * Number(m[2]) : Number(m[2]);
  return FONT_TAG_PX[Math.min(Math.max(n, 1), 7) - 1]!;
}
