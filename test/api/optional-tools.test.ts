/**
 * A start-up log line per optional system tool, found or not, saying what it changes: a server on
 * this machine's PATH against one whose PATH holds nothing but node.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { startQuire, type Quire } from '../helpers/quire.js';
import { until } from '../helpers/http.js';
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
    assert.match(lines.get('network-isolation')!.msg, /^network-isolation (found|not found): LibreOffice converts documents with(out)? /);
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
