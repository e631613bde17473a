// What the CSL benches (bench/extract/prose.ts, bench/labels/run.ts) share: a real Quire server
// (source through tsx, SQLite, a temporary data directory removed at clean-up) whose `extract`
// jobs are heard from its log, text uploads, and waiting for a document to settle.
import { startQuire, type Quire } from '../../test/helpers/quire.js';
import { client, type Client } from '../../test/helpers/http.js';
import { onCleanUp, tempDir } from './cleanup.js';

/** One `extract` job as the server logs it when it ends ("property values extracted", level info). */
export interface ExtractJobLog {
  docset: string;
  /** Documents whose values the job recorded. */
  documents: number;
  properties: number;
  /** The job's own time: the docset's state read, structures read, extraction, values recorded. */
  durationMs: number;
  /** Server clock, ms since the epoch, when it logged the end of the job. */
  time: number;
}

export interface CslQuire {
  q: Quire;
  c: Client;
  /** The `extract` jobs of a docset that have ended so far, in order. */
  extractJobs: (docsetId: string) => readonly ExtractJobLog[];
  stop: () => Promise<number | null>;
}

/** QUIRE_* variables of the bench's environment go to the server (as in the other benches). */
export const SERVER_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('QUIRE_')));

/**
 * Starts Quire as the API tests do (`node --import tsx src/main.ts serve`, API and job consumers in one
 * process) at log level info, so that every `extract` job's end is heard, with the rate limit off
 * (the benches poll). The data directory is removed and the server stopped at clean-up.
 */
export async function startCslQuire(): Promise<CslQuire> {
  const dataDir = tempDir('quire-bench-csl-');
  const q = await startQuire({ dataDir, extraEnv: { QUIRE_RATE_LIMIT: '0', ...SERVER_ENV, QUIRE_LOG_LEVEL: 'info' } });
  const jobs = new Map<string, ExtractJobLog[]>();
  let partial = '';
  q.process.stdout!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line.includes('"property values extracted"')) continue;
      try {
        const j = JSON.parse(line) as Partial<ExtractJobLog> & { msg?: string };
        if (j.msg !== 'property values extracted' || typeof j.docset !== 'string') continue;
        const list = jobs.get(j.docset) ?? [];
        list.push({ docset: j.docset, documents: j.documents ?? 0, properties: j.properties ?? 0, durationMs: j.durationMs ?? NaN, time: j.time ?? NaN });
        jobs.set(j.docset, list);
      } catch {
        // not a JSON log line
      }
    }
  });
  let stopped: Promise<number | null> | undefined;
  const stop = () => (stopped ??= q.stop());
  onCleanUp(stop);
  return { q, c: client(q.api, q.key), extractJobs: (id) => jobs.get(id) ?? [], stop };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Uploads `text` as a `.txt` document (into `docsetId` when given); its id, or the failure as text. */
export async function uploadText(c: Client, name: string, text: string, docsetId?: string): Promise<{ id: string } | { error: string }> {
  try {
    const r = await c.upload({ bytes: text, name }, docsetId ? { 'docset.id': docsetId } : {});
    if (r.status !== 201) return { error: `upload ${r.status}: ${r.text.slice(0, 300)}` };
    return { id: r.json.id as string };
  } catch (err) {
    return { error: `upload: ${(err as Error).message}` };
  }
}

export interface Settled {
  status: string;
  /** The document's JSON as last read. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  doc: any;
  /** performance.now() when this client first saw it Ready (or gave up). */
  at: number;
  timedOut: boolean;
}

const FINAL = new Set(['Ready', 'Error', 'OverQuota']);

/** Polls `GET /documents/{id}` until the document is Ready, Error or OverQuota, or `timeoutMs` passes. */
export async function waitSettled(c: Client, id: string, timeoutMs: number, pollMs = 25): Promise<Settled> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let doc: { status?: string } | undefined;
    try {
      const r = await c.get(`/documents/${id}`);
      if (r.status === 200) doc = r.json;
    } catch {
      // a failed poll is retried until the deadline
    }
    const now = performance.now();
    if (doc?.status && FINAL.has(doc.status)) return { status: doc.status, doc, at: now, timedOut: false };
    if (now > deadline) return { status: doc?.status ?? 'unknown', doc, at: now, timedOut: true };
    await sleep(pollMs);
  }
}

/** Runs `fn` over `items` with at most `concurrency` at a time; results in the items' order. */
export async function lanes<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/** Letters and digits only, lower case: two texts equal "modulo punctuation" have the same squash. */
export function squash(v: string): string {
  return v.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Words (letters and digits runs), lower case. */
export function words(v: string): string[] {
  return v.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export const rate = (n: number, of: number): number | null => (of === 0 ? null : n / of);
export const pct = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);

export function percentile(xs: readonly number[], p: number): number | null {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return null;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
