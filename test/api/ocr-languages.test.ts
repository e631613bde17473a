import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli, startQuire } from '../helpers/quire.js';
import { client, until } from '../helpers/http.js';
import { scratchDir } from '../helpers/scratch.js';
import { GERMAN, GERMAN_WORDS, imageOnlyPdf, textPageImage } from '../helpers/image-pdf.js';
import { cliLanguages, hasTesseractCli } from '../../src/ingest/stages/ocr/tesseract-cli.js';
import { missingBundledLanguages } from '../../src/ingest/stages/ocr/tesseract-js.js';

/** The text of a scanned German page uploaded to a server reading scans in `languages`. */
async function readGermanScan(languages: string): Promise<string> {
  const q = await startQuire({ extraEnv: { QUIRE_OCR_LANGUAGES: languages } });
  try {
    const c = client(q.api, q.key);
    const scan = await imageOnlyPdf([await textPageImage(GERMAN)]);
    const id = (await c.upload({ bytes: scan, name: 'Prüfbericht.pdf' })).json.id;
    const doc = await until(`document ${id} read`, async () => {
      const d = (await c.get(`/documents/${id}`)).json;
      return d.status === 'Ready' || d.status === 'Error' ? d : undefined;
    });
    assert.equal(doc.status, 'Ready', JSON.stringify(doc.error));
    return (await c.get(`/documents/${id}/content?format=text`)).text;
  } finally {
    assert.equal(await q.stop(), 0, q.logs());
  }
}

/** The words of `text`, punctuation off their ends. */
const wordsOf = (text: string) => text.split(/\s+/).map((w) => w.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''));

test('QUIRE_OCR_LANGUAGES=eng+deu reads the umlauts of a scanned German page; eng alone loses them', async (t) => {
  // The engine a server uses: the tesseract command when installed, else the bundled tesseract.js.
  const installed = (await cliLanguages()) !== null ? await hasTesseractCli('eng+deu') : missingBundledLanguages('eng+deu').length === 0;
  if (!installed) {
    t.diagnostic('no German OCR data (tesseract-ocr-deu, or @tesseract.js-data/deu without the CLI): nothing to test');
    return;
  }
  const [both, english] = [await readGermanScan('eng+deu'), await readGermanScan('eng')];
  const inBoth = wordsOf(both);
  assert.deepEqual(GERMAN_WORDS.filter((w) => !inBoth.includes(w)), [], both);
  const inEnglish = wordsOf(english);
  t.diagnostic(`eng: ${english.replace(/\s+/g, ' ')}`);
  assert.deepEqual(GERMAN_WORDS.filter((w) => inEnglish.includes(w)), [], english);
  // The words without umlauts are read either way: the setting changes the umlauts, not the page.
  for (const w of ['Beteiligten', 'schriftlich', 'Ausschuss']) assert.ok(inEnglish.includes(w) && inBoth.includes(w), w);
});

test('a language the OCR engine has no data for stops start-up with one line naming it', async () => {
  const dataDir = scratchDir('quire-ocr-langs-');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, QUIRE_DATA_DIR: dataDir, PORT: '0', QUIRE_OCR_LANGUAGES: 'eng+xxx' };
  const r = await runCli(['serve'], env);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^quire: invalid configuration: QUIRE_OCR_LANGUAGES names xxx, which the (tesseract command|bundled OCR engine) has no data for \(.*(tesseract-ocr-xxx|@tesseract\.js-data\/xxx)/);
});
