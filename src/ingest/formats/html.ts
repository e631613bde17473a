import { Parser } from 'htmlparser2';
import type { Block } from './blocks.js';

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'object', 'iframe']);
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'blockquote', 'pre',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'dt', 'dd', 'tr', 'table', 'ul', 'ol', 'dl', 'figure',
  'figcaption', 'caption', 'address', 'form', 'fieldset', 'hr', 'body', 'html', 'center',
]);
const CELLS = new Set(['td', 'th']);

/** Block structure of HTML: headings, paragraphs, list items, and table rows as lines (cells tab-joined). */
export function readHtml(html: string): Block[] {
  const blocks: Block[] = [];
  const stack: string[] = [];
  let skip = 0;
  let pre = 0;
  let buf = '';
  let cellsInRow = 0;
  // Inside a table cell, paragraphs (mammoth writes <td><p>…</p></td>) stay on the row's line.
  let cellDepth = 0;
  const inCellBlock = (name: string) => cellDepth > 0 && BLOCKS.has(name) && name !== 'table' && name !== 'tr';

  const kindOfStack = (): Pick<Block, 'kind' | 'level'> => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const t = stack[i]!;
      const h = /^h([1-6])$/.exec(t);
      if (h) return { kind: 'heading', level: Number(h[1]) };
      if (t === 'li' || t === 'dd') return { kind: 'list-item' };
      if (t === 'pre') return { kind: 'line' };
      if (BLOCKS.has(t)) return { kind: 'paragraph' };
    }
    return { kind: 'paragraph' };
  };
  const flush = () => {
    const kind = kindOfStack();
    const parts = kind.kind === 'line' ? buf.split('\n') : [buf];
    for (const part of parts) {
      const text = kind.kind === 'line' ? part.replace(/\s+$/, '') : part.replace(/[^\S\t]+/g, ' ').replace(/ *\t */g, '\t').trim();
      if (text || (kind.kind === 'line' && parts.length > 1)) blocks.push({ ...kind, text });
    }
    buf = '';
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (skip || SKIPPED.has(name)) {
          // htmlparser2 reports a close for every open (void and implied ones too): a depth count.
          skip++;
          return;
        }
        if (name === 'br') {
          if (pre) buf += '\n';
          else if (cellDepth) buf += ' ';
          else flush();
          return;
        }
        if (CELLS.has(name)) {
          if (cellsInRow++ > 0) buf += '\t';
          cellDepth++;
          return;
        }
        if (inCellBlock(name)) {
          buf += ' ';
          stack.push(name);
          return;
        }
        if (BLOCKS.has(name)) {
          flush();
          if (name === 'tr') cellsInRow = 0;
        }
        if (name === 'pre') pre++;
        stack.push(name);
      },
      ontext(text) {
        if (!skip) buf += text;
      },
      onclosetag(name) {
        if (skip) {
          skip--;
          return;
        }
        if (name === 'br') return;
        if (CELLS.has(name)) {
          cellDepth = Math.max(0, cellDepth - 1);
          return;
        }
        if (inCellBlock(name)) buf += ' ';
        else if (BLOCKS.has(name)) flush();
        if (name === 'pre') pre = Math.max(0, pre - 1);
        const at = stack.lastIndexOf(name);
        if (at >= 0) stack.length = at;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}
