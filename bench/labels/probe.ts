/**
 * One text through the reader and the analysis, its spans printed: for looking at why a value is (not) named.
 *   npx tsx bench/labels/probe.ts "text …"
 */
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { leaves } from '../../src/document/structure.js';

for (const text of process.argv.slice(2)) {
  const model = await readDocument(Buffer.from(text, 'utf8'), 'txt');
  const { structure } = await analyzeDocument(model, { ocrBudgetMs: 0 });
  for (const leaf of leaves(structure.nodes)) {
    console.log(`| ${leaf.text}`);
    for (const s of leaf.spans ?? []) console.log(`   ${s.tag.kind}:${'name' in s.tag ? s.tag.name : 'type' in s.tag ? s.tag.type : ''} ${JSON.stringify(leaf.text.slice(s.start, s.end))}`);
  }
}
