/**
 * The noun of a verb, as a label names an event by it: "deliver" → "Delivery", "terminate" →
 * "Termination", "submit" → "Submission". An inflected form is first brought to its infinitive
 * ("delivered", "submits", "given" → "deliver", "submit", "give") against the verbs known here: a
 * table of contract verbs whose nouns no rule derives, and the regular suffixes (-ate → -ation, -ify →
 * -ification, -ize → -ization). A verb neither knows has no noun: nothing is named by a guess.
 * (compromise lemmatises as well on these words, but loading it costs every ingest worker about a second.)
 */

/** Contract verbs and their nouns where no suffix rule gives them. General vocabulary, not labels of any data set. */
const NOUNS: Readonly<Record<string, string>> = {
  accept: 'acceptance',
  acquire: 'acquisition',
  amend: 'amendment',
  appeal: 'appeal',
  apply: 'application',
  approve: 'approval',
  assign: 'assignment',
  audit: 'audit',
  bill: 'billing',
  cancel: 'cancellation',
  challenge: 'challenge',
  claim: 'claim',
  close: 'closing',
  commence: 'commencement',
  complete: 'completion',
  contribute: 'contribution',
  comply: 'compliance',
  consent: 'consent',
  construct: 'construction',
  convert: 'conversion',
  correct: 'correction',
  cure: 'cure',
  decide: 'decision',
  deliver: 'delivery',
  demand: 'demand',
  deposit: 'deposit',
  disburse: 'disbursement',
  dispute: 'dispute',
  elect: 'election',
  enroll: 'enrollment',
  execute: 'execution',
  exercise: 'exercise',
  expire: 'expiration',
  extend: 'extension',
  file: 'filing',
  fund: 'funding',
  inspect: 'inspection',
  install: 'installation',
  match: 'match',
  invoice: 'invoice',
  issue: 'issuance',
  object: 'objection',
  occur: 'occurrence',
  pay: 'payment',
  perform: 'performance',
  prepay: 'prepayment',
  purchase: 'purchase',
  redeem: 'redemption',
  refund: 'refund',
  reimburse: 'reimbursement',
  reinstate: 'reinstatement',
  reject: 'rejection',
  release: 'release',
  remedy: 'remedy',
  remit: 'remittance',
  remove: 'removal',
  renew: 'renewal',
  repair: 'repair',
  repay: 'repayment',
  replace: 'replacement',
  report: 'report',
  repurchase: 'repurchase',
  request: 'request',
  rescind: 'rescission',
  resolve: 'resolution',
  respond: 'response',
  restore: 'restoration',
  return: 'return',
  review: 'review',
  revoke: 'revocation',
  sell: 'sale',
  settle: 'settlement',
  submit: 'submission',
  surrender: 'surrender',
  tender: 'tender',
  transfer: 'transfer',
  vacate: 'surrender',
  vest: 'vesting',
  withdraw: 'withdrawal',
};

/** Verbs that carry no event of their own ("notice shall be given", "payment shall be made"): the noun they govern names it. */
export const LIGHT_VERBS = new Set(['give', 'make', 'send', 'provide', 'furnish', 'take', 'do', 'have', 'be', 'get', 'receive']);
/** Verbs of doing what a noun already names ("the drug screen must be completed", "the audit shall be conducted"): passive, the noun names it. */
export const DOING_VERBS = new Set(['complete', 'conduct', 'perform', 'finish', 'undertake', 'carry', 'hold', 'obtain', 'secure']);

/** Suffix derivations of regular verbs: "terminate" → "termination", "notify" → "notification", "finalize" → "finalization". */
const RULES: [RegExp, string][] = [
  [/ate$/u, 'ation'],
  [/ify$/u, 'ification'],
  // "authorize", "organise" → "-ization"; not "advise", "revise", "exercise", "promise", "comprise", "raise".
  [/ize$/u, 'ization'],
  [/(?<!(?:v|c|m|pr|ch|d|ra|r|w|t))ise$/u, 'ization'],
];

/** Irregular participles and past forms of the verbs above. */
const IRREGULAR: Readonly<Record<string, string>> = {
  given: 'give', gave: 'give', made: 'make', sent: 'send', paid: 'pay', prepaid: 'prepay', repaid: 'repay', taken: 'take', took: 'take',
  done: 'do', did: 'do', held: 'hold', sold: 'sell', withdrawn: 'withdraw', withdrew: 'withdraw', undertaken: 'undertake', had: 'have', got: 'get', gotten: 'get',
};

/** A verb this module knows, as written. */
const known = (w: string): boolean => NOUNS[w] !== undefined || LIGHT_VERBS.has(w) || DOING_VERBS.has(w) || (w.length >= 6 && RULES.some(([re]) => re.test(w)));

/** The infinitive of a verb form ("delivered" → "deliver", "notifies" → "notify"), or the word itself where none is known. */
export function infinitive(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR[w];
  if (irregular) return irregular;
  if (known(w)) return w;
  const stems: string[] = [];
  for (const [ending, ...replacements] of [['ied', 'y'], ['ies', 'y'], ['ing', '', 'e'], ['ed', '', 'e'], ['es', '', 'e'], ['s', '']] as const) {
    if (!w.endsWith(ending) || w.length - ending.length < 2) continue;
    const stem = w.slice(0, -ending.length);
    for (const r of replacements) stems.push(stem + r);
    // "submitted", "cancelling": a doubled final consonant.
    if (/([b-df-hj-np-tv-z])\1$/u.test(stem)) stems.push(stem.slice(0, -1));
  }
  return stems.find(known) ?? w;
}

/** The noun of a verb form, lower case ("submitted" → "submission"), or null where none is known. */
export function nounOfVerb(word: string): string | null {
  const base = infinitive(word);
  const noun = NOUNS[base];
  if (noun) return noun;
  // Only words that are verbs: "rate" or "estate" are no "ration", "estation".
  if (base.length < 6 || LIGHT_VERBS.has(base) || DOING_VERBS.has(base)) return null;
  for (const [re, ending] of RULES) if (re.test(base)) return base.replace(re, ending);
  return null;
}
