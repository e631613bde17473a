import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { ThreadPool } from '../../src/ingest/thread-pool.js';
import { renderDgml } from '../../src/document/writers/dgml.js';
import type { StructureModel } from '../../src/document/structure.js';
import { WARM_UP_TEXT, warmUpAnalysis } from '../../src/ingest/warm-up.js';

const dgmlOf = (structure: StructureModel) => renderDgml(structure, { workspace: 'default', docsetName: 'warm-up', version: 'test' });

test('the warm-up contract runs both label stages, as text and as a PDF: values and clauses come out named', async () => {
  const text = await readDocument(Buffer.from(WARM_UP_TEXT, 'utf8'), 'txt');
  const pdf = await readDocument(Buffer.from(text.pdf), 'pdf');
  for (const model of [text, pdf]) {
    const xml = dgmlOf((await analyzeDocument(model, { ocrBudgetMs: 0 })).structure);
    assert.match(xml, /<docset:EffectiveDate>(<[^>]+>)*March 3, 2025(<\/[^>]+>)*<\/docset:EffectiveDate>/, `${model.format}: a value label`);
    assert.match(xml, /<docset:CurePeriod\b/, `${model.format}: a period governed by its verb`);
    assert.match(xml, /<docset:GoverningLaw\b/, `${model.format}: a clause named from its run-in heading`);
  }
});

test('the warm-up analyses documents until its time is spent, and stops at once when told', async () => {
  assert.ok((await warmUpAnalysis(1)) >= 1, 'at least one document, however short the time');
  const start = performance.now();
  assert.ok((await warmUpAnalysis(400)) >= 2);
  assert.ok(performance.now() - start >= 400);
  assert.equal(await warmUpAnalysis(60_000, () => true), 0, 'a request already waiting: nothing analysed');
  let asked = 0;
  assert.equal(await warmUpAnalysis(60_000, () => ++asked > 2), 2, 'stopped between documents');
});

test("a warming analysing thread answers its first document at once, not after the warm-up's time", async () => {
  const pool = new ThreadPool({ size: 1, timeoutMs: 60_000, memoryMb: 512, warmUpMs: 60_000 });
  try {
    pool.warm();
    // Started ahead: let it get into its warm-up before the document comes.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const start = performance.now();
    const model = await pool.read(Buffer.from('Lease. The term commences on May 1, 2026.\n', 'utf8'), 'txt');
    const { stored } = await pool.analyze(model, 1_000);
    const structure = JSON.parse(gunzipSync(stored.gz).toString('utf8')) as StructureModel;
    assert.match(dgmlOf(structure), /May 1, 2026/);
    assert.ok(performance.now() - start < 30_000, `answered in ${Math.round(performance.now() - start)} ms`);
  } finally {
    await pool.close();
  }
});
