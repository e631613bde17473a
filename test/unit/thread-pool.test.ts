import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import v8 from 'node:v8';
import { gunzipSync } from 'node:zlib';
import { ReaderCrashedError, ThreadPool } from '../../src/ingest/thread-pool.js';
import { IngestError, type DocumentModel } from '../../src/document/pages.js';
import { heapCrowded } from '../../src/ingest/thread-retire.js';

const entry = new URL('./fixtures/misbehaving-reader.ts', import.meta.url);

/** What the fixture thread put in an analysis answer's stored structure. */
const storedValue = (r: { stored: { gz: Uint8Array } }): unknown => JSON.parse(gunzipSync(r.stored.gz).toString('utf8'));
const pool = new ThreadPool({ size: 2, timeoutMs: 3_000, memoryMb: 64, entry });

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
  const quick = new ThreadPool({ size: 1, timeoutMs: 1_500, memoryMb: 64, entry });
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
  const one = new ThreadPool({ size: 1, timeoutMs: 3_000, memoryMb: 64, entry });
  const first = (await one.read(Buffer.from('x'), 'whoami')).format;
  assert.equal((await one.read(Buffer.from('x'), 'whoami')).format, first);
  await assert.rejects(one.read(Buffer.from('x'), 'ingest-error'), (e) => e instanceof IngestError);
  assert.equal((await one.read(Buffer.from('x'), 'whoami')).format, first, 'an IngestError answer keeps the thread');
  await assert.rejects(one.read(Buffer.from('x'), 'exit'), (e) => e instanceof ReaderCrashedError);
  assert.notEqual((await one.read(Buffer.from('x'), 'whoami')).format, first);
  await one.close();
});

test('a warm pool replaces a thread it recycles at once, so the next document finds one loaded', async () => {
  const warm = new ThreadPool({ size: 1, timeoutMs: 5_000, memoryMb: 64, entry, recycleAfter: 2 });
  warm.warm();
  const first = (await warm.read(Buffer.from('x'), 'whoami')).format;
  assert.equal((await warm.read(Buffer.from('x'), 'whoami')).format, first, 'the thread serves its 2 requests');
  await new Promise((r) => setTimeout(r, 300)); // the recycled thread exits
  assert.equal(warm.threadCount, 2, 'one reading thread (the replacement) and one analysing thread');
  const next = (await warm.read(Buffer.from('x'), 'whoami')).format;
  assert.notEqual(next, first);
  assert.equal(warm.threadCount, 2, 'the replacement served it: no thread was started on demand');
  await warm.close();
});

test('a thread that asks to retire is replaced after its answer, at once in a warm pool; others serve on', async () => {
  const warm = new ThreadPool({ size: 1, timeoutMs: 5_000, memoryMb: 64, entry });
  warm.warm();
  const first = (await warm.read(Buffer.from('x'), 'whoami')).format;
  assert.equal((await warm.read(Buffer.from('x'), 'whoami')).format, first, 'a thread serves many requests (not recycled after a few)');
  assert.equal((await warm.read(Buffer.from('x'), 'retire')).format, first, 'the retiring thread still answers its request');
  await new Promise((r) => setTimeout(r, 300)); // the retired thread exits
  assert.equal(warm.threadCount, 2, 'its replacement and the analysing thread');
  const next = (await warm.read(Buffer.from('x'), 'whoami')).format;
  assert.notEqual(next, first, 'the next request goes to the replacement');
  assert.equal(warm.threadCount, 2, 'the replacement was started ahead, not on demand');
  await warm.close();
});

test('a thread retires when its heap right after a document holds over half its limit', () => {
  const limit = 1024 * 1024 * 1024;
  assert.equal(heapCrowded({ used_heap_size: limit / 2 + 1, heap_size_limit: limit }), true);
  assert.equal(heapCrowded({ used_heap_size: limit / 2, heap_size_limit: limit }), false);
  assert.equal(heapCrowded(v8.getHeapStatistics()), false, 'this test process is nowhere near its limit');
});

test('reads have their own lane: reads run at once beside busy analyses, analyses wait for analyses only', async () => {
  const two = new ThreadPool({ size: 2, timeoutMs: 5_000, memoryMb: 64, entry });
  const model = { format: 'slow', pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false } as never;
  const done: string[] = [];
  const t0 = Date.now();
  const analyses = [1, 2, 3].map((i) => two.analyze(model, 0).then(() => done.push(`analysis ${i}`)));
  await new Promise((r) => setTimeout(r, 50)); // analyses 1 and 2 hold the analysing lane; 3 waits
  const reads = [1, 2, 3].map((i) => two.read(Buffer.from('x'), 'txt').then(() => done.push(`read ${i}`)));
  await Promise.all(reads);
  assert.deepEqual(done.filter((d) => d.startsWith('analysis')), [], `every read ended before any analysis: ${done.join(', ')}`);
  await Promise.all(analyses);
  // Each analysis takes 600 ms: two at a time, so the third ends after about 1.2 s.
  assert.ok(Date.now() - t0 >= 1150, `analysis 3 waited for a free analysing thread (${Date.now() - t0} ms)`);
  await two.close();
});

test('analysing threads run at a lower CPU priority, reading threads and the process keep theirs', { skip: process.platform !== 'linux' && 'per-thread priority is a Linux feature' }, async () => {
  const two = new ThreadPool({ size: 1, timeoutMs: 5_000, memoryMb: 64, entry, analysisNice: 7 });
  const base = os.getPriority();
  const model = { format: 'nice', pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false } as never;
  const analysed = storedValue(await two.analyze(model, 0)) as { nice: number };
  assert.equal(analysed.nice, Math.max(base, 7));
  assert.equal(Number((await two.read(Buffer.from('x'), 'nice')).format), base, 'a reading thread keeps the process priority');
  assert.equal(os.getPriority(), base, 'the process (its main thread) is unchanged');
  await two.close();
});

test('warm() starts the reading and analysing threads ahead, idle (they do not keep the process alive), and both lanes use them', async () => {
  const warmed = new ThreadPool({ size: 2, timeoutMs: 5_000, memoryMb: 64, entry });
  warmed.warm();
  warmed.warm(); // idempotent
  assert.equal(warmed.threadCount, 4);
  const ids = new Set(await Promise.all([1, 2].map(async () => (await warmed.read(Buffer.from('x'), 'whoami')).format)));
  assert.equal(ids.size, 2);
  const model = { format: 'whoami', pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false } as unknown as DocumentModel;
  const analysed = new Set(await Promise.all([1, 2].map(async () => (storedValue(await warmed.analyze(model, 1_000)) as { format: string }).format)));
  assert.equal(analysed.size, 2);
  for (const id of analysed) assert.ok(!ids.has(id), 'analyses run in their own threads');
  assert.equal(warmed.threadCount, 4, 'no thread was started beyond the warm ones');
  await warmed.close();
});

test('OCR slots are shared by all analysing threads: two documents of three scanned pages on two slots take three page-times', async () => {
  const shared = new ThreadPool({ size: 2, timeoutMs: 10_000, memoryMb: 64, entry, ocrConcurrency: 2 });
  const model = { format: 'ocr-pages', pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false } as never;
  const t0 = Date.now();
  await Promise.all([shared.analyze(model, 0), shared.analyze(model, 0)]);
  // Six pages of 300 ms on two slots: 900 ms at least (slots per thread would let four run at once: 600 ms).
  assert.ok(Date.now() - t0 >= 880, `${Date.now() - t0} ms`);
  await shared.close();
});

test('a thread that dies holding an OCR slot gives it back: the next scanned document is read, not left waiting', async () => {
  const one = new ThreadPool({ size: 1, timeoutMs: 5_000, memoryMb: 64, entry, ocrConcurrency: 1 });
  const model = (format: string) => ({ format, pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false }) as never;
  await assert.rejects(one.analyze(model('ocr-crash'), 0), (e) => e instanceof ReaderCrashedError);
  const t0 = Date.now();
  assert.deepEqual(storedValue(await one.analyze(model('ocr-pages'), 0)), { format: 'ocr-pages' });
  assert.ok(Date.now() - t0 < 4_000, 'read with the slot the dead thread held');
  await one.close();
});

test("an analysis reports the pages it has read, in order, before its answer", async () => {
  const one = new ThreadPool({ size: 1, timeoutMs: 5_000, memoryMb: 64, entry });
  const model = { format: 'progress', pagination: 'pdf', pages: [], pdf: new Uint8Array([1]), pdfIsOriginal: true, hasText: false } as never;
  const reports: number[][] = [];
  const result = await one.analyze(model, 0, undefined, (done, total) => reports.push([done, total]));
  assert.deepEqual(storedValue(result), { format: 'progress' });
  assert.deepEqual(reports, [[0, 3], [1, 3], [2, 3], [3, 3]]);
  await one.close();
});
