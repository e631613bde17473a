import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReaderCrashedError, WorkerPool } from '../../src/ingest/worker-pool.js';
import { IngestError } from '../../src/ingest/model.js';

const entry = new URL('./fixtures/misbehaving-reader.ts', import.meta.url);
const pool = new WorkerPool({ size: 2, timeoutMs: 3_000, memoryMb: 64, entry });

test('a reading thread answers with the model', async () => {
  const m = await pool.read(Buffer.from('x'), 'pdf');
  assert.deepEqual([...m.pdf], [1, 2, 3]);
});

test('an IngestError in the thread arrives as an IngestError', async () => {
  await assert.rejects(pool.read(Buffer.from('x'), 'ingest-error'), (e) => e instanceof IngestError && e.title === 'Encrypted PDF');
});

test('a thread over its heap budget ends as "Processing ran out of memory", and the pool goes on', async () => {
  await assert.rejects(pool.read(Buffer.from('x'), 'oom'), (e) => e instanceof IngestError && e.title === 'Processing ran out of memory');
  assert.equal((await pool.read(Buffer.from('x'), 'pdf')).format, 'pdf');
});

test('a thread over its time budget ends as "Processing time limit exceeded"', async () => {
  const quick = new WorkerPool({ size: 1, timeoutMs: 1_500, memoryMb: 64, entry });
  await assert.rejects(quick.read(Buffer.from('x'), 'hang'), (e) => e instanceof IngestError && e.title === 'Processing time limit exceeded');
});

test('a thread that exits without an answer is a crash (retried by the queue), not an IngestError', async () => {
  await assert.rejects(pool.read(Buffer.from('x'), 'exit'), (e) => e instanceof ReaderCrashedError);
});

test('more reads than threads: the others wait their turn and all complete', async () => {
  const results = await Promise.all([1, 2, 3, 4, 5].map(() => pool.read(Buffer.from('x'), 'txt')));
  assert.equal(results.length, 5);
});

test('a thread that answered is used again (readers load once); one that failed is replaced', async () => {
  const one = new WorkerPool({ size: 1, timeoutMs: 3_000, memoryMb: 64, entry });
  const first = (await one.read(Buffer.from('x'), 'whoami')).format;
  assert.equal((await one.read(Buffer.from('x'), 'whoami')).format, first);
  await assert.rejects(one.read(Buffer.from('x'), 'ingest-error'), (e) => e instanceof IngestError);
  assert.equal((await one.read(Buffer.from('x'), 'whoami')).format, first, 'an IngestError answer keeps the thread');
  await assert.rejects(one.read(Buffer.from('x'), 'exit'), (e) => e instanceof ReaderCrashedError);
  assert.notEqual((await one.read(Buffer.from('x'), 'whoami')).format, first);
  await one.close();
});

test('reads go first: one runs beside busy analyses, and queued reads pass queued analyses', async () => {
  const two = new WorkerPool({ size: 2, timeoutMs: 5_000, memoryMb: 64, entry });
  const model = { format: 'slow', pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false } as never;
  const done: string[] = [];
  const analyses = [1, 2, 3].map((i) => two.analyze(model, 0).then(() => done.push(`analysis ${i}`)));
  await new Promise((r) => setTimeout(r, 50)); // analyses 1 and 2 hold both slots; 3 waits
  const reads = [1, 2].map((i) => two.read(Buffer.from('x'), 'txt').then(() => done.push(`read ${i}`)));
  await Promise.all([...analyses, ...reads]);
  // Read 1 takes the spare slot at once; read 2 waits for it, then goes before analysis 3.
  assert.ok(done.indexOf('read 1') < done.indexOf('analysis 1'), done.join(', '));
  assert.ok(done.indexOf('read 2') < done.indexOf('analysis 3'), done.join(', '));
  await two.close();
});
