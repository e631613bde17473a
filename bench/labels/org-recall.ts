/**
 * Organisations found as the human marked them: the CSL small rows whose labelled span is a firm's name (it ends in a
 * legal suffix: "Inc.", "LLC", "Co., Ltd.", "Company", …), each text through the entity tagger, counted right where an
 * `Org` span is the span (compared as bench/labels compares values). A party's label is only as good as the name under
 * it, and DGML's `dgc:Org` carries the span itself.
 *
 *   npx tsx bench/labels/org-recall.ts [--misses]
 */
import { entitySpans } from '../../src/ingest/stages/entities.js';
import { comparableValue, smallRows } from '../lib/csl.js';

const FIRM = /(?:Inc\.?|Corp\.?|Corporation|Ltd\.?|Limited|LLC|L\.L\.C\.|L\.P\.|LP|LLP|PLC|plc|N\.A\.|S\.A\.|GmbH|Company|Co\.|B\.V\.|N\.V\.|INC\.?|CORP\.?|CORPORATION|LTD\.?|LIMITED|COMPANY)\W*$/u;
const showMisses = process.argv.includes('--misses');

for (const split of ['train', 'eval-dev'] as const) {
  let firms = 0;
  let found = 0;
  for (const row of smallRows(split)) {
    const chunk = row.chunk.trim().replace(/^["“]|["”]$/gu, '');
    if (!FIRM.test(chunk)) continue;
    firms++;
    const text = row.text.replace(/\s+/gu, ' ');
    const orgs = entitySpans(text, [])
      .filter((s) => s.tag.kind === 'entity' && s.tag.type === 'Org')
      .map((s) => text.slice(s.start, s.end));
    if (orgs.some((o) => comparableValue(o) === comparableValue(chunk))) found++;
    else if (showMisses) console.log(`${split} [${chunk.replace(/\s+/gu, ' ')}] got ${JSON.stringify(orgs)}: ${text.slice(0, 140)}`);
  }
  console.log(`${split}: ${found} of ${firms} firms' names found as an organisation (${(found / Math.max(1, firms)).toFixed(3)})`);
}
