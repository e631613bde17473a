/**
 * Trains the clause-topic weights (src/ingest/stages/clause-topics.ts): one TF-IDF centroid per clause
 * name, from
 * - the written vocabulary (scripts/clause-vocabulary.ts: standard clause and section names with the
 *   words and phrases that say a clause is about them, from general knowledge of the documents), and
 * - example clauses written for it (scripts/clause-examples.ts), and
 * - the `train` rows of the CSL large snippets (../shared/corpus/contracts/csl-large-dev.csv; the
 *   `eval-dev` rows are for measuring, never read here): a row's text joins the centroid of its label
 *   (a vocabulary name, or a name of its own).
 * The threshold and margin below which nothing is named are chosen by leave-one-out over the train
 * rows (each row scored against centroids built without it), counting a wrong name against a right one,
 * apart for the written names and for names only a train row gave (which stand for one clause each).
 * Writes src/ingest/stages/clause-weights.json.
 *
 *   npm run train:clauses
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparableLabel, largeRows } from '../bench/lib/csl.js';
import { topicTerms, type StoredTopicWeights } from '../src/ingest/stages/clause-topics.js';
import { EXAMPLES } from './clause-examples.js';
import { VOCABULARY } from './clause-vocabulary.js';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'ingest', 'stages', 'clause-weights.json');
/** Terms kept per class (the largest weights): the rest add little and weigh on the file. */
const TERMS_PER_CLASS = 80;
/** A wrong name costs this many right ones when the threshold is chosen: named when at least 1 in 6 would be right, about the precision of Docugami's own model, which names every clause. */
const WRONG_COST = 0.2;

/** A train row's text weighs this much in its label's centroid, beside the label's own words (weight 1). */
const ROW_WEIGHT = Number(process.env.ROW_WEIGHT ?? 1);

interface Doc {
  cls: number;
  terms: Map<string, number>;
  weight: number;
  /** A train row's index, for leave-one-out. */
  row?: number;
}

const classes: string[] = [];
const classOf = new Map<string, number>();
const docs: Doc[] = [];
const addClass = (name: string): number => {
  const key = comparableLabel(name);
  let c = classOf.get(key);
  if (c === undefined) {
    c = classes.length;
    classes.push(name);
    classOf.set(key, c);
  }
  return c;
};

/** Each written name's kind of document (its `[kind]` heading in the vocabulary, or its own third field). */
const kindOf = new Map<number, string>();
let kind = 'general';
for (const line of VOCABULARY.split('\n')) {
  if (!line.trim()) continue;
  const heading = /^\[(\w+)\]$/u.exec(line.trim());
  if (heading) {
    kind = heading[1]!;
    continue;
  }
  const [name, cues = '', own] = line.split('|').map((s) => s.trim());
  const c = addClass(name!);
  kindOf.set(c, own || kind);
  // The name twice and each cue once: one document of what the clause is about.
  const text = [name, name, ...cues.split(';').map((s) => s.trim())].join(' . ');
  docs.push({ cls: c, terms: topicTerms(text), weight: 1 });
}
for (const [name, text] of EXAMPLES) docs.push({ cls: addClass(name), terms: topicTerms(text), weight: 1 });
const rows = largeRows('train');
for (const [i, row] of rows.entries()) {
  if (!row.label.trim()) continue;
  const c = addClass(row.label);
  docs.push({ cls: c, terms: topicTerms(`${row.label} . ${row.label}`), weight: 1, row: i });
  docs.push({ cls: c, terms: topicTerms(row.text), weight: ROW_WEIGHT, row: i });
}

// Inverse class frequency: a term many clause names share says little about which one a clause is.
const df = new Map<string, Set<number>>();
for (const d of docs) for (const t of d.terms.keys()) (df.get(t) ?? df.set(t, new Set()).get(t)!).add(d.cls);
const idf: Record<string, number> = {};
for (const [t, set] of df) idf[t] = Math.log((classes.length + 1) / (set.size + 1)) + 1;

function unit(terms: Map<string, number>): Map<string, number> {
  const v = new Map<string, number>();
  let norm = 0;
  for (const [t, n] of terms) {
    const x = (1 + Math.log(n)) * idf[t]!;
    v.set(t, x);
    norm += x * x;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [t, x] of v) v.set(t, x / norm);
  return v;
}

type Postings = Map<string, [number, number][]>;

/** Class centroids (unit vectors, top terms only), optionally without one train row: term → [class, weight] pairs. */
function build(without?: number): Postings {
  const sums = classes.map(() => new Map<string, number>());
  for (const d of docs) {
    if (d.row !== undefined && d.row === without) continue;
    for (const [t, x] of unit(d.terms)) sums[d.cls]!.set(t, (sums[d.cls]!.get(t) ?? 0) + d.weight * x);
  }
  const postings: Postings = new Map();
  sums.forEach((sum, c) => {
    const top = [...sum].sort((a, b) => b[1] - a[1]).slice(0, TERMS_PER_CLASS);
    const norm = Math.sqrt(top.reduce((s, [, x]) => s + x * x, 0));
    if (!norm) return;
    for (const [t, x] of top) (postings.get(t) ?? postings.set(t, []).get(t)!).push([c, Math.round((x / norm) * 1e4) / 1e4]);
  });
  return postings;
}

// Leave-one-out over the train rows: best and second cosine of each row against the others, and
// whether the best is a written name or one only a train row gave (the latter fit one clause each).
const written = new Set<number>();
for (const d of docs) if (d.row === undefined) written.add(d.cls);
const groupOf = (c: number): number => (written.has(c) ? 0 : 1);
const loo: { ok: boolean; best: number; gap: number; group: number }[] = [];
for (const [i, row] of rows.entries()) {
  const w = build(i);
  const scores = new Map<number, number>();
  const v = unit(new Map([...topicTerms(row.text)].filter(([t]) => t in idf)));
  for (const [t, x] of v) for (const [c, y] of w.get(t) ?? []) scores.set(c, (scores.get(c) ?? 0) + x * y);
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  if (!ranked.length) continue;
  const [c, best] = ranked[0]!;
  loo.push({ ok: comparableLabel(classes[c]!) === comparableLabel(row.label), best, gap: best - (ranked[1]?.[1] ?? 0), group: groupOf(c) });
}
/** Per group (written names, train-only names): the threshold and margin that gain most, or never named. */
const choices = [0, 1].map((group) => {
  let choice = { threshold: 1, margin: 0, right: 0, wrong: 0, gain: 0 };
  for (let threshold = 0.05; threshold <= 0.8; threshold += 0.01) {
    for (let margin = 0; margin <= 0.15; margin += 0.01) {
      const named = loo.filter((r) => r.group === group && r.best >= threshold && r.gap >= margin);
      const right = named.filter((r) => r.ok).length;
      const wrong = named.length - right;
      const gain = right - WRONG_COST * wrong;
      if (gain > choice.gain) choice = { threshold: +threshold.toFixed(2), margin: +margin.toFixed(2), right, wrong, gain };
    }
  }
  return choice;
});
const built = build();
const terms = [...built.keys()];
const weights: StoredTopicWeights = {
  classes,
  terms,
  idf: terms.map((t) => Math.round(idf[t]! * 1e4) / 1e4),
  postings: terms.map((t) => built.get(t)!.flat()),
  groups: classes.map((_, c) => groupOf(c)),
  // General names, and names only train rows gave, are of no kind: any document may be about them.
  domains: classes.map((_, c) => (kindOf.get(c) === 'general' ? '' : (kindOf.get(c) ?? ''))),
  threshold: choices.map((c) => c.threshold),
  margin: choices.map((c) => c.margin),
};
fs.writeFileSync(OUT, JSON.stringify(weights) + '\n');
console.log(`${classes.length} clause names (${VOCABULARY.trim().split('\n').length} written, the rest from ${rows.length} train rows), ${terms.length} terms`);
for (const [g, choice] of choices.entries()) {
  console.log(`leave-one-out on train, ${g ? 'names only train rows gave' : 'written names'}: threshold ${choice.threshold}, margin ${choice.margin}: ${choice.right} right, ${choice.wrong} wrong of ${rows.length}`);
}
console.log(`wrote ${path.relative(process.cwd(), OUT)} (${(fs.statSync(OUT).size / 1024).toFixed(0)} KB)`);

if (process.argv.includes('--verbose')) {
  for (const r of loo.sort((a, b) => b.best - a.best).slice(0, 40)) console.log(r.ok ? 'RIGHT' : 'wrong', r.best.toFixed(3), r.gap.toFixed(3));
}
