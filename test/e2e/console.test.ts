// The browser console (served at /) driven by a real Chromium (Debian's, through playwright-core)
// against a real server: every step goes through the page, and the API checks what it did.
// Screenshots of each step go to QUIRE_TEST_SCREENSHOTS when it is set (kept), else to the test's
// scratch folder (printed, removed when the test process ends); never committed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { client, type Client, until } from '../helpers/http.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch.js';
import { imageOnlyPdf } from '../helpers/image-pdf.js';
import { renderPdfPage } from '../../src/ingest/readers/pdf/render.js';

const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';
const NTSB = [path.join(CORPUS, 'reference-dgml/20071204X01896.pdf'), path.join(CORPUS, 'reference-dgml/20071210X01921.pdf')];
const CHUNK = 1024 * 1024;
const missing = !fs.existsSync(CHROMIUM);
const skip = missing && process.env.QUIRE_TEST_REQUIRE_ALL !== '1' ? `no Chromium at ${CHROMIUM}` : false;
/** Browser-side code sees the DOM through `globalThis` (this file is typed against Node, not the DOM). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dom = any;
const IMAGE_LOADED = () => {
  const i = (globalThis as Dom).document.querySelector('.page-frame img');
  return !!i && i.complete && i.naturalWidth > 0;
};
/** Files the test uploads; removed with the test process's scratch. */
const FILES = scratchDir('quire-console-e2e-');
/** Screenshots are kept only where QUIRE_TEST_SCREENSHOTS asks; otherwise they go with the scratch. */
const SHOTS = process.env.QUIRE_TEST_SCREENSHOTS ? path.resolve(process.env.QUIRE_TEST_SCREENSHOTS) : FILES;
fs.mkdirSync(SHOTS, { recursive: true });

describe('browser console', { skip }, () => {
  let q: Quire;
  let c: Client;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let context: BrowserContext;
  let page: Page;
  let step = 0;
  const shot = async (name: string) => {
    step++;
    await page.screenshot({ path: path.join(SHOTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
  /** The innermost elements that stick out past the viewport's right edge (to say what to fix). */
  const overflowing = () =>
    page.evaluate(() => {
      // No named inner functions here: the test's transpiler would wrap them in a helper the page lacks.
      const g = globalThis as Dom;
      const w = g.document.documentElement.clientWidth;
      const out = new Set(
        [...g.document.querySelectorAll('body *')].filter((e: Dom) => {
          if (e.getBoundingClientRect().right <= w + 1) return false;
          for (let p = e.parentElement; p; p = p.parentElement) if (g.getComputedStyle(p).overflowX !== 'visible') return false;
          return true;
        }),
      );
      return [...out]
        .filter((e: Dom) => ![...e.children].some((k) => out.has(k)))
        .slice(0, 5)
        .map((e: Dom) => `${e.tagName.toLowerCase()}.${e.className} "${String(e.textContent).slice(0, 40)}" (${Math.round(e.getBoundingClientRect().right)}px)`)
        .join(', ');
    });
  let docsetId = '';
  /** Script errors and CSP violations in the page (must stay empty). */
  const errors: string[] = [];
  let docId = '';

  before(async () => {
    receiver = new WebhookReceiver();
    await receiver.listen();
    q = await startQuire({ extraEnv: { QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK), QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    c = client(q.api, q.key);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text()) && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    console.log(SHOTS === FILES ? `# screenshots in ${SHOTS} (removed at the end; QUIRE_TEST_SCREENSHOTS=DIR keeps them)` : `# screenshots in ${SHOTS}`);
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('the page has its own strict CSP; the API keeps its own', async () => {
    const r = await fetch(`${q.origin}/`);
    assert.equal(r.status, 200);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const html = await r.text();
    assert.doesNotMatch(html, /<script>(?!\s*<)/, 'no inline script');
    const api = await fetch(`${q.api}/workspace`, { headers: { authorization: `Bearer ${q.key}` } });
    assert.equal(api.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });

  test('sign in: a wrong key is refused, the right one shows the workspace and its page quota', async () => {
    await page.goto(q.origin + '/');
    // The page says how to get a key, and links the API reference served by this server.
    assert.match(await page.getByTestId('key-hint').innerText(), /npx quire keys create --workspace default --scopes admin/);
    const docs = await page.getByRole('link', { name: 'API reference' }).getAttribute('href');
    assert.equal((await fetch(new URL(docs!, q.origin))).status, 200);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    // Keyboard only: the field keeps focus after the refusal; Enter submits.
    await page.getByLabel('API key').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(q.key);
    await page.keyboard.press('Enter');
    await page.getByTestId('quota').waitFor();
    // Tab reaches the navigation links first.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as Dom).document.activeElement?.textContent), 'Documents');
    assert.match(await page.getByTestId('quota').innerText(), /pages 0 \/ \d+/);
    assert.equal(await page.getByRole('navigation').getByRole('link', { name: 'API reference' }).getAttribute('href'), '/docs');
    await shot('signed-in');
  });

  test('a 401 sends the user back to sign-in', async () => {
    await page.evaluate(() => (globalThis as Dom).sessionStorage.setItem('quire.apiKey', 'revoked-key'));
    await page.reload();
    await page.getByLabel('API key').waitFor();
    await page.getByLabel('API key').fill(q.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('quota').waitFor();
  });

  test('create a docset, upload two corpus PDFs into it with progress, wait for Ready', async () => {
    await page.getByLabel('New docset').fill('NTSB reports');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('li[data-docset="NTSB reports"]').waitFor();
    docsetId = (await c.get('/docsets')).json.docsets.find((d: { name: string }) => d.name === 'NTSB reports').id;
    await page.getByRole('checkbox', { name: 'NTSB reports' }).check();
    await page.locator('#file-input').setInputFiles(NTSB);
    for (const f of NTSB) {
      const item = page.locator(`li[data-upload="${path.basename(f)}"]`);
      await item.getByRole('progressbar').waitFor();
      await page.locator(`li[data-upload="${path.basename(f)}"][data-state="done"]`).waitFor();
      assert.equal(await item.getByRole('progressbar').getAttribute('aria-valuenow'), '100');
    }
    await shot('uploaded');
    for (const f of NTSB) await page.locator(`tr[data-doc="${path.basename(f)}"][data-status="Ready"]`).waitFor({ timeout: 180_000 });
    assert.match(await page.locator('li[data-docset="NTSB reports"]').innerText(), /\(2\)/);
    const docs = (await c.get(`/documents?docset.id=${docsetId}`)).json.documents as { id: string; name: string; status: string }[];
    assert.deepEqual(docs.map((d) => d.status), ['Ready', 'Ready']);
    docId = docs.find((d) => d.name === path.basename(NTSB[0]!))!.id;
    await shot('ready');
  });

  test('the status filter narrows the table', async () => {
    await page.getByLabel('Status').selectOption('Error');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No documents.').waitFor();
    await page.getByLabel('Status').selectOption('Ready');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('tr[data-status="Ready"]').nth(1).waitFor();
    const names = () => page.locator('tr[data-doc]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-doc')));
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    const asc = await names();
    assert.deepEqual(asc, [...asc].sort());
    await page.getByRole('button', { name: /^Name/ }).click();
    assert.deepEqual(await names(), [...asc].reverse());

    // Size and metadata filters go to the API as maxSize and metadata.{key}.
    const docs = (await c.get('/documents?status=Ready')).json.documents as { id: string; name: string; size: number }[];
    const small = docs.reduce((a, b) => (a.size <= b.size ? a : b));
    const shown = (want: string[]) => until(`the table to show ${want.join(', ')}`, async () => (JSON.stringify(await names()) === JSON.stringify(want) ? true : undefined), 10_000, 100);
    await page.getByLabel('Max size (bytes)').fill(String(small.size));
    const bySize = page.waitForResponse((r) => r.url().includes(`maxSize=${small.size}`));
    await page.getByRole('button', { name: 'Filter' }).click();
    await bySize;
    await shown(docs.filter((d) => d.size <= small.size).map((d) => d.name));
    await page.getByLabel('Max size (bytes)').fill('');
    assert.equal((await c.put(`/documents/${small.id}/metadata`, { json: { metadata: [{ key: 'case', value: 'A-7' }] } })).status, 200);
    await page.getByLabel('Metadata key').fill('case');
    await page.getByLabel('Metadata value').fill('A-7');
    const listed = page.waitForResponse((r) => r.url().includes('metadata.case=A-7'));
    await page.getByRole('button', { name: 'Filter' }).click();
    await listed;
    await shown([small.name]);
    await page.getByLabel('Metadata key').fill('');
    await page.getByLabel('Metadata value').fill('');
    await page.getByRole('button', { name: 'Filter' }).click();
  });

  test('open a document: page 1 is shown, the outline lists sections and tables', async () => {
    const thumbs: string[] = [];
    page.on('request', (r) => r.url().includes('dpi=36') && thumbs.push(r.url()));
    await page.getByRole('link', { name: path.basename(NTSB[0]!) }).click();
    const img = page.locator('.page-frame[data-page="1"] img');
    await img.waitFor();
    await page.waitForFunction(IMAGE_LOADED);
    const natural = await img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth);
    assert.ok(natural > 100, `page 1 image ${natural}px wide`);
    await page.locator('.outline .kind-table').first().waitFor();
    await page.waitForFunction(() => (globalThis as Dom).document.querySelectorAll('.thumbs img').length >= 2);
    assert.ok(thumbs.length >= 2, `thumbnails fetched at 36 DPI: ${thumbs.length}`);
    await shot('document');
    const zoomed = page.waitForResponse((r) => r.url().includes('/pages/1/content?dpi=300') && r.status() === 200);
    await page.getByRole('button', { name: 'Zoom (300 DPI)' }).click();
    await zoomed;
    await page.waitForFunction(IMAGE_LOADED);
    assert.ok((await img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)) > natural * 2, 'the zoomed image is the 300 DPI one');
    await page.getByRole('button', { name: 'Fit' }).click();
  });

  test('a property value highlights its bounding box where the API says it is', async () => {
    await page.getByLabel('New property').fill('Accident Number');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const value = page.locator('li[data-property="Accident Number"] button.value');
    await page.locator('li[data-property="Accident Number"] button.value:not([disabled])').waitFor({ timeout: 90_000 });
    const props = (await c.get(`/docsets/${docsetId}/properties`)).json.properties as { id: string; label: string }[];
    const propId = props.find((p) => p.label === 'Accident Number')!.id;
    const api = (await c.get(`/docsets/${docsetId}/properties/${propId}/documents/${docId}`)).json;
    assert.ok(api.location, 'the value has a location');
    assert.equal((await value.innerText()).trim(), api.value);
    const pageInfo = (await c.get(`/documents/${docId}/pages/${api.location.page}`)).json as { width: number; height: number };
    await value.click();
    await page.locator(`.page-frame[data-page="${api.location.page}"]`).waitFor();
    await page.waitForFunction(IMAGE_LOADED);
    const imgBox = (await page.locator('.page-frame img').boundingBox())!;
    const hl = (await page.getByTestId('highlight').boundingBox())!;
    const b = api.location.boundingBox as { left: number; top: number; width: number; height: number };
    const sx = imgBox.width / pageInfo.width;
    const sy = imgBox.height / pageInfo.height;
    const expected = { x: imgBox.x + b.left * sx, y: imgBox.y + b.top * sy, width: b.width * sx, height: b.height * sy };
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      assert.ok(Math.abs(hl[k] - expected[k]) <= 2, `highlight ${k} ${hl[k].toFixed(1)} vs the bounding box ${expected[k].toFixed(1)} (${JSON.stringify(b)})`);
    }
    // The click also shows how the value was found, as the API tells it.
    assert.ok(api.evidence, 'the value has its evidence');
    const evidence = page.locator(`li[data-property="Accident Number"] dl.evidence[data-evidence="${api.evidence.method}"]`);
    await evidence.waitFor();
    const shown = await evidence.innerText();
    if (api.evidence.cue) assert.ok(shown.includes(api.evidence.cue), `the cue "${api.evidence.cue}" in: ${shown}`);
    if (api.evidence.text) assert.ok(shown.replace(/\s+/g, ' ').includes(api.evidence.text), `the sentence in: ${shown}`);
    assert.match(shown, new RegExp(`page ${api.location.page}`));
    assert.match(shown, new RegExp(`${Math.round(api.confidence * 100)}%`));
    await shot('highlight');

    await page.getByRole('button', { name: 'Edit Accident Number' }).click();
    await page.getByLabel('New value of Accident Number').fill('CONSOLE-EDIT-1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('li[data-property="Accident Number"][data-source="manual"]').waitFor();
    const after = (await c.get(`/docsets/${docsetId}/properties/${propId}/documents/${docId}`)).json;
    assert.equal(after.value, 'CONSOLE-EDIT-1');
    assert.equal(after.source, 'manual');
    await shot('edited');
  });

  test('the DGML can be downloaded', async () => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download DGML' }).click()]);
    const text = fs.readFileSync((await dl.path())!, 'utf8');
    assert.match(text, /^<\?xml|<dg:/);
  });

  test('the original can be downloaded, and the text and Markdown read, as the API gives them', async () => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download original' }).click()]);
    assert.equal(dl.suggestedFilename(), path.basename(NTSB[0]!));
    assert.ok(fs.readFileSync((await dl.path())!).equals(fs.readFileSync(NTSB[0]!)), 'the downloaded bytes are the uploaded ones');
    for (const [button, format] of [['Text', 'text'], ['Markdown', 'markdown']] as const) {
      const api = await c.get(`/documents/${docId}/content?format=${format}`);
      assert.equal(api.status, 200);
      assert.ok(api.text.trim().length > 100, `${format}: ${api.text.length} characters`);
      // Every state the view passes through on the switch: never the other format's text under this format.
      await page.evaluate(`(() => {
        window.quireSeen = [];
        window.quireWatch?.disconnect();
        window.quireWatch = new MutationObserver(() => {
          const pre = document.querySelector('pre.text-view');
          if (pre) window.quireSeen.push([pre.getAttribute('data-format') ?? '', pre.textContent ?? '']);
        });
        window.quireWatch.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      })()`);
      await page.getByRole('button', { name: button, exact: true }).click();
      assert.equal(await page.getByRole('button', { name: button, exact: true }).getAttribute('aria-pressed'), 'true');
      const pre = page.locator(`pre.text-view[data-format="${format}"]`);
      await pre.filter({ hasNotText: 'Loading…' }).waitFor();
      const seen = (await page.evaluate('window.quireSeen')) as [string, string][];
      for (const [shown, content] of seen) if (shown === format) assert.ok(content === 'Loading…' || content === api.text, `${format} view showed other text: ${content.slice(0, 60)}`);
      // textContent: the characters as the API sent them (innerText would fold the layout's whitespace).
      assert.equal(await pre.evaluate((e) => (e as unknown as { textContent: string }).textContent), api.text);
      await shot(`document-${format}`);
    }
    await page.getByRole('button', { name: 'Markdown', exact: true }).click();
    await page.locator('pre.text-view').waitFor({ state: 'detached' });
  });

  test('the document view follows a document in flight until it settles, then stops polling; it can be deleted after a confirmation', async () => {
    // A scanned copy of two pages: read by OCR, so it stays in flight long enough to be seen.
    const source = fs.readFileSync(NTSB[1]!);
    const scanned = await imageOnlyPdf(await Promise.all([1, 2].map(async (n) => ({ image: await renderPdfPage(source, n, 200), dpi: 200 }))));
    const name = 'followed scan.pdf';
    const id = (await c.upload({ bytes: scanned, name })).json.id as string;
    const seen: string[] = [];
    const docUrl = new RegExp(`/v1preview1/documents/${id}$`);
    page.on('response', async (r) => {
      if (docUrl.test(r.url()) && r.request().method() === 'GET' && r.status() === 200) seen.push(((await r.json()) as { status: string }).status);
    });
    await page.goto(`${q.origin}/#/documents/${id}`);
    await page.locator('h1.doc-title').waitFor();
    const first = await page.locator('h1.doc-title').getAttribute('data-status');
    assert.ok(['New', 'Ingesting', 'Ingested', 'Processing'].includes(first!), `in flight when opened: ${first}`);
    await page.getByRole('progressbar', { name: `Processing ${name}` }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Text', exact: true }).isDisabled(), true);
    await shot('document-in-flight');
    // No reload: the view polls until the API says Ready, then shows the pages and the text.
    await page.locator('h1.doc-title[data-status="Ready"]').waitFor({ timeout: 180_000 });
    assert.equal((await c.get(`/documents/${id}`)).json.status, 'Ready');
    assert.ok(seen.length >= 2 && seen[0] !== 'Ready' && seen.at(-1) === 'Ready', `statuses polled: ${seen.join(' → ')}`);
    assert.equal(await page.locator('.page-frame').getAttribute('data-width'), String((await c.get(`/documents/${id}/pages/1`)).json.width), 'its own pages');
    await page.locator('.page-frame[data-page="1"] img').waitFor();
    await page.waitForFunction(IMAGE_LOADED);
    await page.getByRole('progressbar', { name: `Processing ${name}` }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: 'Text', exact: true }).isEnabled(), true);
    await shot('document-settled');
    const polls = seen.length;
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(seen.length, polls, 'no more polling once Ready');
    console.log(`# document view polled: ${seen.join(' → ')}`);

    // Dismissing the confirmation keeps the document; accepting it deletes it and goes back to the list.
    const dismissed = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.message()), void d.dismiss())));
    await page.getByRole('button', { name: 'Delete document' }).click();
    assert.match(await dismissed, new RegExp(`Delete document "${name}"`));
    assert.equal((await c.get(`/documents/${id}`)).status, 200);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete document' }).click();
    await page.waitForFunction(() => (globalThis as Dom).location.hash === '#/');
    await page.locator('tr[data-doc]').first().waitFor();
    assert.equal(await page.locator(`tr[data-doc="${name}"]`).count(), 0);
    assert.equal((await c.get(`/documents/${id}`)).status, 404);
  });

  test('create a TabularReport project and download report.xlsx', async () => {
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.locator('#project-name').fill('Console report');
    await page.locator('#project-type').selectOption('TabularReport');
    await page.locator('#project-docset').selectOption(docsetId);
    await page.locator('#project-items').fill('Accident Number');
    await page.getByRole('button', { name: 'Create project' }).click();
    const button = page.locator('tr[data-project="Console report"] button[data-artifact="report.xlsx"]');
    await button.waitFor({ timeout: 120_000 });
    assert.match(await page.locator('tr[data-project="Console report"] td[data-version]').innerText(), /^\d+$/);
    await shot('project');
    const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
    assert.equal(dl.suggestedFilename(), 'report.xlsx');
    const bytes = fs.readFileSync((await dl.path())!);
    assert.ok(bytes.length > 1000, `${bytes.length} bytes`);
    assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
  });

  test('a chunked upload (over 8 MB) cut by a network error resumes after a reload with only the missing chunks', async () => {
    const big = path.join(FILES, 'big-notes.txt');
    const line = 'Quire console chunked upload test line, long enough to fill the file quickly.\n';
    fs.writeFileSync(big, line.repeat(Math.ceil((9 * 1024 * 1024 + 12345) / line.length)));
    const total = Math.ceil(fs.statSync(big).size / CHUNK);
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.locator('#file-input').waitFor({ state: 'attached' });

    let passed = 0;
    await page.route('**/v1preview1/documents/uploads/session/*/chunk', (route) => (passed++ < 3 ? route.continue() : route.abort('failed')));
    await page.locator('#file-input').setInputFiles(big);
    await page.locator('li[data-upload="big-notes.txt"][data-state="failed"]').waitFor();
    const partial = Number(await page.locator('li[data-upload="big-notes.txt"]').getByRole('progressbar').getAttribute('aria-valuenow'));
    assert.ok(partial > 0 && partial < 100, `the bar stopped part-way: ${partial}%`);
    const sessionId = await page.evaluate(() => Object.entries((globalThis as Dom).localStorage as Record<string, string>).find(([k]) => k.startsWith('quire.upload:'))?.[1]);
    assert.ok(sessionId, 'the session id is remembered in localStorage');
    const received = await until('the first chunks stored', async () => {
      const s = (await c.get(`/documents/uploads/session/${sessionId}`)).json;
      return s.receivedOffsets.length >= 3 ? (s.receivedOffsets as number[]) : undefined;
    }, 30_000);
    await shot('chunked-interrupted');
    await page.unroute('**/v1preview1/documents/uploads/session/*/chunk');

    await page.reload();
    let sentAfter = 0;
    page.on('request', (r) => r.url().includes('/chunk') && r.method() === 'POST' && sentAfter++);
    await page.locator('#file-input').setInputFiles(big);
    const item = page.locator('li[data-upload="big-notes.txt"][data-state="done"]');
    await item.waitFor({ timeout: 60_000 });
    assert.equal(await item.getAttribute('data-resumed'), 'true');
    assert.equal(sentAfter, total - received.length, `${total} chunks, ${received.length} received before the reload, ${sentAfter} sent after`);
    assert.ok(sentAfter < total);
    const state = (await c.get(`/documents/uploads/session/${sessionId}`)).json;
    assert.equal(state.status, 'finalized');
    const doc = (await c.get(`/documents/${state.document.id}`)).json;
    assert.equal(doc.size, fs.statSync(big).size);
    assert.equal(await page.evaluate(() => Object.keys((globalThis as Dom).localStorage).filter((k) => k.startsWith('quire.upload:')).length), 0);
    await shot('chunked-resumed');
    console.log(`# chunked upload: ${total} chunks, ${received.length} before the reload, ${sentAfter} after`);
    fs.rmSync(big);
  });

  test('several docsets at upload send docset.id=a|b (classification); a docset can be renamed and deleted', async () => {
    page.on('dialog', (d) => void d.accept());
    await page.getByLabel('New docset').fill('Other');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('li[data-docset="Other"]').waitFor();
    const other = (await c.get('/docsets')).json.docsets.find((d: { name: string }) => d.name === 'Other').id;
    await page.getByRole('checkbox', { name: 'NTSB reports' }).check();
    await page.getByRole('checkbox', { name: 'Other' }).check();
    const note = path.join(FILES, 'note.txt');
    fs.writeFileSync(note, 'A short note about an aviation accident report.');
    const answered = page.waitForResponse((r) => r.url().endsWith('/documents/content') && r.request().method() === 'POST');
    await page.locator('#file-input').setInputFiles(note);
    const uploaded = (await (await answered).json()) as { docsetCandidates?: string[] };
    assert.deepEqual([...(uploaded.docsetCandidates ?? [])].sort(), [docsetId, other].sort(), 'docset.id named both docsets: the document is classified into one');
    await page.locator('li[data-upload="note.txt"][data-state="done"]').waitFor();
    const doc = (await c.get('/documents?name=note.txt')).json.documents[0];
    assert.ok(doc, 'uploaded');
    await page.getByRole('checkbox', { name: 'Other' }).uncheck();

    await page.getByLabel('New docset').fill('Temporary');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Rename docset Temporary' }).click();
    await page.getByLabel('New name for docset Temporary').fill('Scratch & <Co>');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('li[data-docset="Scratch & <Co>"]').waitFor();
    await shot('docset-renamed');
    const names = (await c.get('/docsets')).json.docsets.map((d: { name: string }) => d.name);
    assert.ok(names.includes('Scratch & <Co>') && !names.includes('Temporary'), names.join(', '));
    // A taken name is refused with the API's reason, and nothing changes.
    await page.getByRole('button', { name: 'Rename docset Scratch & <Co>' }).click();
    await page.getByLabel('New name for docset Scratch & <Co>').fill('Other');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete docset Scratch & <Co>' }).click();
    await page.locator('li[data-docset="Scratch & <Co>"]').waitFor({ state: 'detached' });
    assert.ok(!(await c.get('/docsets')).json.docsets.some((d: { name: string }) => d.name.startsWith('Scratch')));
    assert.ok((await c.get('/docsets')).json.docsets.some((d: { name: string }) => d.name === 'Other'));
  });

  test('webhooks: create one, see its deliveries, retry one', async () => {
    const url = receiver.expect('/console', null);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.locator('#webhook-url').fill(url);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const hook = page.locator(`li[data-webhook="${url}"]`);
    await hook.waitFor();
    assert.equal((await c.upload({ bytes: 'webhook trigger', name: 'hook.txt' })).status, 201);
    await until('a delivery', async () => ((receiver.hits.get('/console') ?? 0) >= 1 ? true : undefined), 30_000);
    const delivery = hook.locator('li[data-delivery]').first();
    await until('the delivery listed', async () => {
      await hook.getByRole('button', { name: 'Refresh deliveries' }).click();
      return (await delivery.count()) > 0 ? true : undefined;
    }, 30_000, 500);
    const before = receiver.hits.get('/console') ?? 0;
    await delivery.getByRole('button', { name: 'Retry' }).click();
    await until('the retried delivery', async () => ((receiver.hits.get('/console') ?? 0) > before ? true : undefined), 30_000);
    await shot('webhooks');
  });

  test('API keys: one created from the console works with the scopes chosen, and stops working once revoked', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.locator('tr[data-key="bootstrap"]').waitFor();
    await page.locator('#key-name').fill('console-made');
    await page.getByRole('checkbox', { name: 'read:projects' }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('The new key').inputValue();
    assert.match(secret, /^qk_/);
    await page.locator('tr[data-key="console-made"]').waitFor();
    await shot('keys');
    assert.equal((await c.get('/documents', { key: secret })).status, 200);
    assert.equal((await c.get('/projects', { key: secret })).status, 200);
    assert.equal((await c.post('/docsets', { json: { name: 'no' }, key: secret })).status, 403);
    const listed = (await c.get('/workspace/keys?limit=100')).json.keys.find((k: { name: string }) => k.name === 'console-made');
    assert.deepEqual([...listed.scopes].sort(), ['read:documents', 'read:projects']);
    await page.getByRole('button', { name: 'Revoke key console-made' }).click();
    await page.locator('tr[data-key="console-made"]').waitFor({ state: 'detached' });
    assert.equal((await c.get('/documents', { key: secret })).status, 401);
    await page.getByRole('checkbox', { name: 'Show revoked keys' }).check();
    await page.locator('tr[data-key="console-made"]', { hasText: 'revoked' }).waitFor();
  });

  test('a sample docset is loaded from the catalogue with one click; the list follows its documents until Ready', async () => {
    const catalog = (await c.get('/sample-catalog')).json.samples as { id: string; name: string; documentCount: number }[];
    assert.ok(catalog.length > 0, 'the catalogue has entries');
    const entry = catalog[0]!;
    await page.getByRole('link', { name: 'Documents' }).click();
    const created = page.waitForResponse((r) => r.url().endsWith('/v1preview1/samples') && r.request().method() === 'POST');
    await page.getByRole('button', { name: `Load sample ${entry.name}` }).click();
    assert.equal((await created).status(), 201);
    const sample = (await c.get('/samples')).json.samples.find((s: { catalog: { id: string } }) => s.catalog.id === entry.id) as { docset: { id: string }; documentCount: number };
    assert.ok(sample, 'the API lists the sample');
    assert.equal(sample.documentCount, entry.documentCount);
    const docsetName = (await c.get(`/docsets/${sample.docset.id}`)).json.name as string;
    await page.locator(`li[data-docset="${docsetName}"]`).waitFor();
    await page.getByRole('status').filter({ hasText: `Loaded "${entry.name}"` }).waitFor();
    // The table shows the new docset's documents (samples included), and follows them without a reload.
    assert.equal(await page.getByRole('checkbox', { name: 'Include samples' }).isChecked(), true);
    await until(`${entry.documentCount} rows`, async () => ((await page.locator('tr[data-doc]').count()) === entry.documentCount ? true : undefined), 30_000, 200);
    await shot('sample-loaded');
    await until('every sample document Ready in the table', async () => ((await page.locator('tr[data-status="Ready"]').count()) === entry.documentCount ? true : undefined), 240_000, 500);
    const docs = (await c.get(`/documents?docset.id=${sample.docset.id}&samples=true`)).json.documents as { name: string; status: string; isSample: boolean }[];
    assert.equal(docs.length, entry.documentCount);
    assert.ok(docs.every((d) => d.status === 'Ready' && d.isSample), JSON.stringify(docs.map((d) => [d.name, d.status])));
    assert.deepEqual((await page.locator('tr[data-doc]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-doc')))).sort(), docs.map((d) => d.name).sort());
    await shot('sample-ready');
  });

  test('no script error and no CSP violation in the page; no horizontal scrolling at 1280x800', async () => {
    assert.deepEqual(errors, []);
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.locator('tr[data-doc]').first().waitFor();
    assert.ok((await page.evaluate(() => (globalThis as Dom).document.documentElement.scrollWidth as number)) <= 1280);
  });

  test('narrow phone width (390 px): no horizontal scrolling of the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.locator('tr[data-doc]').first().waitFor();
    const width = await page.evaluate(() => (globalThis as Dom).document.documentElement.scrollWidth as number);
    assert.ok(width <= 390, `page ${width}px wide at 390: ${await overflowing()}`);
    await shot('phone-documents');
    await page.goto(`${q.origin}/#/documents/${docId}`);
    await page.locator('.page-frame img').waitFor();
    const w2 = await page.evaluate(() => (globalThis as Dom).document.documentElement.scrollWidth as number);
    assert.ok(w2 <= 390, `document view ${w2}px wide at 390: ${await overflowing()}`);
    await page.getByRole('button', { name: 'Markdown', exact: true }).click();
    await page.locator('pre.text-view').filter({ hasNotText: 'Loading…' }).waitFor();
    const w3 = await page.evaluate(() => (globalThis as Dom).document.documentElement.scrollWidth as number);
    assert.ok(w3 <= 390, `document view with its Markdown ${w3}px wide at 390: ${await overflowing()}`);
    await shot('phone-document');
  });
});
