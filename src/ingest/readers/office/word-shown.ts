/**
 * A WordprocessingML part rewritten before it is read: as Word shows it (for mammoth and for the
 * rendition alike), and then with what mammoth passes over put in elements it reads.
 */
import { mathAsText } from './word-math.js';
import { acceptedRevisions, hasRevisions } from './word-revisions.js';

/**
 * The part as Word shows it: text formatted hidden left out (Word neither shows nor prints it),
 * tracked changes accepted, simple fields as their last results. The same string when nothing changes.
 */
export function asShown(xml: string): string {
  let shown = HIDDEN.test(xml) ? withoutHiddenRuns(xml) : xml;
  if (hasRevisions(shown)) shown = acceptedRevisions(shown);
  // A simple field shows its last result ("March 3, 2024" for a DATE field), which mammoth drops with the field.
  if (shown.includes('<w:fldSimple')) shown = withSimpleFieldResults(shown);
  return shown;
}

/** Elements whose text or breaks mammoth drops. */
const UNREAD = /<w:(?:ptab|cr|dir|bdo|ruby)\b|<m:oMath|<wps:txbx\b/;
const BREAKS = /<w:(?:ptab|cr)\b[^<>]*>(?:<\/w:(?:ptab|cr)>)?/g;
const DIRECTION_TAGS = /<\/?w:(?:dir|bdo)\b[^<>]*>/g;

/**
 * The part as mammoth can read it: a positional tab and a carriage return as the tab and the line
 * break they are (else "Left⇥Right↵Next" reads "LeftRightNext"), text set right to left (`w:dir`,
 * `w:bdo`) without its wrapper, a ruby as its base text (its reading guide left out), an equation
 * as its linear text, and a DrawingML text box as a VML one.
 */
export function readableByMammoth(xml: string): string {
  if (!UNREAD.test(xml)) return xml;
  const out = mathAsText(xml.replace(BREAKS, (tag) => (tag.startsWith('<w:cr') ? '<w:br/>' : '<w:tab/>')).replace(DIRECTION_TAGS, ''));
  const read = out.includes('<wps:txbx') ? textBoxesAsVml(out) : out;
  return read.includes('<w:ruby') ? rubyAsBase(read) : read;
}

const ALTERNATE_START = '<mc:AlternateContent';
const ALTERNATE_END = '</mc:AlternateContent>';
const DRAWING = /<w:drawing>[\s\S]*?<\/w:drawing>/g;
const TEXT_BOX_CONTENT = /<w:txbxContent>[\s\S]*?<\/w:txbxContent>/g;

/**
 * A text box drawn as a DrawingML shape (`wps:txbx`, Word 2010 and later, with no VML fallback, as
 * LibreOffice and other writers save it) as the VML text box mammoth reads. Shapes inside
 * `mc:AlternateContent` are left alone: mammoth reads their fallback, which holds the same text.
 */
function textBoxesAsVml(xml: string): string {
  const out: string[] = [];
  let from = 0;
  while (from < xml.length) {
    const alternate = xml.indexOf(ALTERNATE_START, from);
    const until = alternate < 0 ? xml.length : alternate;
    out.push(xml.slice(from, until).replace(DRAWING, (drawing) => {
      const boxes = drawing.match(TEXT_BOX_CONTENT);
      return boxes ? `<w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox>${boxes.join('')}</v:textbox></v:shape></w:pict>` : drawing;
    }));
    if (alternate < 0) break;
    const end = xml.indexOf(ALTERNATE_END, alternate);
    const next = end < 0 ? xml.length : end + ALTERNATE_END.length;
    out.push(xml.slice(alternate, next));
    from = next;
  }
  return out.join('');
}

/** Each `<w:ruby>` element as `<w:t>` of its base's text, in one pass with indexOf (an unclosed one ends the search). */
function rubyAsBase(xml: string): string {
  const kept: string[] = [];
  let from = 0;
  for (let start = xml.indexOf('<w:ruby>', from); start >= 0; start = xml.indexOf('<w:ruby>', from)) {
    const end = xml.indexOf('</w:ruby>', start);
    if (end < 0) break;
    const ruby = xml.slice(start, end);
    const baseAt = ruby.indexOf('<w:rubyBase>');
    const base = baseAt < 0 ? '' : [...ruby.slice(baseAt).matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
    kept.push(xml.slice(from, start), `<w:t xml:space="preserve">${base}</w:t>`);
    from = end + '</w:ruby>'.length;
  }
  kept.push(xml.slice(from));
  return kept.join('');
}

/** A simple field's start or end tag, or the whole of one without a result. */
const SIMPLE_FIELD_TAG = /<w:fldSimple\b[^<>]*\/>|<\/?w:fldSimple\b[^<>]*>/g;
/** Fields that are worked out on each page, whose last result is one page's ("PAGE" in a footer). */
const PAGE_FIELD = /w:instr="\s*(?:PAGE|NUMPAGES|SECTIONPAGES|SECTION|PAGEREF)\b/i;

/**
 * Simple fields as their last results: the field's tags go, its result runs stay (simple fields do
 * not nest). Page fields stay fields, for the rendition to number its pages.
 */
function withSimpleFieldResults(xml: string): string {
  let keptOpen = false;
  return xml.replace(SIMPLE_FIELD_TAG, (tag) => {
    if (tag.startsWith('</')) {
      const keep = keptOpen;
      keptOpen = false;
      return keep ? tag : '';
    }
    if (!PAGE_FIELD.test(tag)) return '';
    keptOpen = !tag.endsWith('/>');
    return tag;
  });
}

/** A run property that hides the run (`<w:vanish/>`, not turned off with w:val="0" or "false"). */
const HIDDEN = /<w:vanish(?![^<>]*w:val="(?:0|false|off)")[^<>]*\/?>/;
/** A run's start tag (not its properties' `<w:rPr>`, nor `<w:rFonts>`): runs do not nest. */
const RUN_START = /<w:r[\s>]/g;
const RUN_END = '</w:r>';
const RUN_PROPERTIES = /<w:rPr>[\s\S]*?<\/w:rPr>/;

/**
 * The part's XML without the runs formatted hidden (their paragraphs stay, so numbering still lines
 * up). One pass with indexOf: a lazy expression over unclosed runs would be quadratic.
 */
export function withoutHiddenRuns(xml: string): string {
  const kept: string[] = [];
  let from = 0;
  RUN_START.lastIndex = 0;
  for (let m = RUN_START.exec(xml); m; m = RUN_START.exec(xml)) {
    const end = xml.indexOf(RUN_END, m.index);
    if (end < 0) break;
    const run = xml.slice(m.index, end + RUN_END.length);
    const props = RUN_PROPERTIES.exec(run);
    if (props && HIDDEN.test(props[0])) {
      kept.push(xml.slice(from, m.index));
      from = end + RUN_END.length;
    }
    RUN_START.lastIndex = end + RUN_END.length;
  }
  kept.push(xml.slice(from));
  return kept.join('');
}
