/**
 * How many of the `docset:` element names in Docugami's own DGML of the four reference PDFs
 * (../shared/corpus/reference-dgml) Quire's DGML of the same PDFs also has: the whole-document side of
 * "names what each value and clause is, as Docugami's does". Names compare without case and without
 * the `-section` suffix (a section and its body share a name). In process: each PDF read and analysed
 * as the pipeline does and rendered by the real writer.
 *
 *   npx tsx bench/labels/reference.ts [-v]     (-v: the names each side has alone, with a first value)
 */
import fs from 'node:fs';
import path from 'node:path';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { renderDgml } from '../../src/document/writers/dgml.js';

const DIR = path.resolve(import.meta.dirname, '../../../shared/corpus/reference-dgml');
const PAIRS = [
  ['Jane Doe NDA.pdf', 'Jane Doe.xml'],
  ['Shorebucks LLC_AZ.pdf', 'Shorebucks LLC_AZ.xml'],
  ['20071204X01896.pdf', '20071204X01896.xml'],
  ['20071210X01921.pdf', '20071210X01921.xml'],
];

/** Each `docset:` name of a DGML file with the text just inside its first element (up to 60 characters). */
function names(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<docset:([\p{L}_][\p{L}\p{N}._-]*)\b[^>]*>/gu)) {
    if (out.has(m[1]!)) continue;
    const after = xml.slice(m.index! + m[0].length, m.index! + m[0].length + 400);
    out.set(m[1]!, after.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 60));
  }
  return out;
}

const key = (name: string) => name.toLowerCase().replace(/-section$/, '');
const verbose = process.argv.includes('-v');
let shared = 0;
let reference = 0;
for (const [pdf, xml] of PAIRS) {
  const { structure } = await analyzeDocument(await readDocument(fs.readFileSync(path.join(DIR, pdf!)), 'pdf'), { ocrBudgetMs: 0 });
  const ours = names(renderDgml(structure, { workspace: 'default', docsetName: 'reference', version: 'bench' }));
  const theirs = names(fs.readFileSync(path.join(DIR, xml!), 'utf8'));
  const ourKeys = new Set([...ours.keys()].map(key));
  const theirKeys = new Set([...theirs.keys()].map(key));
  const both = [...theirKeys].filter((k) => ourKeys.has(k));
  shared += both.length;
  reference += theirKeys.size;
  console.log(`${pdf}: Docugami ${theirKeys.size} names, Quire ${ourKeys.size}, both ${both.length} (${((100 * both.length) / theirKeys.size).toFixed(0)} % of Docugami's)`);
  if (verbose) {
    const alone = (m: Map<string, string>, other: Set<string>) => [...m].filter(([n]) => !other.has(key(n))).map(([n, v]) => `${n}=${v}`).join(' | ');
    console.log(`  Docugami only: ${alone(theirs, ourKeys)}\n  Quire only: ${alone(ours, theirKeys)}`);
  }
}
console.log(`all four: ${shared} of Docugami's ${reference} names (${((100 * shared) / reference).toFixed(1)} %)`);
