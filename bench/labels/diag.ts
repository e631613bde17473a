/**
 * Where the small rows' labels are lost, in process: each row sorted into right, wrong (named otherwise), unnamed-<kind>
 * (a value span of that kind covers the chunk but nothing names it), boundary (spans overlap the chunk but none is
 * it) and nospan; one line a row (sorted by category), then the counts.
 *
 *   npx tsx bench/labels/diag.ts [train|eval-dev]
 */
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { leaves } from '../../src/document/structure.js';
import { valueSpans } from '../../src/ingest/stages/properties/prose-spans.js';
import { comparableLabel, comparableValue, smallRows, type SmallRow } from '../lib/csl.js';
const split = (process.argv[2] ?? 'eval-dev') as SmallRow['split'];
const kinds = ['party', 'date', 'duration', 'money', 'percent', 'time', 'plan', 'address', 'year', 'count', 'title'] as const;
const stat: Record<string, number> = {};
const lines: string[] = [];
for (const row of smallRows(split)) {
  const model = await readDocument(Buffer.from(row.text, 'utf8'), 'txt');
  const { structure } = await analyzeDocument(model, { ocrBudgetMs: 0 });
  const want = comparableValue(row.chunk);
  let name: string | null = null;
  let kindFound: string | null = null;
  let partial = false;
  for (const leaf of leaves(structure.nodes)) {
    for (const s of leaf.spans ?? []) if (s.tag.kind === 'label' && comparableValue(leaf.text.slice(s.start, s.end)) === want) name = s.tag.name;
    for (const k of kinds) {
      for (const v of valueSpans(k as never, leaf.text, leaf.spans ?? [], undefined, undefined)) {
        const t = comparableValue(leaf.text.slice(v.start, v.end));
        if (t === want) kindFound ??= k;
        else if (t.includes(want) || want.includes(t)) partial = true;
      }
    }
  }
  const ok = name && comparableLabel(name) === comparableLabel(row.label);
  const cat = ok ? 'right' : name ? 'wrong' : kindFound ? `unnamed-${kindFound}` : partial ? 'boundary' : 'nospan';
  stat[cat] = (stat[cat] ?? 0) + 1;
  lines.push(`${cat}\t[${row.label}]\t${name ?? '-'}\t${JSON.stringify(want)}\t${row.text.replace(/\s+/g, ' ').slice(0, 200)}`);
}
console.log(lines.sort().join('\n'));
console.log(stat);
