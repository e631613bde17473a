/**
 * Markdown saved as a text file (notes, READMEs, what a language model writes): its headings, lists,
 * tables and paragraphs as HTML for the HTML reader. Block structure only, line by line, and inline
 * marks by patterns that cannot backtrack: linear in the text, whatever it holds (general Markdown
 * parsers are superlinear on runs of emphasis marks).
 */

const ATX = /^ {0,3}(#{1,6})[ \t]+(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const QUOTE = /^ {0,3}>[ \t]?/;
const ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * Whether a text file is written in Markdown: a table under a row of dashes, or a "# heading" line
 * with another sign of Markdown (a second heading, a list, bold text, a link, a fence).
 */
export function looksLikeMarkdown(lines: readonly string[]): boolean {
  let headings = 0;
  let signs = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^ {0,3}#{1,6}[ \t]+\S/.test(line)) headings++;
    else if (line.includes('|') && TABLE_DELIMITER.test(lines[i + 1] ?? '') && lines[i + 1]!.includes('-')) return true;
    else if (ITEM.test(line) || FENCE.test(line) || /\*\*\S/.test(line) || /\]\([^()\s]+\)/.test(line)) signs++;
    if (headings >= 2 || (headings >= 1 && signs >= 1)) return true;
  }
  return false;
}

interface OpenList {
  indent: number;
  ordered: boolean;
}

/** The Markdown's blocks as HTML (text escaped; only the elements the HTML reader reads). */
export function markdownHtml(lines: readonly string[]): string {
  const out: string[] = [];
  const lists: OpenList[] = [];
  let paragraph: string[] = [];
  let itemOpen = false;
  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  const closeLists = (indent = -1) => {
    while (lists.length && lists[lists.length - 1]!.indent > indent) {
      out.push(lists.pop()!.ordered ? '</li></ol>' : '</li></ul>');
    }
    itemOpen = lists.length > 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      closeLists();
      const close = fence[1]!;
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(close); i++) code.push(escape(lines[i]!));
      out.push(`<pre>${code.join('\n')}</pre>`);
      continue;
    }
    if (!line.trim()) {
      flushParagraph();
      continue;
    }
    const heading = ATX.exec(line);
    if (heading) {
      flushParagraph();
      closeLists();
      const level = heading[1]!.length;
      out.push(`<h${level}>${inline(headingText(heading[2]!))}</h${level}>`);
      continue;
    }
    // A line of text underlined with "===" or "---" is a heading; "---" alone is a rule.
    const underline = SETEXT.exec(line);
    if (underline && paragraph.length === 1 && !lists.length) {
      const level = underline[1]!.startsWith('=') ? 1 : 2;
      out.push(`<h${level}>${inline(paragraph[0]!)}</h${level}>`);
      paragraph = [];
      continue;
    }
    if (RULE.test(line)) {
      flushParagraph();
      closeLists();
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && lines[i + 1]!.includes('-') && TABLE_DELIMITER.test(lines[i + 1]!)) {
      flushParagraph();
      closeLists();
      const rows = [cells(line)];
      for (i += 2; i < lines.length && lines[i]!.includes('|') && lines[i]!.trim(); i++) rows.push(cells(lines[i]!));
      i--;
      out.push(`<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</table>`);
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      flushParagraph();
      const indent = item[1]!.replace(/\t/g, '    ').length;
      const ordered = /\d/.test(item[2]!);
      closeLists(indent);
      const top = lists[lists.length - 1];
      if (top && top.indent === indent && top.ordered === ordered) {
        out.push('</li><li>');
      } else {
        if (top && top.indent === indent) closeLists(indent - 1);
        const start = ordered ? Number.parseInt(item[2]!, 10) : 1;
        out.push(ordered ? `<ol${start !== 1 ? ` start="${start}"` : ''}><li>` : '<ul><li>');
        lists.push({ indent, ordered });
      }
      itemOpen = true;
      paragraph.push(item[3]!);
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      flushParagraph();
      closeLists();
      out.push(`<blockquote><p>${inline(line.replace(/^(?: {0,3}>[ \t]?)+/, ''))}</p></blockquote>`);
      continue;
    }
    // Text under a list item, indented, goes on in it; text at the margin ends the lists.
    if (itemOpen && !/^[ \t]/.test(line) && paragraph.length === 0) closeLists();
    paragraph.push(line.trim());
  }
  flushParagraph();
  closeLists();
  return out.join('\n');
}

/** An ATX heading's text without the closing run of "#" a heading may end with ("## Title ##"). */
function headingText(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end--;
  if (end === trimmed.length || (end > 0 && trimmed[end - 1] !== ' ' && trimmed[end - 1] !== '\t')) return trimmed;
  return trimmed.slice(0, end).trimEnd();
}

/** A table row's cells: split on pipes not escaped, without the row's edge pipes. */
function cells(line: string): string[] {
  const parts = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '').split(/(?<!\\)\|/);
  return parts.map((c) => c.trim().replace(/\\\|/g, '|'));
}

/**
 * A line's inline marks as the HTML reader reads them: strong emphasis bold, links and images as
 * their text, code and other emphasis without their marks. Each pattern matches without nesting.
 */
function inline(text: string): string {
  return escape(text)
    .replace(/!?\[([^[\]\n]*)\]\([^()\s]*\)/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^*_\n]+?)\1/g, '<b>$2</b>')
    .replace(/(^|[\s(])([*_])(?=\S)([^*_\n]+?)\2(?=$|[\s).,;:!?])/g, '$1$3');
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
