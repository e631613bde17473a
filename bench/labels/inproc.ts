/**
 * Semantic labels of the CSL small rows, in process: each snippet read and analysed as the pipeline
 * does, then the name of the label span over its Small Chunk against the human label. Fast, for
 * iterating; `bench/labels/run.ts` measures the DGML through the real API.
 *
 *   npx tsx bench/labels/inproc.ts [--split train|eval-dev] [--misses] [--wrong]
 */
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { leaves } from '../../src/document/structure.js';
import { comparableLabel, comparableValue, smallRows, type SmallRow } from '../lib/csl.js';

const args = process.argv.slice(2);
const split = (args.includes('--split') ? args[args.indexOf('--split') + 1] : 'eval-dev') as SmallRow['split'];
const rows = smallRows(split);
let right = 0;
let named = 0;
let docugami = 0;
for (const row of rows) {
  const model = await readDocument(Buffer.from(row.text, 'utf8'), 'txt');
  const { structure } = await analyzeDocument(model, { ocrBudgetMs: 0 });
  const want = comparableValue(row.chunk);
  let name: string | null = null;
  for (const leaf of leaves(structure.nodes)) {
    for (const s of leaf.spans ?? []) {
      if (s.tag.kind === 'label' && comparableValue(leaf.text.slice(s.start, s.end)) === want) name = s.tag.name;
    }
  }
  if (comparableLabel(row.docugami) === comparableLabel(row.label)) docugami++;
  if (name) named++;
  const ok = name !== null && comparableLabel(name) === comparableLabel(row.label);
  if (ok) right++;
  if ((args.includes('--misses') && !ok) || (args.includes('--wrong') && name && !ok)) {
    console.log(`[${row.label}] got ${name ?? '-'} for ${JSON.stringify(want)}: ${row.text.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
}
console.log(`split ${split}: ${rows.length} rows; exact ${(right / rows.length).toFixed(3)}, named ${named} (precision ${(right / Math.max(1, named)).toFixed(2)}); Docugami ${(docugami / rows.length).toFixed(3)}`);
