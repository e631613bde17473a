/**
 * Names found as the human marked them: the CSL small rows whose labelled span is a firm's name (it ends in a legal
 * suffix: "Inc.", "LLC", "Co., Ltd.", "Company", …) or a person's (a party's label, two to four capitalised words, no
 * firm's word), each text through the entity tagger, counted right where an `Org` (or `Person`) span is the span
 * (compared as bench/labels compares values). A party's label is only as good as the name under it, and DGML's
 * `dgc:Org` and `dgc:Person` carry the span itself.
 *
 *   npx tsx bench/labels/names-recall.ts [--misses]
 */
import { entitySpans } from '../../src/ingest/stages/entities.js';
import { comparableValue, smallRows, type SmallRow } from '../lib/csl.js';

const FIRM = /(?:Inc\.?|Corp\.?|Corporation|Ltd\.?|Limited|LLC|L\.L\.C\.|L\.P\.|LP|LLP|PLC|plc|N\.A\.|S\.A\.|GmbH|Company|Co\.|B\.V\.|N\.V\.|INC\.?|CORP\.?|CORPORATION|LTD\.?|LIMITED|COMPANY)\W*$/u;
/** Words of a firm's or an office's name, not a person's. */
const NOT_PERSON = /\b(?:Inc|Corp|Corporation|Ltd|Limited|LLC|LP|LLP|PLC|Company|Co|Bank|Trust|Group|Holdings|Partners|Fund|Branch|Services|Agency|Department|Associates|Association|Director|Officer|Manager)\b|\d/iu;
const PERSON = /^\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){1,3}(?:,\s*(?:Jr|Sr|III|II)\.?)?$/u;
const PARTY_LABEL = /Name|Signatory|Chairman|Member|Officer|Employee|Executive|Director|Receiver|Acknowledger|Appointee|Trustee|Guarantor/u;
const showMisses = process.argv.includes('--misses');

const kindOf = (row: SmallRow, chunk: string): 'Org' | 'Person' | null =>
  FIRM.test(chunk) ? 'Org' : PARTY_LABEL.test(row.label) && PERSON.test(chunk) && !NOT_PERSON.test(chunk) ? 'Person' : null;

for (const split of ['train', 'eval-dev'] as const) {
  const count = { Org: { all: 0, found: 0 }, Person: { all: 0, found: 0 } };
  for (const row of smallRows(split)) {
    const chunk = row.chunk.trim().replace(/^["“]|["”]$/gu, '').replace(/\s+/gu, ' ');
    const kind = kindOf(row, chunk);
    if (!kind) continue;
    count[kind].all++;
    const text = row.text.replace(/\s+/gu, ' ');
    const spans = entitySpans(text, [])
      .filter((s) => s.tag.kind === 'entity' && s.tag.type === kind)
      .map((s) => text.slice(s.start, s.end));
    if (spans.some((o) => comparableValue(o) === comparableValue(chunk))) count[kind].found++;
    else if (showMisses) console.log(`${split} ${kind} [${chunk}] got ${JSON.stringify(spans)}: ${text.slice(0, 140)}`);
  }
  const show = (k: 'Org' | 'Person') => `${count[k].found} of ${count[k].all} (${(count[k].found / Math.max(1, count[k].all)).toFixed(3)})`;
  console.log(`${split}: firms' names found as an organisation ${show('Org')}; people's names found as a person ${show('Person')}`);
}
