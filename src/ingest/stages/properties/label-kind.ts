/**
 * What a property's label asks for: the kind of value its head word names ("Effective Date" → a
 * date, "Cure Period" → a duration, "Tenant Name" or "Administrative Agent" → a party) and the words
 * that say which one ("effective", "cure", "tenant", "administrative agent"). General English, so
 * that labels no one wrote a rule for are read the same way.
 */

export type ValueKind = 'date' | 'time' | 'duration' | 'money' | 'percent' | 'party' | 'person' | 'address' | 'title' | 'plan' | 'state' | 'year' | 'count';

/** Head words and the kind they name; the last word of the label that is one decides. */
const HEAD_WORDS: Record<string, ValueKind> = {
  date: 'date', day: 'date', dated: 'date', birthday: 'date',
  time: 'time', hour: 'time', cutoff: 'time',
  period: 'duration', deadline: 'duration', term: 'duration', duration: 'duration', timeframe: 'duration', window: 'duration',
  length: 'duration', notice: 'duration', months: 'duration',
  amount: 'money', fee: 'money', price: 'money', rent: 'money', cost: 'money', payment: 'money', salary: 'money', deposit: 'money',
  premium: 'money', compensation: 'money', charge: 'money', wage: 'money', budget: 'money', value: 'money', bonus: 'money',
  limit: 'money', cap: 'money', surplus: 'money', principal: 'money', allowance: 'money', fund: 'money', capital: 'money',
  rate: 'percent', percentage: 'percent', percent: 'percent', interest: 'percent', margin: 'percent', ratio: 'percent',
  name: 'party', party: 'party',
  address: 'address', location: 'address', premises: 'address', office: 'address',
  title: 'title', position: 'title', role: 'title',
  plan: 'plan', program: 'plan',
  law: 'state', jurisdiction: 'state', state: 'state',
  year: 'year',
  shares: 'count', share: 'count', units: 'count', number: 'count', count: 'count', days: 'count',
};

/** Head words whose values are often of another kind too. */
const ALSO: Record<string, ValueKind[]> = {
  deadline: ['time', 'date'],
  date: ['duration'],
  period: ['date'],
  limit: ['duration', 'count'],
  cap: ['duration', 'count'],
  rate: ['money'],
  days: ['duration'],
  term: ['date'],
  value: ['count'],
  amount: ['count'],
  threshold: ['duration', 'percent'],
  window: ['date'],
  notice: ['date'],
  payment: ['duration'],
};
/** Qualifiers that make a "limit" a time: "Time Limit", "Restoration Time Limit". */
const TIME_WORDS = new Set(['time', 'timeframe', 'day', 'days', 'month', 'months', 'year', 'years', 'period', 'duration']);

/** Nouns for a party's role: doers and ones done to, and the usual parties of contracts. */
export const PARTY_NOUNS = new Set([
  'agent', 'trustee', 'company', 'bank', 'member', 'partner', 'representative', 'landlord', 'tenant', 'lender', 'borrower',
  'guarantor', 'guarantee', 'parent', 'subsidiary', 'affiliate', 'issuer', 'holder', 'shipper', 'carrier', 'transporter',
  'seller', 'buyer', 'purchaser', 'licensor', 'licensee', 'lessor', 'lessee', 'employee', 'employer', 'executive',
  'consultant', 'contractor', 'vendor', 'customer', 'client', 'supplier', 'manager', 'auditor', 'arranger', 'registrar',
  'bookrunner', 'counterparty', 'sponsor', 'investor', 'stockholder', 'shareholder', 'owner', 'obligor', 'corporation',
  'provider', 'recipient', 'signatory', 'witness', 'notary', 'participant', 'grantee', 'grantor', 'assignee', 'assignor',
  'insurer', 'insured', 'beneficiary', 'officer', 'director', 'entity', 'firm', 'subtenant', 'sublessor', 'sublessee',
  'underwriter', 'administrator', 'servicer', 'originator', 'depositor', 'custodian', 'escrow', 'broker', 'developer',
]);
/** Endings of agent nouns ("Transferor", "Indemnitee", "Applicant", "Beneficiary", "Arranger"). */
const AGENT_ENDING = /(?:or|ee|ant|ist|ary|[^e]er)$/u;
/** Words ending as agent nouns do that name no one. */
const NOT_AGENTS = new Set(['number', 'order', 'under', 'other', 'center', 'centre', 'letter', 'matter', 'after', 'quarter', 'manner', 'meter', 'chapter', 'barrier', 'water', 'paper', 'power', 'tower', 'cover', 'border', 'register', 'filter', 'floor', 'factor', 'sector', 'error', 'color', 'colour', 'interior', 'exterior', 'major', 'minor', 'prior', 'summary', 'salary', 'primary', 'secondary', 'monetary', 'boundary', 'anniversary', 'ordinary', 'dictionary', 'glossary', 'inventory', 'territory', 'category', 'history', 'elementary', 'document', 'payment', 'amendment', 'agreement', 'statement', 'labor', 'labour', 'honor', 'favor', 'behavior', 'vapor', 'rumor', 'harbor', 'flavor', 'mirror', 'horror', 'terror', 'power', 'corridor', 'motor', 'sensor', 'monitor', 'mentor', 'minor', 'doctor']);

/** A noun that names a party's role: one of PARTY_NOUNS or an agent noun ("Transferor", "Applicant"). */
export function isRoleNoun(word: string): boolean {
  return PARTY_NOUNS.has(word) || (word.length > 4 && AGENT_ENDING.test(word) && !NOT_AGENTS.has(word));
}

/** Label words that only say "the value of": dropped from the qualifying words. */
const EMPTY_WORDS = new Set(['of', 'the', 'a', 'an', 'and', 'or', 'for', 's', 'name', 'its', 'to']);

export interface LabelKind {
  kind: ValueKind | null;
  /** Kinds a value may also take ("Restoration Time Limit": six months; "Inspection Deadline": 3:00 p.m.), or, for labels with no kind word, every point value's kind. */
  others: ValueKind[];
  /** Lower-case words that say which value of that kind: "termination notice" for "Termination Notice Period". */
  qualifiers: string[];
  /** The word that named the kind ("date", "period"), when it is not a party's role or "name". */
  head: string | null;
  /** For parties: the role words ("administrative agent"), the label's words before its head "Name". */
  role: string[];
}

export function labelKind(label: string): LabelKind {
  const words = (label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== 's');
  let kind: ValueKind | null = null;
  let headAt = -1;
  for (let i = words.length - 1; i >= 0 && kind === null; i--) {
    const w = words[i]!;
    if (HEAD_WORDS[w]) {
      kind = HEAD_WORDS[w]!;
      headAt = i;
    } else if (i === words.length - 1 && isRoleNoun(w)) {
      kind = 'party';
      headAt = -1; // the role noun is itself the head: it stays a qualifier ("Administrative Agent")
    }
  }
  // "Rent Commencement Date": the head is "date"; "Days" as in "Vacation Days" counts days.
  const qualifiers = words.filter((w, i) => i !== headAt && !EMPTY_WORDS.has(w));
  // "Plan Name": the name of a plan, not of a party.
  if (kind === 'party' && headAt >= 0 && qualifiers.some((w) => HEAD_WORDS[w] === 'plan')) kind = 'plan';
  const role = kind === 'party' ? qualifiers : [];
  const head = headAt >= 0 ? words[headAt]! : '';
  let others = ALSO[head] ?? [];
  if (kind === 'money' && qualifiers.some((w) => TIME_WORDS.has(w))) others = ['duration', 'date', 'time'];
  if (kind === null) others = ['money', 'percent', 'duration', 'date', 'time', 'count'];
  return { kind, others: others.filter((k) => k !== kind), qualifiers, role, head: kind !== 'party' && head ? head : null };
}
