import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, type Client } from '../helpers/http.js';
import { imageOnlyPdf } from '../helpers/image-pdf.js';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');

async function waitForStatus(c: Client, id: string, wanted: string[], ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = (await c.get(`/documents/${id}`)).json;
    if (wanted.includes(d.status)) return d;
    if (Date.now() > deadline) throw new Error(`document ${id} stayed ${d.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function pngSize(buf: Buffer) {
  assert.ok(buf.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')), 'not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('pages', () => {
  let q: Quire;
  let c: Client;
  let id: string;
  before(async () => {
    q = await startQuire();
    c = client(q.api, q.key);
    id = (await c.upload({ path: NDA })).json.id;
    await waitForStatus(c, id, ['Ready']);
  });
  after(async () => {
    assert.equal(await q.stop(), 0);
  });

  test('page list and page: sizes in 300-DPI pixels, absolute URLs', async () => {
    const r = await c.get(`/documents/${id}/pages`);
    assertJson(r);
    // The page list's document and every page's, as the SDK's page model names them (issue 42).
    const document = { id, url: `${q.api}/documents/${id}`, downloadUrl: `${q.api}/documents/${id}/content` };
    assert.deepEqual(r.json.document, document);
    assert.equal(r.json.pages.length, 2);
    for (const [i, p] of r.json.pages.entries()) {
      assert.deepEqual(p, {
        number: i + 1,
        width: 2550,
        height: 3300,
        url: `${q.api}/documents/${id}/pages/${i + 1}`,
        downloadUrl: `${q.api}/documents/${id}/pages/${i + 1}/content`,
        document,
      });
    }
    assert.deepEqual((await c.get(`/documents/${id}/pages/2`)).json, r.json.pages[1]);
    assertProblem(await c.get(`/documents/${id}/pages/3`), 404, /2 page/);
    assertProblem(await c.get(`/documents/${id}/pages/0`), 400);
    assertProblem(await c.get(`/documents/${id}/pages/x`), 400);
    assertProblem(await c.get(`/documents/nosuchdoc/pages`), 404);
  });

  test('content: a PNG rendered once (HEAD then GET), cached, at 300 DPI by default or ?dpi=', async () => {
    const cached = path.join(q.dataDir, 'blobs', 'workspaces');
    const head = await c.req('HEAD', `/documents/${id}/pages/1/content`);
    assert.equal(head.status, 200);
    const length = Number(head.headers.get('content-length'));
    assert.ok(length > 1000);
    const files = () => (fs.readdirSync(cached, { recursive: true }) as string[]).filter((f) => f.endsWith('1-300.png')).map((f) => path.join(cached, f));
    assert.equal(files().length, 1);
    const before = fs.statSync(files()[0]!).mtimeMs;
    const get = await c.get(`/documents/${id}/pages/1/content`, { headers: { accept: 'application/json' } });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('content-type'), 'image/png');
    assert.equal(get.buffer.length, length);
    assert.deepEqual(pngSize(get.buffer), { width: 2550, height: 3300 });
    assert.equal(fs.statSync(files()[0]!).mtimeMs, before, 'GET after HEAD rendered again');
    assert.ok(get.headers.get('etag'));
    assert.match(get.headers.get('cache-control') ?? '', /max-age/);
    assert.equal((await c.get(`/documents/${id}/pages/1/content`, { headers: { 'if-none-match': get.headers.get('etag')! } })).status, 304);
    const small = await c.get(`/documents/${id}/pages/2/content?dpi=72`);
    assert.deepEqual(pngSize(small.buffer), { width: 612, height: 792 });
    assertProblem(await c.get(`/documents/${id}/pages/1/content?dpi=35`), 400);
    assertProblem(await c.get(`/documents/${id}/pages/1/content?dpi=301`), 400);
    assertProblem(await c.get(`/documents/${id}/pages/9/content`), 404);
  });

  test('a scanned PDF (image-only page, no text layer) reaches Ready with its page and image', async () => {
    const scan = path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf');
    const d = (await c.upload({ path: scan })).json;
    const ready = await waitForStatus(c, d.id, ['Ready', 'Error']);
    assert.equal(ready.status, 'Ready', JSON.stringify(ready.error));
    assert.equal(ready.pageCount, 1);
    const pages = (await c.get(`/documents/${d.id}/pages`)).json.pages;
    assert.deepEqual(pages.map((p: { width: number; height: number }) => [p.width, p.height]), [[3300, 2550]]);
    const img = await c.get(`/documents/${d.id}/pages/1/content?dpi=72`);
    assert.deepEqual(pngSize(img.buffer), { width: 792, height: 612 });
    assert.ok(img.buffer.length > 20_000, 'the scanned image should not render blank');
  });

  test('a scanned document reports the pages read so far while it is Processing', async () => {
    const lease = fs.readFileSync(path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf'));
    const pages = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => ({ image: await renderPdfPage(lease, n, 200), dpi: 200 })));
    const d = (await c.upload({ bytes: await imageOnlyPdf(pages), name: 'scanned lease.pdf' })).json;
    const seen: { status: string; pagesDone?: number; pagesTotal?: number | null }[] = [];
    const deadline = Date.now() + 180_000;
    for (;;) {
      const doc = (await c.get(`/documents/${d.id}`)).json;
      seen.push({ status: doc.status, pagesDone: doc.progress?.pagesDone, pagesTotal: doc.progress?.pagesTotal });
      if (doc.status === 'Ready' || doc.status === 'Error' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(seen.at(-1)!.status, 'Ready', JSON.stringify(seen.at(-1)));
    const processing = seen.filter((s) => s.status === 'Processing' && s.pagesDone !== undefined);
    assert.ok(processing.some((s) => s.pagesDone! > 0 && s.pagesDone! < 6 && s.pagesTotal === 6), `some pages read, not all: ${JSON.stringify(processing.map((s) => s.pagesDone))}`);
    const done = processing.map((s) => s.pagesDone!);
    assert.deepEqual(done, [...done].sort((a, b) => a - b), 'the count only goes up');
  });

  test('processing details say which pagination path was taken', async () => {
    assert.equal((await c.get(`/documents/${id}`)).json.processing.pagination, 'pdf');
    const txt = (await c.upload({ bytes: 'Heading\n\nA paragraph of plain text.\n', name: 'plain.txt' })).json;
    const done = await waitForStatus(c, txt.id, ['Ready', 'Error']);
    assert.equal(done.status, 'Ready', JSON.stringify(done.error));
    // A text file is always laid out by Quire (monospaced, as printed); other formats by LibreOffice when it is there.
    assert.equal(done.processing.pagination, 'text-layout');
    assert.equal(done.processing.format, 'txt');
    assert.ok(done.pageCount >= 1);
    const html = (await c.upload({ bytes: '<h1>Heading</h1><p>A paragraph of HTML.</p>', name: 'page.html' })).json;
    const htmlDone = await waitForStatus(c, html.id, ['Ready', 'Error']);
    assert.equal(htmlDone.status, 'Ready', JSON.stringify(htmlDone.error));
    // LibreOffice gets HTML only where it can run without a network (`unshare -rn`).
    const soffice = spawnSync('sh', ['-c', 'command -v soffice']).stdout.toString().trim() !== '';
    const isolated = spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore' }).status === 0;
    assert.equal(htmlDone.processing.pagination, soffice && isolated ? 'libreoffice' : 'text-layout');
    assert.equal(htmlDone.processing.format, 'html');
  });

  test('a document of another workspace: 404', async () => {
    await q.cli(['workspaces', 'create', 'elsewhere']);
    const key = (await q.cli(['keys', 'create', '--workspace', 'elsewhere', '--scopes', 'admin'])).stdout.trim();
    const other = client(q.api, key);
    assertProblem(await other.get(`/documents/${id}/pages`), 404);
    assertProblem(await other.get(`/documents/${id}/pages/1/content`), 404);
  });
});

describe('pages before ingestion', () => {
  test('409 with retry-after (clients retry it) while the document is New', async () => {
    const q = await startQuire({ args: ['serve', '--no-worker'] });
    try {
      const c = client(q.api, q.key);
      const id = (await c.upload({ path: NDA })).json.id;
      assert.equal((await c.get(`/documents/${id}`)).json.status, 'New');
      for (const url of [`/documents/${id}/pages`, `/documents/${id}/pages/1`, `/documents/${id}/pages/1/content`]) {
        const r = await c.get(url);
        assertProblem(r, 409, /New/);
        assert.equal(r.headers.get('retry-after'), '5');
        assert.equal(r.headers.get('x-should-retry'), 'true');
      }
    } finally {
      assert.equal(await q.stop(), 0);
    }
  });
});
