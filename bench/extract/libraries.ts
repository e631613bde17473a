/**
 * Which finder of values serves values from prose best: the share of CSL eval-dev rows (the
 * labelled span of ../shared/corpus/contracts/csl-small-dev.csv) whose span each finder produces
 * exactly, by the label's head word, and its time. Quire's own entity pass against wink-nlp (with
 * its English lite model), chrono-node (dates) and compromise (people, organisations, places).
 *
 *   npx tsx bench/extract/libraries.ts
 */
import * as chrono from 'chrono-node';
import compromise from 'compromise';
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { entitySpans } from '../../src/ingest/stages/entities.js';
import { comparableValue, smallRows } from '../lib/csl.js';

const wink = winkNLP(model);
const finders: Record<string, (text: string) => string[]> = {
  quire: (text) => entitySpans(text).map((s) => text.slice(s.start, s.end)),
  'wink-nlp': (text) => (wink.readDoc(text).entities().out(wink.its.detail) as { value: string }[]).map((e) => e.value),
  'chrono-node': (text) => chrono.parse(text).map((p) => p.text),
  compromise: (text) => {
    const doc = compromise(text);
    return [...doc.organizations().out('array'), ...doc.people().out('array'), ...doc.places().out('array')] as string[];
  },
};
const rows = smallRows('eval-dev');
const heads = new Map<string, Record<string, number>>();
const totals: Record<string, { hits: number; ms: number }> = {};
for (const r of rows) {
  const text = r.text.replace(/\s+/g, ' ').trim();
  const want = comparableValue(r.chunk);
  const head = r.label.split(/\s+/).at(-1)!;
  const byHead = heads.get(head) ?? { rows: 0 };
  byHead.rows!++;
  for (const [name, find] of Object.entries(finders)) {
    const t = performance.now();
    const hit = find(text).some((v) => comparableValue(v) === want);
    const total = (totals[name] ??= { hits: 0, ms: 0 });
    total.ms += performance.now() - t;
    if (hit) {
      total.hits++;
      byHead[name] = (byHead[name] ?? 0) + 1;
    }
  }
  heads.set(head, byHead);
}
console.log(`${rows.length} eval-dev rows: the labelled span found exactly`);
for (const [name, t] of Object.entries(totals)) console.log(`  ${name.padEnd(12)} ${(t.hits / rows.length).toFixed(2)}  (${t.hits})  ${(t.ms / rows.length).toFixed(2)} ms/row`);
console.log(`by head word (rows: ${Object.keys(finders).join(' / ')})`);
for (const [head, c] of [...heads].sort((a, b) => b[1].rows! - a[1].rows!).slice(0, 10)) {
  console.log(`  ${head.padEnd(12)} ${String(c.rows).padStart(3)}: ${Object.keys(finders).map((n) => c[n] ?? 0).join(' / ')}`);
}
