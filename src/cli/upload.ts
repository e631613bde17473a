import fs from 'node:fs';
import path from 'node:path';
import { bytesFlag, intFlag, parse } from './args.js';
import { resolveDocset } from './docsets.js';
import { ApiError, CliFailure, CliUsageError } from './errors.js';
import type { Client } from './http.js';
import { postMultipart } from './multipart.js';
import { emit, humanBytes, table } from './output.js';
import { Progress, progressMode, type Task } from './progress.js';
import { dropState, readState, stateKey, writeState } from './upload-state.js';
import { SETTLED_DOCUMENT_STATUSES } from '../model/lifecycle.js';

const USAGE =
  'upload PATH… [--docset NAME|ID | --classify A,B,…] [--metadata K=V]… [--wait] [--wait-timeout SECONDS] [--chunk-threshold BYTES] [--parallel N] [--json]';

/** What a folder contributes: the extensions the server takes (other files are skipped, hidden ones too). */
const EXTENSIONS = new Set(['.pdf', '.docx', '.doc', '.txt', '.html', '.htm', '.zip']);
const TERMINAL: ReadonlySet<string> = new Set(SETTLED_DOCUMENT_STATUSES);
/** Chunks of one file in flight at once. */
const CHUNKS_IN_FLIGHT = 3;
const CHUNK_ATTEMPTS = 4;

interface LocalFile {
  path: string;
  /** As shown: relative to the argument's folder, or the argument. */
  label: string;
  size: number;
  mtimeMs: number;
}

interface Outcome {
  file: string;
  document: string;
  status: string;
  pages: number | '';
  error: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json?: any;
}

function collect(args: string[]): LocalFile[] {
  const files: LocalFile[] = [];
  const seen = new Set<string>();
  const add = (p: string, label: string) => {
    const abs = path.resolve(p);
    if (seen.has(abs)) return;
    seen.add(abs);
    const st = fs.statSync(abs);
    files.push({ path: abs, label, size: st.size, mtimeMs: st.mtimeMs });
  };
  for (const arg of args) {
    let st: fs.Stats;
    try {
      st = fs.statSync(arg);
    } catch {
      throw new CliUsageError(`no such file or folder: ${arg}`);
    }
    if (st.isFile()) {
      add(arg, arg);
      continue;
    }
    if (!st.isDirectory()) throw new CliUsageError(`not a file or folder: ${arg}`);
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (e.name.startsWith('.')) continue;
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.isFile() && EXTENSIONS.has(path.extname(e.name).toLowerCase())) add(full, path.join(path.basename(path.resolve(arg)), path.relative(arg, full)));
      }
    };
    walk(arg);
  }
  return files;
}

function metadataJson(pairs: string[] | undefined): string | undefined {
  if (!pairs?.length) return undefined;
  const metadata = pairs.map((p) => {
    const i = p.indexOf('=');
    if (i <= 0) throw new CliUsageError(`--metadata takes KEY=VALUE, not "${p}"`);
    return { key: p.slice(0, i), value: p.slice(i + 1) };
  });
  return JSON.stringify({ metadata });
}

/** Runs `fn` over `items` with at most `n` at once; resolves when all have settled. */
export async function pool<T>(items: T[], n: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, run));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function upload(args: string[]): Promise<number> {
  const p = parse(
    args,
    {
      docset: { type: 'string' },
      classify: { type: 'string' },
      metadata: { type: 'string', multiple: true },
      wait: { type: 'boolean' },
      'wait-timeout': { type: 'string' },
      'chunk-threshold': { type: 'string' },
      parallel: { type: 'string' },
    },
    USAGE,
    1,
    Infinity,
  );
  if (p.values.docset && p.values.classify) throw new CliUsageError('--docset and --classify exclude each other');
  const threshold = bytesFlag('chunk-threshold', p.values['chunk-threshold']) ?? 8 * 1024 * 1024;
  const parallel = intFlag('parallel', p.values.parallel, 1, 16) ?? 3;
  const waitTimeout = intFlag('wait-timeout', p.values['wait-timeout'], 1) ?? 3600;
  const metadata = metadataJson(p.values.metadata as string[] | undefined);
  const files = collect(p.positionals);
  if (files.length === 0) throw new CliUsageError(`nothing to upload (folders contribute ${[...EXTENSIONS].join(' ')} files)`);
  const client = p.client();

  let docsetSpec: string | undefined;
  if (p.values.docset) docsetSpec = (await resolveDocset(client, p.values.docset, { create: true })).id;
  if (p.values.classify) {
    const names = String(p.values.classify).split(',').map((s) => s.trim()).filter(Boolean);
    if (names.length < 2) throw new CliUsageError('--classify takes two or more docsets: A,B');
    const ids: string[] = [];
    for (const n of names) ids.push((await resolveDocset(client, n, { create: true })).id);
    docsetSpec = ids.join('|');
  }

  const progress = new Progress(progressMode());
  const total = files.reduce((s, f) => s + f.size, 0);
  const sent = new Map<string, number>();
  let finished = 0;
  const overall = () => {
    const done = [...sent.values()].reduce((s, n) => s + n, 0);
    progress.setOverall('total', done, total, 'bytes', `${finished}/${files.length} files`);
  };
  overall();
  const outcomes: Outcome[] = files.map((f) => ({ file: f.label, document: '', status: '', pages: '', error: '' }));

  await pool(files, parallel, async (f, i) => {
    const task = progress.task(f.label, f.size);
    const onSent = (n: number) => {
      sent.set(f.path, n);
      task.update(n);
      overall();
    };
    try {
      const doc = f.size > threshold ? await chunked(client, f, docsetSpec, metadata, progress, task, onSent) : await plain(client, f, docsetSpec, metadata, onSent);
      onSent(f.size);
      Object.assign(outcomes[i]!, { document: doc.id, status: doc.status, json: doc });
      progress.log(`uploaded ${f.label} (${humanBytes(f.size)}) -> ${doc.id}`);
    } catch (err) {
      if (!(err instanceof ApiError || err instanceof CliFailure)) throw err;
      Object.assign(outcomes[i]!, { status: 'failed', error: err.message });
      progress.log(`failed ${f.label}: ${err.message}`);
    } finally {
      task.finish();
      finished++;
      overall();
    }
  });

  if (p.values.wait) await waitAll(client, outcomes, progress, waitTimeout * 1000);
  progress.stop();

  const failed = outcomes.filter((o) => o.status === 'failed' || o.status === 'Error' || o.status === 'OverQuota' || (p.values.wait && !TERMINAL.has(o.status)));
  emit(
    p.json,
    outcomes.map((o) => ({ file: o.file, document: o.json ?? null, status: o.status, error: o.error || null })),
    () => table(outcomes.map(({ json: _json, ...o }) => o)),
  );
  process.stderr.write(`${files.length} file(s): ${outcomes.filter((o) => o.document).length} uploaded, ${failed.length} failed\n`);
  return failed.length ? 1 : 0;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function plain(client: Client, f: LocalFile, docset: string | undefined, metadata: string | undefined, onSent: (n: number) => void): Promise<any> {
  const res = await postMultipart(client, '/documents/content', { 'docset.id': docset, metadata }, { path: f.path, name: path.basename(f.path), start: 0, end: f.size }, onSent);
  return res.json;
}

/** A chunked session, resumed from the state file when one is remembered for this file. */
async function chunked(
  client: Client,
  f: LocalFile,
  docset: string | undefined,
  metadata: string | undefined,
  progress: Progress,
  task: Task,
  onSent: (n: number) => void,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  const key = stateKey({ api: client.api, file: f.path, size: f.size, mtimeMs: f.mtimeMs, docset, metadata });
  let state = readState(key);
  let received = new Set<number>();
  if (state) {
    const res = await client.raw('GET', `/documents/uploads/session/${state.sessionId}`, { accept: [404] });
    if (res.status === 404) {
      await res.arrayBuffer();
      progress.log(`${f.label}: the remembered upload session expired; starting again`);
      dropState(key);
      state = null;
    } else {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const s = (await res.json()) as any;
      if (s.status === 'finalized' && s.document?.id) {
        dropState(key);
        progress.log(`${f.label}: already uploaded (session ${s.sessionId})`);
        return client.get(`/documents/${s.document.id}`);
      }
      received = new Set<number>(s.receivedOffsets);
    }
  }
  if (!state) {
    const s = await client.json('POST', '/documents/uploads/session', {
      json: { fileName: path.basename(f.path), fileSize: f.size, ...(docset ? { 'docset.id': docset } : {}), ...(metadata ? { metadata } : {}) },
    });
    state = { sessionId: s.sessionId, chunkSize: s.chunkSize, fileSize: f.size, file: f.path, createdAt: new Date().toISOString(), expiration: s.expiration };
    writeState(key, state);
  }
  const { sessionId, chunkSize } = state;
  const offsets: number[] = [];
  for (let o = 0; o < f.size; o += chunkSize) offsets.push(o);
  const missing = offsets.filter((o) => !received.has(o));
  if (received.size) progress.log(`resuming ${f.label}: ${offsets.length - missing.length} of ${offsets.length} chunks already sent (session ${sessionId})`);
  else progress.log(`uploading ${f.label} (${humanBytes(f.size)}) in ${offsets.length} chunks of ${humanBytes(chunkSize)} (session ${sessionId})`);
  const inFlight = new Map<number, number>();
  let done = [...received].reduce((s, o) => s + Math.min(chunkSize, f.size - o), 0);
  const report = () => onSent(done + [...inFlight.values()].reduce((s, n) => s + n, 0));
  report();
  let chunksSent = 0;
  await pool(missing, CHUNKS_IN_FLIGHT, async (offset) => {
    const end = Math.min(offset + chunkSize, f.size);
    for (let attempt = 1; ; attempt++) {
      try {
        inFlight.set(offset, 0);
        await postMultipart(client, `/documents/uploads/session/${sessionId}/chunk`, { byteOffset: String(offset) }, { path: f.path, name: path.basename(f.path), start: offset, end }, (n) => {
          inFlight.set(offset, n);
          report();
        });
        inFlight.delete(offset);
        done += end - offset;
        chunksSent++;
        task.update(done, `${chunksSent + received.size}/${offsets.length} chunks`);
        report();
        return;
      } catch (err) {
        inFlight.delete(offset);
        report();
        if (!(err as { retryable?: boolean }).retryable || attempt >= CHUNK_ATTEMPTS) throw err;
        await sleep(500 * 2 ** (attempt - 1));
      }
    }
  });
  const doc = await client.json('POST', `/documents/uploads/session/${sessionId}/finalize`);
  dropState(key);
  return doc;
}

/** Polls every uploaded document until it is Ready, Error or OverQuota (or the time is up). */
async function waitAll(client: Client, outcomes: Outcome[], progress: Progress, timeoutMs: number): Promise<void> {
  const pending = outcomes.filter((o) => o.document && !TERMINAL.has(o.status));
  const tasks = new Map<Outcome, Task>();
  const deadline = Date.now() + timeoutMs;
  let doneCount = outcomes.filter((o) => o.document).length - pending.length;
  const all = outcomes.filter((o) => o.document).length;
  progress.setOverall('processed', doneCount, all, 'count');
  for (const o of outcomes) if (o.document && TERMINAL.has(o.status)) settle(o);
  function settle(o: Outcome) {
    const d = o.json;
    o.status = d.status;
    o.pages = d.pageCount ?? '';
    if (d.error) o.error = [d.error.title, d.error.detail].filter(Boolean).join(': ');
    progress.log(`${d.status.padEnd(9)} ${o.file} (${o.document}${d.pageCount !== undefined ? `, ${d.pageCount} page${d.pageCount === 1 ? '' : 's'}` : ''})${o.error ? `: ${o.error}` : ''}`);
  }
  while (pending.length && Date.now() < deadline) {
    await pool([...pending], 4, async (o) => {
      const d = await client.get(`/documents/${o.document}`);
      o.json = d;
      o.status = d.status;
      if (TERMINAL.has(d.status)) {
        tasks.get(o)?.finish();
        pending.splice(pending.indexOf(o), 1);
        doneCount++;
        settle(o);
        progress.setOverall('processed', doneCount, all, 'count');
        return;
      }
      let t = tasks.get(o);
      if (!t) tasks.set(o, (t = progress.task(o.file, 1, 'count')));
      const pr = d.progress;
      if (pr?.pagesTotal) {
        t.update(pr.pagesDone ?? 0, `${d.status} ${pr.stage ?? ''}`.trim(), pr.pagesTotal);
      } else t.update(0, d.status);
    });
    if (pending.length) await sleep(1000);
  }
  for (const o of pending) {
    tasks.get(o)?.finish();
    o.error = `still ${o.status} after ${Math.round(timeoutMs / 1000)} s`;
  }
}
