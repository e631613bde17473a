/**
 * Values from prose (issue 43): the CSL small snippets (../shared/corpus/contracts/csl-small-dev.csv)
 * through the real API of a freshly started Quire. For each distinct Ground Truth label of the split,
 * one docset with that label as its only property; the label's rows' Text uploaded as `.txt` into it,
 * one after another in row order (the docset learns from the confident values of earlier documents,
 * as the `extract` job does); each document waited for until Ready and until its extraction has run;
 * then `GET /docsets/{ds}/document-properties/{doc}`. Scored against the Small Chunk (bench/lib/csl.ts:
 * exact match, token F1, answered), for recurring labels (>= 4 rows in the split) and the rest, beside
 * a naive rule computed in this process from Quire's own entity finder. See bench/README.md.
 *
 *   npx tsx bench/extract/prose.ts [--limit N] [--split train] [--timeout-ms 120000]
 *
 * Results: bench/results/prose-<timestamp>.json (git-ignored; rows are named by index, Text is not copied).
 */
import { parseArgs } from 'node:util';
import { entitySpans } from '../../src/ingest/stages/entities.js';
import type { EntityType } from '../../src/document/structure.js';
import { comparableValue, recurringLabels, RECURRING_ROWS, sameValue, smallRows, tokenF1, type SmallRow } from '../lib/csl.js';
import { cleanUp } from '../lib/cleanup.js';
import { gitState, machine, median, printTable } from '../lib/machine.js';
import { pct, percentile, rate, sleep, startCslQuire, uploadText, waitSettled, type CslQuire, type ExtractJobLog } from '../lib/csl-quire.js';
import { writeResults } from '../lib/results.js';

const { values: flags } = parseArgs({
  options: {
    limit: { type: 'string' },
    split: { type: 'string', default: 'eval-dev' },
    'timeout-ms': { type: 'string', default: '120000' },
  },
  strict: true,
});
const SPLIT = flags.split as SmallRow['split'];
if (SPLIT !== 'eval-dev' && SPLIT !== 'train') throw new Error(`--split must be eval-dev or train (got "${flags.split}")`);
const LIMIT = flags.limit === undefined ? Infinity : Number(flags.limit);
if (!(LIMIT > 0)) throw new Error('--limit must be a positive number');
/** How long one document may take to be Ready, and then to have its extraction run. */
const TIMEOUT_MS = Number(flags['timeout-ms']);
const POLL_MS = 25;

// ---------------------------------------------------------------------------------------------
// The naive rule: the first value in the text of the type the label's last word names.

const PARTY_WORDS = new Set(
  [
    'name', 'party', 'parties', 'company', 'corporation', 'entity', 'lessor', 'lessee', 'landlord', 'tenant', 'sublessor', 'sublessee', 'subtenant',
    'buyer', 'seller', 'purchaser', 'vendor', 'supplier', 'customer', 'client', 'licensor', 'licensee', 'borrower', 'lender', 'guarantor',
    'employer', 'employee', 'executive', 'contractor', 'consultant', 'agent', 'trustee', 'manager', 'member', 'partner', 'holder', 'owner',
    'assignor', 'assignee', 'grantor', 'grantee', 'issuer', 'shipper', 'settlor', 'depositary', 'registrar', 'arranger', 'bookrunner', 'provider',
    'auditor', 'broker', 'representative', 'manufacturer', 'covenantor', 'stockholder', 'shareholder', 'bank', 'investor', 'subsidiary', 'parent',
    'distributor', 'franchisor', 'franchisee', 'mortgagor', 'mortgagee', 'pledgor', 'beneficiary', 'administrator', 'underwriter', 'sponsor', 'advisor', 'adviser',
  ],
);

/** The entity types the naive rule answers with for a label, from its last word; null: no answer. */
export function naiveTypes(label: string): EntityType[] | null {
  const last = (label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).pop() ?? '';
  if (last === 'date' || last === 'time') return ['Date'];
  if (PARTY_WORDS.has(last)) return ['Org', 'Person'];
  if (last === 'period' || last === 'deadline' || last === 'term') return ['TimeDuration'];
  if (['amount', 'fee', 'fees', 'price', 'salary', 'rent'].includes(last)) return ['Money'];
  if (last === 'rate' || last === 'percentage') return ['Percent'];
  return null;
}

/** The first span (in reading order) of the label's type that Quire's entity finder sees in the text. */
export function naiveValue(label: string, text: string): string | null {
  const types = naiveTypes(label);
  if (!types) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  const spans = entitySpans(flat).filter((s) => s.tag.kind === 'entity' && types.includes(s.tag.type));
  spans.sort((a, b) => a.start - b.start);
  return spans.length ? flat.slice(spans[0]!.start, spans[0]!.end) : null;
}

// ---------------------------------------------------------------------------------------------

interface RowResult {
  /** Index of the row among the split's rows (file order). */
  row: number;
  label: string;
  recurring: boolean;
  chunk: string;
  status: 'ok' | 'property-failed' | 'upload-failed' | 'error' | 'timeout-ready' | 'timeout-extraction' | 'values-failed';
  detail?: string;
  documentId?: string;
  value: string | null;
  confidence: number | null;
  candidates: string[];
  exact: boolean;
  f1: number;
  answered: boolean;
  /** The Small Chunk is the value or one of the candidates. */
  inCandidates: boolean;
  naive: { value: string | null; exact: boolean; f1: number; answered: boolean };
  /** How the end of extraction was told: the job's end in the log, or (no log line) a value seen. */
  settledBy?: 'extract-job' | 'value-only';
  timings: {
    uploadToReadyMs?: number;
    /** The document's `processing.durationMs` (ingestion on the server). */
    ingestMs?: number;
    /** This client: from seeing the document Ready to seeing its value (or knowing there is none). */
    readyToValuesMs?: number;
    /** The server's own time for the `extract` job of this document (its log line). */
    extractJobMs?: number;
  };
}

interface LabelRun {
  label: string;
  /** The label as defined on the docset (differs when the API refused the label's characters). */
  definedAs: string | null;
  docsetId?: string;
  propertyId?: string;
  error?: string;
  rows: RowResult[];
}

/** A label the API refuses (characters outside XML names) with those characters turned into spaces. */
function sanitisedLabel(label: string): string {
  return label
    .replace(/[^\p{L}\p{Nd}\p{M}._: -]/gu, ' ')
    .replace(/ +/g, ' ')
    .trim()
    .replace(/^[-.]+/, '')
    .slice(0, 200);
}

function emptyRow(index: number, r: SmallRow, recurring: boolean, status: RowResult['status'], detail?: string): RowResult {
  const naive = naiveValue(r.label, r.text);
  return {
    row: index,
    label: r.label,
    recurring,
    chunk: r.chunk,
    status,
    ...(detail ? { detail } : {}),
    value: null,
    confidence: null,
    candidates: [],
    exact: false,
    f1: 0,
    answered: false,
    inCandidates: false,
    naive: { value: naive, exact: sameValue(naive, r.chunk), f1: tokenF1(naive, r.chunk), answered: naive !== null },
    timings: {},
  };
}

/** `POST /docsets`, then the label as its one property; the initial `extract` job (no documents yet) is waited for. */
async function defineLabel(qs: CslQuire, label: string, n: number): Promise<LabelRun> {
  const run: LabelRun = { label, definedAs: null, rows: [] };
  const ds = await qs.c.post('/docsets', { json: { name: `${n} ${label}`.slice(0, 255) } });
  if (ds.status !== 201) return { ...run, error: `docset ${ds.status}: ${ds.text.slice(0, 300)}` };
  run.docsetId = ds.json.id;
  for (const candidate of [label, sanitisedLabel(label)]) {
    const p = await qs.c.post(`/docsets/${run.docsetId}/properties`, { json: { label: candidate } });
    if (p.status === 201) {
      run.definedAs = candidate;
      run.propertyId = p.json.id;
      break;
    }
    run.error = `property ${p.status}: ${p.text.slice(0, 300)}`;
    if (p.status !== 400 || candidate === sanitisedLabel(label)) return run;
  }
  delete run.error;
  // Creating the property queued an `extract` job over the docset's Ready documents (none yet):
  // waited for, so that each document's own job is the next one heard.
  const deadline = performance.now() + 30_000;
  while (qs.extractJobs(run.docsetId!).length === 0 && performance.now() < deadline) await sleep(POLL_MS);
  return run;
}

/** The docset's `extract` jobs that recorded a document's values (the property's first job, over no document, is not one). */
function recordingJobs(qs: CslQuire, docsetId: string): readonly ExtractJobLog[] {
  return qs.extractJobs(docsetId).filter((j) => j.documents > 0);
}

type PropertyValueJson = { id: string; value: string | null; confidence: number | null; candidates: { value: string }[] };

/**
 * THE WAIT FOR EXTRACTION. A document that becomes Ready in a docset with properties gets an
 * `extract` job of its own, and every job logs its end ("property values extracted", with the
 * docset, how many documents it recorded and its duration) after its values are committed. Documents
 * of a docset are sent one at a time, so the document's job is the `expectedJobs`-th of its docset
 * that recorded a document (a document that timed out before Ready is deleted): once that many have
 * been heard, the values read next are final (also when extraction found nothing: the API shows
 * null then, as it does before extraction ran). A value or candidate seen earlier only stops the
 * clock of "Ready to value"; should the log line never come, a value seen for 5 s settles it.
 */
async function waitForExtraction(qs: CslQuire, run: LabelRun, documentId: string, expectedJobs: number, readyAt: number) {
  const deadline = performance.now() + TIMEOUT_MS;
  let seenAt: number | null = null;
  let last: PropertyValueJson | undefined;
  let error: string | undefined;
  for (;;) {
    const jobs = recordingJobs(qs, run.docsetId!);
    const jobDone = jobs.length >= expectedJobs;
    try {
      const r = await qs.c.get(`/docsets/${run.docsetId}/document-properties/${documentId}`);
      if (r.status === 200) {
        last = (r.json.properties as PropertyValueJson[]).find((p) => p.id === run.propertyId);
        error = undefined;
      } else error = `document-properties ${r.status}: ${r.text.slice(0, 200)}`;
    } catch (err) {
      error = `document-properties: ${(err as Error).message}`;
    }
    const now = performance.now();
    if (last && seenAt === null && (last.value !== null || last.candidates.length > 0)) seenAt = now;
    if (jobDone && last) {
      const job: ExtractJobLog | undefined = jobs[expectedJobs - 1];
      return { value: last, settledBy: 'extract-job' as const, readyToValuesMs: (seenAt ?? now) - readyAt, extractJobMs: job?.durationMs };
    }
    if (seenAt !== null && now - seenAt > 5000) return { value: last!, settledBy: 'value-only' as const, readyToValuesMs: seenAt - readyAt };
    if (now > deadline) return { timeout: true as const, error: error ?? `no extract job heard after ${TIMEOUT_MS} ms` };
    await sleep(POLL_MS);
  }
}

async function runLabel(qs: CslQuire, label: string, n: number, rows: { index: number; row: SmallRow }[], recurring: boolean): Promise<LabelRun> {
  let run: LabelRun;
  try {
    run = await defineLabel(qs, label, n);
  } catch (err) {
    run = { label, definedAs: null, rows: [], error: (err as Error).message };
  }
  if (!run.propertyId) {
    run.rows = rows.map(({ index, row }) => emptyRow(index, row, recurring, 'property-failed', run.error));
    return run;
  }
  const baseline = recordingJobs(qs, run.docsetId!).length;
  let sent = 0;
  for (const { index, row } of rows) {
    const out = emptyRow(index, row, recurring, 'ok');
    run.rows.push(out);
    const t0 = performance.now();
    const up = await uploadText(qs.c, `csl-${SPLIT}-${index}.txt`, row.text, run.docsetId);
    if ('error' in up) {
      Object.assign(out, { status: 'upload-failed', detail: up.error });
      continue;
    }
    out.documentId = up.id;
    const settled = await waitSettled(qs.c, up.id, TIMEOUT_MS, POLL_MS);
    if (settled.timedOut || settled.status !== 'Ready') {
      Object.assign(out, { status: settled.timedOut ? 'timeout-ready' : 'error', detail: `status ${settled.status}${settled.doc?.error ? `: ${settled.doc.error.title} ${settled.doc.error.detail}` : ''}` });
      // Deleted, so that it cannot become Ready later and run a job taken for the next document's.
      if (settled.timedOut) await qs.c.del(`/documents/${up.id}`).catch(() => undefined);
      continue;
    }
    sent++;
    out.timings.uploadToReadyMs = settled.at - t0;
    out.timings.ingestMs = settled.doc?.processing?.durationMs;
    const got = await waitForExtraction(qs, run, up.id, baseline + sent, settled.at);
    if ('timeout' in got) {
      Object.assign(out, { status: 'timeout-extraction', detail: got.error });
      continue;
    }
    const v = got.value;
    out.settledBy = got.settledBy;
    out.timings.readyToValuesMs = got.readyToValuesMs;
    if (got.extractJobMs !== undefined) out.timings.extractJobMs = got.extractJobMs;
    out.value = v.value;
    out.confidence = v.confidence;
    out.candidates = v.candidates.map((c) => c.value);
    out.exact = sameValue(v.value, row.chunk);
    out.f1 = tokenF1(v.value, row.chunk);
    out.answered = v.value !== null;
    out.inCandidates = out.exact || out.candidates.some((c) => sameValue(c, row.chunk));
  }
  return run;
}

// ---------------------------------------------------------------------------------------------

interface GroupScore {
  rows: number;
  failed: number;
  exact: number | null;
  f1: number | null;
  answered: number | null;
  /** Exact among the answered. */
  precision: number | null;
  inCandidates: number | null;
  naive: { exact: number | null; f1: number | null; answered: number | null; precision: number | null };
}

function score(rows: RowResult[]): GroupScore {
  const n = rows.length;
  const sum = (f: (r: RowResult) => number) => rows.reduce((s, r) => s + f(r), 0);
  const answered = sum((r) => +r.answered);
  const naiveAnswered = sum((r) => +r.naive.answered);
  return {
    rows: n,
    failed: sum((r) => +(r.status !== 'ok')),
    exact: rate(sum((r) => +r.exact), n),
    f1: rate(sum((r) => r.f1), n),
    answered: rate(answered, n),
    precision: rate(sum((r) => +r.exact), answered),
    inCandidates: rate(sum((r) => +r.inCandidates), n),
    naive: { exact: rate(sum((r) => +r.naive.exact), n), f1: rate(sum((r) => r.naive.f1), n), answered: rate(naiveAnswered, n), precision: rate(sum((r) => +r.naive.exact), naiveAnswered) },
  };
}

function timingSummary(xs: (number | undefined)[]) {
  const v = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return v.length ? { n: v.length, median: median(v), p90: percentile(v, 90), max: Math.max(...v), mean: v.reduce((a, b) => a + b, 0) / v.length } : null;
}

async function main() {
  const started = new Date();
  const all = smallRows(SPLIT);
  const recurring = recurringLabels(all);
  const byLabel = new Map<string, { index: number; row: SmallRow }[]>();
  all.forEach((row, index) => {
    const list = byLabel.get(row.label) ?? [];
    list.push({ index, row });
    byLabel.set(row.label, list);
  });
  const labels = [...byLabel.keys()].slice(0, LIMIT);
  // Rows whose Text does not hold the Small Chunk (whitespace collapsed, case folded, the chunk's surrounding quotes off).
  const chunkNotInText = all.filter((r) => !r.text.replace(/\s+/g, ' ').toLowerCase().includes(comparableValue(r.chunk))).length;
  console.log(`CSL small, ${SPLIT}: ${all.length} rows, ${byLabel.size} labels (${recurring.size} recurring: >= ${RECURRING_ROWS} rows); measuring ${labels.length} labels`);
  console.log(`rows whose Text does not contain the Small Chunk after normalisation: ${chunkNotInText}`);

  const qs = await startCslQuire();
  const runs: LabelRun[] = [];
  const t0 = performance.now();
  try {
    for (const [i, label] of labels.entries()) {
      const rows = byLabel.get(label)!;
      const run = await runLabel(qs, label, i + 1, rows, recurring.has(label));
      runs.push(run);
      const ok = run.rows.filter((r) => r.status === 'ok').length;
      const exact = run.rows.filter((r) => r.exact).length;
      if (recurring.has(label) || run.error || ok < rows.length || (i + 1) % 25 === 0 || i + 1 === labels.length) {
        console.log(`  [${i + 1}/${labels.length}] ${label}: ${rows.length} rows, ${ok} ok, ${exact} exact${run.error ? `; ${run.error}` : ''}${run.definedAs && run.definedAs !== label ? ` (defined as "${run.definedAs}")` : ''}`);
      }
    }
  } finally {
    await qs.stop();
  }
  const wallS = (performance.now() - t0) / 1000;
  const rows = runs.flatMap((r) => r.rows);
  const groups = {
    recurring: score(rows.filter((r) => r.recurring)),
    rest: score(rows.filter((r) => !r.recurring)),
    all: score(rows),
  };
  const perLabel = runs
    .filter((r) => recurring.has(r.label))
    .map((r) => ({ label: r.label, ...score(r.rows) }))
    .sort((a, b) => b.rows - a.rows || a.label.localeCompare(b.label));
  const ok = rows.filter((r) => r.status === 'ok');
  const timings = {
    note: 'one property per docset, so per document = per property',
    extractJobMs: timingSummary(ok.map((r) => r.timings.extractJobMs)),
    readyToValuesMs: timingSummary(ok.map((r) => r.timings.readyToValuesMs)),
    uploadToReadyMs: timingSummary(ok.map((r) => r.timings.uploadToReadyMs)),
    ingestMs: timingSummary(ok.map((r) => r.timings.ingestMs)),
  };
  const failures: Record<string, number> = {};
  for (const r of rows) if (r.status !== 'ok') failures[r.status] = (failures[r.status] ?? 0) + 1;

  console.log(`\n== Values from prose: CSL small ${SPLIT}, ${rows.length} rows over ${runs.length} labels, ${wallS.toFixed(0)} s`);
  const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
  const table = [['group', 'rows', 'failed', 'exact', 'F1', 'answered', 'exact|answered', 'in candidates', 'naive exact', 'naive F1', 'naive answered']];
  for (const [name, g] of Object.entries(groups)) {
    table.push([name, String(g.rows), String(g.failed), pct(g.exact), f(g.f1), pct(g.answered), pct(g.precision), pct(g.inCandidates), pct(g.naive.exact), f(g.naive.f1), pct(g.naive.answered)]);
  }
  printTable(table, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  console.log('(rates over all rows of the group; a failed row counts as unanswered; "in candidates": the Small Chunk is the value or one of the returned candidates)');

  console.log(`\n== Recurring labels (>= ${RECURRING_ROWS} rows)`);
  const lt = [['label', 'rows', 'exact', 'F1', 'answered', 'in cand.', 'naive exact', 'naive F1']];
  for (const l of perLabel) lt.push([l.label, String(l.rows), pct(l.exact), f(l.f1), pct(l.answered), pct(l.inCandidates), pct(l.naive.exact), f(l.naive.f1)]);
  printTable(lt, new Set([1, 2, 3, 4, 5, 6, 7]));

  const ms = (t: ReturnType<typeof timingSummary>) => (t ? `median ${t.median.toFixed(0)} ms, p90 ${t.p90!.toFixed(0)} ms, max ${t.max.toFixed(0)} ms (n=${t.n})` : 'n/a');
  console.log('\n== Timings (one property per docset: per document = per property)');
  console.log(`extract job (server log)     ${ms(timings.extractJobMs)}`);
  console.log(`Ready -> value (this client) ${ms(timings.readyToValuesMs)}`);
  console.log(`upload -> Ready              ${ms(timings.uploadToReadyMs)}`);
  console.log(`ingestion (processing.durationMs) ${ms(timings.ingestMs)}`);
  if (Object.keys(failures).length) console.log(`failed rows: ${Object.entries(failures).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const valueOnly = ok.filter((r) => r.settledBy === 'value-only').length;
  if (valueOnly) console.log(`warning: ${valueOnly} rows settled on a value without their extract job's log line`);
  const renamed = runs.filter((r) => r.definedAs && r.definedAs !== r.label).map((r) => ({ label: r.label, definedAs: r.definedAs }));
  if (renamed.length) console.log(`labels the API refused as written, defined with their other characters as spaces: ${renamed.map((r) => `"${r.label}" -> "${r.definedAs}"`).join(', ')}`);

  const out = {
    date: started.toISOString(),
    command: `npx tsx bench/extract/prose.ts${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
    git: gitState(),
    machine: machine(),
    settings: {
      server: 'node --import tsx src/main.ts serve (SQLite, temporary data directory)',
      split: SPLIT,
      labels: labels.length,
      labelsInSplit: byLabel.size,
      recurringMinRows: RECURRING_ROWS,
      timeoutMs: TIMEOUT_MS,
      pollMs: POLL_MS,
      order: 'labels in order of first row; per label one docset, its rows uploaded one at a time in row order',
      wait: 'Ready (GET /documents/{id}), then the document\'s own extract job heard ended in the server log (info), then GET /docsets/{ds}/document-properties/{doc}',
      naiveRule: 'first entity (src/ingest/stages/entities.ts entitySpans over the whitespace-collapsed Text) of the type the last word of the label names: Date/Time -> Date; Name and party-like words -> Org|Person; Period/Deadline/Term -> TimeDuration; Amount/Fee/Price/Salary/Rent -> Money; Rate/Percentage -> Percent; else no answer',
      partyWords: [...PARTY_WORDS],
    },
    chunkNotInText,
    wallSeconds: wallS,
    groups,
    perLabel,
    timings,
    failures,
    renamedLabels: renamed,
    labels: runs.map((r) => ({ label: r.label, definedAs: r.definedAs, docsetId: r.docsetId, error: r.error, rows: r.rows.length })),
    rows,
  };
  writeResults('prose', started, out);
}

try {
  await main();
} finally {
  await cleanUp();
}
