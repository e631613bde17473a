/**
 * Word's tracked changes, accepted: a part's XML as the document reads once every revision is
 * accepted, which is what mammoth reads and what the rendition must show (LibreOffice prints
 * deletions struck through and moved text twice).
 */

/** Whether a part holds any revision mark this module would change. */
export function hasRevisions(xml: string): boolean {
  return REVISION.test(xml);
}
const REVISION = /<w:(?:ins|del|moveFrom|moveTo|rPrChange|pPrChange|sectPrChange|tblPrChange|tblPrExChange|trPrChange|tcPrChange|tblGridChange|numberingChange)[\s>/]/;

/** Elements removed with everything in them: deleted or moved-away text, and the formatting a change replaced. */
const DROPPED = new Set([
  'w:del', 'w:moveFrom', 'w:rPrChange', 'w:pPrChange', 'w:sectPrChange', 'w:tblPrChange', 'w:tblPrExChange',
  'w:trPrChange', 'w:tcPrChange', 'w:tblGridChange', 'w:numberingChange',
]);
/** Elements whose content stays and whose tags go: inserted and moved-here text. */
const UNWRAPPED = new Set(['w:ins', 'w:moveTo']);

// `[^<>]`: a tag never closed ends at the next one, so unclosed tags cannot make the scan quadratic.
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)[^<>]*?(\/?)>/g;

interface Frame {
  name: string;
  /** Index in the output where this element starts. */
  at: number;
  /** A deletion mark in its properties: the row, or the paragraph's mark, was deleted. */
  deleted: boolean;
  /** A paragraph still holding text (or a drawing, a tab, a break) once deletions are gone. */
  content: boolean;
}

/**
 * The part's XML with every revision accepted, in one pass over its tags:
 * - deleted and moved-away runs (`w:del`, `w:moveFrom`) are removed, inserted and moved-here runs
 *   (`w:ins`, `w:moveTo`) lose their wrapper, and recorded former formatting (`w:*PrChange`) goes;
 * - a table row marked deleted is removed with its cells;
 * - a paragraph whose mark was deleted is removed when nothing of it is left (a wholly deleted
 *   paragraph); one that keeps text stays a paragraph of its own (Word would join it to the next).
 * Malformed XML (an element never closed) keeps what came before it.
 */
export function acceptedRevisions(xml: string): string {
  const out: string[] = [];
  const frames: Frame[] = [];
  let from = 0;
  /** Inside a dropped element: its name and how many of that name are open. */
  let dropping: { name: string; depth: number } | null = null;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(xml); m; m = TAG.exec(xml)) {
    const tag = m[0];
    const closing = m[1] === '/';
    const name = m[2]!;
    const selfClosing = m[3] === '/';
    if (dropping) {
      if (name === dropping.name && !selfClosing) dropping.depth += closing ? -1 : 1;
      if (dropping.depth === 0) {
        dropping = null;
        from = m.index + tag.length;
      }
      continue;
    }
    const text = xml.slice(from, m.index);
    if (text) {
      out.push(text);
      if (/\S/.test(text) && insideText(frames)) markContent(frames);
    }
    from = m.index + tag.length;
    if (DROPPED.has(name)) {
      if (selfClosing) {
        // A mark in properties: `<w:trPr><w:del/>` deletes the row, `<w:pPr><w:rPr><w:del/>` the paragraph's mark.
        if (name === 'w:del' || name === 'w:moveFrom') markDeleted(frames);
      } else if (!closing) dropping = { name, depth: 1 };
      continue;
    }
    if (UNWRAPPED.has(name)) continue;
    if (name === 'w:tr' || name === 'w:p') {
      if (closing) {
        const frame = popFrame(frames, name);
        if (frame && frame.deleted && (name === 'w:tr' || !frame.content)) {
          out.length = frame.at;
          continue;
        }
        if (frame?.content) markContent(frames);
      } else if (!selfClosing) {
        frames.push({ name, at: out.length, deleted: false, content: false });
      }
    } else if (!closing && CONTENT.has(name) && frames.length) {
      markContent(frames);
    } else if (name === 'w:t' && !closing && !selfClosing) {
      frames.push({ name: 'w:t', at: out.length, deleted: false, content: false });
    } else if (name === 'w:t' && closing) {
      popFrame(frames, 'w:t');
    }
    out.push(tag);
  }
  if (!dropping) out.push(xml.slice(from));
  return out.join('');
}

/** Run content that is something on the page even without text. */
const CONTENT = new Set(['w:drawing', 'w:pict', 'w:object', 'w:tab', 'w:br', 'w:sym', 'w:fldSimple']);

function insideText(frames: Frame[]): boolean {
  return frames.length > 0 && frames[frames.length - 1]!.name === 'w:t';
}

/** The innermost open paragraph or row holds content. */
function markContent(frames: Frame[]): void {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (frames[i]!.name === 'w:t') continue;
    frames[i]!.content = true;
    return;
  }
}

/** A deletion mark belongs to the innermost open row or paragraph (the one whose properties hold it). */
function markDeleted(frames: Frame[]): void {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (frames[i]!.name === 'w:t') continue;
    frames[i]!.deleted = true;
    return;
  }
}

/** Closes the innermost open element of that name (and any left open inside it by malformed XML). */
function popFrame(frames: Frame[], name: string): Frame | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (frames[i]!.name !== name) continue;
    const [frame] = frames.splice(i);
    return frame;
  }
  return undefined;
}
