// Page images cannot hurt the server or other tenants (issue 46): an image is at most
// QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS (a 422 naming the dpi that fits), a page that cannot be drawn is a
// 422, one workspace's burst of renders waits its own turns (QUIRE_PAGE_RENDERS_PER_WORKSPACE, then
// 503 with retry-after) while another's render goes ahead, and the kept images stay within
// QUIRE_PAGE_IMAGE_CACHE_MB. Real servers on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertProblem, client, type Client } from '../helpers/http.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { makePdf } from '../helpers/pdf-objects.js';
import { Store } from '../../src/store/db/index.js';
import type { Config } from '../../src/runtime/config.js';

const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');
const MEGAPIXELS = 10;
const CACHE_MB = 1;
const ENV = {
  QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS: String(MEGAPIXELS),
  QUIRE_PAGE_RENDERS_PER_WORKSPACE: '1',
  QUIRE_PAGE_RENDER_WAIT_MS: '1000',
  QUIRE_PAGE_IMAGE_CACHE_MB: String(CACHE_MB),
};

/** Pages of the given sizes in points, each with a line of text (so no OCR). */
function pagesPdf(sizes: [number, number][]): Buffer {
  const font = '/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>';
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${sizes.map((_, i) => `${3 + 2 * i} 0 R`).join(' ')}] /Count ${sizes.length} >>`];
  sizes.forEach(([w, h], i) => {
    const content = `BT /F1 24 Tf 72 ${h - 72} Td (Page ${i + 1} measures ${w} by ${h} points.) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] ${font} /Contents ${4 + 2 * i} 0 R >>`, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  });
  return makePdf(objects);
}

async function waitReady(c: Client, id: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const d = (await c.get(`/documents/${id}`)).json;
    if (d.status === 'Ready') return;
    assert.notEqual(d.status, 'Error', JSON.stringify(d.error));
    if (Date.now() > deadline) throw new Error(`document ${id} stayed ${d.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function pngSize(buf: Buffer) {
  assert.ok(buf.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')), 'not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** The page images kept in the server's file storage, with their sizes. */
function keptImages(q: Quire): { file: string; bytes: number }[] {
  const root = path.join(q.dataDir, 'blobs', 'workspaces');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((f) => /\/pages\/\d+-\d+\.png$/.test(f))
    .map((f) => ({ file: f, bytes: fs.statSync(path.join(root, f)).size }));
}

onBothDatabases('page images', 'quire_page_images', (dialect, database, teardown) => {
  describe(`page images cannot hurt the server or other tenants (${dialect})`, () => {
    let q: Quire;
    let a: Client;
    let b: Client;
    let db: Config['database'];
    before(async () => {
      db = await database();
      q = await startQuire({ ...(db.kind === 'postgres' ? { databaseUrl: db.url } : { dataDir: db.file.replace(/\/quire\.db$/, '') }), extraEnv: ENV });
      a = client(q.api, q.key);
      await q.cli(['workspaces', 'create', 'tenant-b']);
      b = client(q.api, (await q.cli(['keys', 'create', '--workspace', 'tenant-b', '--scopes', 'admin'])).stdout.trim());
    });
    after(async () => {
      const code = await q?.stop();
      await teardown();
      const failed = q?.logs().split('\n').filter((l) => l.includes('"level":50')) ?? [];
      assert.deepEqual(failed, [], 'no request failed with a 5xx fault');
      assert.equal(code ?? 0, 0);
    });

    test('an image over the pixel cap is a 422 naming the largest dpi that fits; a 14,400-pt page fits at no dpi', async () => {
      // Letter; 8.5 in x 200 in (a 14,400-pt roll); 14,400 pt square (200 in x 200 in).
      const up = await a.upload({ bytes: pagesPdf([[612, 792], [612, 14_400], [14_400, 14_400]]), name: 'huge pages.pdf' });
      assert.equal(up.status, 201, up.text);
      await waitReady(a, up.json.id);
      const base = `/documents/${up.json.id}/pages`;

      const tall = await a.get(`${base}/2/content`);
      assertProblem(tall, 422, /2550 x 60000 pixels.*10 megapixels \(QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS\).*\?dpi=\d+/);
      const maxDpi = tall.json.maxDpi as number;
      assert.equal(tall.json.maxPixels, MEGAPIXELS * 1_000_000);
      // 2550 x 60000 at 300 DPI: the largest dpi whose image fits 10 MP is 76 (646 x 15200 = 9.8 MP).
      assert.equal(maxDpi, 76);
      const fits = await a.get(`${base}/2/content?dpi=${maxDpi}`);
      assert.equal(fits.status, 200, fits.text);
      const { width, height } = pngSize(fits.buffer);
      assert.deepEqual([width, height], [646, 15_200]);
      assert.ok(width * height <= MEGAPIXELS * 1_000_000);
      assertProblem(await a.get(`${base}/2/content?dpi=${maxDpi + 1}`), 422, /\?dpi=76 or less/);

      const square = await a.get(`${base}/3/content?dpi=36`);
      assertProblem(square, 422, /even at 36 DPI/);
      assert.equal(square.json.maxDpi, null);
      // HEAD answers the same, without a body.
      assert.equal((await a.req('HEAD', `${base}/3/content`)).status, 422);
      // The ordinary page is unaffected.
      assert.deepEqual(pngSize((await a.get(`${base}/1/content?dpi=72`)).buffer), { width: 612, height: 792 });
    });

    test('a page that cannot be drawn is a 422 Problem, not a 500, and is not drawn again at each request', async () => {
      const up = await a.upload({ path: NDA, name: 'to be damaged.pdf' });
      await waitReady(a, up.json.id);
      // The stored original damaged after ingestion (a disk fault, a bad restore): nothing can draw it.
      const original = path.join(q.dataDir, 'blobs', 'workspaces', (await a.get('/workspace')).json.id, 'documents', up.json.id, 'original');
      fs.writeFileSync(original, '%PDF-1.7\nthis is not a PDF any more\n');
      const first = await a.get(`/documents/${up.json.id}/pages/1/content?dpi=72`);
      assertProblem(first, 422, /Page 1 cannot be drawn/);
      assertProblem(await a.get(`/documents/${up.json.id}/pages/1/content?dpi=72`), 422, /Page 1 cannot be drawn/);
      // The renderer still draws other documents.
      const fine = await a.upload({ path: NDA, name: 'intact.pdf' });
      await waitReady(a, fine.json.id);
      assert.equal((await a.get(`/documents/${fine.json.id}/pages/2/content?dpi=72`)).status, 200);
    });

    test("one workspace's burst of renders waits its own turns (503 with retry-after past the wait); another workspace's render goes ahead", async () => {
      const mine = await a.upload({ path: NDA, name: 'burst.pdf' });
      const theirs = await b.upload({ path: NDA, name: 'neighbour.pdf' });
      await Promise.all([waitReady(a, mine.json.id), waitReady(b, theirs.json.id)]);
      // 40 distinct images (each dpi a new one): at one render in flight, far more than fit in the 1 s wait.
      const done: { status: number; at: number; retryAfter: string | null; problem: boolean }[] = [];
      const burst = Array.from({ length: 40 }, (_, i) =>
        a.get(`/documents/${mine.json.id}/pages/${1 + (i % 2)}/content?dpi=${280 - Math.floor(i / 2)}`).then((r) => {
          done.push({ status: r.status, at: performance.now(), retryAfter: r.headers.get('retry-after'), problem: /problem\+json/.test(r.headers.get('content-type') ?? '') });
        }),
      );
      // B asks once A's burst is under way.
      while (done.length === 0) await new Promise((r) => setTimeout(r, 10));
      const sent = performance.now();
      const neighbour = await b.get(`/documents/${theirs.json.id}/pages/1/content?dpi=300`);
      const answered = performance.now();
      await Promise.all(burst);
      assert.equal(neighbour.status, 200, neighbour.text);
      assert.deepEqual(pngSize(neighbour.buffer), { width: 2550, height: 3300 });
      // While B's render waited, at most the render of A's already running and one or two more finished:
      // A's other requests wait behind A's own turn, not in front of B.
      const drawnMeanwhile = done.filter((d) => d.status === 200 && d.at > sent && d.at < answered).length;
      assert.ok(drawnMeanwhile <= 3, `${drawnMeanwhile} of A's images were drawn while B's waited`);
      const busy = done.filter((d) => d.status === 503);
      assert.ok(busy.length > 0, 'some of the burst waited past QUIRE_PAGE_RENDER_WAIT_MS');
      for (const d of busy) {
        assert.ok(d.problem, 'a 503 is a Problem');
        assert.ok(Number(d.retryAfter) >= 1, `retry-after: ${d.retryAfter}`);
      }
      assert.deepEqual(done.filter((d) => d.status !== 200 && d.status !== 503), [], 'only images or 503');
      // A 503'd image is drawn when asked again.
      const again = await a.get(`/documents/${mine.json.id}/pages/2/content?dpi=261`);
      assert.equal(again.status, 200, again.text);
    });

    test('the kept images stay within QUIRE_PAGE_IMAGE_CACHE_MB by bytes: many small ones, few large ones', async () => {
      const up = await a.upload({ path: NDA, name: 'cache.pdf' });
      await waitReady(a, up.json.id);
      const bound = CACHE_MB * 1024 * 1024;
      const sizes: number[] = [];
      // Large images (300-DPI pages are ~100-300 kB): each one kept pushes out the oldest.
      for (let dpi = 300; dpi > 240; dpi -= 4) {
        const r = await a.get(`/documents/${up.json.id}/pages/1/content?dpi=${dpi}`);
        assert.equal(r.status, 200, r.text);
        sizes.push(r.buffer.length);
        const kept = keptImages(q);
        const total = kept.reduce((s, k) => s + k.bytes, 0);
        assert.ok(total <= bound, `${total} bytes kept after a ${r.buffer.length}-byte image, over ${bound}`);
      }
      assert.ok(sizes.reduce((s, n) => s + n, 0) > 2 * bound, 'the images drawn add up to more than the bound');
      const large = keptImages(q).length;
      // Small images (36..60 DPI, a few kB each): many more fit in the same bytes.
      for (let dpi = 36; dpi <= 60; dpi++) assert.equal((await a.get(`/documents/${up.json.id}/pages/2/content?dpi=${dpi}`)).status, 200);
      const kept = keptImages(q);
      assert.ok(kept.reduce((s, k) => s + k.bytes, 0) <= bound);
      assert.ok(kept.filter((k) => /\/pages\/2-(3\d|4\d|5\d|60)\.png$/.test(k.file)).length === 25, 'every small image is kept');
      assert.ok(kept.length > large, `${kept.length} images kept now, ${large} when they were large: the bound is bytes, not entries`);
      // An evicted image is drawn again on request.
      const first = await a.get(`/documents/${up.json.id}/pages/1/content?dpi=300`);
      assert.equal(first.status, 200);
      assert.equal(first.buffer.length, sizes[0]);

      // The database's ledger of kept images agrees with storage, and a deleted document's rows go with it.
      const store = await Store.open(db, { migrate: false });
      try {
        const ledger = async (where = '') => Number((await store.raw.executeSql(`select count(*) as n, coalesce(sum(bytes), 0) as bytes from page_images ${where}`)).rows[0].bytes);
        assert.equal(await ledger(), keptImages(q).reduce((s, k) => s + k.bytes, 0));
        assert.ok((await ledger(`where document_id = '${up.json.id}'`)) > 0);
        assert.equal((await a.del(`/documents/${up.json.id}`)).status, 204);
        assert.equal(await ledger(`where document_id = '${up.json.id}'`), 0);
        assert.equal(await ledger(), keptImages(q).reduce((s, k) => s + k.bytes, 0));
      } finally {
        await store.close();
      }
    });
  });
});
