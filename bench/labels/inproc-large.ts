/**
 * Clause labels of the CSL large rows, in process: each Text read as the `.txt` upload is
 * (readDocument), analysed as the pipeline does, rendered to DGML by the real writer, and read as
 * `bench/labels/run.ts` reads the API's DGML (bench/lib/dgml-read.ts: the nearest element holding
 * >= 90 % of the Text's words, and the named elements around it holding little else). Its figures
 * are the API bench's large "exact (tight or named)", "docset names emitted" and precision.
 *
 *   npx tsx bench/labels/inproc-large.ts [--split train|eval-dev] [--misses] [--wrong] [--right]
 */
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { renderDgml } from '../../src/document/writers/dgml.js';
import { comparableLabel, largeRows, type LargeRow } from '../lib/csl.js';
import { parseDgml, readLarge } from '../lib/dgml-read.js';

const args = process.argv.slice(2);
const split = (args.includes('--split') ? args[args.indexOf('--split') + 1] : 'eval-dev') as LargeRow['split'];
const rows = largeRows(split);
let right = 0;
let rowsNamed = 0;
let emitted = 0;
let correct = 0;
let docugami = 0;
const t0 = performance.now();
for (const [index, row] of rows.entries()) {
  const model = await readDocument(Buffer.from(row.text, 'utf8'), 'txt');
  const { structure } = await analyzeDocument(model, { ocrBudgetMs: 0 });
  const xml = renderDgml(structure, { workspace: 'default', docsetName: 'csl large', version: 'inproc' });
  const r = readLarge(parseDgml(xml), row.text);
  const want = comparableLabel(row.label);
  const names = [r.tight, ...r.named.map((n) => n.slice(n.indexOf(':') + 1))].filter((n): n is string => n !== null);
  const ok = names.some((n) => comparableLabel(n) === want);
  if (ok) right++;
  if (r.docsetNames.length) rowsNamed++;
  emitted += r.docsetNames.length;
  correct += r.docsetNames.filter((n) => comparableLabel(n) === want).length;
  if (comparableLabel(row.docugami) === want) docugami++;
  const show = (args.includes('--misses') && !ok) || (args.includes('--wrong') && r.docsetNames.length > 0 && !ok) || (args.includes('--right') && ok);
  if (show) console.log(`#${index} [${row.label}] got ${r.docsetNames.join(',') || '-'} (tight ${r.tightQName}): ${row.text.replace(/\s+/g, ' ').slice(0, 160)}`);
}
const ms = performance.now() - t0;
console.log(
  `large ${split}: ${rows.length} rows; exact ${(right / rows.length).toFixed(3)} (${right}), rows named ${rowsNamed}, names emitted ${emitted}, ` +
    `precision ${(correct / Math.max(1, emitted)).toFixed(2)}; Docugami ${(docugami / rows.length).toFixed(3)} (${docugami}); ${(ms / rows.length).toFixed(1)} ms a row`,
);
