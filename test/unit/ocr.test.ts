import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';
import type { PageModel, TextItem } from '../../src/document/pages.js';
import { needsOcr, ocrPage, stampedScan, type OcrEngine } from '../../src/ingest/stages/ocr.js';
import { hasTesseractCli } from '../../src/ingest/stages/ocr/tesseract-cli.js';
import { missingBundledLanguages, recognizeWithTesseractJs, stopTesseractJs } from '../../src/ingest/stages/ocr/tesseract-js.js';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { sidewaysTurn, turnBoxesBack, uprightPage } from '../../src/ingest/stages/upright.js';
import { leaves, type StructureNode, type Table } from '../../src/document/structure.js';
import { GERMAN, GERMAN_WORDS, imageOnlyPdf, textPageImage } from '../helpers/image-pdf.js';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { renderPdfiumGray } from '../../src/ingest/readers/pdf/pdfium.js';
import { measureSkew, rotateImage } from '../../src/ingest/stages/ocr/deskew.js';
import { sharedCounter } from '../../src/ingest/stages/ocr/slots.js';

const CORPUS = path.resolve('../shared/corpus');
const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');

const corpusPdfs = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.toLowerCase().endsWith('.pdf'))
  .map((f) => path.join(CORPUS, f));

after(stopTesseractJs);

/** Lowercase words without punctuation. */
/** The texts of the paragraphs and the headings of sections, anywhere in the tree (tables aside). */
function paragraphTexts(nodes: readonly StructureNode[]): string[] {
  return nodes.flatMap((n) =>
    n.type === 'paragraph' ? [n.leaf.text] : n.type === 'section' ? paragraphTexts(n.children) : n.type === 'list' ? n.items.flatMap((i) => paragraphTexts(i.children)) : [],
  );
}
function sectionHeadings(nodes: readonly StructureNode[]): string[] {
  return nodes.flatMap((n) => (n.type === 'section' ? [n.heading.text, ...sectionHeadings(n.children)] : []));
}

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

describe('languages', () => {
  for (const engine of ENGINES) {
    test(`${engine} reads a scanned German page's umlauts in deu, and loses them in eng`, async (t) => {
      const installed = engine === 'tesseract-cli' ? await hasTesseractCli('eng+deu') : missingBundledLanguages('eng+deu').length === 0;
      if (!installed) {
        t.diagnostic(`${engine} has no German data (${engine === 'tesseract-cli' ? 'tesseract-ocr-deu' : '@tesseract.js-data/deu'}): nothing of it to test`);
        return;
      }
      const scan = await imageOnlyPdf([await textPageImage(GERMAN)]);
      const [page] = await readPdfPages(scan);
      const read = async (languages: string) => (await ocrPage(scan, page!, { budgetMs: 60_000, engine, languages })).map((i) => i.text.replace(/[.,;]$/, ''));
      const inGerman = await read('deu');
      assert.deepEqual(GERMAN_WORDS.filter((w) => !inGerman.includes(w)), [], inGerman.join(' '));
      const inEnglish = await read('eng');
      t.diagnostic(`eng: ${inEnglish.join(' ')}`);
      assert.deepEqual(GERMAN_WORDS.filter((w) => inEnglish.includes(w)), [], 'English has no umlauts: the words come back without them or not at all');
    });
  }
});

describe('a scanned document', () => {
  test('its pages are read several at a time (the CLI), into the structure read one at a time gives', async (t) => {
    if (!(await hasTesseractCli())) {
      t.diagnostic('the tesseract CLI is not installed: tesseract.js reads one page at a time');
      return;
    }
    const pdf = readFileSync(NDA);
    const scan = await imageOnlyPdf(await Promise.all([1, 2].map(async (n) => ({ image: await renderPdfPage(pdf, n, 300), dpi: 300 }))));
    const analyse = async (slots: number) => {
      const free = sharedCounter(slots);
      let fewestFree = slots;
      const sampler = setInterval(() => (fewestFree = Math.min(fewestFree, Atomics.load(free, 0))), 5);
      try {
        const { structure } = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 60_000, ocrSlots: { size: slots, free, held: sharedCounter(0) } });
        return { structure, fewestFree };
      } finally {
        clearInterval(sampler);
      }
    };
    const oneByOne = await analyse(1);
    const together = await analyse(2);
    assert.deepEqual(together.structure.ocrPages, [1, 2]);
    assert.equal(together.fewestFree, 0, 'both slots were taken at once: two engines read the two pages');
    assert.deepEqual(together.structure, oneByOne.structure);
    const text = [...leaves(together.structure.nodes)].map((l) => l.text).join(' ');
    assert.match(text, /NON-DISCLOSURE/);
  });

  test('a page whose OCR runs past its budget is named in the timings; a page read in time is not', async () => {
    const pdf = readFileSync(NDA);
    const scan = await imageOnlyPdf([{ image: await renderPdfPage(pdf, 1, 300), dpi: 300 }]);
    const late = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 0 });
    assert.deepEqual([late.timings.ocrTimedOutPages, late.timings.ocrFailedPages, late.structure.ocrPages], [[1], [], []]);
    const inTime = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 60_000 });
    assert.deepEqual([inTime.timings.ocrTimedOutPages, inTime.structure.ocrPages], [[], [1]]);
  });
});

describe('pages scanned sideways', () => {
  /** Words of one line running down (or up) a page, in reading order, each in a tall box. */
  const column = (x: number, texts: string[], direction: 'down' | 'up'): TextItem[] =>
    texts.map((text, k) => ({ text, x, y: direction === 'down' ? 100 + k * 200 : 3000 - k * 200, width: 40, height: 150, fontName: 'ocr', fontSize: 10 }));
  const words = ['Week', 'one', 'assessment', 'breathing', 'practice', 'meditation'];

  test('the direction of the text comes from consecutive words of its lines; upright pages have none', () => {
    assert.equal(sidewaysTurn([...column(100, words, 'down'), ...column(200, words, 'down')]), 'down');
    assert.equal(sidewaysTurn([...column(100, words, 'up'), ...column(200, words, 'up')]), 'up');
    const upright = words.flatMap((text, k) => [0, 1].map((l) => ({ text, x: 100 + k * 300, y: 100 + l * 60, width: 250, height: 50, fontName: 'ocr', fontSize: 10 })));
    assert.equal(sidewaysTurn(upright), null);
  });

  test('a box turned upright and back is the box it was', () => {
    const page: PageModel = { number: 1, width: 2550, height: 3300, items: [{ text: 'Week', x: 2300, y: 400, width: 50, height: 160, fontName: 'ocr', fontSize: 10 }] };
    for (const turn of ['down', 'up'] as const) {
      const upright = uprightPage(page, turn);
      assert.deepEqual([upright.width, upright.height], [3300, 2550]);
      const it = upright.items[0]!;
      assert.ok(it.width > it.height && it.x >= 0 && it.y >= 0 && it.x + it.width <= 3300 && it.y + it.height <= 2550, JSON.stringify(it));
      const nodes: StructureNode[] = [{ type: 'paragraph', structure: 'div', role: 'body', leaf: { text: 'Week', boxes: [{ page: 1, left: it.x, top: it.y, width: it.width, height: it.height }] } }];
      turnBoxesBack(nodes, page, turn);
      assert.deepEqual((nodes[0] as { leaf: { boxes: unknown[] } }).leaf.boxes, [{ page: 1, left: 2300, top: 400, width: 50, height: 160 }]);
    }
    // Turned over, the page keeps its size and the box its shape, in the opposite corner.
    const over = uprightPage(page, 'over');
    assert.deepEqual([over.width, over.height], [2550, 3300]);
    assert.deepEqual(over.items.map(({ x, y, width, height }) => ({ x, y, width, height })), [{ x: 200, y: 2740, width: 50, height: 160 }]);
    const nodes: StructureNode[] = [{ type: 'paragraph', structure: 'div', role: 'body', leaf: { text: 'Week', boxes: [{ page: 1, left: 200, top: 2740, width: 50, height: 160 }] } }];
    turnBoxesBack(nodes, page, 'over');
    assert.deepEqual((nodes[0] as { leaf: { boxes: unknown[] } }).leaf.boxes, [{ page: 1, left: 2300, top: 400, width: 50, height: 160 }]);
  });

  test('the corpus scan, a table turned sideways, is read upright: one table, one row a week, its boxes on the page as it is', async () => {
    const file = path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf');
    const { structure } = await analyzeDocument(await readDocument(readFileSync(file), 'pdf'), { ocrBudgetMs: 60_000 });
    const tablesIn = (nodes: readonly StructureNode[]): Table[] =>
      nodes.flatMap((n) => (n.type === 'table' ? [n] : n.type === 'section' ? tablesIn(n.children) : []));
    const tables = tablesIn(structure.nodes);
    const rows = tables.flatMap((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    const weeks = rows.map((r) => r[0]!).filter((c) => /^Week \d$/.test(c));
    assert.deepEqual(weeks, ['Week 1', 'Week 2', 'Week 3', 'Week 4', 'Week 5', 'Week 6', 'Week 7', 'Week 8']);
    // One table: pieces of the faint ruled lines that the engine reads as "|" or "i" (a pixel thin) do
    // not become cells or rows of their own and cut the table in two.
    assert.equal(tables.filter((t) => t.rows.some((r) => /^Week \d$/.test(r.cells[0]!.leaf.text))).length, 1);
    assert.ok(!rows.flat().some((c) => /^[|i\\](\s|$)/.test(c)), JSON.stringify(rows.filter((r) => r.some((c) => /^[|i\\](\s|$)/.test(c)))));
    const week1 = rows.find((r) => r[0] === 'Week 1')!;
    assert.ok(week1.some((c) => c.startsWith('Chair-based yoga')) && week1.some((c) => c === 'Yoga Nidra'), JSON.stringify(week1));
    // Its cells wrap over several lines: each is one cell of the week's row.
    assert.ok(week1.includes('Joint protection; “Do no harm”'), JSON.stringify(week1));
    // The column headings set over two lines are one row of headings.
    assert.ok(rows.some((r) => r.includes('Yoga physical practice') && r.includes('Yoga Breathing Practice') && r.includes('Discussion with class theme')), JSON.stringify(rows.slice(0, 4)));
    // The title line over the headings runs on at word spaces: one cell, not cut at the columns' edges.
    assert.ok(rows.some((r) => r.includes('Yoga for a Healthy Heart Protocol')), JSON.stringify(rows.slice(0, 2)));
    // The physical practice and the breathing, a narrow gutter apart, are two columns.
    assert.ok(week1.includes('Chair-based yoga') && week1.includes('Natural breath awareness; abdominal breathing'), JSON.stringify(week1));
    // The last week's cells wrap below the page's last ruled line, two of them read as one phrase
    // across the scan's narrow gutter ("visualization with Conclusion of"): still the week's row.
    const week8 = rows.find((r) => r[0] === 'Week 8')!;
    // A cell's lines join as a paragraph's do: "Medi-" over "Cog" is the test's name, "Medi-Cog".
    assert.ok(week8.includes('Medi-Cog, Perceived Stress Scale, BP'), JSON.stringify(week8));
    assert.ok(week8.some((c) => c.endsWith('ujjayii')) && week8.some((c) => /^Home Program; Self-discipline; Conclusion of class$/.test(c)), JSON.stringify(week8));
    assert.ok(week8.some((c) => /visualization with mantra.*with positive$/.test(c)), JSON.stringify(week8));
    assert.ok(!paragraphTexts(structure.nodes).some((t) => /ujjayii|Conclusion of/.test(t)), 'no cell text outside the table');
    // The title over the table is a heading: the table's text, all the page's body, sets the body type.
    assert.ok(sectionHeadings(structure.nodes).some((h) => h.includes('Study Protocol Class Procedures')), JSON.stringify(sectionHeadings(structure.nodes)));
    const [page] = structure.pages;
    for (const leaf of leaves(structure.nodes)) {
      for (const b of leaf.boxes) assert.ok(b.left >= 0 && b.top >= 0 && b.left + b.width <= page!.width + 1 && b.top + b.height <= page!.height + 1, JSON.stringify(b));
    }
    // The page stands as it is: the weeks, one under the other upright, follow each other across it.
    const weekBox = (week: string) => tables[0]!.rows.find((r) => r.cells[0]!.leaf.text === week)!.cells[0]!.leaf.boxes[0]!;
    const [first, last] = [weekBox('Week 1'), weekBox('Week 8')];
    assert.ok(Math.abs(first.left - last.left) > 10 * Math.abs(first.top - last.top), JSON.stringify([first, last]));
  });
});

describe('pages scanned upside down', () => {
  test('a page scanned upside down is read turned over: its words in reading order, its boxes on the page as it is', async () => {
    const pdf = readFileSync(NDA);
    const original = (await readPdfPages(pdf))[0]!;
    const scan = await imageOnlyPdf([{ image: await renderPdfPage(pdf, 1, 300, true), dpi: 300 }]);
    const { structure } = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 60_000 });
    assert.deepEqual(structure.ocrPages, [1]);
    const texts = [...leaves(structure.nodes)].map((l) => l.text);
    const found = texts.flatMap(words);
    const share = recall(pageWords(original.items), found);
    assert.ok(share >= 0.95, `recall ${share.toFixed(3)}`);
    const title = [...leaves(structure.nodes)].find((l) => /NON-DISCLOSURE/.test(l.text));
    assert.ok(title, texts.slice(0, 5).join(' | '));
    assert.ok(texts.indexOf(title.text) < 3, 'the title comes first, as it reads');
    // On the page as it is (upside down) the title stands at the bottom.
    const [page] = structure.pages;
    assert.ok(title.boxes[0]!.top > page!.height / 2, JSON.stringify(title.boxes));
  });
});

describe('pages scanned at a slant', () => {
  /** A page image turned by `degrees` about its centre (clockwise), as a scanner fed at a slant makes it. */
  async function slanted(png: Buffer, degrees: number): Promise<Buffer> {
    const img = await loadImage(png);
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, img.width, img.height);
    ctx.translate(img.width / 2, img.height / 2);
    ctx.rotate((degrees * Math.PI) / 180);
    ctx.drawImage(img, -img.width / 2, -img.height / 2);
    return canvas.toBuffer('image/png');
  }

  test('the slant is measured from the rows of text; a page as it is, or set sideways, has none', async () => {
    const dosaid = new Uint8Array(readFileSync(path.join(CORPUS, 'kgrag/us-fed-agency-reports/DOSAID2022.pdf')));
    const image = await renderPdfiumGray(dosaid, 41, 200);
    assert.equal(measureSkew(image), 0);
    for (const degrees of [0.8, -1.5, 3]) assert.ok(Math.abs(measureSkew(rotateImage(image, degrees)) - degrees) <= 0.1, `${degrees}°`);
    // Under 0.3° a page is read as it is.
    assert.equal(measureSkew(rotateImage(image, 0.15)), 0);
    const scan = new Uint8Array(readFileSync(path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf')));
    assert.equal(measureSkew(await renderPdfiumGray(scan, 1, 200)), 0, 'the corpus scan is set sideways: its words turn it upright');
  });

  test('a page scanned at a slant is read straightened: every word in order, its boxes on the page as it is', async () => {
    const pdf = readFileSync(NDA);
    const original = (await readPdfPages(pdf))[0]!;
    const expected = pageWords(original.items);
    const { structure: asItIs } = await analyzeDocument(await readDocument(pdf, 'pdf'), { ocrBudgetMs: 60_000 });
    const titleBox = [...leaves(asItIs.nodes)].find((l) => /NON-DISCLOSURE/.test(l.text))!.boxes[0]!;
    const inOrder = [...leaves(asItIs.nodes)].filter((l) => l.boxes[0]?.page === 1).flatMap((l) => words(l.text));
    for (const degrees of [2.5, -1.5]) {
      const scan = await imageOnlyPdf([{ image: await slanted(await renderPdfPage(pdf, 1, 300), degrees), dpi: 300 }]);
      const { structure } = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 60_000 });
      assert.deepEqual(structure.ocrPages, [1]);
      const found = [...leaves(structure.nodes)].flatMap((l) => words(l.text));
      const share = recall(expected, found);
      assert.ok(share >= 0.95, `${degrees}°: recall ${share.toFixed(3)}`);
      // In order: the first 60 words come out as the text layer's structure reads them (lines not run across each other).
      assert.deepEqual(found.slice(0, 60), inOrder.slice(0, 60), `${degrees}°`);
      // The title's box is the title's place on the slanted page: its box as it is, turned with the page.
      const title = [...leaves(structure.nodes)].find((l) => /NON-DISCLOSURE/.test(l.text))!;
      const { width, height } = structure.pages[0]!;
      const a = (degrees * Math.PI) / 180;
      const corners = [
        [titleBox.left, titleBox.top],
        [titleBox.left + titleBox.width, titleBox.top],
        [titleBox.left, titleBox.top + titleBox.height],
        [titleBox.left + titleBox.width, titleBox.top + titleBox.height],
      ].map(([x, y]) => [width / 2 + (x! - width / 2) * Math.cos(a) - (y! - height / 2) * Math.sin(a), height / 2 + (x! - width / 2) * Math.sin(a) + (y! - height / 2) * Math.cos(a)]);
      const want = { left: Math.min(...corners.map((c) => c[0]!)), top: Math.min(...corners.map((c) => c[1]!)) };
      const got = title.boxes[0]!;
      assert.ok(Math.abs(got.left - want.left) <= 25 && Math.abs(got.top - want.top) <= 25, `${degrees}°: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
    }
  });
});

describe('scans stamped with a line of text', () => {
  const HEADER = 'Case 1:23-cv-01234 Document 12 Filed 01/02/23 Page 1 of 3';

  test('a scanned page under an e-filing header is read by OCR, the header with it', async (t) => {
    const pdf = readFileSync(NDA);
    const original = (await readPdfPages(pdf))[0]!;
    const scan = await imageOnlyPdf([{ image: await renderPdfPage(pdf, 1, 300), dpi: 300, stamp: HEADER }]);
    const [page] = await readPdfPages(scan);
    assert.equal(page!.imageCover, 1);
    assert.equal(needsOcr(page!), false, 'the header is good text: the page is not unreadable');
    assert.equal(stampedScan(page!), true);
    const { structure } = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 60_000 });
    assert.deepEqual(structure.ocrPages, [1]);
    const found = [...leaves(structure.nodes)].flatMap((l) => words(l.text));
    const share = recall(pageWords(original.items), found);
    t.diagnostic(`recall ${share.toFixed(3)}`);
    assert.ok(share >= 0.95, `recall ${share.toFixed(3)}`);
    for (const w of ['document', 'filed']) assert.ok(found.includes(w), `the header's "${w}"`);
  });

  test('a scan the engine cannot read with confidence keeps its stamp, not the engine\'s guesses', async () => {
    // The NDA drawn at 36 DPI and blown up: a blur the engine reads as "The Wor Ageerest [Agrerert…".
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const small = await loadImage(await renderPdfPage(readFileSync(NDA), 1, 36));
    const canvas = createCanvas(1275, 1650);
    canvas.getContext('2d').drawImage(small, 0, 0, 1275, 1650);
    const scan = await imageOnlyPdf([{ image: await canvas.encode('png'), dpi: 150, stamp: HEADER }]);
    const [page] = await readPdfPages(scan);
    assert.equal(stampedScan(page!), true);
    const { structure } = await analyzeDocument(await readDocument(scan, 'pdf'), { ocrBudgetMs: 60_000 });
    assert.deepEqual(structure.ocrPages, []);
    assert.deepEqual([...leaves(structure.nodes)].map((l) => l.text), [HEADER]);
  });
});
