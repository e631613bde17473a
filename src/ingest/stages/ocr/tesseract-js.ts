import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker as NodeWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';

const require = createRequire(import.meta.url);

/**
 * A language's LSTM model, shipped inside its npm package @tesseract.js-data/<code> (its
 * `4.0.0_best_int` folder: tessdata_best's weights made integer, English 2.9 MB gzipped; the `4.0.0`
 * folder adds legacy-engine data we do not use), or undefined when that package is not installed.
 * A local path, so tesseract.js reads the file and never fetches.
 */
export function bundledModel(code: string): string | undefined {
  try {
    return path.join(path.dirname(require.resolve(`@tesseract.js-data/${code}`)), '4.0.0_best_int', `${code}.traineddata.gz`);
  } catch {
    return undefined;
  }
}

/** The languages of `languages` (`eng+deu`) whose npm data package is not installed. */
export function missingBundledLanguages(languages: string): string[] {
  return languages.split('+').filter((code) => bundledModel(code) === undefined);
}

interface Engine {
  /** What it reads in (`eng+deu`). */
  languages: string;
  worker: Tesseract.Worker;
  /** The Node thread tesseract.js runs in: it keeps the process alive only while it reads a page. */
  thread: NodeWorker | undefined;
  /** Rejects the page being read (when the thread dies). */
  fail: (err: Error) => void;
}

// One engine per reading thread (module state is per thread), started on first use and kept across
// pages and documents: starting one (WASM and model) costs about 0.3 s. It holds 70 MB, growing to
// about 170 MB once it has read a page, so a thread that has not read one for a while lets it go.
let engine: Engine | undefined;
let starting: Promise<Engine> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let pagesReading = 0;
const IDLE_MS = 60_000;

/**
 * tesseract.js reads every language from one folder (`langPath`); each package has its own, so a
 * second language is read through a folder of links to the packages' models, removed once read. (Its
 * in-memory form, `{ code, data }`, is broken in 7.0.0: naptha/tesseract.js#1052.)
 */
async function withModelFolder<T>(languages: string, use: (langPath: string) => Promise<T>): Promise<T> {
  const models = languages.split('+').map((code) => {
    const model = bundledModel(code);
    if (!model) throw new Error(`no OCR data for "${code}": the npm package @tesseract.js-data/${code} is not installed`);
    return model;
  });
  if (models.length === 1) return use(path.dirname(models[0]!));
  const folder = mkdtempSync(path.join(os.tmpdir(), 'quire-tessdata-'));
  try {
    for (const model of models) symlinkSync(model, path.join(folder, path.basename(model)));
    return await use(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function start(languages: string): Promise<Engine> {
  const worker = await withModelFolder(languages, (langPath) =>
    Tesseract.createWorker(languages, Tesseract.OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      // Keeps tesseract.js from writing a copy of each model into the working directory.
      cacheMethod: 'none',
      // Without a handler, a failed job throws inside tesseract.js's message listener.
      errorHandler: () => {},
    }),
  );
  const thread = (worker as unknown as { worker?: unknown }).worker;
  const started: Engine = { languages, worker, thread: thread instanceof NodeWorker ? thread : undefined, fail: () => {} };
  started.thread?.unref();
  started.thread?.on('error', (err) => {
    discard(started);
    started.fail(err);
  });
  return started;
}

async function threadEngine(languages: string): Promise<Engine> {
  for (;;) {
    if (engine?.languages === languages) return engine;
    if (engine) discard(engine);
    // An engine starting for other languages is let start, then replaced.
    if (!starting) {
      const started = start(languages).finally(() => (starting = undefined));
      starting = started;
      engine = await started;
      return engine;
    }
    await starting.then((e) => (engine = e), () => {});
  }
}

function discard(stale: Engine) {
  if (engine === stale) engine = undefined;
  void stale.worker.terminate();
}

/**
 * Tesseract's TSV for a page image at `dpi` read in `languages` (`eng+deu`), or undefined when
 * reading it takes longer than `budgetMs`: the engine is then terminated (the only way to stop it
 * mid-page) and the next page starts a new one.
 */
export async function recognizeWithTesseractJs(png: Buffer, dpi: number, budgetMs: number, languages = 'eng'): Promise<string | undefined> {
  const started = performance.now();
  clearTimeout(idleTimer);
  pagesReading++;
  try {
    const current = await threadEngine(languages);
    // Starting the engine used the budget up: the page goes unread, the engine is fine.
    const remainingMs = budgetMs - (performance.now() - started);
    if (remainingMs <= 0) return undefined;
    const outcome = await withinBudget(current, remainingMs, async () => {
      await current.worker.setParameters({ user_defined_dpi: String(dpi), tessedit_pageseg_mode: Tesseract.PSM.AUTO });
      // `debug` collects Tesseract's messages ("Detected 61 diacritics") instead of printing them.
      const result = await current.worker.recognize(png, {}, { tsv: true, text: false, debug: true });
      return result.data.tsv ?? '';
    });
    if (outcome === undefined) discard(current);
    return outcome;
  } finally {
    const idle = engine;
    if (--pagesReading === 0 && idle) idleTimer = setTimeout(() => discard(idle), IDLE_MS).unref();
  }
}

/** What `read` gives, or undefined after `budgetMs`; the engine's thread keeps the process up meanwhile. */
async function withinBudget<T>(current: Engine, budgetMs: number, read: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  current.thread?.ref();
  try {
    return await Promise.race([
      read(),
      new Promise<undefined>((resolve, reject) => {
        timer = setTimeout(() => resolve(undefined), budgetMs);
        current.fail = reject;
      }),
    ]);
  } finally {
    clearTimeout(timer);
    current.fail = () => {};
    current.thread?.unref();
  }
}

/** Terminates this thread's engine (tests; in a reading thread it ends with the thread). */
export async function stopTesseractJs(): Promise<void> {
  clearTimeout(idleTimer);
  if (engine) discard(engine);
  await starting?.then(discard, () => {});
}
