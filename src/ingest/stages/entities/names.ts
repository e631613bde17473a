/** Parties' roles: "the Company", "Tenant", not a name's words, except as a firm's own word before its suffix. */
const ROLE_WORDS_LIST = [
  'party', 'parties', 'landlord', 'tenant', 'licensor', 'licensee', 'buyer', 'seller', 'borrower', 'lender', 'company', 'client', 'customer', 'contractor', 'vendor', 'recipient', 'guarantor',
  'broker', 'employer', 'employee', 'consultant', 'purchaser', 'subtenant', 'sublandlord',
];
export const ROLE_WORDS: ReadonlySet<string> = new Set(ROLE_WORDS_LIST);

/** Words that start or frame a sentence, or name a party's role, rather than being part of a name. */
export const NOT_NAME_WORDS = new Set(
  [
    'a', 'an', 'the', 'this', 'that', 'these', 'those', 'each', 'any', 'all', 'such', 'said', 'both', 'either', 'neither',
    'our', 'its', 'your', 'their', 'his', 'her', 'and', 'or', 'but', 'if', 'when', 'upon', 'in', 'on', 'by', 'for', 'to',
    'from', 'with', 'at', 'as', 'of', 'between', 'among', 'whereas', 'notwithstanding', 'provided', 'dear', 're', 'attention',
    'attn', 'cc', 'copy', 'see', 'per', 'via', 'no', 'not', 'other', 'every', 'then', 'also', 'only', 'where', 'whether',
    'except', 'unless', 'although', 'while', 'after', 'before', 'during', 'under', 'pursuant', 'accordingly', 'however',
    'therefore', 'thereafter', 'subject', 'without', 'within', 'through', 'following', 'since', 'until', 'once',
    // parties' roles
    ...ROLE_WORDS_LIST,
    'signature', 'name', 'title',
    'date', 'witness', 'executed', 'accepted', 'agreed', 'approved', 'disclosing', 'receiving',
    // a signature block's verbs: "SIGNED by …", "SEALED AND DELIVERED", "Witnessed by"
    'signed', 'sealed', 'delivered', 'witnessed', 'attested', 'acknowledged', 'dated',
    // documents that name their parties: "the Quarterly Report of Apple Inc."
    'report', 'agreement', 'lease', 'certificate', 'exhibit', 'schedule', 'form', 'section', 'article', 'amendment',
    'statement', 'statements', 'plan', 'policy', 'notice', 'order', 'rider', 'addendum', 'memorandum',
    // legal suffixes: a name cannot run through another organisation's suffix
    'inc', 'llc', 'corp', 'ltd', 'lp', 'llp', 'pllc', 'plc', 'incorporated', 'corporation', 'limited',
  ],
);

/** Words of organisations' names and of signature-block titles, never of a person's name. */
export const NOT_PERSON_WORDS = new Set(
  [
    'group', 'holdings', 'partners', 'partnership', 'company', 'bank', 'trust', 'fund', 'capital', 'management', 'realty',
    'properties', 'associates', 'services', 'systems', 'technologies', 'solutions', 'international', 'corporation', 'inc',
    'inc.', 'llc', 'ltd', 'ltd.', 'corp', 'corp.', 'university', 'institute', 'association', 'foundation', 'agency',
    'department', 'office', 'board', 'council', 'committee', 'suite', 'street', 'avenue', 'road', 'officer', 'manager',
    'president', 'director', 'secretary', 'treasurer', 'ceo', 'cfo', 'cto', 'chief', 'executive', 'member',
    'authorized', 'signatory', 'representative', 'agent', 'general', 'partner', 'sole', 'trustee', 'attorney',
  ],
);

/** Words that join the words of an organisation's name written in capitals ("BANK OF AMERICA", "SPORTS AND ENTERTAINMENT"). */
const CAPS_CONNECTORS = new Set(['OF', 'AND', 'THE', 'FOR', 'DE', '&']);
/** Parties' roles that are also words of a firm's name in capitals ("NCT MASTER TENANT II LLC"). */
const CAPS_ROLE_WORDS = new Set(['TENANT', 'LANDLORD', 'LENDER', 'BORROWER', 'BUYER', 'SELLER', 'PURCHASER', 'GUARANTOR', 'CONTRACTOR', 'VENDOR', 'CUSTOMER', 'CLIENT', 'BROKER', 'COMPANY']);

const isCaps = (w: string): boolean => /\p{Lu}/u.test(w) && !/\p{Ll}/u.test(w);

/**
 * The index of the word after the last capitalised word that cannot be part of a name ("The",
 * "Upon", "Tenant", "Report of"), or -1 if none is left. Lower-case connectors inside the name
 * ("CW of Arizona") stay. With `capitals`, so do a name's connectors and role words written in
 * capitals between two of its words ("BANK OF AMERICA, N.A.", "NCT MASTER TENANT II LLC"): in
 * capitals nothing else tells them from the name's own words.
 */
export function nameStart(words: readonly string[], opts: { capitals?: boolean } = {}): number {
  let first = 0;
  words.forEach((w, i) => {
    // An initial ("Gordon A. Davies") is a name's, though "a" frames a sentence.
    // A word with a figure in it ("NO1 REAL ESTATE INC.") is a name's, though its letters spell a framing word.
    if (!/^\p{Lu}/u.test(w) || /^\p{Lu}\.$/u.test(w) || /\p{N}/u.test(w) || !NOT_NAME_WORDS.has(w.replace(/[^\p{L}]/gu, '').toLowerCase())) return;
    if (opts.capitals && insideCapitals(words, i, first)) return;
    first = i + 1;
  });
  while (first < words.length && !/^[\p{Lu}\p{N}&]/u.test(words[first] ?? '')) first++;
  return first < words.length ? first : -1;
}

/** Whether word `i` joins a name in capitals: a connector or role word after a word of the name, before another. */
function insideCapitals(words: readonly string[], i: number, first: number): boolean {
  const w = words[i]!;
  const before = words[i - 1];
  const after = words[i + 1];
  if (i <= first || before === undefined || after === undefined) return false;
  if (!isCaps(w) || !isCaps(before) || !isCaps(after)) return false;
  if (!CAPS_CONNECTORS.has(w) && !CAPS_ROLE_WORDS.has(w)) return false;
  // The word after must be a name's word, not another framing word ("BANK AND THE LENDER").
  return !NOT_NAME_WORDS.has(after.replace(/[^\p{L}]/gu, '').toLowerCase()) || CAPS_ROLE_WORDS.has(after);
}
