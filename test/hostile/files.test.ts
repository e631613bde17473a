/**
 * Hostile files (issue 11), uploaded through real HTTP to a real server: each ends as a clear 4xx
 * Problem at upload or as an `Error` document with a readable reason (or, where the file is in fact
 * readable, Ready/OverQuota with sensible figures), and the service is unharmed afterwards: /healthz
 * answers, a corpus PDF still reaches Ready, the process is alive and its RSS stayed bounded.
 * Every hostile file is generated here at run time; nothing binary is committed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';
import { SaxesParser } from 'saxes';
import { CORPUS, ROOT, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, type Client, type Res } from '../helpers/http.js';
import { imageOnlyPdf } from '../helpers/image-pdf.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { makeZip } from '../helpers/zip.js';
import { scratchDir } from '../helpers/scratch.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');
const SETTLED = ['Ready', 'Error', 'OverQuota'];
const TMP = scratchDir('quire-hostile-');
const MiB = 1024 * 1024;
/** A marker no legitimate output contains: /etc/passwd's first line. */
const PASSWD = /root:x?:0:0:/;

// ---------------------------------------------------------------------------------------------
// Generators

const HELLO = 'BT /F1 12 Tf 72 700 Td (Hello from a hostile file) Tj ET';
const PAGE = (parent: number, contents: number) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents ${contents} 0 R >>`;
const CONTENT = `<< /Length ${HELLO.length} >>\nstream\n${HELLO}\nendstream`;

/**
 * A PDF whose page and its own stream's /Length live in an object stream whose /Length is an object
 * inside that same stream (a reference cycle through a cross-reference stream), and whose /Extends
 * points to itself.
 */
function objectStreamCyclePdf(): Buffer {
  const head = '%PDF-1.5\n';
  const parts: string[] = [head];
  let at = head.length;
  const offsets: Record<number, number> = {};
  const put = (n: number, body: string) => {
    offsets[n] = at;
    const s = `${n} 0 obj\n${body}\nendobj\n`;
    parts.push(s);
    at += Buffer.byteLength(s, 'latin1');
  };
  put(1, '<< /Type /Catalog /Pages 2 0 R >>');
  put(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  const page = PAGE(2, 6);
  const inner = `3 0 5 ${page.length + 1} `;
  const data = `${inner}${page} 99999`;
  put(4, `<< /Type /ObjStm /N 2 /First ${inner.length} /Length 5 0 R /Extends 4 0 R >>\nstream\n${data}\nendstream`);
  put(6, CONTENT);
  // Cross-reference stream: type 1 (offset) or type 2 (object stream 4, index), /W [1 4 2].
  const rows: [number, number, number][] = [
    [0, 0, 65535],
    [1, offsets[1]!, 0],
    [1, offsets[2]!, 0],
    [2, 4, 0],
    [1, offsets[4]!, 0],
    [2, 4, 1],
    [1, offsets[6]!, 0],
  ];
  const xs = Buffer.alloc(rows.length * 7);
  rows.forEach(([t, a, b], i) => {
    xs.writeUInt8(t, i * 7);
    xs.writeUInt32BE(a, i * 7 + 1);
    xs.writeUInt16BE(b, i * 7 + 5);
  });
  const xrefAt = at;
  const tail = Buffer.concat([
    Buffer.from(`7 0 obj\n<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Prev ${xrefAt} /Length ${xs.length} >>\nstream\n`, 'latin1'),
    xs,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
  ]);
  return Buffer.concat([Buffer.from(parts.join(''), 'latin1'), tail]);
}

/** A PDF of `n` real pages sharing one empty content stream (kids in groups of 100). */
function manyPagesPdf(n: number): Buffer {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Length 0 >>\nstream\n\nendstream'];
  const groups: number[] = [];
  for (let g = 0; g * 100 < n; g++) {
    const groupObj = objects.length + 1;
    groups.push(groupObj);
    objects.push('');
    const kids: number[] = [];
    for (let i = g * 100; i < Math.min(n, (g + 1) * 100); i++) {
      kids.push(objects.length + 1);
      objects.push(`<< /Type /Page /Parent ${groupObj} 0 R /MediaBox [0 0 200 200] /Contents 3 0 R >>`);
    }
    objects[groupObj - 1] = `<< /Type /Pages /Parent 2 0 R /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  }
  objects[1] = `<< /Type /Pages /Kids [${groups.map((k) => `${k} 0 R`).join(' ')}] /Count ${n} >>`;
  return makePdf(objects);
}

function docx(documentXml: string, extra: { name: string; data: string | Buffer }[] = []): Buffer {
  return makeZip([
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: documentXml, deflate: true },
    ...extra,
  ]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const para = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;

function billionLaughsDocx(): Buffer {
  const ents = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return docx(
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE w:document [\n${ents.join('\n')}\n]>\n` +
      `<w:document ${W}><w:body>${para('Laughing matters')}${para('&lol9;')}${para('End of laughs')}</w:body></w:document>`,
  );
}

function externalEntityDocx(): Buffer {
  return docx(
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE w:document [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n<!ENTITY % remote SYSTEM "file:///etc/passwd">\n]>\n` +
      `<w:document ${W}><w:body>${para('External entity test')}${para('&xxe;')}${para('After the entity')}</w:body></w:document>`,
  );
}

/**
 * An image-only page scanned at 600 DPI: page 1 of a corpus PDF (an NTSB report, US Letter) rendered
 * at 300 DPI by Quire's renderer and scaled to 5100 × 6600 pixels. Rendering a real page keeps the
 * test independent of the fonts a machine has (canvas text drawn without them comes out as boxes).
 */
async function scan600(): Promise<Buffer> {
  const source = fs.readFileSync(path.join(CORPUS, 'kgrag/ntsb-aviation-incident-accident-reports/20080102X00002.pdf'));
  const page = await loadImage(await renderPdfPage(new Uint8Array(source), 1, 300));
  const canvas = createCanvas(5100, 6600);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 5100, 6600);
  ctx.drawImage(page, 0, 0, 5100, 6600);
  return imageOnlyPdf([{ image: await canvas.encode('png'), dpi: 600 }]);
}

/** Streams a single-line text file of exactly `size` bytes to disk. */
async function writeBigTxt(file: string, size: number): Promise<void> {
  const chunk = Buffer.alloc(MiB, 'lorem ipsum dolor sit amet consectetur adipiscing elit ');
  const out = fs.createWriteStream(file);
  let left = size;
  while (left > 0) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= part.length;
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

// ---------------------------------------------------------------------------------------------
// Outcome checks

/** A reason a user can read: a title and a sentence, no placeholder, no stack, no exception class. */
function assertReadable(error: { title?: unknown; detail?: unknown } | undefined, what: string) {
  assert.ok(error, `${what}: an Error document carries error {title, detail}`);
  const { title, detail } = error;
  assert.equal(typeof title, 'string', `${what}: title`);
  assert.equal(typeof detail, 'string', `${what}: detail`);
  for (const s of [title as string, detail as string]) {
    assert.ok(s.trim().length >= 3, `${what}: "${s}" is too short to say anything`);
    assert.doesNotMatch(s, /\bundefined\b|\bnull\b|\[object |NaN/, `${what}: placeholder in "${s}"`);
    assert.doesNotMatch(s, /\n\s+at |\.(?:ts|js|mjs|cjs):\d+|node:internal/, `${what}: stack trace in "${s}"`);
    assert.doesNotMatch(s, /\b(?:TypeError|RangeError|ReferenceError|SyntaxError)\b|Maximum call stack/, `${what}: raw exception in "${s}"`);
  }
  assert.ok((title as string).length <= 80, `${what}: a short title, got "${title}"`);
  assert.ok((detail as string).length <= 2000, `${what}: a detail of reasonable length`);
}

interface Outcome {
  /** `upload 4xx` or the final status. */
  status: string;
  reason: string;
  doc?: any;
  ms: number;
}

const outcomes: { name: string; outcome: Outcome }[] = [];

describe('hostile files (SQLite)', () => {
  let q: Quire;
  let c: Client;
  /**
   * The server's RSS budget through all of these files: a bound on the damage, not a target. Measured
   * peaks: 1.4–2.1 GiB, from the 600 DPI scan (pdf.js decodes the full-resolution image to render it
   * for OCR) and the 20,000-page PDF (left open: cheaper paths for both). A 300 MB text file took
   * 3 GiB before text documents were capped at 32 MB; its own test now checks it is refused unread.
   */
  const RSS_BUDGET_KB = 3 * 1024 * 1024;
  let rssPeakKb = 0;
  let rssSamples = 0;
  let sampler: NodeJS.Timeout | undefined;

  async function sampleRss() {
    try {
      const status = await fs.promises.readFile(`/proc/${q.process.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      rssSamples++;
      if (kb > rssPeakKb) rssPeakKb = kb;
    } catch {
      // the process is gone: the liveness checks say so
    }
  }

  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_INGEST_TIMEOUT_MS: '90000' } });
    c = client(q.api, q.key);
    sampler = setInterval(() => void sampleRss(), 100);
  });

  after(async () => {
    if (sampler) clearInterval(sampler);
    fs.rmSync(TMP, { recursive: true, force: true });
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  /** Polls a document until it settles. */
  async function settle(id: string, timeoutMs = 60_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    let last: any;
    while (Date.now() < deadline) {
      const r = await c.get(`/documents/${id}`);
      assertJson(r);
      last = r.json;
      if (SETTLED.includes(last.status)) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`document ${id} did not settle within ${timeoutMs} ms (a hang): ${JSON.stringify(last)}`);
  }

  /**
   * Uploads a hostile file and waits for its end: a 4xx Problem, or a settled document. Errors must
   * read well; anything else (5xx, a hang, a dead server) fails.
   */
  async function hostile(name: string, bytes: Buffer | string, opts: { timeoutMs?: number; fields?: Record<string, string> } = {}): Promise<Outcome> {
    const started = Date.now();
    const up = await c.upload({ bytes, name }, opts.fields);
    let outcome: Outcome;
    if (up.status >= 400) {
      assert.ok(up.status < 500, `${name}: upload answered ${up.status}: ${up.text}`);
      assertProblem(up, up.status);
      assertReadable(up.json, `${name} (upload ${up.status})`);
      outcome = { status: `upload ${up.status}`, reason: `${up.json.title}: ${up.json.detail}`, ms: Date.now() - started };
    } else {
      assertJson(up, 201);
      const doc = await settle(up.json.id, opts.timeoutMs);
      if (doc.status === 'Error') assertReadable(doc.error, name);
      const reason = doc.error ? `${doc.error.title}: ${doc.error.detail}` : `pages ${doc.pageCount ?? '-'}`;
      outcome = { status: doc.status, reason, doc, ms: Date.now() - started };
    }
    outcomes.push({ name, outcome });
    assert.equal(q.process.exitCode, null, `the server died on ${name}:\n${q.logs().slice(-4000)}`);
    const health = await fetch(`${q.origin}/healthz`);
    assert.equal(health.status, 200, `${name}: /healthz after`);
    return outcome;
  }

  const errorWith = (o: Outcome, title: string | RegExp, detail?: RegExp) => {
    assert.equal(o.status, 'Error', JSON.stringify(o));
    if (typeof title === 'string') assert.equal(o.doc.error.title, title, JSON.stringify(o.doc.error));
    else assert.match(o.doc.error.title, title, JSON.stringify(o.doc.error));
    if (detail) assert.match(o.doc.error.detail, detail);
  };

  /** The plain text and the DGML of a Ready document (DGML well-formed by a namespace-aware parser). */
  async function textAndDgml(id: string): Promise<{ text: string; dgml: string }> {
    const t = await c.get(`/documents/${id}/content?format=text`);
    assert.equal(t.status, 200, t.text);
    const d = await c.get(`/documents/${id}/dgml`);
    assert.equal(d.status, 200, d.text);
    parseXml(d.text);
    return { text: t.text, dgml: d.text };
  }

  // ---- ZIP ----

  test('zip bomb (high ratio): Error "Unsafe ZIP", nothing inflated past the limit', async () => {
    const o = await hostile('bomb.zip', makeZip([{ name: 'zeros.txt', data: Buffer.alloc(200 * MiB), deflate: true }]));
    errorWith(o, 'Unsafe ZIP', /expands more than \d+:1/);
  });

  test('zip bomb with a lying size header: Error, not inflated', async () => {
    const zip = makeZip([{ name: 'small.txt', data: Buffer.alloc(50 * MiB), deflate: true }]);
    // The uncompressed size claims 10 bytes, in the local header and in the central directory.
    zip.writeUInt32LE(10, 22);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(10, central + 24);
    const o = await hostile('liar.zip', zip);
    errorWith(o, /ZIP/);
  });

  test('zip with more than 1,000 entries: Error "Unsafe ZIP"', async () => {
    const entries = Array.from({ length: 1500 }, (_, i) => ({ name: `n${i}.txt`, data: `note ${i}` }));
    const o = await hostile('many.zip', makeZip(entries));
    errorWith(o, 'Unsafe ZIP', /1500 entries, more than 1000/);
  });

  test('zip with ../, absolute paths and a symlink: those are skipped with reasons, nothing written outside, legit members become documents', async () => {
    const marker = `quire-escape-${process.pid}-${Date.now()}`;
    const zip = makeZip([
      { name: `../${marker}.txt`, data: 'escaped one level' },
      { name: `../../../../../../tmp/${marker}-deep.txt`, data: 'escaped to /tmp' },
      { name: `/tmp/${marker}-abs.txt`, data: 'absolute' },
      { name: `C:\\${marker}-win.txt`, data: 'drive letter' },
      { name: `sub\\..\\..\\${marker}-bs.txt`, data: 'backslash traversal' },
      { name: 'passwd-link.txt', data: '/etc/passwd', unixMode: 0o120777 },
      { name: 'good.txt', data: 'A legitimate member of the archive.' },
      { name: 'docs/second.txt', data: 'Another legitimate member, in a folder.' },
    ]);
    const o = await hostile('traversal.zip', zip);
    assert.equal(o.status, 'Ready', JSON.stringify(o));
    const skipped: { name: string; reason: string }[] = o.doc.processing.skipped;
    const reasonOf = (n: string) => skipped.find((s) => s.name === n)?.reason;
    assert.match(reasonOf(`../${marker}.txt`) ?? '', /escapes the archive/);
    assert.match(reasonOf(`../../../../../../tmp/${marker}-deep.txt`) ?? '', /escapes the archive/);
    assert.match(reasonOf(`/tmp/${marker}-abs.txt`) ?? '', /absolute path/);
    assert.match(reasonOf(`C:\\${marker}-win.txt`) ?? '', /absolute path/);
    assert.match(reasonOf(`sub\\..\\..\\${marker}-bs.txt`) ?? '', /escapes the archive/);
    assert.equal(reasonOf('passwd-link.txt'), 'symbolic link');
    assert.equal(o.doc.processing.members.length, 2, JSON.stringify(o.doc.processing));
    for (const id of o.doc.processing.members) {
      const m = await settle(id);
      assert.equal(m.status, 'Ready', JSON.stringify(m));
      assert.ok(['good.txt', 'docs/second.txt'].includes(m.name) || /good|second/.test(m.name), m.name);
      const { text, dgml } = await textAndDgml(id);
      assert.match(text, /legitimate member/);
      assert.doesNotMatch(text + dgml, PASSWD);
    }
    // Nothing landed outside the store: not next to the data directory, in the temp dir, or the repo.
    const places = [path.dirname(q.dataDir), os.tmpdir(), '/tmp', ROOT, path.dirname(ROOT), '/'];
    for (const dir of places) {
      for (const f of fs.readdirSync(dir)) assert.ok(!f.includes(marker), `${path.join(dir, f)} was written by the ZIP`);
    }
  });

  test('nested zip: not expanded, reported; the other members become documents', async () => {
    const inner = makeZip([{ name: 'inside.txt', data: 'I am inside the inner archive.' }]);
    const o = await hostile('outer.zip', makeZip([{ name: 'inner.zip', data: inner }, { name: 'readme.txt', data: 'The outer readme.' }]));
    assert.equal(o.status, 'Ready', JSON.stringify(o));
    assert.deepEqual(o.doc.processing.skipped, [{ name: 'inner.zip', reason: 'nested archive' }]);
    assert.equal(o.doc.processing.members.length, 1);
    const member = await settle(o.doc.processing.members[0]);
    assert.equal(member.status, 'Ready');
    assert.doesNotMatch((await textAndDgml(member.id)).text, /inside the inner archive/);

    const only = await hostile('only-nested.zip', makeZip([{ name: 'inner.zip', data: inner }]));
    errorWith(only, 'No documents in ZIP', /inner\.zip \(nested archive\)/);
  });

  // ---- PDF ----

  test('PDF whose /Pages tree has itself among its Kids: ends fast, never hangs', async () => {
    const pdf = makePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>', PAGE(2, 4), CONTENT]);
    const o = await hostile('pages-loop.pdf', pdf);
    assert.ok(o.ms < 60_000, `${o.ms} ms`);
    if (o.status !== 'Error') assert.equal(o.status, 'Ready', JSON.stringify(o));
  });

  test('PDF with a two-node page-tree cycle and a /Prev loop: ends fast, never hangs', async () => {
    const pdf = makePdf(
      ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>'],
      '/Prev {xref} ',
    );
    const o = await hostile('tree-cycle.pdf', pdf);
    assert.ok(o.ms < 60_000, `${o.ms} ms`);
    errorWith(o, /PDF/);
  });

  test('PDF whose object stream /Length is inside itself (reference cycle): ends fast, never hangs', async () => {
    const o = await hostile('objstm-cycle.pdf', objectStreamCyclePdf());
    assert.ok(o.ms < 60_000, `${o.ms} ms`);
    if (o.status !== 'Error') assert.equal(o.status, 'Ready', JSON.stringify(o));
  });

  test('encrypted PDF: Error "Encrypted PDF"', async () => {
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
    errorWith(await hostile('locked.pdf', pdf), 'Encrypted PDF', /password/);
  });

  test('PDF claiming 100,000 pages with 2 real ones: ends fast with the real count or an Error', async () => {
    const pdf = makePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 100000 >>', PAGE(2, 5), PAGE(2, 5), CONTENT]);
    const o = await hostile('claims-100k.pdf', pdf);
    assert.ok(o.ms < 60_000, `${o.ms} ms`);
    if (o.status !== 'Error') {
      assert.equal(o.status, 'Ready', JSON.stringify(o));
      assert.equal(o.doc.pageCount, 2);
    }
  });

  test('PDF with 20,000 real (empty) pages: counted, over the per-document quota, never hangs', async () => {
    const o = await hostile('twenty-thousand.pdf', manyPagesPdf(20_000), { timeoutMs: 120_000 });
    if (o.status === 'Error') return;
    assert.equal(o.status, 'OverQuota', JSON.stringify(o));
    assert.equal(o.doc.pageCount, 20_000);
    assert.match(o.doc.error.detail, /20000 pages/);
  });

  test('image-only PDF scanned at 600 DPI: Ready through OCR (or a time-limit Error), no crash', async () => {
    const o = await hostile('scan-600dpi.pdf', await scan600(), { timeoutMs: 150_000 });
    if (o.status === 'Error') {
      errorWith(o, 'Processing time limit exceeded');
      return;
    }
    assert.equal(o.status, 'Ready', JSON.stringify(o));
    assert.equal(o.doc.pageCount, 1);
    assert.deepEqual(o.doc.processing.analysis.ocrPages, [1]);
    assert.match((await textAndDgml(o.doc.id)).text, /National Transportation\s+Safety Board/i);
  });

  // ---- DOCX ----

  test('DOCX with a billion-laughs entity expansion: no blow-up, the entity is not expanded', async () => {
    const o = await hostile('laughs.docx', billionLaughsDocx(), { timeoutMs: 120_000 });
    if (o.status === 'Error') return;
    assert.equal(o.status, 'Ready', JSON.stringify(o));
    const { text } = await textAndDgml(o.doc.id);
    assert.match(text, /Laughing matters/);
    assert.ok(text.length < 100_000, `the text holds ${text.length} characters: the entities were expanded`);
  });

  test('DOCX with external entities (file:///etc/passwd): the file never reaches the text or the DGML', async () => {
    const o = await hostile('xxe.docx', externalEntityDocx(), { timeoutMs: 120_000 });
    if (o.status === 'Error') {
      assert.doesNotMatch(o.doc.error.detail, PASSWD);
      return;
    }
    assert.equal(o.status, 'Ready', JSON.stringify(o));
    const { text, dgml } = await textAndDgml(o.doc.id);
    assert.match(text, /External entity test/);
    assert.doesNotMatch(text, PASSWD);
    assert.doesNotMatch(dgml, PASSWD);
    assert.doesNotMatch(text + dgml, /\/bin\/(ba)?sh|nologin/);
    const md = await c.get(`/documents/${o.doc.id}/content?format=markdown`);
    assert.doesNotMatch(md.text, PASSWD);
  });

  test('DOCX that is a ZIP of something else: Error "Corrupt DOCX"', async () => {
    const o = await hostile('not-word.docx', makeZip([{ name: 'notes.txt', data: 'just notes' }, { name: 'data/x.csv', data: 'a,b\n1,2' }]));
    errorWith(o, 'Corrupt DOCX', /word\/document\.xml/);
    const junk = await hostile('junk-inside.docx', docx('\x89PNG this is not XML at all <<<'));
    if (junk.status !== 'Error') assert.equal(junk.status, 'Ready', JSON.stringify(junk));
  });

  // ---- text and HTML ----

  test('deeply nested HTML (100,000 levels of <div>): Ready or a readable Error, no crash', async () => {
    const html = '<!DOCTYPE html><html><body>' + '<div>'.repeat(100_000) + 'Deep inside the divs.' + '</div>'.repeat(100_000) + '</body></html>';
    const o = await hostile('deep.html', html, { timeoutMs: 150_000 });
    if (o.status === 'Error') return;
    assert.equal(o.status, 'Ready', JSON.stringify(o));
    assert.match((await textAndDgml(o.doc.id)).text, /Deep inside the divs/);
  });

  test('300 MB single-line TXT, streamed: ends Ready or Error with a reason, the server RSS bounded', async () => {
    const file = path.join(TMP, 'one-line.txt');
    const size = 300 * MiB - 64 * 1024; // under the 300 MiB limit with room for nothing else
    const t0 = Date.now();
    await writeBigTxt(file, size);
    const tGen = Date.now() - t0;
    const up = await streamUpload(q, file, 'one-line.txt');
    const tUp = Date.now() - t0 - tGen;
    assert.ok(up.status < 500, `upload answered ${up.status}: ${up.text}`);
    let o: Outcome;
    if (up.status >= 400) {
      assertProblem(up, up.status);
      o = { status: `upload ${up.status}`, reason: `${up.json.title}: ${up.json.detail}`, ms: Date.now() - t0 };
    } else {
      assert.equal(up.status, 201, up.text);
      const doc = await settle(up.json.id, 240_000);
      if (doc.status === 'Error') assertReadable(doc.error, 'one-line.txt');
      o = { status: doc.status, reason: doc.error ? `${doc.error.title}: ${doc.error.detail}` : `pages ${doc.pageCount}`, doc, ms: Date.now() - t0 };
    }
    outcomes.push({ name: `one-line.txt (${size} B; generated ${tGen} ms, uploaded ${tUp} ms)`, outcome: o });
    fs.rmSync(file, { force: true });
    assert.equal(q.process.exitCode, null, 'the server is alive');
    assert.ok(['Ready', 'Error', 'OverQuota'].includes(o.status) || o.status.startsWith('upload 4'), JSON.stringify(o));
    // Laid out, 300 MB of text took 3 GiB: it is refused before its bytes are read.
    if (o.status === 'Error') assert.match(o.reason, /^Text document too large: /);
    assert.ok(rssPeakKb < RSS_BUDGET_KB, `server RSS peaked at ${Math.round(rssPeakKb / 1024)} MiB`);
  });

  // ---- lying extensions ----

  test('extensions that lie about the content: Error "Wrong file type" (or a 4xx)', async () => {
    const nda = fs.readFileSync(NDA); // read, never copied into the repo
    const cases: [string, Buffer | string, RegExp][] = [
      ['page.pdf', '<!DOCTYPE html><html><body><p>I am HTML</p></body></html>', /\.pdf but content is HTML/],
      ['contract.docx', nda, /\.docx but content is PDF/],
      ['notes.txt', nda, /\.txt but content is PDF/],
      ['page.html', nda, /\.html but content is PDF/],
      ['old.doc', docx(`<w:document ${W}><w:body>${para('x')}</w:body></w:document>`), /\.doc but content is DOCX/],
      ['binary.txt', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...Buffer.alloc(200)]), /\.txt but content is/],
    ];
    for (const [name, bytes, detail] of cases) errorWith(await hostile(name, bytes), 'Wrong file type', detail);
    // A .zip that is HTML: a corrupt archive, said so.
    errorWith(await hostile('archive.zip', '<html><body>not a zip</body></html>'), /ZIP/);
    // An executable under a refused extension never gets stored.
    const exe = await hostile('tool.exe', Buffer.from('MZ\x90\x00'));
    assert.equal(exe.status, 'upload 415');
  });

  // ---- names, metadata, labels with XML-significant characters ----

  test('docset name, metadata and labels with XML-significant characters: valid DGML or a 400', async () => {
    const nasty = 'Q<&>"\'\u0001\u000b\u001f\u007f\ufffe]]><!--x-->\ud800\udfff\udc00 &amp; <![CDATA[x]]>';
    let res = await c.post('/docsets', { json: { name: `Docset ${nasty} ${Date.now()}` } });
    assert.ok(res.status === 201 || res.status === 400, `docset create answered ${res.status}: ${res.text}`);
    if (res.status === 400) {
      assertProblem(res, 400);
      res = await c.post('/docsets', { json: { name: `Docset Q<&>"']]> ${Date.now()}` } });
    }
    assertJson(res, 201);
    const docset = res.json;

    // Labels become element names: XML-significant characters are refused with a 400 naming them.
    for (const bad of ['A<B', 'A&B', 'Quote"d', 'C]]>D', 'Ctl\u0001', 'Lone\ud800']) {
      const r = await c.post(`/docsets/${docset.id}/properties`, { json: { label: bad } });
      assertProblem(r, 400);
      assertReadable(r.json, `label ${JSON.stringify(bad)}`);
    }
    const prop = await c.post(`/docsets/${docset.id}/properties`, { json: { label: 'Party.Name-ü:1 Ω' } });
    assertJson(prop, 201);

    const metadata = JSON.stringify({ metadata: [{ key: 'note', value: nasty }, { key: 'k_2', value: ']]></dg:chunk><evil/>' }] });
    const text = `Agreement between ACME <Corp> & "Partners" ]]> \u0001\u000b control.\n\nThe party is Zorro & Sons <Ltd>.\n`;
    let up = await c.upload({ bytes: text, name: `name ${nasty}.txt` }, { 'docset.id': docset.id, metadata });
    if (up.status === 400) {
      // Control characters and lone surrogates may be refused (in the name or the metadata), with a reason.
      assertProblem(up, 400);
      assertReadable(up.json, 'upload with control characters');
      const printable = JSON.stringify({ metadata: [{ key: 'note', value: `Q<&>"']]><!--x--> &amp; <![CDATA[x]]>` }, { key: 'k_2', value: ']]></dg:chunk><evil/>' }] });
      up = await c.upload({ bytes: text, name: `name Q<&>"']]>.txt` }, { 'docset.id': docset.id, metadata: printable });
    }
    assertJson(up, 201);
    const doc = await settle(up.json.id, 90_000);
    assert.equal(doc.status, 'Ready', JSON.stringify(doc));

    const set = await c.put(`/docsets/${docset.id}/properties/${prop.json.id}/documents/${doc.id}`, { json: { value: 'Zorro & Sons <Ltd>' } });
    assert.equal(set.status, 200, set.text);
    for (const url of [`/documents/${doc.id}/dgml`, `/docsets/${docset.id}/documents/${doc.id}/dgml`]) {
      const d = await c.get(url);
      assert.equal(d.status, 200, d.text);
      const seen = parseXml(d.text);
      assert.ok(seen.text.includes('ACME <Corp> & "Partners" ]]>'), `the text survives escaping: ${seen.text.slice(0, 300)}`);
      // Whether the manual value is also tagged in the text is the properties tests' concern; here
      // only that escaping holds. (Found here and left open: a value holding "&" or "<" is not tagged.)
      assert.ok(!seen.elements.includes('evil'), 'metadata never becomes markup');
    }
    const meta = await c.get(`/documents/${doc.id}/metadata`);
    assertJson(meta);
  });

  // ---- the service afterwards ----

  test('afterwards: /healthz 200, a corpus PDF reaches Ready, the process alive, RSS bounded', async (t) => {
    assert.equal((await fetch(`${q.origin}/healthz`)).status, 200);
    const up = await c.upload({ path: NDA });
    assertJson(up, 201);
    const d = await settle(up.json.id, 120_000);
    assert.equal(d.status, 'Ready', JSON.stringify(d));
    assert.equal(d.pageCount, 2);
    assert.equal(q.process.exitCode, null);
    await sampleRss();
    t.diagnostic(`server RSS peak ${Math.round(rssPeakKb / 1024)} MiB over ${rssSamples} samples`);
    for (const { name, outcome } of outcomes) t.diagnostic(`${name}: ${outcome.status} (${outcome.reason.slice(0, 200)}) in ${outcome.ms} ms`);
    assert.ok(rssSamples > 10, 'RSS was sampled');
    assert.ok(rssPeakKb < RSS_BUDGET_KB, `server RSS peaked at ${Math.round(rssPeakKb / 1024)} MiB (budget ${RSS_BUDGET_KB / 1024 / 1024} GiB)`);
  });
});

/** Well-formed, namespace-aware XML (saxes throws on any error); the element names and the text. */
function parseXml(xml: string): { elements: string[]; text: string } {
  const parser = new SaxesParser({ xmlns: true });
  const elements: string[] = [];
  let text = '';
  parser.on('opentag', (tag) => elements.push(tag.name));
  parser.on('text', (t) => (text += t));
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  return { elements, text };
}

/** A multipart upload streamed from disk with node:http (the body is never held in memory). */
function streamUpload(q: Quire, file: string, name: string): Promise<Res> {
  const boundary = `----quire${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(`${q.api}/documents/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${q.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const buffer = Buffer.concat(chunks);
        const text = buffer.toString('utf8');
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        const json = (res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : undefined;
        resolve({ status: res.statusCode ?? 0, headers, text, buffer, json });
      });
    });
    req.write(head);
    const body = fs.createReadStream(file, { highWaterMark: MiB });
    body.on('error', reject);
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}
