import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { readPdfPages } from '../../src/ingest/formats/pdf.js';
import { renderPdfPage } from '../../src/ingest/formats/render.js';
import type { PageModel, TextItem } from '../../src/ingest/model.js';
import { needsOcr, ocrPage, type OcrEngine } from '../../src/ingest/stages/ocr.js';
import { hasTesseractCli } from '../../src/ingest/stages/ocr/tesseract-cli.js';
import { recognizeWithTesseractJs, stopTesseractJs } from '../../src/ingest/stages/ocr/tesseract-js.js';
import { imageOnlyPdf } from '../helpers/image-pdf.js';

const CORPUS = path.resolve('../shared/corpus');
const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');

const corpusPdfs = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.toLowerCase().endsWith('.pdf'))
  .map((f) => path.join(CORPUS, f));

after(stopTesseractJs);

/** Lowercase words without punctuation. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
}

// Word's PDFs map Calibri's "ti" and "tt" ligatures to these letters, each its own text item.
const LIGATURES: Record<string, string> = { '\u019F': 'ti', '\u01A9': 'tt' };

/** The words a page's text layer shows, items that touch on a line joined ("Informa" "Ɵ" "on"). */
function pageWords(items: TextItem[]): string[] {
  let text = '';
  let prev: TextItem | undefined;
  for (const item of items) {
    const touching =
      prev !== undefined &&
      Math.abs(item.y + item.height / 2 - (prev.y + prev.height / 2)) < Math.min(item.height, prev.height) / 2 &&
      Math.abs(item.x - (prev.x + prev.width)) < (0.15 * prev.fontSize * 300) / 72;
    text += (touching ? '' : ' ') + item.text;
    prev = item;
  }
  return words(text.replace(/[\u019F\u01A9]/g, (c) => LIGATURES[c]!));
}

/** The share of `expected` words found in `found`, each found word counting once. */
function recall(expected: string[], found: string[]): number {
  const left = new Map<string, number>();
  for (const w of found) left.set(w, (left.get(w) ?? 0) + 1);
  let hits = 0;
  for (const w of expected) {
    const n = left.get(w) ?? 0;
    if (n) {
      hits++;
      left.set(w, n - 1);
    }
  }
  return hits / expected.length;
}

interface Scan {
  original: PageModel;
  /** An image-only PDF of the page. */
  scan: Uint8Array;
  scanPage: PageModel;
}

/** Page 1 of the NDA as a scanner would give it at 300 DPI (made once). */
let ndaScan: Promise<Scan> | undefined;
function scannedNda(): Promise<Scan> {
  ndaScan ??= (async () => {
    const pdf = readFileSync(NDA);
    const original = (await readPdfPages(pdf))[0]!;
    const scan = await imageOnlyPdf([{ image: await renderPdfPage(pdf, 1, 300), dpi: 300 }]);
    const [scanPage, ...rest] = await readPdfPages(scan);
    assert.equal(rest.length, 0);
    return { original, scan, scanPage: scanPage! };
  })();
  return ndaScan;
}

describe('needsOcr', () => {
  test('is false on every page of the corpus with a text layer, true on the one scanned page', async () => {
    assert.ok(corpusPdfs.length >= 20, `only ${corpusPdfs.length} corpus PDFs`);
    let textPages = 0;
    const flagged: string[] = [];
    const withoutText: string[] = [];
    for (const file of corpusPdfs) {
      for (const page of await readPdfPages(readFileSync(file))) {
        const where = `${path.relative(CORPUS, file)} p${page.number}`;
        if (page.items.length === 0) withoutText.push(where);
        else textPages++;
        if (needsOcr(page)) flagged.push(where);
      }
    }
    assert.ok(textPages > 300, `only ${textPages} pages with text`);
    // The corpus's one scan (a rotated table, no text layer) is the only page to OCR.
    assert.deepEqual(withoutText, ['kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf p1']);
    assert.deepEqual(flagged, withoutText);
  });

  test('is true when most of the text is unmapped glyphs, symbols or letters in the wrong places', async () => {
    const [page] = await readPdfPages(readFileSync(NDA));
    const garbled = (replace: (ch: string) => string): PageModel => ({
      ...page!,
      items: page!.items.map((i) => ({ ...i, text: i.text.replace(/\p{L}/gu, replace) })),
    });
    assert.equal(needsOcr(page!), false);
    assert.equal(needsOcr(garbled(() => '\uFFFD')), true);
    assert.equal(needsOcr(garbled(() => '\uE012')), true);
    assert.equal(needsOcr(garbled((ch) => String.fromCharCode(0x21 + (ch.charCodeAt(0) % 15)))), true);
    // A font's own encoding read as the standard one: every letter three places on ("Wkh" for "The").
    const shifted = (ch: string) => String.fromCharCode(((ch.toLowerCase().charCodeAt(0) - 97 + 3) % 26) + 97);
    assert.equal(needsOcr(garbled((ch) => (/[a-z]/i.test(ch) ? shifted(ch) : ch))), true);
  });

  test('is true for a page that is only an image', async () => {
    const { original, scanPage } = await scannedNda();
    assert.equal(scanPage.items.length, 0);
    assert.equal(scanPage.width, original.width);
    assert.equal(scanPage.height, original.height);
    assert.equal(needsOcr(scanPage), true);
  });
});

const ENGINES: OcrEngine[] = ['tesseract.js', 'tesseract-cli'];

describe('ocrPage', () => {
  for (const engine of ENGINES) {
    test(`${engine} reads a scanned page back: its words, where they were`, async (t) => {
      if (engine === 'tesseract-cli' && !(await hasTesseractCli())) {
        // Skipped tests fail CI here: without the CLI there is nothing of it to test.
        t.diagnostic('the tesseract CLI is not installed: only tesseract.js is exercised');
        return;
      }
      const { original, scan, scanPage } = await scannedNda();
      assert.equal(needsOcr(scanPage), true);
      const started = performance.now();
      const items = await ocrPage(scan, scanPage, { budgetMs: 60_000, engine });
      t.diagnostic(`${engine}: ${items.length} words in ${Math.round(performance.now() - started)} ms`);

      const expected = pageWords(original.items);
      const found = items.flatMap((i) => words(i.text));
      const share = recall(expected, found);
      t.diagnostic(`recall ${share.toFixed(3)} of ${expected.length} words`);
      assert.ok(share >= 0.95, `recall ${share.toFixed(3)}`);

      // Boxes are in the original's 300-DPI space: each word lies inside some line the text layer drew.
      const inside = items.filter((w) => {
        const cx = w.x + w.width / 2;
        const cy = w.y + w.height / 2;
        return original.items.some((o) => cx >= o.x && cx <= o.x + o.width && cy >= o.y && cy <= o.y + o.height);
      });
      assert.ok(inside.length >= 0.95 * items.length, `${inside.length} of ${items.length} words where the text was`);
      const sizes = items.map((i) => i.fontSize).sort((a, b) => a - b);
      const bodySize = original.items.map((i) => i.fontSize).sort((a, b) => a - b)[original.items.length >> 1]!;
      const median = sizes[sizes.length >> 1]!;
      assert.ok(Math.abs(median - bodySize) <= 0.25 * bodySize, `font size ${median} for ${bodySize} pt text`);
      assert.ok(items.every((i) => i.fontName === 'ocr' && i.text.trim() === i.text && i.text.length > 0));
    });
  }

  test('reads the corpus scan, a table turned sideways, its sideways words in tall boxes', async () => {
    const file = path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf');
    const pdf = readFileSync(file);
    const [page] = await readPdfPages(pdf);
    const items = await ocrPage(pdf, page!, { budgetMs: 60_000 });
    const found = new Set(items.flatMap((i) => words(i.text)));
    for (const w of ['appendix', 'study', 'protocol', 'yoga', 'breathing', 'meditation', 'week']) assert.ok(found.has(w), `"${w}" not read`);
    const long = items.filter((i) => i.text.length >= 6);
    const sideways = long.filter((i) => i.height > 2 * i.width);
    assert.ok(sideways.length >= 0.9 * long.length, `${sideways.length} of ${long.length} long words have sideways boxes`);
    assert.ok(items.every((i) => i.x >= 0 && i.y >= 0 && i.x + i.width <= page!.width + 1 && i.y + i.height <= page!.height + 1));
  });

  test('a page over its budget gives no words, and the engine (restarted) reads the next one', async () => {
    const { scan, scanPage } = await scannedNda();
    assert.deepEqual(await ocrPage(scan, scanPage, { budgetMs: 0, engine: 'tesseract.js' }), []);
    const png = await renderPdfPage(scan, 1, 200);
    assert.equal(await recognizeWithTesseractJs(png, 200, 300), undefined);
    const items = await ocrPage(scan, scanPage, { budgetMs: 60_000, engine: 'tesseract.js' });
    assert.ok(items.some((i) => i.text === 'NON-DISCLOSURE'), 'the engine recovered');
  });
});
