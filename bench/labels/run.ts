/**
 * Semantic labels (issue 45): does the DGML element around a labelled span carry the label as its
 * name? The CSL rows (../shared/corpus/contracts) through the real API of a freshly started Quire
 * with NO property defined: every row's Text of csl-small-dev.csv uploaded as `.txt` into one docset
 * ("csl small"), every row's Text of csl-large-dev.csv into another ("csl large"), each waited for
 * until Ready, then `GET /documents/{id}/dgml`. The element read for a row:
 *
 * - small rows: the element that most tightly wraps the Small Chunk (its text, whitespace collapsed and
 *   case folded, holds the chunk with its surrounding quotes and punctuation off; failing that, the
 *   chunk's words in a row); beside it, the enclosing named elements (any namespace but `dg:` and
 *   `xhtml:`) whose text equals the chunk modulo punctuation;
 * - large rows: the nearest (deepest) element whose words hold >= 90 % of the Text's words; beside it,
 *   the enclosing named elements whose words are also >= 90 % the Text's.
 *
 * Its local name (prefix off) is compared with the Ground Truth by `comparableLabel` (case, spaces,
 * punctuation ignored), as is the Docugami column on the same rows. A self-check on a hand-made DGML
 * sample runs first (`--self-test` runs only that).
 *
 *   npx tsx bench/labels/run.ts [--split train] [--limit N] [--concurrency 4] [--self-test]
 *
 * Results: bench/results/labels-<timestamp>.json (git-ignored; rows are named by index, Text is not copied).
 */
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { comparableLabel, comparableValue, largeRows, smallRows, type LargeRow, type SmallRow } from '../lib/csl.js';
import { cleanUp } from '../lib/cleanup.js';
import { gitState, machine, printTable } from '../lib/machine.js';
import { lanes, pct, rate, startCslQuire, uploadText, waitSettled, type CslQuire } from '../lib/csl-quire.js';
import { writeResults } from '../lib/results.js';
import { collapsed, COVER, DG, parseDgml, XHTML, readLarge, readSmall, type Reading } from '../lib/dgml-read.js';

export { parseDgml, readLarge, readSmall, type Reading };

// ---------------------------------------------------------------------------------------------
// The self-check: a hand-made DGML sample, read as the bench reads Quire's.

const SAMPLE = `\uFEFF<?xml version="1.0" encoding="utf-8"?>
<dg:chunk xmlns:dg="${DG}" xmlns:docset="${DG}/default/Leases" xmlns:dgc="${DG}/docugami/contracts" xmlns:xhtml="${XHTML}">
<docset:Lease structure="h1"><dg:chunk structure="p">This Lease is dated as of <docset:AgreementDate><dgc:Date>August 18, 2016</dgc:Date></docset:AgreementDate>, by and between <docset:TenantName>Acme Corp.</docset:TenantName></dg:chunk><docset:CureClause structure="p">The cure period is <docset:CurePeriod>thirty (30) days</docset:CurePeriod>.</docset:CureClause></docset:Lease>
<xhtml:table><xhtml:tr><xhtml:td>Rent</xhtml:td><xhtml:td><docset:MonthlyRent>$1,000</docset:MonthlyRent></xhtml:td></xhtml:tr></xhtml:table>
</dg:chunk>`;

export function selfTest(): void {
  const d = parseDgml(SAMPLE);
  const small = (chunk: string) => readSmall(d, chunk);
  // The Docugami shape: a label around an entity. The tight element is the entity; the label encloses the same text.
  let r = small('"August\n   18, 2016"');
  assert.equal(r.found, 'text');
  assert.equal(r.tightQName, 'dgc:Date');
  assert.deepEqual(r.named, ['dgc:Date', 'docset:AgreementDate']);
  assert.deepEqual(r.docsetNames, ['AgreementDate']);
  assert.equal(comparableLabel(r.tight!), comparableLabel('Date'));
  assert.ok(r.named.some((n) => comparableLabel(n.split(':')[1]!) === comparableLabel('Agreement Date')));
  // Trailing punctuation of the chunk or of the element does not matter.
  r = small('Acme Corp');
  assert.equal(r.tightQName, 'docset:TenantName');
  assert.deepEqual(r.docsetNames, ['TenantName']);
  // "(30) days" lacks its word: its tight element is still the value's; its text is not the chunk's, so it is not "named".
  r = small('(30) days');
  assert.equal(r.tightQName, 'docset:CurePeriod');
  assert.deepEqual(r.named, []);
  assert.deepEqual(r.docsetNames, ['CurePeriod']);
  // Across two blocks written without whitespace between them: the blocks' texts do not run together.
  r = small('Acme Corp. The cure period');
  assert.equal(r.tightQName, 'docset:Lease');
  assert.equal(small('Corp.The').found, 'words');
  // Inside a table cell.
  r = small('$1,000');
  assert.equal(r.tightQName, 'docset:MonthlyRent');
  // Words in a row when the text differs in punctuation only.
  r = small('cure period, is thirty');
  assert.equal(r.found, 'words');
  assert.equal(r.tightQName, 'docset:CureClause');
  assert.equal(small('nowhere in it').found, null);
  // A large row: the nearest element holding (nearly) all of its words.
  r = readLarge(d, 'The cure period is thirty\n(30) days.');
  assert.equal(r.tightQName, 'docset:CureClause');
  assert.deepEqual(r.named, ['docset:CureClause']);
  r = readLarge(d, 'This Lease is dated as of August 18, 2016, by and between Acme Corp. The cure period is thirty (30) days.');
  assert.equal(r.tightQName, 'docset:Lease');
  assert.equal(comparableLabel('Cure  clause!'), comparableLabel('CureClause'));
  assert.equal(headingNameCore('_42BSidewalkUseAndMaintenance-section'), 'SidewalkUseAndMaintenance');
  assert.equal(headingNameCore('_4ObjectivesAndEndpoints'), 'ObjectivesAndEndpoints');
  assert.equal(headingNameCore('RENT-section'), 'RENT');
  // Quire's own shape today: one paragraph chunk, an entity inside.
  const quire = parseDgml(`<dg:chunk xmlns:dg="${DG}" xmlns:docset="${DG}/default/x" xmlns:dgc="${DG}/docugami/contracts"><dg:chunk structure="p">dated as of <docset:AgreementDate>August 18, 2016,</docset:AgreementDate> by <dgc:USState>Missouri</dgc:USState></dg:chunk></dg:chunk>`);
  r = readSmall(quire, '"August 18, 2016"');
  assert.equal(r.tightQName, 'docset:AgreementDate');
  r = readSmall(quire, 'dated as of');
  assert.equal(r.tightQName, 'dg:chunk');
  assert.deepEqual(r.docsetNames, []);
}

// ---------------------------------------------------------------------------------------------

const { values: flags } = parseArgs({
  options: {
    split: { type: 'string', default: 'eval-dev' },
    limit: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'timeout-ms': { type: 'string', default: '120000' },
    'self-test': { type: 'boolean', default: false },
  },
  strict: true,
});
const SPLIT = flags.split as SmallRow['split'];
if (SPLIT !== 'eval-dev' && SPLIT !== 'train') throw new Error(`--split must be eval-dev or train (got "${flags.split}")`);
const LIMIT = flags.limit === undefined ? Infinity : Number(flags.limit);
if (!(LIMIT > 0)) throw new Error('--limit must be a positive number');
const CONCURRENCY = Math.max(1, Number(flags.concurrency));
const TIMEOUT_MS = Number(flags['timeout-ms']);

interface RowResult extends Partial<Reading> {
  row: number;
  label: string;
  docugami: string;
  status: 'ok' | 'upload-failed' | 'error' | 'timeout' | 'dgml-failed';
  detail?: string;
  documentId?: string;
  exactTight: boolean;
  /** The tight element's name or an enclosing named element's with the same text is the label. */
  exactAny: boolean;
  docsetNamesCorrect: number;
  /** Diagnostic only: a docset: name equals the label once its heading number (`_42B`) and `-section` suffix are off. */
  docsetNameLoose: boolean;
  docugamiExact: boolean;
}

/** `_42BSidewalkUse-section` -> `SidewalkUse`: the heading's number and the section suffix Quire adds to a heading's name. */
export function headingNameCore(name: string): string {
  return name.replace(/-section$/, '').replace(/^_?\d+(?:[A-Z](?=[A-Z]))?/, '');
}

async function measure(qs: CslQuire, docsetId: string, set: 'small' | 'large', rows: (SmallRow | LargeRow)[]): Promise<RowResult[]> {
  let done = 0;
  return lanes(rows, CONCURRENCY, async (row, index) => {
    const out: RowResult = {
      row: index,
      label: row.label,
      docugami: row.docugami,
      status: 'ok',
      exactTight: false,
      exactAny: false,
      docsetNamesCorrect: 0,
      docsetNameLoose: false,
      docugamiExact: comparableLabel(row.docugami) === comparableLabel(row.label),
    };
    const finish = () => {
      if (++done % 100 === 0 || done === rows.length) console.log(`  ${set}: ${done}/${rows.length}`);
      return out;
    };
    const up = await uploadText(qs.c, `csl-${set}-${SPLIT}-${index}.txt`, row.text, docsetId);
    if ('error' in up) {
      Object.assign(out, { status: 'upload-failed', detail: up.error });
      return finish();
    }
    out.documentId = up.id;
    const settled = await waitSettled(qs.c, up.id, TIMEOUT_MS);
    if (settled.timedOut || settled.status !== 'Ready') {
      Object.assign(out, { status: settled.timedOut ? 'timeout' : 'error', detail: `status ${settled.status}` });
      return finish();
    }
    const dg = await qs.c.get(`/documents/${up.id}/dgml`).catch((err: Error) => ({ status: 0, text: err.message }));
    if (dg.status !== 200) {
      Object.assign(out, { status: 'dgml-failed', detail: `dgml ${dg.status}: ${dg.text.slice(0, 200)}` });
      return finish();
    }
    let r: Reading;
    try {
      const d = parseDgml(dg.text);
      r = set === 'small' ? readSmall(d, (row as SmallRow).chunk) : readLarge(d, row.text);
    } catch (err) {
      Object.assign(out, { status: 'dgml-failed', detail: `parse: ${(err as Error).message}` });
      return finish();
    }
    const want = comparableLabel(row.label);
    Object.assign(out, r);
    out.exactTight = r.tight !== null && comparableLabel(r.tight) === want;
    out.exactAny = out.exactTight || r.named.some((n) => comparableLabel(n.slice(n.indexOf(':') + 1)) === want);
    out.docsetNamesCorrect = r.docsetNames.filter((n) => comparableLabel(n) === want).length;
    out.docsetNameLoose = r.docsetNames.some((n) => comparableLabel(headingNameCore(n)) === want);
    return finish();
  });
}

function summarise(rows: RowResult[]) {
  const n = rows.length;
  const count = (f: (r: RowResult) => boolean) => rows.filter(f).length;
  const emitted = rows.reduce((s, r) => s + (r.docsetNames?.length ?? 0), 0);
  const correct = rows.reduce((s, r) => s + r.docsetNamesCorrect, 0);
  const tightNames = new Map<string, number>();
  for (const r of rows) if (r.tightQName) tightNames.set(r.tightQName, (tightNames.get(r.tightQName) ?? 0) + 1);
  return {
    rows: n,
    failed: count((r) => r.status !== 'ok'),
    spanNotFound: count((r) => r.status === 'ok' && !r.found),
    foundAsWordsOnly: count((r) => r.found === 'words'),
    exactTight: rate(count((r) => r.exactTight), n),
    exactAny: rate(count((r) => r.exactAny), n),
    docsetNames: {
      rowsWithOne: count((r) => (r.docsetNames?.length ?? 0) > 0),
      emitted,
      correct,
      precision: rate(correct, emitted),
      rowsCorrect: rate(count((r) => r.docsetNamesCorrect > 0), n),
      /** Diagnostic, not the measure: rows where a docset: name is the label once heading number and -section are off. */
      rowsLooseMatch: count((r) => r.docsetNameLoose),
    },
    docugamiExact: rate(count((r) => r.docugamiExact), n),
    tightNames: Object.fromEntries([...tightNames].sort((a, b) => b[1] - a[1]).slice(0, 15)),
  };
}

async function main() {
  selfTest();
  console.log('self-check on the hand-made DGML sample: passed');
  if (flags['self-test']) return;
  const started = new Date();
  const small = smallRows(SPLIT).slice(0, LIMIT);
  const large = largeRows(SPLIT).slice(0, LIMIT);
  const chunkNotInText = small.filter((r) => !collapsed(r.text).includes(comparableValue(r.chunk))).length;
  console.log(`CSL ${SPLIT}: ${small.length} small rows, ${large.length} large rows; rows whose Text does not contain the Small Chunk after normalisation: ${chunkNotInText}`);
  const qs = await startCslQuire();
  const t0 = performance.now();
  let results: { small: RowResult[]; large: RowResult[] };
  try {
    const docset = async (name: string) => {
      const r = await qs.c.post('/docsets', { json: { name } });
      if (r.status !== 201) throw new Error(`docset ${name}: ${r.status} ${r.text}`);
      return r.json.id as string;
    };
    const smallDs = await docset('csl small');
    const largeDs = await docset('csl large');
    results = { small: await measure(qs, smallDs, 'small', small), large: await measure(qs, largeDs, 'large', large) };
  } finally {
    await qs.stop();
  }
  const wallS = (performance.now() - t0) / 1000;
  const summary = { small: summarise(results.small), large: summarise(results.large) };

  console.log(`\n== Semantic labels: CSL ${SPLIT}, no property defined, ${wallS.toFixed(0)} s`);
  const t = [['set', 'rows', 'failed', 'span not found', 'exact (tight)', 'exact (tight or named)', 'docset names emitted', 'correct', 'precision', 'Docugami exact']];
  for (const [name, s] of Object.entries(summary)) {
    t.push([name, String(s.rows), String(s.failed), String(s.spanNotFound), pct(s.exactTight), pct(s.exactAny), String(s.docsetNames.emitted), String(s.docsetNames.correct), pct(s.docsetNames.precision), pct(s.docugamiExact)]);
  }
  printTable(t, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  console.log(
    [
      'exact (tight): the local name of the element that most tightly wraps the Small Chunk (small) / the nearest element holding >= 90 % of the Text\'s words (large) equals the label (comparableLabel).',
      'exact (tight or named): that, or an enclosing element of a naming namespace (not dg:/xhtml:) whose text is the chunk\'s modulo punctuation (small) / whose words are >= 90 % the Text\'s (large).',
      'docset names emitted: docset: elements among those (the tight element and the named ones), over all rows; precision = those equal to the label / emitted.',
      'Docugami exact: comparableLabel(docugami column) === comparableLabel(label), same rows.',
    ].join('\n'),
  );
  console.log(`diagnostic, not scored: rows whose docset: name is the label once a heading number and "-section" are off (_4HoursofOperation-section): small ${summary.small.docsetNames.rowsLooseMatch}, large ${summary.large.docsetNames.rowsLooseMatch}`);
  for (const [name, s] of Object.entries(summary)) console.log(`tightest elements (${name}): ${Object.entries(s.tightNames).map(([k, v]) => `${k} ${v}`).join(', ')}`);

  const out = {
    date: started.toISOString(),
    command: `npx tsx bench/labels/run.ts${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}`,
    git: gitState(),
    machine: machine(),
    settings: {
      server: 'node --import tsx src/main.ts serve (SQLite, temporary data directory), no property defined',
      split: SPLIT,
      limit: Number.isFinite(LIMIT) ? LIMIT : null,
      concurrency: CONCURRENCY,
      docsets: 'small rows in docset "csl small", large rows in docset "csl large"',
      cover: COVER,
      definitions: {
        exactTight: 'local name of the tightest element (small: deepest element whose whitespace-collapsed, case-folded text holds comparableValue(chunk), else the chunk\'s words in a row; large: deepest element holding >= 90 % of the Text\'s words) equals the label by comparableLabel',
        exactAny: 'exactTight, or an ancestor-or-self of the tight element in a naming namespace (not dg:, xhtml:) whose text squashes to the chunk\'s (small) or whose words are >= 90 % the Text\'s (large) is named the label',
        docsetNamesPrecision: 'docset: elements among the tight element and those named elements, summed over rows; precision = equal to the label / emitted',
        docugamiExact: 'comparableLabel(docugami) === comparableLabel(label) on the same rows',
      },
    },
    chunkNotInText,
    wallSeconds: wallS,
    summary,
    rows: results,
  };
  writeResults('labels', started, out);
}

try {
  await main();
} finally {
  await cleanUp();
}
