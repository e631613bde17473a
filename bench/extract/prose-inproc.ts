/**
 * Values from prose, in process: the CSL contract snippets (../shared/corpus/contracts) read and
 * analysed as the ingest pipeline does, each label's rows as one docset (documents in row order, the
 * docset learning from confident values as the `extract` job does), scored against the human span.
 * Fast, for iterating; `bench/extract/prose.ts` measures the same through the real API.
 *
 *   npx tsx bench/extract/prose-inproc.ts [--split train|eval-dev] [--misses] [--label "Company Name"]
 */
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { LEARN_FROM_CONFIDENCE } from '../../src/ingest/jobs/extract.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { extractProperties } from '../../src/ingest/stages/properties.js';
import type { DocsetKnowledge, PropertyDef } from '../../src/document/properties.js';
import { recurringLabels, sameValue, smallRows, tokenF1, type SmallRow } from '../lib/csl.js';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const split = (opt('--split') ?? 'eval-dev') as SmallRow['split'];
const onlyLabel = opt('--label');
const showMisses = args.includes('--misses');

const rows = smallRows(split);
const recurring = recurringLabels(rows);
const byLabel = new Map<string, SmallRow[]>();
for (const r of rows) if (!onlyLabel || r.label === onlyLabel) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);

interface Tally {
  rows: number;
  exact: number;
  f1: number;
  answered: number;
  inCandidates: number;
}
const tally = (): Tally => ({ rows: 0, exact: 0, f1: 0, answered: 0, inCandidates: 0 });
const groups = { recurring: tally(), rest: tally() };
const perLabel = new Map<string, Tally>();
let extractMs = 0;
let analyzeMs = 0;

for (const [label, list] of byLabel) {
  const def: PropertyDef = { id: 'p', label, labelId: label.replace(/[^A-Za-z0-9]/g, '') };
  const knowledge: DocsetKnowledge = { byProperty: new Map() };
  const t = perLabel.get(label) ?? tally();
  perLabel.set(label, t);
  for (const row of list) {
    let a = performance.now();
    const model = await readDocument(Buffer.from(row.text, 'utf8'), 'txt');
    const { structure } = await analyzeDocument(model, { ocrBudgetMs: 0 });
    analyzeMs += performance.now() - a;
    a = performance.now();
    const [result] = extractProperties(structure, [def], knowledge);
    extractMs += performance.now() - a;
    const got = result!.best?.value ?? null;
    const g = recurring.has(label) ? groups.recurring : groups.rest;
    const exact = sameValue(got, row.chunk);
    const inCandidates = [result!.best, ...result!.candidates].some((c) => c && sameValue(c.value, row.chunk));
    for (const s of [g, t]) {
      s.rows++;
      s.exact += exact ? 1 : 0;
      s.f1 += tokenF1(got, row.chunk);
      s.answered += got !== null ? 1 : 0;
      s.inCandidates += inCandidates ? 1 : 0;
    }
    if (showMisses && !exact) {
      const cands = [result!.best, ...result!.candidates].filter(Boolean).map((c) => `${JSON.stringify(c!.value)}@${c!.confidence.toFixed(2)}:${c!.evidence.kind}`);
      console.log(`MISS [${label}] want ${JSON.stringify(row.chunk.replace(/\s+/g, ' '))} got ${JSON.stringify(got)}${result!.best ? '' : ' (no value)'}\n   cands: ${cands.join(' | ')}\n   text: ${row.text.replace(/\s+/g, ' ').slice(0, 300)}`);
    }
    const best = result!.best;
    if (best && best.confidence >= LEARN_FROM_CONFIDENCE) {
      const known = knowledge.byProperty.get(def.id) ?? [];
      known.push({ value: best.value, source: 'extracted', evidence: best.evidence });
      knowledge.byProperty.set(def.id, known);
    }
  }
}

const fmt = (n: number, d: number): string => (d ? (n / d).toFixed(2) : '-');
console.log(`split ${split}: ${rows.length} rows, ${recurring.size} recurring labels`);
for (const [name, g] of Object.entries(groups)) {
  console.log(`${name.padEnd(10)} rows ${String(g.rows).padStart(4)}  exact ${fmt(g.exact, g.rows)}  F1 ${fmt(g.f1, g.rows)}  answered ${fmt(g.answered, g.rows)}  in candidates ${fmt(g.inCandidates, g.rows)}`);
}
if (args.includes('--per-label')) {
  for (const [label, t] of [...perLabel].filter(([l]) => recurring.has(l)).sort((a, b) => b[1].rows - a[1].rows)) {
    console.log(`  ${label.padEnd(32)} ${t.exact}/${t.rows}  answered ${t.answered}`);
  }
}
console.log(`analyse ${(analyzeMs / rows.length).toFixed(1)} ms/doc, extract ${(extractMs / rows.length).toFixed(2)} ms/doc`);
