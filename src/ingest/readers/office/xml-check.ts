/**
 * What makes an XML part too broken to hand to a DOM parser, or null: a tag (or comment) never
 * closed, or elements after the root element. On these xmldom (mammoth's parser) takes time
 * quadratic in their number (20,000 take seconds, 100,000 minutes), so such parts are refused first,
 * in one pass with indexOf. Other faults (an end tag that matches nothing) are the parser's to
 * forgive or refuse, quickly.
 */
export function brokenXml(xml: string): string | null {
  const open: string[] = [];
  let rootDone = false;
  for (let i = xml.indexOf('<'); i >= 0; i = xml.indexOf('<', i)) {
    const kind = xml.charCodeAt(i + 1);
    if (kind === BANG || kind === QUESTION) {
      // A comment, an instruction, a CDATA section or a declaration: up to its own end.
      const closer = xml.startsWith('<!--', i) ? '-->' : kind === QUESTION ? '?>' : xml.startsWith('<![CDATA[', i) ? ']]>' : '>';
      const end = xml.indexOf(closer, i + 2);
      if (end < 0) return 'a comment, instruction or declaration is never closed';
      i = end + closer.length;
      continue;
    }
    // A tag runs to its ">" (one inside a quoted attribute value is the value's) with no "<" inside
    // (looked for backwards, within the tag only).
    let close = xml.indexOf('>', i + 1);
    let odd = close >= 0 && oddQuotes(xml, i, close);
    while (odd) {
      const from = close;
      close = xml.indexOf('>', close + 1);
      odd = close >= 0 && oddQuotes(xml, from, close) !== odd;
    }
    if (close < 0 || xml.lastIndexOf('<', close) !== i) return 'a tag is never closed';
    const closing = kind === SLASH;
    let end = i + (closing ? 2 : 1);
    const start = end;
    for (let c = xml.charCodeAt(end); end < close && c !== SPACE && c !== TAB && c !== LF && c !== CR && c !== SLASH; c = xml.charCodeAt(++end));
    if (end === start) return 'a tag has no name';
    const name = xml.slice(start, end);
    if (closing) {
      // A stray or misplaced end tag is the DOM parser's to forgive: it closes what it names, if open.
      let at = open.length - 1;
      while (at >= 0 && at >= open.length - MAX_RECOVERY && open[at] !== name) at--;
      if (at >= 0 && open[at] !== name) at = -1;
      if (at >= 0) open.length = at;
      if (at === 0) rootDone = true;
    } else {
      if (rootDone) return 'there are elements after the root element';
      if (xml.charCodeAt(close - 1) !== SLASH) open.push(name);
      else if (open.length === 0) rootDone = true;
    }
    i = close + 1;
  }
  return null;
}

/** An odd number of double quotes from `from` up to `to`. */
function oddQuotes(xml: string, from: number, to: number): boolean {
  let odd = false;
  for (let k = from; k < to; k++) if (xml.charCodeAt(k) === QUOTE) odd = !odd;
  return odd;
}

/** How far down the open elements an end tag is looked for (deeper, it matches nothing). */
const MAX_RECOVERY = 64;
const QUOTE = 34;
const BANG = 33;
const QUESTION = 63;
const SLASH = 47;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
