/**
 * SmartArt in a DOCX: its text lives in a part of its own (`word/diagrams/dataN.xml`), which mammoth
 * never opens, so an org chart or a process diagram read as nothing. Here each SmartArt drawing of the
 * body becomes its text, a line for each shape, in the diagram's own order (parents before their
 * children, siblings by position), where the drawing stood.
 */

const DIAGRAM_DATA_TYPE = '/relationships/diagramData';
const DRAWING = /<w:drawing>[\s\S]*?<\/w:drawing>/g;
const DATA_REFERENCE = /<dgm:relIds\b[^<>]*\br:dm="([^"]+)"/;
const POINT = /<dgm:pt\b([^<>]*?)(?:\/>|>([\s\S]*?)<\/dgm:pt>)/g;
const CONNECTION = /<dgm:cxn\b([^<>]*?)\/?>/g;
const PARAGRAPH = /<a:p>([\s\S]*?)<\/a:p>/g;
const TEXT_RUN = /<a:t>([^<]*)<\/a:t>/g;

/** Points that hold content (not connections' transitions or the presentation's own shapes). */
const CONTENT_TYPES = new Set(['node', 'asst']);

const attribute = (attrs: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];

/** The target of each diagram-data relationship of a part (`word/_rels/document.xml.rels`), as a package path. */
export function diagramDataTargets(rels: string | undefined, partDir = 'word'): Map<string, string> {
  const out = new Map<string, string>();
  if (!rels || !rels.includes(DIAGRAM_DATA_TYPE)) return out;
  for (const m of rels.matchAll(/<Relationship\b([^<>]*)\/?>/g)) {
    const attrs = m[1]!;
    if (!attribute(attrs, 'Type')?.endsWith(DIAGRAM_DATA_TYPE)) continue;
    const id = attribute(attrs, 'Id');
    const target = attribute(attrs, 'Target');
    if (!id || !target || attribute(attrs, 'TargetMode') === 'External') continue;
    out.set(id, target.startsWith('/') ? target.slice(1) : normalise(`${partDir}/${target}`));
  }
  return out;
}

function normalise(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '..') out.pop();
    else if (seg && seg !== '.') out.push(seg);
  }
  return out.join('/');
}

/** The lines of text of one SmartArt data part, in the diagram's order. */
export function diagramLines(data: string): string[] {
  const texts = new Map<string, string>();
  const order: string[] = [];
  let root: string | undefined;
  for (const m of data.matchAll(POINT)) {
    const id = attribute(m[1]!, 'modelId');
    if (!id) continue;
    const type = attribute(m[1]!, 'type') ?? 'node';
    if (type === 'doc') root ??= id;
    if (!CONTENT_TYPES.has(type)) continue;
    const body = m[2] ?? '';
    const lines = [...body.matchAll(PARAGRAPH)].map((p) => [...p[1]!.matchAll(TEXT_RUN)].map((t) => t[1]).join('').trim()).filter(Boolean);
    texts.set(id, lines.join('\n'));
    order.push(id);
  }
  // The diagram's tree: "parOf" connections (the default type), each child at its position.
  const children = new Map<string, { id: string; at: number }[]>();
  for (const m of data.matchAll(CONNECTION)) {
    const attrs = m[1]!;
    if ((attribute(attrs, 'type') ?? 'parOf') !== 'parOf') continue;
    const src = attribute(attrs, 'srcId');
    const dest = attribute(attrs, 'destId');
    if (!src || !dest) continue;
    const list = children.get(src) ?? [];
    list.push({ id: dest, at: Number(attribute(attrs, 'srcOrd') ?? list.length) || 0 });
    children.set(src, list);
  }
  const seen = new Set<string>();
  const lines: string[] = [];
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const text = texts.get(id);
    if (text) lines.push(...text.split('\n'));
    for (const c of (children.get(id) ?? []).sort((a, b) => a.at - b.at)) visit(c.id);
  };
  if (root) visit(root);
  // Points the tree does not reach (no connections, or a broken list) keep the part's order.
  for (const id of order) visit(id);
  return lines;
}

/**
 * The part with each SmartArt drawing replaced by its text (line breaks between its shapes); the
 * same string when it has none or its data is missing.
 */
export function withDiagramText(xml: string, targets: ReadonlyMap<string, string>, parts: ReadonlyMap<string, string>): string {
  if (targets.size === 0 || !xml.includes('dgm:relIds')) return xml;
  return xml.replace(DRAWING, (drawing) => {
    const rid = DATA_REFERENCE.exec(drawing)?.[1];
    const data = rid && parts.get(targets.get(rid) ?? '');
    if (!data) return drawing;
    const lines = diagramLines(data);
    if (!lines.length) return drawing;
    return lines.map((line) => `<w:t xml:space="preserve">${line}</w:t>`).join('<w:br/>');
  });
}
