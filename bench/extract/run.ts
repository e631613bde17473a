/**
 * Property extraction bench: NTSB reports as one docset, form fields as its properties, values
 * extracted document after document with the docset learning from the confident ones (as the
 * `extract` job does), scored against values read by eye (truth.json); then each generated sample
 * set (src/samples) as a docset of its own, its suggested properties scored against the values the
 * generator wrote (`sampleTruth`). See bench/README.md.
 *
 *   npx tsx bench/extract/run.ts            # both passes
 *   npx tsx bench/extract/run.ts ntsb       # the NTSB reports only
 *   npx tsx bench/extract/run.ts samples    # the sample sets only
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { LEARN_FROM_CONFIDENCE } from '../../src/ingest/jobs/extract.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { renderSampleDocument, SAMPLE_CATALOG, sampleTruth } from '../../src/samples/index.js';
import { BEST_THRESHOLD, evidenceOfManualValue, extractProperties } from '../../src/ingest/stages/properties.js';
import type { DocsetKnowledge, Evidence, PropertyDef } from '../../src/document/properties.js';
import type { StructureModel } from '../../src/document/structure.js';

const here = dirname(fileURLToPath(import.meta.url));
/** truth.json names documents from the directory that holds the repository and `shared/`. */
const root = join(here, '..', '..', '..');

interface Truth {
  documents: Record<string, Record<string, string | null>>;
}

/** The properties as a user might name them: truth field → label (some written differently from the form, to test tolerance). */
const LABELS: Record<string, string> = {
  'Accident Number': 'Accident No.',
  Registration: 'Registration',
  'Aircraft Damage': 'Aircraft Damage',
  'Defining Event': 'Defining Event',
  'Flight Conducted Under': 'Flight Conducted Under',
  'Model/Series': 'Model Series',
  'Year of Manufacture': 'Year of Manufacture',
  'Serial Number': 'Serial Number',
  Seats: 'Seat',
  Certificate: 'Certificate',
  Location: 'Location',
  'Aircraft Make': 'Aircraft Make',
  'Engine Manufacturer': 'Engine Mfr',
  'Departure Point': 'Departure Point',
  'Investigator In Charge': 'investigator in charge',
};

/**
 * The second pass: properties named as no document names them. The first document that shows a value
 * gets it set by hand (as a user would); the others must find theirs from what the docset learned.
 */
const RENAMED: Record<string, string> = {
  Registration: 'Tail Number',
  'Accident Number': 'NTSB Case ID',
  'Aircraft Make': 'Manufacturer',
  Location: 'Place',
  'Departure Point': 'Origin',
};

const comparable = (v: string): string => v.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.,;:]+$/, '');

interface Score {
  tp: number;
  fp: number;
  fn: number;
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);
const f1 = (s: Score): { p: number; r: number; f: number } => {
  const p = ratio(s.tp, s.tp + s.fp);
  const r = ratio(s.tp, s.tp + s.fn);
  return { p, r, f: p + r === 0 ? 0 : (2 * p * r) / (p + r) };
};
const pct = (n: number): string => `${(n * 100).toFixed(0)}%`.padStart(5);

interface Doc {
  name: string;
  structure: StructureModel;
  expected: Record<string, string | null>;
}

/**
 * One docset run: documents in order, each extracted with what the docset knows, its confident
 * values (and, with `byHand`, the values a user sets) added to that knowledge. Prints P/R/F1 per field.
 */
function run(docs: Doc[], labels: Record<string, string>, byHand: boolean): Score {
  const fields = Object.keys(labels);
  const defs: PropertyDef[] = fields.map((f, i) => ({ id: `p${i}`, label: labels[f]!, labelId: f.replace(/[^A-Za-z0-9]/g, '') }));
  const knowledge: DocsetKnowledge = { byProperty: new Map() };
  const learn = (propertyId: string, value: string, source: 'manual' | 'extracted', evidence: Evidence | null) => {
    const list = knowledge.byProperty.get(propertyId) ?? [];
    list.push({ value, source, evidence });
    knowledge.byProperty.set(propertyId, list);
  };
  const perField = new Map<string, Score>(fields.map((f) => [f, { tp: 0, fp: 0, fn: 0 }]));
  const errors: string[] = [];
  let handSet = 0;
  // Where the threshold could sit: the least sure right value, the surest wrong one (best or first candidate).
  let lowestRight = 1;
  let highestWrong = 0;
  let extractMs = 0;
  for (const doc of docs) {
    const t = performance.now();
    const results = extractProperties(doc.structure, defs, knowledge);
    extractMs += performance.now() - t;
    results.forEach((r, i) => {
      const field = fields[i]!;
      const want = doc.expected[field] ?? null;
      if (byHand && want !== null && !knowledge.byProperty.has(r.propertyId)) {
        // A user fills in the first value they see; it is not scored.
        learn(r.propertyId, want, 'manual', evidenceOfManualValue(doc.structure, want));
        handSet++;
        return;
      }
      const top = r.best ?? r.candidates[0];
      if (top && want !== null && comparable(top.value) === comparable(want)) lowestRight = Math.min(lowestRight, top.confidence);
      else if (top) highestWrong = Math.max(highestWrong, top.confidence);
      const got = r.best?.value ?? null;
      const score = perField.get(field)!;
      const right = want !== null && got !== null && comparable(want) === comparable(got);
      if (right) score.tp++;
      if (got !== null && !right) score.fp++;
      if (want !== null && !right) score.fn++;
      if (!right && (got !== null || want !== null)) {
        errors.push(`  ${doc.name} ${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}${r.best ? ` (${r.best.confidence.toFixed(2)}, ${r.best.evidence.kind})` : ''}; next: ${r.candidates.slice(0, 2).map((c) => `${JSON.stringify(c.value)} ${c.confidence.toFixed(2)}`).join(', ')}`);
      }
      // What this document taught is used for the next ones (as the extract job does).
      if (r.best && r.best.confidence >= LEARN_FROM_CONFIDENCE) learn(r.propertyId, r.best.value, 'extracted', r.best.evidence);
    });
  }
  const total: Score = { tp: 0, fp: 0, fn: 0 };
  console.log('\nfield                     label used                  P      R     F1  (tp/fp/fn)');
  for (const field of fields) {
    const s = perField.get(field)!;
    total.tp += s.tp;
    total.fp += s.fp;
    total.fn += s.fn;
    const { p, r, f } = f1(s);
    console.log(`${field.padEnd(26)}${labels[field]!.padEnd(26)}${pct(p)}  ${pct(r)}  ${pct(f)}  (${s.tp}/${s.fp}/${s.fn})`);
  }
  const { p, r, f } = f1(total);
  console.log(`${'all'.padEnd(52)}${pct(p)}  ${pct(r)}  ${pct(f)}  (${total.tp}/${total.fp}/${total.fn})`);
  console.log(`extraction: ${(extractMs / docs.length).toFixed(1)} ms per document for ${fields.length} properties${byHand ? `; ${handSet} values set by hand (not scored)` : ''}`);
  console.log(`confidence: right values ≥ ${lowestRight.toFixed(2)}, wrong top candidates ≤ ${highestWrong.toFixed(2)} (threshold ${BEST_THRESHOLD})`);
  if (errors.length) console.log(`misses:\n${errors.join('\n')}`);
  return total;
}

/** Reads and analyses a document as `Processing` does, printing its page count and time. */
async function analyse(name: string, bytes: Buffer, ext: string): Promise<StructureModel> {
  const t = performance.now();
  const model = await readDocument(bytes, ext);
  const { structure } = await analyzeDocument(model, { ocrBudgetMs: 30000 });
  console.log(`${name.slice(0, 60).padEnd(62)}${String(structure.pages.length).padStart(5)}${(performance.now() - t).toFixed(0).padStart(17)}`);
  return structure;
}

async function ntsbPass(): Promise<void> {
  const truth = JSON.parse(readFileSync(join(here, 'truth.json'), 'utf8')) as Truth;
  const docs: Doc[] = [];
  console.log(`${'document'.padEnd(62)}pages  read+analyze ms`);
  for (const [path, expected] of Object.entries(truth.documents)) {
    const name = path.split('/').pop()!;
    docs.push({ name, structure: await analyse(name, readFileSync(join(root, path)), 'pdf'), expected });
  }
  console.log('\n== Form fields, named as a user might (learning from confident values)');
  run(docs, LABELS, false);
  console.log('\n== Renamed properties: no document uses these labels; the first value seen is set by hand');
  run(docs, RENAMED, true);
}

/**
 * Each sample set as one docset: its documents rendered (PDF or DOCX, as a user would upload them),
 * read and analysed, then its suggested properties, named as the set suggests, extracted in order with
 * learning. A summary row per set closes the pass.
 */
async function samplesPass(): Promise<void> {
  const summary: { set: string; docs: number; msPerDoc: number; score: Score }[] = [];
  for (const set of SAMPLE_CATALOG) {
    const truth = sampleTruth(set.id)!;
    console.log(`\n== Sample set "${set.id}" (${set.name}): suggested properties, truth by construction`);
    console.log(`${'document'.padEnd(62)}pages  read+analyze ms`);
    const docs: Doc[] = [];
    const t = performance.now();
    for (const doc of set.generate()) {
      const structure = await analyse(doc.fileName, renderSampleDocument(doc), doc.format);
      docs.push({ name: doc.fileName, structure, expected: truth.get(doc.fileName)! });
    }
    const msPerDoc = (performance.now() - t) / docs.length;
    const labels = Object.fromEntries(set.suggestedProperties.map((p) => [p, p]));
    summary.push({ set: set.id, docs: docs.length, msPerDoc, score: run(docs, labels, false) });
  }
  console.log('\n== Sample sets\nset                docs  read+analyze ms/doc      P      R     F1  (tp/fp/fn)');
  for (const { set, docs, msPerDoc, score } of summary) {
    const { p, r, f } = f1(score);
    console.log(`${set.padEnd(19)}${String(docs).padStart(4)}${msPerDoc.toFixed(0).padStart(21)}  ${pct(p)}  ${pct(r)}  ${pct(f)}  (${score.tp}/${score.fp}/${score.fn})`);
  }
}

const only = process.argv[2];
if (only !== undefined && only !== 'ntsb' && only !== 'samples') throw new Error(`Unknown pass "${only}": ntsb or samples`);
if (only !== 'samples') await ntsbPass();
if (only !== 'ntsb') await samplesPass();
