/**
 * What kinds of document a long document is (a contract, a lease among contracts, a filing, an
 * insurance policy, a clinical text, an accident report, a safety data sheet), by how often each kind's own words occur in it.
 * A clause topic of a kind the document is not (a lease's "Additional Rent" on a quarterly report's
 * "(In millions …)", a note's "Chief Complaint" on a filing's "Chief Executive Officer") is no name
 * of it: clause-labels.ts names topics only of the kinds a document is.
 */

export type DomainName = 'contract' | 'lease' | 'finance' | 'insurance' | 'aviation' | 'safety' | 'clinical';

/** Each kind's words (lower case, whole words), from general knowledge of such documents. */
const CUES: Record<DomainName, RegExp> = {
  contract: /\b(?:shall|hereby|hereof|herein|hereto|hereunder|thereof|thereto|whereas|landlord|tenant|lessee|lessor|licensee|licensor|covenants?|indemnify|agreement|lease)\b/gu,
  // A lease among contracts: its parties and rent (a lease's "Condemnation" is no name of an award agreement's clause).
  // Not "premises": insurance says it as often ("at all described premises").
  lease: /\b(?:landlord|tenants?|lessee|lessor|sublessee|sublessor|subtenant|leases?|sublease|rent|rents)\b/gu,
  finance: /\b(?:securities|shares|stock|fiscal|quarter|quarterly|revenues?|income|million|billion|earnings|dividends?|notes|interest|principal|issuer|investors?|maturity|debt|loans?|lenders?|borrower)\b/gu,
  insurance: /\b(?:insured|insurer|insurance|policy|policies|coverages?|premiums?|deductibles?|endorsements?|underwriting|claims?|coinsurance)\b/gu,
  aviation: /\b(?:aircraft|airplane|pilot|flight|runway|airport|faa|ntsb|takeoff|landing|helicopter|cockpit)\b/gu,
  safety: /\b(?:hazards?|hazardous|exposure|inhalation|ingestion|toxic|toxicity|flammable|chemical|mixture|vapou?rs?|respiratory|decomposition|spill)\b/gu,
  clinical: /\b(?:patients?|mg|doses?|dosing|clinical|investigator|diagnosis|adverse|placebo|pharmacokinetics?|subjects|physician|medications?|symptoms|therapy|insulin|treatment)\b/gu,
};

export const DOMAINS = Object.keys(CUES) as DomainName[];

/**
 * Fewer words than this say too little to tell what a document is: every kind stays open (a clause
 * on its own, a short note). An accident report of 500 words is clearly one already.
 */
export const MIN_DOCUMENT_WORDS = 300;

/** A text's words, and how many of them are each kind's (in DOMAINS order). */
function kindCounts(text: string): { words: number; counts: number[] } {
  const lower = text.toLowerCase();
  return { words: lower.split(/\s+/u).filter(Boolean).length, counts: DOMAINS.map((d) => (lower.match(CUES[d]) ?? []).length) };
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
