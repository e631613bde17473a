/**
 * A start-up log line per optional system tool, found or not, saying what it changes: a server on
 * this machine's PATH against one whose PATH holds nothing but node.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { fakeSoffice } from '../helpers/fake-soffice.js';
import { client, until } from '../helpers/http.js';
import { scratchDir } from '../helpers/scratch.js';
import { findSoffice } from '../../src/ingest/readers/office/libreoffice.js';

const started: Quire[] = [];
let logs = (): string => '';
after(async () => {
  for (const q of started) {
    await q.stop();
    fs.rmSync(q.dataDir, { recursive: true, force: true });
  }
});

interface ToolLine {
  level: number;
  tool: string;
  found: boolean;
  detail?: string;
  msg: string;
}

async function toolLines(extraEnv: NodeJS.ProcessEnv): Promise<Map<string, ToolLine>> {
  const q = await startQuire({ extraEnv: { QUIRE_LOG_LEVEL: 'info', ...extraEnv } });
  started.push(q);
  logs = q.logs;
  const read = () =>
    new Map(
      q
        .logs()
        .split('\n')
        .filter((l) => l.startsWith('{') && l.includes('"tool"'))
        .map((l) => JSON.parse(l) as ToolLine)
        .map((l) => [l.tool, l]),
    );
  return until('the optional tools logged', async () => (read().has('tesseract') ? read() : undefined), 60_000);
}

test('this machine: a line for LibreOffice, its fonts and isolation when it is installed, and for tesseract', async () => {
  const lines = await toolLines({ QUIRE_WORKER_CONCURENCY: '2' });
  // A misspelt setting is named at start-up with the one meant.
  assert.match(logs(), /"level":40,[^\n]*"msg":"unknown variable QUIRE_WORKER_CONCURENCY is ignored; did you mean QUIRE_WORKER_CONCURRENCY\?"/);
  const soffice = findSoffice();
  assert.equal(lines.get('libreoffice')?.found, soffice !== null);
  if (soffice) {
    assert.equal(lines.get('libreoffice')!.detail, soffice);
    assert.match(lines.get('libreoffice')!.msg, /^libreoffice found: DOCX, DOC and HTML are paginated by LibreOffice/);
    assert.ok(lines.has('fonts') && lines.has('network-isolation'), [...lines.keys()].join(' '));
    const isolation = lines.get('network-isolation')!;
    if (isolation.found) assert.match(isolation.msg, /^network-isolation found: LibreOffice converts documents without network access/);
    else assert.match(isolation.msg, /^network-isolation not found: .*LibreOffice converts DOCX and DOC with the host's network/);
    assert.equal(isolation.level, isolation.found ? 30 : 40, 'a warning when missing');
  }
  const tesseract = lines.get('tesseract')!;
  assert.match(tesseract.msg, tesseract.found ? /^tesseract found: scanned pages are read by the tesseract command/ : /^tesseract not found: scanned pages are read by the bundled tesseract\.js/);
  if (tesseract.found) assert.match(tesseract.detail!, /languages: .*\beng\b/);
});

test('a PATH with nothing but node: each tool is reported missing with what Quire does instead', async () => {
  const bin = scratchDir('only-node-');
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  const lines = await toolLines({ PATH: bin });
  assert.equal(lines.get('libreoffice')?.found, false);
  assert.match(lines.get('libreoffice')!.msg, /^libreoffice not found: DOCX, DOC and HTML are paginated by Quire's own layout/);
  assert.equal(lines.get('tesseract')?.found, false);
  assert.match(lines.get('tesseract')!.msg, /bundled tesseract\.js/);
  // Without LibreOffice its fonts and isolation do not matter, and are not reported.
  assert.equal(lines.has('fonts'), false);
  assert.equal(lines.has('network-isolation'), false);
});

/** A PATH holding node, a stand-in soffice and what else `tools` names (file name -> script). */
function pathWith(tools: Record<string, string>): string {
  const bin = scratchDir('office-tools-');
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  const fake = fakeSoffice(scratchDir('fake-soffice-'), path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf'));
  fs.symlinkSync(fake.soffice, path.join(bin, 'soffice'));
  for (const [name, script] of Object.entries(tools)) fs.writeFileSync(path.join(bin, name), script, { mode: 0o755 });
  return bin;
}

test('LibreOffice without `unshare` on PATH: a warning naming it, and what it means for office files', async () => {
  const lines = await toolLines({ PATH: pathWith({}) });
  assert.equal(lines.get('libreoffice')?.found, true);
  const isolation = lines.get('network-isolation')!;
  assert.equal(isolation.level, 40, 'logged as a warning');
  assert.equal(isolation.found, false);
  assert.equal(isolation.detail, '`unshare` (util-linux) is not on PATH');
  assert.match(isolation.msg, /^network-isolation not found: `unshare` \(util-linux\) is not on PATH; LibreOffice converts DOCX and DOC with the host's network.*QUIRE_OFFICE_REQUIRE_ISOLATION=true/);
});

test('QUIRE_OFFICE_REQUIRE_ISOLATION where `unshare -rn` is blocked: the warning says Word files are refused, and an uploaded DOCX ends in Error', async () => {
  const unshare = '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n';
  const lines = await toolLines({ PATH: pathWith({ unshare }), QUIRE_OFFICE_REQUIRE_ISOLATION: 'true' });
  const isolation = lines.get('network-isolation')!;
  assert.equal(isolation.level, 40);
  assert.match(isolation.detail!, /^`unshare -rn` cannot create user and network namespaces \(unshare: unshare failed: Operation not permitted\): Docker's default seccomp profile/);
  assert.match(isolation.msg, /; DOCX and DOC are refused \(QUIRE_OFFICE_REQUIRE_ISOLATION\): they end in Error/);
  const q = started.at(-1)!;
  const c = client(q.api, q.key);
  const settled = (id: string) =>
    until(`document ${id} settled`, async () => {
      const d = (await c.get(`/documents/${id}`)).json as { status: string };
      return d.status === 'Ready' || d.status === 'Error' ? (d as { status: string; error?: { title: string; detail: string }; processing?: { pagination: string } }) : undefined;
    });
  const docx = await c.upload({ path: path.join(CORPUS, 'office/NDA simple layout.docx') });
  assert.equal(docx.status, 201, docx.text);
  const refused = await settled((docx.json as { id: string }).id);
  assert.equal(refused.status, 'Error');
  assert.equal(refused.error?.title, 'Office conversion refused');
  assert.match(refused.error!.detail, /QUIRE_OFFICE_REQUIRE_ISOLATION/);
  // What LibreOffice would not read goes on: HTML is laid out by Quire.
  const html = await c.upload({ bytes: '<h1>Notice</h1><p>Words.</p>', name: 'notice.html' });
  const page = await settled((html.json as { id: string }).id);
  assert.equal(page.status, 'Ready');
  assert.equal(page.processing?.pagination, 'text-layout');
});
