/**
 * Paragraphs a page cut in two, in a document converted from PDF. The converter ends a section at
 * each page's end (an empty paragraph holding the section's properties), so a paragraph running over
 * the page break comes out as two, the first stopping mid-sentence: "… at all times be an amount
 * equal to" / "three (3) times the monthly fixed rent …", "… within ten" / "(10) days of such demand …".
 * Word shows them as the page showed them, one running on into the other; read apart, the second
 * would be a paragraph of its own, or a list item ("(10)").
 */

/** A body paragraph: `<w:p …/>` or `<w:p …>…</w:p>` (a paragraph holding another, in a text box, is passed over below). */
const PARAGRAPH = /<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g;
const TEXT = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g;
/** Ends mid-sentence: a small letter or a comma ("… in good order and", "… mold,"). */
const CUT_END = /[\p{Ll},]$/u;
/** A paragraph this short is a title or a line of its own, not a page of running text. */
const MIN_CUT_CHARS = 60;

interface Found {
  start: number;
  end: number;
  xml: string;
  text: string;
}

/**
 * The document with each such pair joined: the second paragraph's runs move to the end of the first,
 * after a space, and the second stays, empty, where it was (so every paragraph keeps its place, for
 * the numbering read from the same document). Only pairs with nothing but empty paragraphs between
 * them, one of which ends a section; the first running text of a page's length that stops on a small
 * letter or a comma; the second neither numbered nor a heading.
 */
export function joinPageCuts(documentXml: string): string {
  if (!documentXml.includes('<w:sectPr')) return documentXml;
  const paragraphs: Found[] = [];
  for (const m of documentXml.matchAll(PARAGRAPH)) {
    const xml = m[0];
    paragraphs.push({ start: m.index!, end: m.index! + xml.length, xml, text: textOf(xml) });
  }
  const edits: { at: Found; xml: string }[] = [];
  for (let i = 0; i < paragraphs.length; i++) {
    const first = paragraphs[i]!;
    if (!first.text.trim()) continue;
    let j = i + 1;
    let sectionEnds = false;
    for (; j < paragraphs.length && !paragraphs[j]!.text.trim(); j++) if (paragraphs[j]!.xml.includes('<w:sectPr')) sectionEnds = true;
    const second = paragraphs[j];
    if (!sectionEnds || !second || !cutAfter(first) || !continuation(second)) continue;
    // Only paragraphs side by side in the body: no table, cell or text box between or inside them.
    const span = documentXml.slice(first.start, second.end);
    if (/<w:(?:tbl|tc|txbxContent)\b|<\/w:(?:tbl|tc)>/.test(span)) continue;
    const body = bodyOf(second.xml);
    if (body === null) continue;
    edits.push({ at: first, xml: first.xml.replace(/<\/w:p>$/, `<w:r><w:t xml:space="preserve"> </w:t></w:r>${body.runs}</w:p>`) });
    edits.push({ at: second, xml: `${body.open}${body.properties}</w:p>` });
    i = j - 1;
  }
  if (!edits.length) return documentXml;
  let out = '';
  let from = 0;
  for (const e of edits) {
    out += documentXml.slice(from, e.at.start) + e.xml;
    from = e.at.end;
  }
  return out + documentXml.slice(from);
}

function textOf(xml: string): string {
  let text = '';
  for (const m of xml.matchAll(TEXT)) text += m[1];
  return text;
}

function cutAfter(p: Found): boolean {
  const text = p.text.trim();
  return text.length >= MIN_CUT_CHARS && CUT_END.test(text) && !p.xml.endsWith('/>');
}

function continuation(p: Found): boolean {
  return !/<w:numPr\b/.test(p.xml) && !/<w:pStyle w:val="(?:Heading|Title|Subtitle)/i.test(p.xml);
}

/** A paragraph's opening tag, its properties and its runs (null: not a paragraph this can move). */
function bodyOf(xml: string): { open: string; properties: string; runs: string } | null {
  const open = /^<w:p\b[^>]*>/.exec(xml)?.[0];
  if (!open || open.endsWith('/>')) return null;
  const inner = xml.slice(open.length, -'</w:p>'.length);
  if (/<w:p\b/.test(inner)) return null;
  const pPr = /^\s*<w:pPr\b(?:[^>]*\/>|[\s\S]*?<\/w:pPr>)/.exec(inner)?.[0] ?? '';
  return { open, properties: pPr, runs: inner.slice(pPr.length) };
}
