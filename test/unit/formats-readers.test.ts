import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { after, before, describe, test } from 'node:test';
import { detectFormat } from '../../src/ingest/readers/detect.js';
import { expandZip, readDocument, renderPage } from '../../src/ingest/readers/index.js';
import { ZIP_LIMITS, type ZipMember } from '../../src/ingest/readers/zip/zip.js';

const inflate = async (m: ZipMember) => Buffer.concat((await m.open().toArray()) as Buffer[]);
import { canIsolateNetwork, convertWithLibreOffice, findSoffice, networkIsolation } from '../../src/ingest/readers/office/libreoffice.js';
import { restartBackoff } from '../../src/ingest/readers/office/office-resident.js';
import { textLayoutPdf } from '../../src/ingest/readers/text/text-layout-pdf.js';
import { toWinAnsi } from '../../src/ingest/readers/write/helvetica.js';
import { IngestError, type DocumentModel } from '../../src/document/pages.js';
import { CORPUS } from '../helpers/quire.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { makeZip } from '../helpers/zip.js';
import { scratchDir } from '../helpers/scratch.js';
import { fakeSoffice } from '../helpers/fake-soffice.js';
import { SERVER_SECRETS } from '../helpers/server-secrets.js';

const TMP = scratchDir('quire-formats-');
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

const corpus = (p: string) => fs.readFileSync(path.join(CORPUS, p));
const textOf = (m: DocumentModel) => m.pages.flatMap((p) => p.items.map((i) => i.text)).join(' ');
const ingestError = (title: string, detail?: RegExp) => (err: unknown) => {
  assert.ok(err instanceof IngestError, `expected an IngestError, got ${String(err)}`);
  assert.equal(err.title, title);
  if (detail) assert.match(err.detail, detail);
  return true;
};

// A scan (Canon copier) without a text layer: pages, but no text until OCR.
const SCANNED = new Set(['kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf']);

// Page counts determined with pdf.js and, where the page objects are not in object streams,
// cross-checked by counting `/Type /Page` objects in the raw bytes.
const PAGE_COUNTS: Record<string, number> = {
  'kgrag/nih-clinical-trial-protocols/NCT06145295_Prot_SAP_000.pdf': 6,
  'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf': 1,
  'kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf': 2,
  'kgrag/nih-clinical-trial-protocols/NCT06159946_Prot_000.pdf': 2,
  'kgrag/ntsb-aviation-incident-accident-reports/20080102X00002.pdf': 3,
  'kgrag/ntsb-aviation-incident-accident-reports/20080108X00029.pdf': 3,
  'kgrag/ntsb-aviation-incident-accident-reports/20080108X00031.pdf': 3,
  'kgrag/ntsb-aviation-incident-accident-reports/20080117X00072.pdf': 4,
  'kgrag/sec-10-q/2022 Q3 AAPL.pdf': 28,
  'kgrag/sec-10-q/2023 Q1 AAPL.pdf': 46,
  'kgrag/sec-10-q/2023 Q2 AAPL.pdf': 28,
  'kgrag/sec-10-q/2023 Q3 AAPL.pdf': 29,
  'kgrag/us-fed-agency-reports/DHS2020.pdf': 36,
  'kgrag/us-fed-agency-reports/DOSAID2022.pdf': 71,
  'kgrag/us-fed-agency-reports/GSA2022.pdf': 41,
  'kgrag/us-fed-agency-reports/NARA2022.pdf': 16,
  'reference-dgml/20071204X01896.pdf': 3,
  'reference-dgml/20071210X01921.pdf': 4,
  'reference-dgml/Jane Doe NDA.pdf': 2,
  'reference-dgml/Shorebucks LLC_AZ.pdf': 22,
};

describe('format detection', () => {
  test('magic bytes, whatever the name', () => {
    assert.equal(detectFormat(corpus('reference-dgml/Jane Doe NDA.pdf')), 'pdf');
    assert.equal(detectFormat(corpus('office/NDA simple layout.docx')), 'docx');
    assert.equal(detectFormat(makeZip([{ name: 'a.txt', data: 'x' }])), 'zip');
    assert.equal(detectFormat(Buffer.from('d0cf11e0a1b11ae1' + '00'.repeat(504), 'hex')), 'doc');
    assert.equal(detectFormat(Buffer.from('<!DOCTYPE html><html><body>x</body></html>')), 'html');
    assert.equal(detectFormat(Buffer.from('  <p>fragment</p>')), 'html');
    assert.equal(detectFormat(Buffer.from('plain words')), 'txt');
    assert.equal(detectFormat(Buffer.from('\ufeffhi', 'utf16le')), 'txt');
    assert.equal(detectFormat(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1])), 'unknown');
  });

  test('a mismatch between extension and content is refused', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><body><p>hi</p></body></html>');
    await assert.rejects(readDocument(html, 'pdf'), ingestError('Wrong file type', /^Extension \.pdf but content is HTML$/));
    await assert.rejects(readDocument(corpus('reference-dgml/Jane Doe NDA.pdf'), 'docx'), ingestError('Wrong file type', /\.docx but content is PDF/));
    await assert.rejects(readDocument(corpus('office/NDA simple layout.docx'), 'pdf'), ingestError('Wrong file type', /content is DOCX/));
    await assert.rejects(readDocument(corpus('reference-dgml/Jane Doe NDA.pdf'), 'doc'), ingestError('Wrong file type'));
    await assert.rejects(readDocument(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0]), 'txt'), ingestError('Wrong file type'));
  });
});

describe('PDF reader (corpus)', () => {
  test("pdf.js's core-js leaves the engine's own Array.prototype.push, JSON.parse and JSON.stringify in place", async () => {
    // Read a PDF first, so pdf.js's in-thread worker (with its own core-js) is loaded too.
    await readDocument(fs.readFileSync(path.join(CORPUS, 'reference-dgml/20071204X01896.pdf')), 'pdf');
    // core-js disguises its replacements from this realm's Function.prototype.toString; a fresh
    // realm's shows their JavaScript source instead of "[native code]".
    const source = vm.runInNewContext('Function.prototype.toString') as (this: unknown) => string;
    for (const [name, fn] of [['Array.prototype.push', Array.prototype.push], ['JSON.parse', JSON.parse], ['JSON.stringify', JSON.stringify]] as const) {
      assert.match(source.call(fn), /\{ \[native code\] \}$/, `${name} is the engine's own`);
    }
  });

  test('every kgrag and reference PDF: page count, sizes, text', async (t) => {
    let pages = 0;
    const start = performance.now();
    for (const [file, count] of Object.entries(PAGE_COUNTS)) {
      const bytes = corpus(file);
      const m = await readDocument(bytes, 'pdf');
      assert.equal(m.pages.length, count, file);
      assert.equal(m.pagination, 'pdf');
      assert.equal(m.pdfIsOriginal, true);
      assert.equal(Buffer.compare(Buffer.from(m.pdf), bytes), 0, `${file}: the original bytes, untouched`);
      if (SCANNED.has(file)) assert.equal(textOf(m), '', `${file}: no text layer`);
      else assert.ok(textOf(m).replace(/\s/g, '').length > 100, `${file}: text`);
      for (const p of m.pages) {
        assert.ok(p.width > 2000 && p.height > 2000, `${file} p${p.number} size`);
        // Items sit on the page (a little bleed allowed).
        const inside = p.items.filter((i) => i.x >= -50 && i.y >= -50 && i.x + i.width <= p.width + 50 && i.y <= p.height + 50);
        assert.ok(inside.length >= p.items.length * 0.95, `${file} p${p.number}: items inside the page`);
      }
      pages += count;
    }
    const ms = performance.now() - start;
    t.diagnostic(`${Object.keys(PAGE_COUNTS).length} PDFs, ${pages} pages in ${ms.toFixed(0)} ms: ${(ms / pages).toFixed(1)} ms/page`);
  });

  test('Jane Doe NDA: Letter pages at 300 DPI, positions, fonts, bold', async () => {
    const m = await readDocument(corpus('reference-dgml/Jane Doe NDA.pdf'), 'pdf');
    assert.deepEqual(m.pages.map((p) => [p.number, p.width, p.height]), [[1, 2550, 3300], [2, 2550, 3300]]);
    const title = m.pages[0]!.items.find((i) => i.text.includes('NON-DISCLOSURE AGREEMENT'))!;
    assert.ok(title, 'title found');
    assert.equal(title.bold, true);
    assert.match(title.fontName, /Bold/);
    assert.ok(Math.abs(title.fontSize - 11) < 0.5, `font size ${title.fontSize}`);
    assert.ok(Math.abs(title.x - 300) < 3, `1-inch left margin: x=${title.x}`);
    // The title is near the top; the footer "Page | 1" near the bottom.
    assert.ok(title.y > 250 && title.y < 400, `title y=${title.y}`);
    assert.ok(title.height > 30 && title.height < 60, `title height=${title.height}`);
    const footer = m.pages[0]!.items.find((i) => i.text.includes('Page | 1'))!;
    assert.ok(footer.y > 2900, `footer y=${footer.y}`);
    assert.ok(!footer.bold);
  });

  test('a landscape page keeps its orientation', async () => {
    const m = await readDocument(corpus('kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf'), 'pdf');
    assert.equal(m.pages[0]!.width, 3300);
    assert.equal(m.pages[0]!.height, 2550);
  });

  test('a rotated page (/Rotate 90) is measured as displayed, with its text on it', async () => {
    const content = 'BT /F1 12 Tf 72 700 Td (Rotated words) Tj ET';
    const pdf = makePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 90 /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]);
    const m = await readDocument(pdf, 'pdf');
    const p = m.pages[0]!;
    assert.equal(p.width, 3300);
    assert.equal(p.height, 2550);
    const item = p.items[0]!;
    assert.equal(item.text, 'Rotated words');
    assert.ok(item.x >= 0 && item.x + item.width <= p.width && item.y >= 0 && item.y + item.height <= p.height);
    // Rotated 90° clockwise, the line runs down the page: taller than wide.
    assert.ok(item.height > item.width, JSON.stringify(item));
  });
});

describe('PDF errors', () => {
  test('password-protected: Encrypted PDF', async () => {
    const hex32 = (b: number) => '<' + Buffer.alloc(32, b).toString('hex') + '>';
    const pdf = makePdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
        `<< /Filter /Standard /V 1 /R 2 /O ${hex32(0x11)} /U ${hex32(0x22)} /P -4 >>`,
      ],
      '/Encrypt 4 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] ',
    );
    await assert.rejects(readDocument(pdf, 'pdf'), ingestError('Encrypted PDF', /password/));
  });

  test('truncated (first half of a corpus PDF): Corrupt PDF', async () => {
    const bytes = corpus('reference-dgml/Jane Doe NDA.pdf');
    await assert.rejects(readDocument(bytes.subarray(0, bytes.length >> 1), 'pdf'), ingestError('Corrupt PDF'));
  });

  test('garbage after a PDF header: Corrupt PDF', async () => {
    await assert.rejects(readDocument(Buffer.from('%PDF-1.7\n' + 'x'.repeat(2000)), 'pdf'), ingestError('Corrupt PDF'));
  });

  test('zero pages: Empty PDF', async () => {
    const pdf = makePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
    await assert.rejects(readDocument(pdf, 'pdf'), ingestError('Empty PDF'));
  });
});

describe('DOCX, DOC, HTML and TXT (text layout)', () => {
  const FIRST_WORDS: Record<string, string> = {
    'Master Services Agreement - Daltech.docx': 'MASTER SERVICES AGREEMENT',
    'NDA simple layout.docx': 'MUTUAL NON-DISCLOSURE AGREEMENT',
    'TruTone Lane 1.docx': 'RIDER TO LEASE',
  };
  for (const [file, first] of Object.entries(FIRST_WORDS)) {
    test(`office/${file}`, async (t) => {
      const start = performance.now();
      const m = await readDocument(corpus(`office/${file}`), 'docx', { libreoffice: false });
      t.diagnostic(`${m.pages.length} pages in ${(performance.now() - start).toFixed(0)} ms`);
      assert.equal(m.format, 'docx');
      assert.equal(m.pagination, 'text-layout');
      assert.equal(m.pdfIsOriginal, false);
      assert.ok(m.pages.length > 0);
      assert.ok(m.pages.every((p) => p.width === 2550 && p.height === 3300));
      const firstItem = m.pages[0]!.items[0]!;
      assert.equal(firstItem.text, first);
      assert.equal(firstItem.bold, true, 'headings are bold');
      assert.ok(firstItem.fontSize > 11, 'and larger');
      // 1-inch margins: nothing left of x=300 except list bullets, nothing below the bottom margin.
      for (const p of m.pages) {
        for (const i of p.items) {
          assert.ok(i.x >= 250 && i.x + i.width <= 2550 - 300 + 2, `${file} p${p.number}: ${JSON.stringify(i)}`);
          assert.ok(i.y >= 300 - 60 && i.y + i.height <= 3300 - 300 + 60, `${file} p${p.number}: ${JSON.stringify(i)}`);
        }
      }
    });
  }

  test('the NDA reads over several pages, in order', async () => {
    const m = await readDocument(corpus('office/NDA simple layout.docx'), 'docx', { libreoffice: false });
    assert.ok(m.pages.length >= 2);
    const text = textOf(m);
    assert.ok(text.indexOf('MUTUAL NON-DISCLOSURE') < text.indexOf('Confidential Information'));
    assert.match(text, /“Agreement”/, 'curly quotes survive WinAnsi');
  });

  test('DOCX: a ZIP without word/document.xml is a Corrupt DOCX', async () => {
    const zip = makeZip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: 'other.xml', data: '<x/>' }]);
    await assert.rejects(readDocument(zip, 'docx', { libreoffice: false }), ingestError('Corrupt DOCX', /^no word\/document\.xml$/));
  });

  test('DOC: a compound file that is not a Word document is a Corrupt DOC', async () => {
    const cfb = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(2048, 0xff)]);
    await assert.rejects(readDocument(cfb, 'doc', { libreoffice: false }), ingestError('Corrupt DOC'));
  });

  test('TXT: UTF-8, UTF-8 BOM, UTF-16LE/BE with BOM, Latin-1', async () => {
    const words = 'Grüße aus Köln\nzweite Zeile €';
    const cases: Record<string, Buffer> = {
      utf8: Buffer.from(words, 'utf8'),
      'utf8-bom': Buffer.concat([Buffer.from('efbbbf', 'hex'), Buffer.from(words, 'utf8')]),
      utf16le: Buffer.concat([Buffer.from('fffe', 'hex'), Buffer.from(words, 'utf16le')]),
      utf16be: Buffer.concat([Buffer.from('feff', 'hex'), Buffer.from(words, 'utf16le').swap16()]),
      latin1: Buffer.from(words.replace(' €', ''), 'latin1'),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const m = await readDocument(bytes, 'txt', { libreoffice: false });
      assert.equal(m.pagination, 'text-layout', name);
      const lines = m.pages[0]!.items.map((i) => i.text);
      assert.equal(lines[0], 'Grüße aus Köln', name);
      assert.equal(lines[1], name === 'latin1' ? 'zweite Zeile' : 'zweite Zeile €', name);
      assert.ok(m.pages[0]!.items[1]!.y > m.pages[0]!.items[0]!.y, `${name}: line order`);
    }
  });

  test('TXT: a long text breaks into pages; blank lines keep their place', async () => {
    const text = Array.from({ length: 120 }, (_, i) => (i % 10 === 9 ? '' : `Line ${i + 1} ` + 'word '.repeat(30))).join('\n');
    const m = await readDocument(Buffer.from(text), 'txt', { libreoffice: false });
    assert.ok(m.pages.length >= 4, `${m.pages.length} pages`);
    assert.deepEqual(m.pages.map((p) => p.number), m.pages.map((_, i) => i + 1));
    assert.equal(m.pages[0]!.items[0]!.text.startsWith('Line 1 '), true);
    assert.match(textOf(m), /Line 119 /);
  });

  test('TXT: set in Courier as a printer sets it, so columns aligned with tabs or spaces stay aligned', async () => {
    const m = await readDocument(Buffer.from('Item\tPrice\nBolt\t$1.25\nNut\t$0.10\n\nName      Qty\nWashers   200\n'), 'txt');
    assert.equal(m.pagination, 'text-layout');
    const items = m.pages[0]!.items;
    assert.ok(items.every((i) => /Courier/.test(i.fontName)), JSON.stringify(items.map((i) => i.fontName)));
    const x = (text: string) => items.find((i) => i.text === text)!.x;
    // 54 pt margin, 6 pt a column at 10 pt; 300-DPI pixels: a tab stops at column 8, "Qty" stands at column 10.
    assert.deepEqual(['Item', 'Bolt', 'Nut', 'Name', 'Washers'].map(x), [225, 225, 225, 225, 225]);
    assert.deepEqual(['Price', '$1.25', '$0.10'].map((t) => Math.round(x(t))), [425, 425, 425]);
    assert.deepEqual(['Qty', '200'].map((t) => Math.round(x(t))), [475, 475]);
  });

  test('TXT: a word longer than a line is cut where each piece fills one (84 columns)', async () => {
    const word = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const m = await readDocument(Buffer.from(`${word}\nend`), 'txt');
    const texts = m.pages[0]!.items.map((i) => i.text);
    assert.deepEqual(texts.slice(0, -1).map((t) => t.length), [...Array(11).fill(84), 1000 - 11 * 84]);
    assert.equal(texts.slice(0, -1).join(''), word);
    assert.equal(texts.at(-1), 'end');
  });

  test('HTML: headings, paragraphs, list items and table rows in order; no script or style', async () => {
    const html = `<!DOCTYPE html><html><head><title>T</title><style>p { color: red }</style>
      <script>var secret = "SCRIPT-CONTENT";</script></head><body>
      <h1>Main &amp; Title</h1><p>First   paragraph
      spans lines.</p><ul><li>Item one</li><li>Item <b>two</b></li></ul>
      <h2>Second</h2><table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
      <script>document.write("MORE-SCRIPT")</script><p>Last<br>line</p></body></html>`;
    const m = await readDocument(Buffer.from(html), 'html', { libreoffice: false });
    const items = m.pages[0]!.items.filter((i) => i.text !== '•');
    assert.deepEqual(items.map((i) => i.text), [
      'Main & Title', 'First paragraph spans lines.', 'Item one', 'Item two', 'Second',
      'Name', 'Value', 'a', '1', 'Last', 'line',
    ]);
    // Cells of a row share its line, apart (pdf.js splits the run at the wide gap).
    assert.equal(items[5]!.y, items[6]!.y);
    assert.ok(items[6]!.x > items[5]!.x + items[5]!.width);
    assert.ok(items[7]!.y > items[5]!.y);
    assert.equal(items[0]!.bold, true);
    assert.ok(items[0]!.fontSize > items[4]!.fontSize && items[4]!.fontSize > items[1]!.fontSize);
    assert.ok(items[2]!.x > items[1]!.x, 'list items are indented');
    assert.equal(m.pages[0]!.items.filter((i) => i.text === '•').length, 2, 'one bullet per list item');
    assert.doesNotMatch(textOf(m), /SCRIPT|color|secret/);
  });

  test('text layout PDF: WinAnsi replacements and an empty document', async () => {
    assert.deepEqual(toWinAnsi('é€“x”'), [0xe9, 0x80, 0x93, 0x78, 0x94]);
    assert.deepEqual(toWinAnsi('ő'), [0x6f], 'accent dropped where no precomposed WinAnsi letter exists');
    assert.deepEqual(toWinAnsi('中'), [0x3f]);
    const empty = await readDocument(Buffer.from('   \n\n'), 'txt', { libreoffice: false });
    assert.equal(empty.pages.length, 1);
    assert.equal(empty.pages[0]!.items.length, 0);
    assert.ok(textLayoutPdf([{ kind: 'paragraph', text: 'x' }]).subarray(0, 8).toString('latin1').startsWith('%PDF-1.4'));
  });
});

describe('LibreOffice path', () => {
  const soffice = findSoffice();
  const skip = soffice ? false : 'soffice is not on PATH (LibreOffice not installed)';

  test('DOCX converted by LibreOffice', { skip, timeout: 300_000 }, async () => {
    const m = await readDocument(corpus('office/NDA simple layout.docx'), 'docx');
    assert.equal(m.pagination, 'libreoffice');
    assert.equal(m.pdfIsOriginal, false);
    assert.ok(m.pages.length > 0);
    assert.match(textOf(m), /MUTUAL NON-DISCLOSURE AGREEMENT/);
  });

  test('an HTML page is drawn without fetching the stylesheets, images and frames it names', { skip, timeout: 300_000 }, async () => {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const html = `<html><head><link rel="stylesheet" href="${origin}/style.css"></head><body><h1>Quarterly notice</h1><p>Text of the page.</p><img src="${origin}/pixel.png"><iframe src="${origin}/frame.html"></iframe></body></html>`;
      const m = await readDocument(Buffer.from(html), 'html');
      // Without a network namespace to run LibreOffice in, Quire lays the page out itself.
      assert.equal(m.pagination, canIsolateNetwork() ? 'libreoffice' : 'text-layout');
      assert.match(textOf(m), /Text of the page\./);
      assert.deepEqual(requests, [], 'nothing was fetched');
    } finally {
      server.close();
    }
  });

  test('an HTML page is drawn whole, from its first block on its first page, on US Letter', { skip, timeout: 300_000 }, async () => {
    const html = '<html><body><p>Opening paragraph.</p><h1>Quarterly notice</h1><p>Text of the page.</p><h2>Second level</h2><p>More text.</p></body></html>';
    for (const officeIdleMs of [0, 60_000]) {
      const m = await readDocument(Buffer.from(html), 'html', { officeIdleMs });
      assert.equal(m.pagination, canIsolateNetwork() ? 'libreoffice' : 'text-layout');
      assert.equal(m.pages.length, 1, 'one page, not a blank one first');
      assert.deepEqual([m.pages[0]!.width, m.pages[0]!.height], [2550, 3300], 'US Letter (at 300 DPI), as Quire lays out text');
      const words = m.pages[0]!.items.map((i) => i.text).join(' ');
      for (const text of ['Opening paragraph.', 'Quarterly notice', 'Text of the page.', 'Second level', 'More text.']) assert.ok(words.includes(text), text);
    }
  });

  test('DOC (made by LibreOffice from a DOCX): word-extractor text layout and LibreOffice', { skip, timeout: 300_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(TMP, 'doc-'));
    const profile = `-env:UserInstallation=file://${path.join(dir, 'profile')}`;
    const input = path.join(dir, 'nda.docx');
    fs.writeFileSync(input, corpus('office/NDA simple layout.docx'));
    const r = spawnSync(soffice!, [profile, '--headless', '--norestore', '--convert-to', 'doc', '--outdir', dir, input], { timeout: 120_000, env: { ...process.env, TMPDIR: dir } });
    assert.equal(r.status, 0, String(r.stderr));
    const doc = fs.readFileSync(path.join(dir, 'nda.doc'));
    assert.equal(detectFormat(doc), 'doc');
    const laid = await readDocument(doc, 'doc', { libreoffice: false });
    assert.equal(laid.pagination, 'text-layout');
    assert.match(textOf(laid), /MUTUAL NON-DISCLOSURE AGREEMENT/);
    const converted = await readDocument(doc, 'doc');
    assert.equal(converted.pagination, 'libreoffice');
    assert.match(textOf(converted), /MUTUAL NON-DISCLOSURE AGREEMENT/);
  });

  test('a conversion that cannot finish in time is killed', { skip, timeout: 60_000 }, async () => {
    await assert.rejects(convertWithLibreOffice(corpus('office/NDA simple layout.docx'), 'docx', soffice!, 1), /timed out/);
  });
});

describe('LibreOffice path with a stand-in soffice (runs everywhere)', () => {
  // A shell script that behaves like `soffice --convert-to pdf` (test/helpers/fake-soffice.ts): it
  // writes the corpus's NDA PDF where LibreOffice would, and records its arguments and environment,
  // or fails, or hangs, on request.
  const fake = fakeSoffice(path.join(TMP, 'fake-soffice'), path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf'));
  const lastCall = () => fake.calls().at(-1)!;
  const saved = { ...process.env };
  before(() => {
    process.env.PATH = `${fake.bin}${path.delimiter}${process.env.PATH}`;
    // Short enough for the tests below to wait out.
    restartBackoff.firstMs = 200;
    restartBackoff.maxMs = 800;
  });
  after(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });
  /** A PATH on which `unshare` fails as it does under Docker's default seccomp profile. */
  const withoutUnshare = async (run: () => Promise<void>) => {
    const failing = path.join(TMP, 'no-unshare-bin');
    fs.mkdirSync(failing, { recursive: true });
    fs.writeFileSync(path.join(failing, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n', { mode: 0o755 });
    const before = process.env.PATH;
    process.env.PATH = `${failing}${path.delimiter}${before}`;
    try {
      await run();
    } finally {
      process.env.PATH = before;
    }
  };

  test('office formats go through soffice (own profile, headless) and the PDF reader', async () => {
    assert.equal(findSoffice(), fake.soffice);
    const m = await readDocument(corpus('office/NDA simple layout.docx'), 'docx');
    assert.equal(m.pagination, 'libreoffice');
    assert.equal(m.pdfIsOriginal, false);
    assert.equal(m.format, 'docx');
    assert.equal(m.pages.length, 2, 'the pages of the PDF soffice wrote');
    assert.ok(Buffer.from(m.pdf).equals(corpus('reference-dgml/Jane Doe NDA.pdf')));
    const { args } = lastCall();
    assert.match(args[0]!, /^-env:UserInstallation=file:\/\/\/.*quire-soffice-/);
    for (const a of ['--headless', '--norestore', '--convert-to', 'pdf', '--outdir']) assert.ok(args.includes(a), a);
    assert.match(args[args.length - 1]!, /input\.docx$/);
    // The temp directory (profile, input, output) is gone.
    assert.equal(fs.existsSync(path.dirname(args[args.length - 1]!)), false);
    const off = await readDocument(corpus('office/NDA simple layout.docx'), 'docx', { libreoffice: false });
    assert.equal(off.pagination, 'text-layout');
  });

  test('a resident LibreOffice that cannot start: each conversion starts its own', async () => {
    fake.flag('fail-start', true);
    try {
      fake.clearCalls();
      const m = await readDocument(corpus('office/NDA simple layout.docx'), 'docx', { officeIdleMs: 60_000 });
      assert.equal(m.pagination, 'libreoffice');
      assert.equal(m.pages.length, 2);
      const calls = fake.calls();
      assert.equal(calls.filter((c) => c.resident).length, 1, 'one resident was tried');
      const { args } = lastCall();
      assert.match(args[0]!, /^-env:UserInstallation=file:\/\/\/.*quire-soffice-/, 'converted with a profile of its own');
      assert.ok(args.includes('--convert-to'));
    } finally {
      fake.flag('fail-start', false);
    }
  });

  test('a resident LibreOffice that failed to start is tried again later, with a growing wait, until one starts', { timeout: 30_000 }, async () => {
    const convert = () => convertWithLibreOffice(corpus('office/NDA simple layout.docx'), 'docx', fake.soffice, undefined, 'pdf', 1_000);
    const attempts = () => fake.calls().filter((c) => c.resident).length;
    const byResident = () => /quire-office-/.test(lastCall().profile ?? '');
    await new Promise((r) => setTimeout(r, restartBackoff.maxMs + 100));
    fake.flag('fail-start', true);
    fake.clearCalls();
    await convert();
    assert.equal(attempts(), 1, 'a resident was tried');
    assert.equal(byResident(), false);
    await convert();
    assert.equal(attempts(), 1, 'not again straight after it failed');
    await new Promise((r) => setTimeout(r, restartBackoff.maxMs + 100));
    await convert();
    assert.equal(attempts(), 2, 'tried again once the wait is over');
    await convert();
    assert.equal(attempts(), 2);
    fake.flag('fail-start', false);
    await new Promise((r) => setTimeout(r, restartBackoff.maxMs + 100));
    await convert();
    assert.equal(attempts(), 3);
    assert.equal(byResident(), true, 'this time it started, and converted the document');
    await convert();
    assert.equal(attempts(), 3, 'and keeps converting');
    assert.equal(byResident(), true);
    // It stops after 1 s idle: its pipe and folder go.
    const profile = fileURLToPath(lastCall().profile!);
    const until = performance.now() + 10_000;
    // The folder itself is waited for: its profile goes first, the folder a moment later.
    while (performance.now() < until && fs.existsSync(path.dirname(profile))) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.existsSync(path.dirname(profile)), false, 'the stopped resident took its folder with it');
  });

  test('LibreOffice gets no secret of the server: its environment is an allow-list', async () => {
    const secrets = SERVER_SECRETS;
    const locale = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
    Object.assign(process.env, secrets, { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' });
    try {
      fake.clearCalls();
      await new Promise((r) => setTimeout(r, restartBackoff.maxMs + 100));
      // Alone, and a resident started and converting.
      assert.equal((await readDocument(corpus('office/NDA simple layout.docx'), 'docx')).pagination, 'libreoffice');
      assert.equal((await readDocument(corpus('office/NDA simple layout.docx'), 'docx', { officeIdleMs: 500 })).pagination, 'libreoffice');
      const calls = fake.calls();
      assert.ok(calls.some((c) => c.resident) && calls.some((c) => !c.resident), calls.map((c) => c.args.join(' ')).join('\n'));
      for (const { env, args } of calls) {
        const named = Object.keys(env).filter((k) => k in secrets);
        assert.deepEqual(named, [], `no secret variable in the environment of soffice ${args.join(' ')}`);
        const leaked = Object.values(secrets).filter((v) => Object.values(env).some((e) => e.includes(v)));
        assert.deepEqual(leaked, [], 'no secret value under another name');
        assert.equal(env.PATH, process.env.PATH, 'what it needs stays');
        assert.equal(env.LANG, 'C.UTF-8');
        assert.equal(env.LC_ALL, 'C.UTF-8');
        assert.match(env.TMPDIR ?? '', /quire-(soffice|office)-[^/]+\/tmp$/, 'its own temporary folder');
      }
    } finally {
      for (const k of [...Object.keys(secrets), 'LANG', 'LC_ALL']) delete process.env[k];
      for (const [k, v] of Object.entries(locale)) if (v !== undefined) process.env[k] = v;
    }
  });

  test('without network namespaces, HTML is laid out by Quire and office files still go through soffice', async () => {
    await withoutUnshare(async () => {
      assert.equal(canIsolateNetwork(), false);
      assert.deepEqual(networkIsolation(), { available: false, missing: "`unshare -rn` cannot create user and network namespaces (unshare: unshare failed: Operation not permitted): Docker's default seccomp profile blocks them, as do kernels with unprivileged user namespaces off" });
      fake.clearCalls();
      const page = await readDocument(Buffer.from('<h1>Notice</h1><p>Words.</p>'), 'html');
      assert.equal(page.pagination, 'text-layout');
      assert.deepEqual(fake.calls(), [], 'soffice was not started for the HTML page');
      const docx = await readDocument(corpus('office/NDA simple layout.docx'), 'docx');
      assert.equal(docx.pagination, 'libreoffice');
    });
  });

  test('QUIRE_OFFICE_REQUIRE_ISOLATION: without network namespaces, Word files are refused, never converted', async () => {
    await withoutUnshare(async () => {
      fake.clearCalls();
      const refused = ingestError('Office conversion refused', /QUIRE_OFFICE_REQUIRE_ISOLATION/);
      await assert.rejects(readDocument(corpus('office/NDA simple layout.docx'), 'docx', { officeRequireIsolation: true }), refused);
      // HTML and text never reach LibreOffice without isolation: Quire lays them out as before.
      assert.equal((await readDocument(Buffer.from('<h1>Notice</h1><p>Words.</p>'), 'html', { officeRequireIsolation: true })).pagination, 'text-layout');
      assert.equal((await readDocument(Buffer.from('Words.\n'), 'txt', { officeRequireIsolation: true })).pagination, 'text-layout');
      // A file that is not what it says is still named so before the refusal.
      await assert.rejects(readDocument(makeZip([{ name: 'x.xml', data: '<x/>' }]), 'docx', { officeRequireIsolation: true }), ingestError('Corrupt DOCX'));
      assert.deepEqual(fake.calls(), [], 'soffice never ran');
    });
    // Where LibreOffice can be isolated, the setting changes nothing.
    if (canIsolateNetwork()) assert.equal((await readDocument(corpus('office/NDA simple layout.docx'), 'docx', { officeRequireIsolation: true })).pagination, 'libreoffice');
  });

  test('a text file never goes through soffice: its own layout is the faithful one', async () => {
    fake.clearCalls();
    const m = await readDocument(Buffer.from('Some words\n'), 'txt');
    assert.equal(m.pagination, 'text-layout');
    assert.deepEqual(fake.calls(), [], 'soffice was not started');
  });

  test('a failed conversion falls back to the text layout; a corrupt file still fails', async () => {
    fake.flag('fail', true);
    try {
      await assert.rejects(convertWithLibreOffice(Buffer.from('x'), 'txt', findSoffice()!), /exited with 1: Error: source file/);
      const m = await readDocument(Buffer.from('<p>Some words</p>'), 'html');
      assert.equal(m.pagination, 'text-layout');
      const zip = makeZip([{ name: 'x.xml', data: '<x/>' }]);
      await assert.rejects(readDocument(zip, 'docx'), ingestError('Corrupt DOCX'));
    } finally {
      fake.flag('fail', false);
    }
  });

  test('a hanging conversion is killed at the timeout', async () => {
    fake.flag('hang', true);
    try {
      const start = performance.now();
      await assert.rejects(convertWithLibreOffice(Buffer.from('x'), 'txt', findSoffice()!, 500), /timed out after 500 ms/);
      assert.ok(performance.now() - start < 10_000);
      const pid = Number(fs.readFileSync(fake.pidFile, 'utf8'));
      // Killed with its process group; reaped by init (its parent was the killed `timeout`) a moment later.
      const gone = () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch (err) {
          return (err as NodeJS.ErrnoException).code === 'ESRCH';
        }
      };
      for (let i = 0; i < 40 && !gone(); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(gone(), 'the process is gone');
    } finally {
      fake.flag('hang', false);
    }
  });
});

describe('renderPage', () => {
  const pngSize = (png: Buffer) => {
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  };

  test('PNG at 300, 72 and 36 dpi', async (t) => {
    const pdf = corpus('reference-dgml/Jane Doe NDA.pdf');
    for (const dpi of [300, 72, 36]) {
      const start = performance.now();
      const png = await renderPage(pdf, 2, dpi);
      t.diagnostic(`page 2 at ${dpi} dpi: ${(performance.now() - start).toFixed(0)} ms, ${png.length} bytes`);
      const { width, height } = pngSize(png);
      assert.ok(Math.abs(width - 8.5 * dpi) <= 1, `width ${width} at ${dpi}`);
      assert.ok(Math.abs(height - 11 * dpi) <= 1, `height ${height} at ${dpi}`);
    }
  });

  test('a text-layout rendition renders too', async () => {
    const m = await readDocument(Buffer.from('Hello rendition'), 'txt', { libreoffice: false });
    assert.deepEqual(pngSize(await renderPage(m.pdf, 1, 100)), { width: 850, height: 1100 });
  });

  test('dpi out of 36..300 and pages out of range are refused', async () => {
    const pdf = corpus('reference-dgml/Jane Doe NDA.pdf');
    await assert.rejects(renderPage(pdf, 1, 35), RangeError);
    await assert.rejects(renderPage(pdf, 1, 301), RangeError);
    await assert.rejects(renderPage(pdf, 1, Number.NaN), RangeError);
    await assert.rejects(renderPage(pdf, 0, 72), RangeError);
    await assert.rejects(renderPage(pdf, 3, 72), RangeError);
    await assert.rejects(renderPage(Buffer.from('%PDF-1.4 nothing'), 1, 72), IngestError);
  });
});

describe('ZIP expansion', () => {
  test('mixed members: documents kept, the rest skipped with a reason', async () => {
    const pdf = corpus('reference-dgml/Jane Doe NDA.pdf');
    const zip = makeZip([
      { name: 'docs/', data: '' },
      { name: 'docs/nda.pdf', data: pdf, deflate: true },
      { name: 'docs/notes.txt', data: 'hello' },
      { name: 'page.HTM', data: '<p>x</p>', deflate: true },
      { name: 'image.png', data: 'png' },
      { name: 'inner.zip', data: makeZip([{ name: 'a.txt', data: 'a' }]) },
      { name: '__MACOSX/docs/._nda.pdf', data: 'meta' },
      { name: 'empty.txt', data: '' },
    ]);
    const { members, skipped } = await expandZip(zip);
    const inflated = await Promise.all(members.map(inflate));
    assert.deepEqual(members.map((m, i) => [m.name, m.ext, inflated[i]!.length]), [
      ['docs/nda.pdf', 'pdf', pdf.length],
      ['docs/notes.txt', 'txt', 5],
      ['page.HTM', 'html', 8],
    ]);
    assert.ok(inflated[0]!.equals(pdf));
    assert.deepEqual(skipped, [
      { name: 'docs/', reason: 'directory' },
      { name: 'image.png', reason: 'file type not supported' },
      { name: 'inner.zip', reason: 'nested archive' },
      { name: '__MACOSX/docs/._nda.pdf', reason: 'macOS metadata' },
      { name: 'empty.txt', reason: 'empty file' },
    ]);
  });

  test('path traversal, absolute paths and symlinks are skipped, never extracted', async () => {
    const zip = makeZip([
      { name: '../evil.txt', data: 'evil' },
      { name: 'a/../../evil2.txt', data: 'evil' },
      { name: '/etc/passwd.txt', data: 'evil' },
      { name: 'C:\\windows\\x.txt', data: 'evil' },
      { name: 'link.txt', data: '/etc/passwd', unixMode: 0o120777 },
      { name: 'ok.txt', data: 'fine', unixMode: 0o100644 },
    ]);
    const { members, skipped } = await expandZip(zip);
    assert.deepEqual(members.map((m) => m.name), ['ok.txt']);
    assert.deepEqual(skipped.map((s) => [s.name, s.reason]), [
      ['../evil.txt', "path escapes the archive ('..')"],
      ['a/../../evil2.txt', "path escapes the archive ('..')"],
      ['/etc/passwd.txt', 'absolute path'],
      ['C:\\windows\\x.txt', 'absolute path'],
      ['link.txt', 'symbolic link'],
    ]);
  });

  test('a compression bomb is refused once its inflated bytes pass the ratio', async () => {
    const zeros = Buffer.alloc(50 * 1024 * 1024);
    const zip = makeZip([{ name: 'ok.txt', data: 'fine' }, { name: 'bomb.txt', data: zeros, deflate: true }]);
    assert.ok(zip.length < 200_000, `bomb is small: ${zip.length}`);
    await assert.rejects(expandZip(zip), ingestError('Unsafe ZIP', /bomb\.txt expands more than 100:1/));
  });

  test('many small members that each stay under the per-member check: the ratio applies to the whole archive', async () => {
    // Each member is 1 MiB of one letter (a ~1 KB deflate stream): the issue's ~1 MB archive of 1,000 such files, in small.
    const zip = makeZip(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.alloc(1024 * 1024, 0x61 + (i % 26)), deflate: true })));
    assert.ok(zip.length < 64 * 1024, `archive is small: ${zip.length}`);
    await assert.rejects(expandZip(zip), ingestError('Unsafe ZIP', /the archive expands more than 100:1/));
  });

  test('a header that lies about sizes fails while its member is inflated, not past it', async () => {
    // Central directory claims 1 KB uncompressed; the data inflates to 5 MB.
    const zip = makeZip([{ name: 'liar.txt', data: Buffer.alloc(5 * 1024 * 1024, 0x61), deflate: true }]);
    const cdAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(1024, cdAt + 24);
    zip.writeUInt32LE(1024, 22);
    const { members } = await expandZip(zip);
    let read = 0;
    await assert.rejects(
      (async () => {
        for await (const chunk of members[0]!.open()) read += (chunk as Buffer).length;
      })(),
      IngestError,
    );
    assert.ok(read <= 1024 * 1024 + 65536, `stopped early: ${read} bytes read`);
  });

  test('total uncompressed size is capped, by the declared sizes and by the bytes inflated', async () => {
    const data = Buffer.alloc(600_000, 0x62);
    const zip = makeZip([1, 2, 3].map((i) => ({ name: `f${i}.txt`, data })));
    const limits = { ...ZIP_LIMITS, maxTotalBytes: 1_000_000 };
    await assert.rejects(expandZip(zip, limits), ingestError('Unsafe ZIP', /more than 1000000 bytes/));
    // The streams count too: a budget shared by the members' streams.
    const { members } = await expandZip(makeZip([1].map((i) => ({ name: `f${i}.txt`, data }))), { ...ZIP_LIMITS, maxTotalBytes: 700_000 });
    assert.equal((await inflate(members[0]!)).length, 600_000);
  });

  test('member names follow the upload rules: control characters, overlong names and duplicates are skipped', async () => {
    const long = `${'n'.repeat(1100)}.txt`;
    const zip = makeZip([
      { name: 'ok.txt', data: 'fine' },
      { name: 'bell\u0007.txt', data: 'x' },
      { name: 'dir\u001b[31m/red.txt', data: 'x' },
      { name: 'del\u007f.txt', data: 'x' },
      { name: long, data: 'x' },
      { name: 'ok.txt', data: 'second of the same name' },
      { name: 'sub/ok.txt', data: 'same file name, another folder: a document of its own' },
    ]);
    const { members, skipped } = await expandZip(zip);
    assert.deepEqual(members.map((m) => m.name), ['ok.txt', 'sub/ok.txt']);
    assert.equal((await inflate(members[0]!)).toString(), 'fine');
    assert.deepEqual(skipped.map((s) => [s.name.slice(0, 30), s.reason]), [
      ['bell\\u0007.txt', 'The file name contains control characters.'],
      ['dir\\u001b[31m/red.txt', 'The file name contains control characters.'],
      ['del\\u007f.txt', 'The file name contains control characters.'],
      ['n'.repeat(30), 'File names are limited to 1024 characters.'],
      ['ok.txt', 'duplicate name (the first entry of that name is kept)'],
    ]);
    assert.ok(skipped[3]!.name.length <= 201, 'a long name is shortened in the list');
  });

  test('more than 1,000 members is refused even when entries are allowed', async () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.txt`, data: 'x' }));
    await assert.rejects(expandZip(makeZip(entries(11)), { ...ZIP_LIMITS, maxMembers: 10 }), ingestError('Unsafe ZIP', /more than 10 documents/));
  });

  test('more than 1,000 entries is refused; 1,000 is fine', async () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.txt`, data: 'x' }));
    await assert.rejects(expandZip(makeZip(entries(1001))), ingestError('Unsafe ZIP', /1001 entries, more than 1000/));
    assert.equal((await expandZip(makeZip(entries(1000)))).members.length, 1000);
  });

  test('not a ZIP: Corrupt ZIP', async () => {
    await assert.rejects(expandZip(Buffer.from('PK not really a zip at all, just words')), ingestError('Corrupt ZIP'));
  });
});
