/**
 * What kinds of document a long document is (a contract, a lease among contracts, a filing, an
 * insurance policy, a clinical text, an accident report, a safety data sheet), by how often each kind's own words occur in it.
 * A clause topic of a kind the document is not (a lease's "Additional Rent" on a quarterly report's
 * "(In millions …)", a note's "Chief Complaint" on a filing's "Chief Executive Officer") is no name
 * of it: clause-labels.ts names topics only of the kinds a document is.
 */

export type DomainName = 'contract' | 'lease' | 'finance' | 'insurance' | 'aviation' | 'safety' | 'clinical';

/** Each kind's words (lower case, whole words), from general knowledge of such documents. */
const CUES: Record<DomainName, readonly string[]> = {
  contract: ['shall', 'hereby', 'hereof', 'herein', 'hereto', 'hereunder', 'thereof', 'thereto', 'whereas', 'landlord', 'tenant', 'lessee', 'lessor', 'licensee', 'licensor', 'covenant', 'covenants', 'indemnify', 'agreement', 'lease'],
  // A lease among contracts: its parties and rent (a lease's "Condemnation" is no name of an award agreement's clause).
  // Not "premises": insurance says it as often ("at all described premises").
  lease: ['landlord', 'tenant', 'tenants', 'lessee', 'lessor', 'sublessee', 'sublessor', 'subtenant', 'lease', 'leases', 'sublease', 'rent', 'rents'],
  finance: ['securities', 'shares', 'stock', 'fiscal', 'quarter', 'quarterly', 'revenue', 'revenues', 'income', 'million', 'billion', 'earnings', 'dividend', 'dividends', 'notes', 'interest', 'principal', 'issuer', 'investor', 'investors', 'maturity', 'debt', 'loan', 'loans', 'lender', 'lenders', 'borrower'],
  insurance: ['insured', 'insurer', 'insurance', 'policy', 'policies', 'coverage', 'coverages', 'premium', 'premiums', 'deductible', 'deductibles', 'endorsement', 'endorsements', 'underwriting', 'claim', 'claims', 'coinsurance'],
  aviation: ['aircraft', 'airplane', 'pilot', 'flight', 'runway', 'airport', 'faa', 'ntsb', 'takeoff', 'landing', 'helicopter', 'cockpit'],
  safety: ['hazard', 'hazards', 'hazardous', 'exposure', 'inhalation', 'ingestion', 'toxic', 'toxicity', 'flammable', 'chemical', 'mixture', 'vapor', 'vapors', 'vapour', 'vapours', 'respiratory', 'decomposition', 'spill'],
  clinical: ['patient', 'patients', 'mg', 'dose', 'doses', 'dosing', 'clinical', 'investigator', 'diagnosis', 'adverse', 'placebo', 'pharmacokinetic', 'pharmacokinetics', 'subjects', 'physician', 'medication', 'medications', 'symptoms', 'therapy', 'insulin', 'treatment'],
};

export const DOMAINS = Object.keys(CUES) as DomainName[];

/**
 * Fewer words than this say too little to tell what a document is: every kind stays open (a clause
 * on its own, a short note). An accident report of 500 words is clearly one already.
 */
export const MIN_DOCUMENT_WORDS = 300;

/** Each cue word's kinds, by index in DOMAINS (a word may be several kinds': "lease" is a contract's and a lease's). */
const KINDS_OF_WORD = new Map<string, number[]>();
DOMAINS.forEach((d, k) => {
  for (const w of CUES[d]) KINDS_OF_WORD.set(w, [...(KINDS_OF_WORD.get(w) ?? []), k]);
});

/** Runs of ASCII word characters: a cue counts where a whole run is the word, as `\bword\b` would match it ("tenant's" holds "tenant"). */
const ASCII_WORD = /[a-z0-9_]+/g;

/** A text's words, and how many of them are each kind's (in DOMAINS order): one pass over its words. */
function kindCounts(text: string): { words: number; counts: number[] } {
  const lower = text.toLowerCase();
  const counts = DOMAINS.map(() => 0);
  for (const m of lower.matchAll(ASCII_WORD)) {
    const kinds = KINDS_OF_WORD.get(m[0]);
    if (kinds) for (const k of kinds) counts[k]!++;
  }
  return { words: wordCount(lower), counts };
}

/** How many runs of non-space characters a text has (`text.split(/\s+/).filter(Boolean).length`, without the array). */
function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0x2028 || c === 0x2029 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Per 1,000 words: how often each kind's words occur in a text. */
export function domainDensities(text: string): Record<DomainName, number> {
  const { words, counts } = kindCounts(text);
  return Object.fromEntries(DOMAINS.map((d, k) => [d, (counts[k]! * 1000) / (words || 1)])) as Record<DomainName, number>;
}

/** A kind's words this often (per 1,000 words around a clause) make the text there of that kind. */
export const MIN_DENSITY = 8;
/** Words read on each side of a clause to tell what kind of text it is in: a filing's exhibit that is a contract is a contract, its statements are not. */
export const WINDOW_WORDS = 1000;

/**
 * The kinds of text around each part of a document, from its texts in reading order: kindsAround(i, j)
 * gives the kinds of the text around texts i..j, or undefined (any kind) for a document too short to tell.
 */
export function documentKinds(texts: readonly string[]): (first: number, last: number) => ReadonlySet<string> | undefined {
  const n = texts.length;
  // Prefix sums of words and of each kind's words.
  const words = new Float64Array(n + 1);
  const counts = DOMAINS.map(() => new Float64Array(n + 1));
  texts.forEach((text, i) => {
    const own = kindCounts(text);
    words[i + 1] = words[i]! + own.words;
    own.counts.forEach((c, k) => (counts[k]![i + 1] = counts[k]![i]! + c));
  });
  if (words[n]! < MIN_DOCUMENT_WORDS) return () => undefined;
  /** The first text index whose words end after `word` words (binary search over the prefix sums). */
  const textAt = (word: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (words[mid + 1]! <= word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (first, last) => {
    const from = textAt(Math.max(0, words[first]! - WINDOW_WORDS));
    const to = Math.min(n - 1, textAt(words[last + 1]! + WINDOW_WORDS));
    const span = Math.max(1, words[to + 1]! - words[from]!);
    const kinds = new Set<string>();
    DOMAINS.forEach((d, k) => {
      if (((counts[k]![to + 1]! - counts[k]![from]!) * 1000) / span >= MIN_DENSITY) kinds.add(d);
    });
    // Finance names (interest, notes, loans) are contracts' too: a credit agreement or a note's terms.
    if (kinds.has('contract')) kinds.add('finance');
    return kinds;
  };
}
