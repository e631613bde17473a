/**
 * The warm, in-process cost of the tagging stages (entities, value labels, form labels, clause labels: the
 * pipeline counts them together as `entitiesMs`) over the corpus's PDFs with a text layer: each PDF read once,
 * analysed four times (`analyzeDocument`, no OCR; STAGE_ROUNDS=n for more), the first round a warm-up. For comparing two checkouts (run it
 * in each, e.g. a detached worktree with the stages taken out of src/ingest/pipeline.ts); `bench/ingest` measures
 * what a user waits for.
 *
 *   npx tsx bench/labels/stage-cost.ts [corpus directory]
 */
import fs from 'node:fs';
import path from 'node:path';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus'));
const files: string[] = [];
const walk = (dir: string) => {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isDirectory()) {
      if (name !== 'contracts') walk(p);
    } else if (/\.pdf$/iu.test(name)) files.push(p);
  }
};
walk(root);
const models = [];
for (const f of files.sort()) models.push(await readDocument(fs.readFileSync(f), 'pdf'));
const pages = models.reduce((n, m) => n + m.pages.length, 0);
const rounds: number[] = [];
const ROUNDS = Math.max(2, Number(process.env.STAGE_ROUNDS ?? 4));
for (let r = 0; r < ROUNDS; r++) {
  let ms = 0;
  for (const m of models) ms += (await analyzeDocument(m, { ocrBudgetMs: 0 })).timings.entitiesMs;
  rounds.push(ms);
}
console.log(
  `${files.length} PDFs, ${pages} pages; tagging ms per round: ${rounds.map((x) => x.toFixed(0)).join(', ')}; warm (least of rounds 2-${ROUNDS}) ${(Math.min(...rounds.slice(1)) / pages).toFixed(3)} ms a page`,
);
