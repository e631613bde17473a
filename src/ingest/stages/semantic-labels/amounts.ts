/**
 * Amounts, rates and counts named by what they are of: the noun phrase before them ("a base salary of" → `BaseSalary`),
 * a definition ("… Amount" means), a par value, a limit, a unit ("per hour" → `HourlyRate`) or a rank ("Work Level 5").
 */
import type { Token } from '../properties/tokens.js';
import { infinitive, nounOfVerb } from '../properties/nominal.js';
import { FUNCTION_WORDS, SECURITIES, after, firstAtOrAfter, pascal, phraseBefore, singular, singularNoun, wordsBefore, type ValueContext } from './words.js';

/** Nouns that name an amount themselves ("base salary", "purchase price"). */
const AMOUNT_HEADS = new Set(['salary', 'price', 'rent', 'fee', 'deposit', 'premium', 'bonus', 'amount', 'compensation', 'allowance', 'cap', 'limit', 'value', 'cost', 'charge', 'commission', 'penalty', 'retainer', 'wage', 'fine', 'royalty', 'abatement', 'expense', 'installment',
  // What a company reports ("Net income was $19.9 billion", "an unrecognized tax benefit of $18.0 billion").
  'income', 'revenue', 'revenues', 'sales', 'earnings', 'profit', 'benefit']);

/** Nouns of things an amount measures: named with "Amount" ("a payment of $450" → `PaymentAmount`). */
const AMOUNT_OF = new Set(['payment', 'loan', 'commitment', 'investment', 'distribution', 'contribution', 'award', 'grant', 'advance', 'credit', 'reimbursement', 'severance', 'settlement', 'dividend', 'deductible', 'note', 'notes', 'facility', 'match']);

/** Nouns that name a rate ("an interest rate of 5%"). */
const RATE_HEADS = new Set(['rate', 'percentage', 'interest', 'margin', 'spread', 'discount', 'increase', 'threshold', 'ratio', 'yield']);

/** "a base salary of $410,000", "an interest rate equal to 5%", "a payment of $450": the noun phrase the value is of. */
/**
 * `Crime policy with a limit of no less than $5,000,000`, `Employers Liability insurance with limits not less than`: the limit
 * of the cover it is said of, by its words as written (as "in an amount of" names the insurance's amount).
 */
function coverLimitName(tokens: Token[], start: number): string | null {
  const word = (k: number): string => tokens[k]?.text.toLowerCase() ?? '';
  let i = firstAtOrAfter(tokens, start) - 1;
  while (i >= 0 && /^(?:no|not|less|than|at|least)$/u.test(word(i))) i--;
  if (word(i) === 'of') i--;
  const head = word(i);
  if (!/^limits?$/u.test(head)) return null;
  i--;
  if (/^(?:a|an)$/u.test(word(i))) i--;
  if (word(i) !== 'with') return null;
  const words: string[] = [];
  for (i--; i >= 0 && words.length < 4; i--) {
    const t = tokens[i]!.text;
    // ("Excess" and "Total" open covers' names: only articles and prepositions end them.)
    if (!/^\p{L}{3,}(?:\/\p{L}{3,})?$/u.test(t) || /^(?:the|and|its|his|her|their|any|such|this|that|for|with|from|under|per)$/iu.test(t)) break;
    words.unshift(...t.split('/'));
  }
  return words.length && /^(?:coverage|insurance|policy|liability|bond)$/iu.test(words.at(-1)!) ? pascal([...words, head]) : null;
}

function amountName(near: string[], kind: 'money' | 'percent'): string | null {
  const heads = kind === 'money' ? AMOUNT_HEADS : RATE_HEADS;
  // "payments of more than $5,000,000", "a fee not to exceed $500", "a bonus of up to 50%": the comparison between the noun and its value is passed over.
  const comparison = near[0] === 'than' && /^(?:more|less|greater|fewer)$/u.test(near[1] ?? '') ? (near[2] === 'not' || near[2] === 'no' ? 3 : 2) : near[0] === 'exceed' && near[1] === 'to' && near[2] === 'not' ? 3 : (near[0] === 'least' && near[1] === 'at') || (near[0] === 'to' && near[1] === 'up') ? 2 : 0;
  if (comparison) near = near.slice(comparison);
  // "hereby increases its Commitment to $75,000,000": what a change brings to the value is an amount of it.
  const changed = near[0] === 'to' && near.slice(2, 5).some((w) => /^(?:increase[sd]?|decrease[sd]?|reduce[sd]?|raise[sd]?|adjust(?:s|ed)?)$/u.test(w));
  // "The purchase price for the Shares is $5,000,000", "the fee shall be": the subject the value is.
  const copula = /^(?:is|was|are|were|equals)$/u.test(near[0] ?? '') ? 1 : near[0] === 'be' && /^(?:shall|will)$/u.test(near[1] ?? '') ? 2 : 0;
  const link = near[0] === 'of' || changed ? 1 : near[0] === 'to' && near[1] === 'equal' ? 2 : copula || (near[0] && (heads.has(near[0]) || (comparison > 0 && heads.has(singularNoun(near[0], 1))) || AMOUNT_OF.has(near[0])) ? 0 : -1);
  if (link < 0) return null;
  let at = link;
  // "shall be equal to $2.70": the verb before "equal to".
  if (link === 2 && near[0] === 'to' && near[2] === 'be' && near[3] === 'shall') at = 4;
  // "a base salary in the amount of $302,000", "Employers Liability Insurance in an amount not less than": the noun before
  // "in the amount of", an amount of it.
  const inAmount = kind === 'money' && near[at] === 'amount' && /^(?:the|an)$/u.test(near[at + 1] ?? '') && near[at + 2] === 'in';
  if (inAmount) at += 3;
  // "The exercise price per share is $12.50": the unit a price is per is no word of its name.
  if (copula && near[at + 1] === 'per') at += 2;
  // "the purchase price for the Assets shall be …": the subject's head, past what it is for.
  if (copula || (at >= 2 && near[at - 1] === 'shall')) {
    // ("the weighted-average interest rate on commercial paper was 5.0%": past what a rate is on.)
    const of = near.slice(at, at + 4).findIndex((w) => /^(?:for|of|under|on)$/u.test(w));
    if (of > 0) at += of + 1;
  }
  const words: string[] = [];
  for (const w of near.slice(at, at + 3)) {
    // "The Buyer shall deposit $100,000": a modal ends the noun phrase (the subject before it is someone else's).
    if (FUNCTION_WORDS.has(w) || /\d/u.test(w) || /^(?:shall|will|may|must|should|would|can|could)$/u.test(w)) break;
    // "in three equal installments of $100,000": how many, and that they are equal, is no part of what they are.
    if (/^(?:equal|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|consecutive|successive)$/u.test(w)) break;
    words.unshift(w);
  }
  const head = words.at(-1);
  if (!head) return null;
  // "shall bear interest at the rate of 1.5%": a bare rate is the rate of the noun it is at.
  let rateOf = kind === 'percent' && words.length === 1 && head === 'rate' && /^(?:the|a)$/u.test(near[at + 1] ?? '') && near[at + 2] === 'at' ? near[at + 3] : undefined;
  // "Interest shall accrue at the rate of 5%": after a modal the word at the rate is a verb, and only interest accrues at a
  // rate that is its own ("Rent shall increase at the rate of 3%" is no rent's rate).
  if (rateOf && /^(?:shall|will|may|must|to|should|would)$/u.test(near[at + 4] ?? '')) rateOf = near[at + 5] === 'interest' ? 'interest' : undefined;
  if (rateOf && /^\p{L}{4,}$/u.test(rateOf) && !FUNCTION_WORDS.has(rateOf) && !/(?:ed|ing|ly)$/u.test(rateOf)) return pascal([rateOf, 'rate']);
  // "annual cash costs of $723": a head in the plural names it as written.
  const one = singularNoun(head, 3);
  if (heads.has(head) || heads.has(one)) return pascal(words);
  // "an hourly rate of $150": an amount by the unit a rate says; "a base salary at an annual rate of $440,000", the salary.
  if (kind === 'money' && one === 'rate' && words.length > 1) {
    const k = at + words.length;
    const paid = /^(?:a|an|the)$/u.test(near[k] ?? '') && near[k + 1] === 'at' ? near.slice(k + 2, k + 4).filter((w) => !FUNCTION_WORDS.has(w)).reverse() : [];
    return paid.length && AMOUNT_HEADS.has(paid.at(-1)!) && near.slice(k + 2, k + 2 + paid.length).every((w) => !FUNCTION_WORDS.has(w)) ? pascal(paid) : pascal(words);
  }
  if (kind === 'money' && (AMOUNT_OF.has(one) || (inAmount && /^\p{L}{4,}$/u.test(one)))) return `${pascal([...words.slice(0, -1), one])}Amount`;
  // "a compensation equal to 100 percent (100%) of …", "a fee of 2%": the share of an amount is its percentage.
  // (Not a bare "an amount equal to 10%": which amount, the text does not say.)
  return kind === 'percent' && words.length + (one === 'amount' ? -1 : 0) > 0 && (AMOUNT_HEADS.has(one) || AMOUNT_OF.has(one)) ? `${pascal([...words.slice(0, -1), one])}Percentage` : null;
}

/**
 * `"Availability Trigger Amount" means … an amount equal to 10% of …` → `AvailabilityTriggerPercentage`, `"Threshold Amount" means
 * $50,000,000` → `ThresholdAmount`: the first amount or rate of a definition is what the defined term measures, named by the
 * term with its kind's head.
 */
function definitionName(tokens: Token[], start: number, kind: 'money' | 'percent'): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  for (let steps = 0; i >= 0 && steps < 30 && !/^(?:means|mean)$/iu.test(tokens[i]!.text); i--, steps++) {
    const t = tokens[i]!.text;
    if (/^[.;"“”]$/u.test(t) || t === '%' || t === '$' || /^\$|%$/u.test(t)) return null;
  }
  if (i < 1) return null;
  let k = i - 1;
  if (tokens[k]?.text.toLowerCase() === 'shall') k--;
  if (!/^["”]$/u.test(tokens[k]?.text ?? '')) return null;
  const words: string[] = [];
  for (k--; k >= 0 && words.length < 6 && !/^["“]$/u.test(tokens[k]!.text); k--) words.unshift(tokens[k]!.text);
  if (!/^["“]$/u.test(tokens[k]?.text ?? '') || !words.length || !words.every((w) => /^\p{Lu}[\p{L}\p{N}-]*$|^\p{N}+$/u.test(w))) return null;
  const head = words.at(-1)!.toLowerCase();
  if (kind === 'percent') {
    if (RATE_HEADS.has(head)) return pascal(words);
    const core = head === 'amount' ? words.slice(0, -1) : words;
    return core.length ? `${pascal(core)}Percentage` : null;
  }
  return AMOUNT_HEADS.has(head) ? pascal(words) : `${pascal(words)}Amount`;
}

/** Words that only measure an amount ("an aggregate principal amount of"), not say what it is of. */
const MEASURE_ONLY = /^(?:Aggregate|Principal|Total|Original|AggregatePrincipal|TotalPrincipal|OriginalPrincipal)Amount$/u;

/** What an amount the text only measures is of, further back: "any prepayment shall be in a principal amount of". */
const AMOUNT_SUBJECTS = new Set(['prepayment', 'loan', 'borrowing', 'advance', 'note', 'notes', 'facility', 'commitment', 'investment', 'distribution', 'contribution', 'award', 'grant', 'payment', 'deposit', 'bond', 'bonds', 'debenture', 'debentures']);

/** A measured-only amount ("AggregatePrincipalAmount") named by what it is of, the nearest such noun of its sentence before it. */
function amountOf(name: string | null, words: readonly string[]): string | null {
  if (!name || !MEASURE_ONLY.test(name)) return name;
  const lower = words.map((w) => w.toLowerCase());
  const at = lower.findIndex((w) => AMOUNT_SUBJECTS.has(w) || AMOUNT_SUBJECTS.has(singularNoun(w, 4)));
  if (at < 0) return name;
  const noun = singularNoun(lower[at]!, 4);
  return `${pascal([noun])}Amount`;
}

/** "$50.00 per hour", "$1,200 per diem": an amount by the hour or the day, named for nothing else, is a rate of that unit. */
function rateName(next: string[]): string | null {
  if (next[0] !== 'per' && next[0] !== 'an' && next[0] !== 'a') return null;
  return next[1] === 'hour' ? 'HourlyRate' : next[1] === 'diem' ? 'PerDiemRate' : null;
}

/**
 * What a percentage says after it: `9.75% Senior Notes` → `NoteInterestRate` (the notes' coupon), `10% of the shares will
 * vest` → `VestingPercentage` (the share of a thing the verb happens to).
 */
function shareName(next: string[]): string | null {
  const security = next.slice(0, 3).findIndex((w) => SECURITIES.test(w) && w !== 'debt' && w !== 'obligations');
  if (security >= 0 && next.slice(0, security).every((w) => /^(?:senior|subordinated|secured|unsecured|convertible|exchangeable|notes?)$/u.test(w))) {
    const noun = next[security]!.replace(/s$/u, '');
    return `${pascal([noun])}InterestRate`;
  }
  // "a 10% holdback", "a 5% commission": the amount a percentage sets, named before its noun.
  if (AMOUNT_HEADS.has(next[0] ?? '') || AMOUNT_OF.has(next[0] ?? '') || /^(?:holdback|retainage|markup|discount|increase|escalation)$/u.test(next[0] ?? '')) {
    return `${pascal([next[0]!])}Percentage`;
  }
  if (next[0] !== 'of' || !/^(?:the|such|its|his|her|their|each)$/u.test(next[1] ?? '')) return null;
  const modal = next.slice(3, 6).findIndex((w) => /^(?:shall|will|may)$/u.test(w));
  if (modal < 0) return null;
  const verb = next[3 + modal + 1];
  const noun = verb ? nounOfVerb(infinitive(verb)) : null;
  return noun ? `${pascal([noun])}Percentage` : null;
}

/**
 * `the Sellers' liability shall be limited to $1`, `the Tenant's costs shall not exceed $5,000`: the cap a clause sets on
 * what its subject says (`SellersLiabilityLimit`, `TenantCostLimit`).
 */
function limitName(near: string[]): string | null {
  let k = near[0] === 'to' && near[1] === 'limited' ? 2 : near[0] === 'exceed' && near[1] === 'not' ? 2 : 0;
  // "if the total cost of their foreign property exceeds C$100,000", "In no event shall the total liability of either party
  // exceed": the subject just before the verb, with no modal between.
  const bare = !k && (near[0] === 'exceeds' || near[0] === 'exceed');
  if (bare) k = 1;
  else if (!k) return null;
  else {
    if (near[k] === 'be') k++;
    if (!/^(?:shall|will|must|is|are|may|to|can)$/u.test(near[k] ?? '')) return null;
    k++;
  }
  const ENDS = /^(?:such|aggregate|maximum|total|their|its|his|her|either|any|each|all)$/u;
  const phrase = (from: number): string[] => {
    const out: string[] = [];
    for (const w of near.slice(from, from + 3)) {
      if (FUNCTION_WORDS.has(w) || /\d/u.test(w) || ENDS.test(w)) break;
      out.unshift(w);
    }
    return out;
  };
  // "the liability of Supplier", "the total cost of their foreign property": the head before "of", and what it is of where
  // that is named by its own words (not "of either party", "of any Person").
  const ofAt = near.slice(k, k + 5).indexOf('of');
  let of: string[] = [];
  let words: string[];
  let at: number;
  if (ofAt > 0) {
    const object = near.slice(k, k + ofAt);
    of = /^(?:either|any|each|all|the|a|an|such)$/u.test(object.at(-1)!) ? [] : phrase(k);
    words = phrase(k + ofAt + 1);
    at = k + ofAt + 1 + words.length;
  } else {
    words = phrase(k);
    at = k + words.length;
  }
  // Where the verb has no modal, the sentence says the subject is one: "if the cost … exceeds", "shall the liability … exceed".
  if (bare && !/^(?:the|if|shall|will|aggregate|total|maximum|their|its)$/u.test(near[at] ?? '')) return null;
  const head = words.at(-1);
  // A subject that is a noun of what is owed or spent: not a party ("Tenant shall not exceed …" caps nothing it names).
  if (!head || !/^(?:liability|liabilities|costs?|expenses?|fees?|payments?|amounts?|obligations?|indemnification|investment|investments|damages|losses|claims|compensation|borrowings?|indebtedness|contributions?|distributions?|charges?)$/u.test(head)) return null;
  const one = singularNoun(head, 4);
  return `${pascal([...of, ...words.slice(0, -1), one])}Limit`;
}

/** `the common stock, par value $0.01 per share`, `Common Stock, $0.001 par value`: the par value of the class of stock named before it. */
function parValueName(tokens: Token[], v: { start: number; end: number }): string | null {
  let i = firstAtOrAfter(tokens, v.start) - 1;
  const next = after(tokens, v.end, 6);
  // "$0.01 par value common stock", "par value $.01 per share, of Preferred Stock": the class after it.
  const later = next.slice(0, 6).findIndex((w) => w === 'stock' || w === 'shares');
  const named = (words: string[]) => `${pascal(words.slice(-2).map((w) => (w === 'shares' ? 'stock' : w)))}ParValue`;
  if (next[0] === 'par' && next[1] === 'value') {
    // the value before "par value": the stock is before the value.
  } else if (tokens[i]?.text.toLowerCase() === 'value' && tokens[i - 1]?.text.toLowerCase() === 'par') i -= 2;
  else return null;
  if (tokens[i]?.text === ',') i--;
  const words: string[] = [];
  for (; i >= 0 && words.length < 3 && /^\p{L}+$/u.test(tokens[i]!.text) && !FUNCTION_WORDS.has(tokens[i]!.text.toLowerCase()); i--) words.unshift(tokens[i]!.text.toLowerCase());
  if (words.length && /^(?:stock|shares)$/u.test(words.at(-1)!)) return named(words);
  if (later > 0 && !/^(?:per|a|the|of)$/u.test(next[later - 1]!)) return named(next.slice(Math.max(0, later - 1), later + 1));
  // "Common Stock ($0.01 par value)", "shares of common stock of CapLease, Inc., $0.01 par value": the class a little further back.
  for (let k = i, steps = 0; k > 0 && steps < 8; k--, steps++) {
    const w = tokens[k]!.text.toLowerCase();
    if (w === '.' || w === ';') break;
    if (w === 'stock' && /^\p{L}+$/u.test(tokens[k - 1]!.text) && !FUNCTION_WORDS.has(tokens[k - 1]!.text.toLowerCase())) return named([tokens[k - 1]!.text.toLowerCase(), 'stock']);
  }
  return 'ParValue';
}

/** `twenty five (25) vacation days` → `VacationDays`: what a count counts, by its modifier and plural noun. */
function countName(next: string[]): string | null {
  const [modifier, noun] = next;
  if (!modifier || !noun || FUNCTION_WORDS.has(modifier) || !/^\p{L}{3,}$/u.test(modifier) || !/^\p{L}{3,}s$/u.test(noun)) return null;
  // "ten (10) business days", "thirty (30) calendar days": a duration, not a count.
  if (/^(?:business|calendar|consecutive|banking|working|full|additional|successive|trading)$/u.test(modifier)) return null;
  return pascal([modifier, noun]);
}

/** `at Work Level 5` → `WorkLevel`: the capitalised name of a rank just before its number. */
function gradeName(tokens: Token[], start: number): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  if (!/^(?:Level|Grade|Tier|Band|Step)$/u.test(tokens[i]?.text ?? '')) return null;
  const words: string[] = [];
  for (; i >= 0 && words.length < 3 && /^\p{Lu}\p{Ll}+$/u.test(tokens[i]!.text); i--) words.unshift(tokens[i]!.text);
  // A bare "Level 3" may be a floor or a section as well as a rank: only a rank with its own name is named.
  return words.length >= 2 ? pascal(words) : null;
}

/** An amount's or a rate's name: a par value, a limit, a share, what it is of, a definition, or its unit. */
export function amountLabel({ tokens, value: v, near, floor }: ValueContext): string | null {
  const kind = v.kind === 'money' ? 'money' : 'percent';
  return (
    (kind === 'money' ? parValueName(tokens, v) ?? limitName(near) ?? coverLimitName(tokens, v.start) : shareName(after(tokens, v.end, 8))) ??
    asAmountName(after(tokens, v.end, 8), kind) ??
    (kind === 'percent' ? changeName(near) ?? paidShareName(near) ?? borneShareName(near) : null) ??
    amountOf(amountName(near, kind), wordsBefore(tokens, v.start, floor, 24)) ??
    definitionName(tokens, v.start, kind) ??
    (kind === 'money' ? rateName(after(tokens, v.end, 3)) ?? transferName(tokens, v, floor) : null)
  );
}

/** Verbs that hand over a sum, to the noun of what the sum is. */
const TRANSFERS: Readonly<Record<string, string>> = {
  pay: 'Payment', lend: 'Loan', loan: 'Loan', contribute: 'Contribution', invest: 'Investment', deposit: 'Deposit', advance: 'Advance',
  reimburse: 'Reimbursement', refund: 'Refund', donate: 'Donation',
};

/**
 * `Ching-Sang Hong will lend the "INC", up to $70,000` → `LoanAmount`, `The Buyer shall pay the Seller $10,000 at Closing` →
 * `PaymentAmount`: a sum a verb of handing over governs, past the one it goes to, is the amount of what the verb does. Only
 * under a modal ("shall", "will", "agrees to"), and not a sum paid by the month or the year (a rate, no single amount).
 */
function transferName(tokens: Token[], v: { start: number; end: number }, floor: number): string | null {
  const next = after(tokens, v.end, 2);
  if (/^(?:per|a|an|each|every|annually|monthly|quarterly|yearly|weekly)$/u.test(next[0] ?? '')) return null;
  const words: string[] = [];
  for (let i = firstAtOrAfter(tokens, v.start) - 1; i >= 0 && words.length < 12; i--) {
    const t = tokens[i]!;
    if (t.end <= floor || /^[.;:()]$/u.test(t.text)) break;
    if (!/^[,"“”'‘’]$/u.test(t.text)) words.push(t.text);
  }
  let k = 0;
  // "up to", "the sum of", "a total of".
  if (words[k] === 'to' && words[k + 1] === 'up') k += 2;
  if (words[k] === 'of' && /^(?:sum|total)$/u.test(words[k + 1] ?? '')) k += /^(?:a|the)$/u.test(words[k + 2] ?? '') ? 3 : 2;
  // The one it goes to: a pronoun, or a name or defined term of a few capitalised words ("to Landlord", "the "INC"").
  if (/^(?:you|him|her|it|them|us|me)$/u.test(words[k] ?? '')) k++;
  else {
    let n = 0;
    while (n < 3 && /^\p{Lu}/u.test(words[k + n] ?? '')) n++;
    if (n && /^(?:the|to)$/u.test(words[k + n] ?? '')) n++;
    if (n && words[k + n] === 'to' && /^\p{Ll}/u.test(words[k + n + 1] ?? '') && TRANSFERS[words[k + n + 1]!]) n++;
    k += n;
  }
  const verb = words[k]?.toLowerCase();
  const noun = verb ? TRANSFERS[infinitive(verb)] ?? TRANSFERS[verb] : undefined;
  if (!noun || !/^(?:shall|will|must|to|hereby)$/u.test(words[k + 1]?.toLowerCase() ?? '')) return null;
  return `${noun}Amount`;
}

/** A count's name: a rank ("Work Level 5"), an area ("10,000 rentable square feet") or what it counts ("twenty five (25) vacation days"). */
export function countLabel({ tokens, value: v, near }: ValueContext): string | null {
  const next = after(tokens, v.end, 3);
  return gradeName(tokens, v.start) ?? areaName(next) ?? sharesName(near, next) ?? countName(next);
}

/**
 * `the sum of $15,000 as a security deposit` → `SecurityDeposit`, `4.5% of gross sales as percentage rent` → `PercentageRent`:
 * what the text says the amount is paid as.
 */
function asAmountName(next: string[], kind: 'money' | 'percent'): string | null {
  // A percentage is "of" a base first: "4.5% of gross sales as …".
  let k = kind === 'percent' && next[0] === 'of' ? next.indexOf('as') : 0;
  if (k < 0 || next[k] !== 'as') return null;
  k++;
  if (/^(?:a|an|the)$/u.test(next[k] ?? '')) k++;
  else if (kind === 'money') return null;
  const words: string[] = [];
  for (const w of next.slice(k, k + 3)) {
    if (FUNCTION_WORDS.has(w) || !/^\p{L}{3,}$/u.test(w)) break;
    words.push(w);
  }
  const head = words.at(-1);
  return head && (AMOUNT_HEADS.has(head) || AMOUNT_OF.has(head)) ? (AMOUNT_HEADS.has(head) ? pascal(words) : `${pascal(words)}Amount`) : null;
}

/** `Base Rent shall increase by three percent (3%) annually` → `BaseRentIncreasePercentage`: the change a subject undergoes. */
function changeName(near: string[]): string | null {
  const m = near[0] === 'by' ? /^(?:(increase)[sd]?|(decrease)[sd]?|(escalat)(?:e|es|ed)|(adjust)(?:s|ed)?)$/u.exec(near[1] ?? '') : null;
  if (!m) return null;
  const change = { increase: 'Increase', decrease: 'Decrease', escalat: 'Escalation', adjust: 'Adjustment' }[(m[1] ?? m[2] ?? m[3] ?? m[4])!]!;
  let k = 2;
  if (/^(?:shall|will|may|to|be)$/u.test(near[k] ?? '')) k++;
  if (near[k] === 'be') k++;
  const subject = phraseBefore(near, k, 3);
  const head = subject.at(-1);
  return head && (AMOUNT_HEADS.has(head) || AMOUNT_OF.has(head) || RATE_HEADS.has(head)) ? `${pascal(subject)}${change}Percentage` : null;
}

/** `The Company shall contribute 6% of the Employee's salary` → `ContributionPercentage`: the share a payment verb pays. */
function paidShareName(near: string[]): string | null {
  if (!/^(?:shall|will|must|agrees|to)$/u.test(near[1] ?? '')) return null;
  const noun = nounOfVerb(infinitive(near[0] ?? ''));
  // (A share one pays is no named amount: "Tenant shall pay 4.5% of the costs" says whose costs, not what the share is.)
  return noun && noun !== 'payment' && (AMOUNT_OF.has(noun) || AMOUNT_HEADS.has(noun)) ? `${pascal([noun])}Percentage` : null;
}

/**
 * `The Accounting Firm's engagement fees shall be borne fifty percent (50%) by Purchaser` → `EngagementFeePercentage`: the
 * share of a cost a party bears, named by the cost (the subject of "borne" or "shared").
 */
function borneShareName(near: string[]): string | null {
  if (!/^(?:borne|shared|paid)$/u.test(near[0] ?? '')) return null;
  let k = 1;
  while (/^(?:be|shall|will|initially|equally|jointly|solely)$/u.test(near[k] ?? '')) k++;
  const verb = near.slice(1, k);
  if (!verb.includes('be') || !verb.some((w) => w === 'shall' || w === 'will')) return null;
  // "The costs of the appraisal shall be borne": the head before what it is of.
  if (/^(?:the|an?)$/u.test(near[k + 1] ?? '') && near[k + 2] === 'of') k += 3;
  // The cost and one word of what kind ("engagement fees"): a word further back may be whose ("the Accounting Firm's").
  const subject = phraseBefore(near, k, 2);
  const head = subject.at(-1);
  if (!head || !(AMOUNT_HEADS.has(singularNoun(head, 3)) || AMOUNT_OF.has(singularNoun(head, 3)) || /^(?:costs?|expenses?|fees?|charges?|tax|taxes)$/u.test(head))) return null;
  return `${pascal([...subject.slice(0, -1), head === 'taxes' ? 'tax' : singularNoun(head, 3)])}Percentage`;
}

/** `an option to purchase 100,000 shares` → `OptionShares`, `a warrant to purchase 1,591,333 shares` → `WarrantShares`. */
function sharesName(near: string[], next: string[]): string | null {
  return near[0] === 'purchase' && near[1] === 'to' && /^(?:options?|warrants?|rights?)$/u.test(near[2] ?? '') && /^shares$/u.test(next[0] ?? '') ? `${pascal(singular([near[2]!]))}Shares` : null;
}

/** `16,159 rentable square feet` → `RentableSquareFeet`, `2,000 square feet` → `SquareFeet`: an area by its measure. */
function areaName(next: string[]): string | null {
  const k = /^(?:rentable|usable|gross|leasable)$/u.test(next[0] ?? '') ? 1 : 0;
  return next[k] === 'square' && /^f(?:ee|oo)t$/u.test(next[k + 1] ?? '') ? `${k ? pascal([next[0]!]) : ''}SquareFeet` : null;
}
