/**
 * XML 1.0 text: escaping, and dropping the characters XML 1.0 cannot carry at all (C0 controls other
 * than tab/LF/CR, U+FFFE/U+FFFF, lone surrogates). Office files are XML inside, so every string that
 * goes into XLSX or DOCX passes through `xmlSafe` too.
 */

// Everything outside #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The string without the characters XML 1.0 forbids. */
export function xmlSafe(text: string): string {
  return text.replace(INVALID, '');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// In attributes, tab/LF/CR would be normalised to spaces by parsers: keep them as references.
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** Character data: invalid characters dropped, markup characters escaped (CR kept as a reference). */
export function escapeText(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\r]/g, (c) => (c === '\r' ? '&#13;' : TEXT_ESCAPES[c]!));
}

/** An attribute value (for double quotes, but safe in single quotes too). */
export function escapeAttr(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\t\n\r]/g, (c) => ATTR_ESCAPES[c]!);
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
