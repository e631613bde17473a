import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker as NodeWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';

const require = createRequire(import.meta.url);

/**
 * The English LSTM model shipped inside @tesseract.js-data/eng (its `4.0.0_best_int` folder: integer
 * "best" weights, 2.9 MB gzipped; the `4.0.0` folder adds legacy-engine data we do not use). A local
 * path, so tesseract.js reads the file and never fetches; `cacheMethod: 'none'` keeps it from writing
 * a copy into the working directory.
 */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int');

interface Engine {
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

async function start(): Promise<Engine> {
  const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: LANG_PATH,
    gzip: true,
    cacheMethod: 'none',
    // Without a handler, a failed job throws inside tesseract.js's message listener.
    errorHandler: () => {},
  });
  const thread = (worker as unknown as { worker?: unknown }).worker;
  const started: Engine = { worker, thread: thread instanceof NodeWorker ? thread : undefined, fail: () => {} };
  started.thread?.unref();
  started.thread?.on('error', (err) => {
    discard(started);
    started.fail(err);
  });
  return started;
}

async function threadEngine(): Promise<Engine> {
  if (engine) return engine;
  starting ??= start().finally(() => (starting = undefined));
  engine = await starting;
  return engine;
}

function discard(stale: Engine) {
  if (engine === stale) engine = undefined;
  void stale.worker.terminate();
}

/**
 * Tesseract's TSV for a page image at `dpi`, or undefined when reading it takes longer than
 * `budgetMs`: the engine is then terminated (the only way to stop it mid-page) and the next page
 * starts a new one.
 */
export async function recognizeWithTesseractJs(png: Buffer, dpi: number, budgetMs: number): Promise<string | undefined> {
  const started = performance.now();
  clearTimeout(idleTimer);
  pagesReading++;
  try {
    const current = await threadEngine();
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
