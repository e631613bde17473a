/**
 * The order in which TXT and HTML bytes are given an encoding (src/ingest/readers/text/encoding.ts):
 * BOM, transport charset, <meta> prescan, then UTF-8 when valid, else Windows-1252. The exact text of
 * real legacy files through the API is test/api/encodings.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeHtml, decodeText } from '../../src/ingest/readers/text/encoding.js';

const latin2 = (text: string) => {
  const decoder = new TextDecoder('iso-8859-2');
  const table = new Map<string, number>();
  for (let b = 255; b >= 0; b--) table.set(decoder.decode(Uint8Array.of(b)), b);
  return Buffer.from([...text].map((ch) => table.get(ch)!));
};
const page = (head: string, body: string) => `<html><head>${head}<title>t</title></head><body><p>${body}</p></body></html>`;
const POLISH = 'Zażółć gęślą jaźń';

describe('text encodings', () => {
  test('TXT: a BOM wins; valid UTF-8 is UTF-8; other bytes are Windows-1252 (0x80–0x9F its punctuation, not C1 controls)', () => {
    assert.equal(decodeText(Buffer.from('\ufeffcafé €', 'utf8')), 'café €');
    assert.equal(decodeText(Buffer.from('café €', 'utf8')), 'café €');
    assert.equal(decodeText(Buffer.from([0x93, 0x41, 0x94, 0x20, 0x96, 0x20, 0x97, 0x20, 0x80, 0x20, 0xe9])), '“A” – — € é');
    assert.equal(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('żółw', 'utf16le').swap16()])), 'żółw');
  });

  test("HTML: the page's own <meta> names the encoding; <meta http-equiv> too; one in a comment does not", () => {
    assert.equal(decodeHtml(latin2(page('<meta charset="iso-8859-2">', POLISH))), page('<meta charset="iso-8859-2">', POLISH));
    const equiv = page('<meta http-equiv="content-type" content="text/html; charset=ISO-8859-2">', POLISH);
    assert.equal(decodeHtml(latin2(equiv)), equiv);
    const commented = page('<!-- <meta charset="iso-8859-2"> -->', 'caf\u00e9');
    // Not UTF-8, no declaration outside the comment: Windows-1252.
    assert.equal(decodeHtml(Buffer.from(commented, 'latin1')), commented);
  });

  test('HTML: a transport charset overrides the <meta>, a BOM overrides both; an unknown transport label is ignored', () => {
    const bytes = latin2(page('<meta charset="windows-1252">', POLISH));
    assert.equal(decodeHtml(bytes, 'ISO-8859-2'), page('<meta charset="windows-1252">', POLISH));
    assert.notEqual(decodeHtml(bytes), page('<meta charset="windows-1252">', POLISH));
    assert.equal(decodeHtml(latin2(page('<meta charset="iso-8859-2">', POLISH)), 'no-such-charset'), page('<meta charset="iso-8859-2">', POLISH));
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page('<meta charset="iso-8859-2">', POLISH))]);
    assert.equal(decodeHtml(utf8, 'iso-8859-2'), page('<meta charset="iso-8859-2">', POLISH));
  });

  test('HTML: a <meta> after 1,024 bytes of head still counts; a page naming no usable encoding is guessed as text is', () => {
    const late = page(`<style>${' '.repeat(4000)}</style><meta charset="iso-8859-2">`, POLISH);
    assert.equal(decodeHtml(latin2(late)), late);
    // ISO-2022-KR is the "replacement" encoding, which decodes nothing: the page is read as if it named none.
    const refused = page('<meta charset="iso-2022-kr">', 'café');
    assert.equal(decodeHtml(Buffer.from(refused, 'utf8')), refused);
    assert.equal(decodeHtml(Buffer.from(page('', 'café'), 'utf8')), page('', 'café'));
  });
});
