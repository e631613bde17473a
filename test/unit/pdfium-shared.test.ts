import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { compiledPdfiumModule, type PdfiumModule } from '../../src/ingest/readers/pdf/pdfium.js';
import { threadEntry } from '../../src/runtime/thread-entry.js';
import { CORPUS } from '../helpers/quire.js';

const FILE = path.join(CORPUS, 'kgrag/sec-10-q/2022 Q3 AAPL.pdf');

function readInThread(module: PdfiumModule | object | undefined): Promise<{ pages?: unknown; error?: string }> {
  const entry = threadEntry(new URL('./fixtures/pdfium-thread.ts', import.meta.url));
  const worker = new Worker(entry.file, { eval: entry.eval, workerData: { module, file: FILE } });
  return new Promise((resolve, reject) => {
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

test('threads given the process-compiled PDFium read a PDF exactly as a thread compiling its own', async () => {
  const module = compiledPdfiumModule('lazy');
  assert.ok(module, 'PDFium compiles');
  assert.equal(compiledPdfiumModule('lazy'), module, 'compiled once per process');
  const [own, shared, sharedAgain] = await Promise.all([readInThread(undefined), readInThread(module), readInThread(module)]);
  assert.equal(own.error, undefined);
  assert.ok(Array.isArray(own.pages) && own.pages.length === 28, 'the 10-Q has 28 pages');
  assert.deepEqual(shared, own);
  assert.deepEqual(sharedAgain, own);
});

test('a module PDFium cannot be instantiated from fails the read instead of hanging it', { timeout: 30_000 }, async () => {
  // A valid module that imports a function nothing provides: instantiating it is a LinkError.
  const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 12, 1, 3, 110, 111, 112, 4, 110, 111, 110, 101, 0, 0]);
  const wasm = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object } }).WebAssembly;
  const reply = await readInThread(new wasm.Module(bytes));
  assert.equal(reply.pages, undefined);
  assert.match(reply.error ?? '', /PDFium|import|Link/i);
});

function compileCpu(mode: string, stopAt: number, maxSeconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', new URL('./fixtures/pdfium-compile-cpu.ts', import.meta.url).pathname, mode, String(stopAt), String(maxSeconds)], { timeout: 120_000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve((JSON.parse(stdout.trim().split('\n').pop()!) as { cpuSeconds: number }).cpuSeconds);
    });
  });
}

test('`optimized` compiles all of PDFium with the optimising compiler at once; `lazy` does not', async () => {
  // All of PDFium through TurboFan is about 4 core-seconds here; V8's lazy Liftoff compile is ~0.1.
  const optimized = await compileCpu('optimized', 1.5, 60);
  const lazy = await compileCpu('lazy', 1.5, 4);
  assert.ok(optimized >= 1.5, `optimized used ${optimized.toFixed(2)} CPU-seconds`);
  assert.ok(lazy < 1, `lazy used ${lazy.toFixed(2)} CPU-seconds`);
});
