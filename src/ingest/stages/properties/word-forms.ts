/**
 * Word forms: does a word of the text ("terminate", "notify", "revoke") stand for a word of a
 * property's label ("Termination", "Notice", "Revocation")? English derivations share a long
 * beginning, so a shared prefix decides (a Porter stemmer gives "revok"/"revoc" and "notic"/"notifi"
 * and misses them); agent nouns of opposite sides ("employer"/"employee", "lessor"/"lessee") are kept
 * apart, and a small table holds the near-synonyms no prefix finds.
 */

/** Near-synonyms of contracts: one group, one meaning. General vocabulary, not labels of any data set. */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['company', 'corporation', 'corporate'],
  ['agreement', 'contract'],
  ['tenant', 'lessee', 'subtenant', 'sublessee'],
  ['landlord', 'lessor', 'sublandlord', 'sublessor'],
  ['employee', 'executive'],
  ['purchaser', 'buyer', 'purchase'],
  ['seller', 'vendor', 'sell', 'sale'],
  ['pay', 'paid', 'payment', 'payable', 'remit', 'remittance'],
  ['signatory', 'signed', 'signature', 'sign', 'undersigned'],
  ['termination', 'terminate', 'expire', 'expiration', 'end', 'ending'],
  ['commencement', 'commence', 'begin', 'start'],
  ['notice', 'notify', 'notification'],
  ['amendment', 'amend', 'amended'],
  ['effective', 'effect'],
  ['borrower', 'obligor'],
  ['lender', 'bank'],
  ['address', 'located'],
  ['annual', 'year', 'yearly', 'annually', 'per annum'],
  ['monthly', 'month'],
  ['salary', 'compensation', 'wage'],
  ['fee', 'charge'],
  ['price', 'cost'],
];

const SYNONYMS = new Map<string, Set<number>>();
SYNONYM_GROUPS.forEach((group, i) => {
  for (const w of group) SYNONYMS.set(w, (SYNONYMS.get(w) ?? new Set()).add(i));
});

/** A word's synonym groups: its own, or those of a group word it is a form of ("commencing" is "commence"'s). */
const GROUPS_OF = new Map<string, ReadonlySet<number> | null>();
function groupsOf(word: string): ReadonlySet<number> | null {
  let groups = GROUPS_OF.get(word);
  if (groups !== undefined) return groups;
  groups = SYNONYMS.get(word) ?? null;
  if (!groups && word.length >= 4) {
    for (const [w, g] of SYNONYMS) {
      if (w.length < 4 || !isDerivation(word, w)) continue;
      groups = new Set([...(groups ?? []), ...g]);
    }
  }
  if (GROUPS_OF.size > 10_000) GROUPS_OF.clear();
  GROUPS_OF.set(word, groups);
  return groups;
}

/** Agent-noun endings: the doer (-er, -or) and the one done to (-ee). */
const DOER = /(?:er|or)$/u;
const DONE_TO = /ee$/u;

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * How surely text word `a` is a form of label word `b`, 0..1: 1 for the same word, 0.9 for one
 * derivation of the other, 0.8 for near-synonyms, else 0. Both lower case.
 */
export function relatedWords(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 3 || b.length < 3) return 0;
  if (isDerivation(a, b)) return 0.9;
  const ga = groupsOf(a);
  const gb = groupsOf(b);
  if (ga && gb) for (const g of ga) if (gb.has(g)) return 0.8;
  return 0;
}

/** One word a derivation of the other: a long shared beginning, and not the two sides of an agent noun ("lessor"/"lessee"). */
function isDerivation(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const shared = sharedPrefix(short, long);
  const opposite = (DOER.test(a) && DONE_TO.test(b)) || (DONE_TO.test(a) && DOER.test(b));
  return !opposite && short.length >= 4 && (shared === short.length || (shared >= 4 && shared >= 0.6 * short.length));
}

/** The best form of `word` among `words`, as `relatedWords` scores it. */
export function bestRelated(word: string, words: readonly string[]): number {
  let best = 0;
  for (const w of words) {
    const r = relatedWords(w, word);
    if (r > best) best = r;
    if (best === 1) break;
  }
  return best;
}
