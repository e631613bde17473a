/**
 * Values the semantic-label stage already named with the property's label: `<docset:MaturityDate>April 1, 2020</…>`
 * for a property "Maturity Date". The stage read the value's role in its sentence ("Senior Notes due April 1, 2020"), so a
 * property made from a found label (POST …/labels/{name}/property) finds its values in the same places, and a property a
 * user defines with the same words gets them too. The name is the text's own reading of the value's role, closer than
 * the prose finder's words-around-it guess: it outranks those guesses, and a label beside a value outranks it.
 */
import type { Candidate } from '../../../document/properties.js';
import { BLANK_FIELD_SUFFIX, humaniseLabelName } from '../../../document/label-summary.js';
import type { DocView } from '../../../document/view.js';
import { candidateAt } from './found.js';
import { labelWords, matchLabel } from './labels.js';
import { EXACT_LABEL_SCORE, type PropertyQuery } from './query.js';

/**
 * Just over LABELLED (properties.ts), so that the prose finder's guesses stay below it, and under a label beside a value (a
 * form cell, a "Label: value" line, 0.9 and more). Measured on the CSL rows in process against 0.8 among the guesses: two
 * eval-dev rows and one train row more right, none lost; the NTSB and sample sets 100 % either way.
 */
const FOUND_LABEL = 0.87;

export function foundLabelCandidates(view: DocView, query: PropertyQuery): Candidate[] {
  const out: Candidate[] = [];
  for (const info of view.leaves) {
    for (const span of info.leaf.spans ?? []) {
      if (span.tag.kind !== 'label' || span.tag.name.endsWith(BLANK_FIELD_SUFFIX)) continue;
      const words = labelWords(humaniseLabelName(span.tag.name));
      // A party's found name ends in "Name" ("TenantName"); a property may say the role alone ("Tenant").
      const terms = words.at(-1) === 'name' && words.length > 1 ? [words, words.slice(0, -1)] : [words];
      const score = Math.max(...terms.flatMap((t) => [matchLabel(query.words, t), ...query.aliases.map((a) => matchLabel(a, t))]));
      if (score < EXACT_LABEL_SCORE) continue;
      out.push(candidateAt(view, info.index, { start: span.start, end: span.end }, FOUND_LABEL * score, { kind: 'found-label', labelText: words.join(' ') }));
    }
  }
  return out;
}
