/** The structure outline of a DGML document: headings (sections) and tables, in reading order. */
export interface OutlineItem { kind: 'section' | 'table'; text: string; depth: number; page: number | null }

function pageOf(el: Element): number | null {
  const m = /page:\s*(\d+)/.exec(el.getAttribute('data-bbox') ?? '');
  if (m) return Number(m[1]);
  const inner = el.querySelector('[data-bbox*="page:"]');
  const n = inner ? /page:\s*(\d+)/.exec(inner.getAttribute('data-bbox') ?? '') : null;
  return n ? Number(n[1]) : null;
}

export function outline(xml: string): OutlineItem[] {
  // DGML keeps bounding boxes in `style` attributes: renamed before parsing, since a parsed style
  // attribute counts as inline style under the page's CSP (refused, and reported as a violation).
  const doc = new DOMParser().parseFromString(xml.replace(/(\s)style=(["'])/g, '$1data-bbox=$2'), 'application/xml');
  if (doc.querySelector('parsererror')) return [];
  const out: OutlineItem[] = [];
  const walk = (el: Element, depth: number) => {
    const s = el.getAttribute('structure') ?? '';
    if (/^h\d$/.test(s)) {
      out.push({ kind: 'section', text: (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 120), depth, page: pageOf(el) });
    } else if (s === 'table') {
      const rows = [...el.getElementsByTagName('*')].filter((c) => c.getAttribute('structure') === 'tr').length;
      out.push({ kind: 'table', text: `Table, ${rows} rows`, depth, page: pageOf(el) });
      return;
    }
    const nested = s === 'div' || s === 'section' ? depth + 1 : depth;
    for (const c of el.children) walk(c, nested);
  };
  if (doc.documentElement) walk(doc.documentElement, 0);
  return out;
}
