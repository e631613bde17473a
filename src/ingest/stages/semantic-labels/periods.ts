/**
 * Periods named by what they are for: the word that governs them ("cure within" → `CurePeriod`), the verb of their
 * clause ("shall reimburse … within thirty days" → `ReimbursementDeadline`) or the document that lasts them (`LeaseTerm`).
 */
import type { Token } from '../properties/tokens.js';
import { DOING_VERBS, LIGHT_VERBS, infinitive, nounOfVerb } from '../properties/nominal.js';
import { isRoleNoun } from '../properties/label-kind.js';
import { DOCUMENTS, FUNCTION_WORDS, after, before, firstAtOrAfter, pascal, phraseBefore, singular, type ValueContext } from './words.js';

/** What a period is for: the word before (or, for notice, after) it, to its label. */
// What one may do within it is a period (`CurePeriod`: "ten days to cure"); what one must have done by its end, a deadline
// (`ReimbursementDeadline`: "shall reimburse … within thirty days"). A verb is named by its noun.
const PERIOD_EVENTS: [RegExp, string][] = [
  [/^cur(?:e|ed|es|ing)$/u, 'CurePeriod'],
  [/^revo(?:ke|kes|ked|king|cation)$/u, 'RevocationPeriod'],
  [/^consider(?:ation)?$/u, 'ConsiderationPeriod'],
  [/^review(?:s|ed|ing)?$/u, 'ReviewPeriod'],
  [/^(?:object|objects|objected|objection)$/u, 'ObjectionPeriod'],
  [/^surviv/u, 'SurvivalPeriod'],
  // "agrees not to compete with the Company for a period of two (2) years".
  [/^compet(?:e|es|ing)$/u, 'NonCompetitionPeriod'],
  [/^solicit(?:s|ing)?$/u, 'NonSolicitationPeriod'],
  [/^(?:pay|pays|paid|payment|payable|remit)$/u, 'PaymentDeadline'],
  [/^(?:reimburs(?:e|es|ed|ing|ement))$/u, 'ReimbursementDeadline'],
  [/^(?:repay|repays|repaid|repayment)$/u, 'RepaymentDeadline'],
  [/^(?:refund|refunds|refunded)$/u, 'RefundDeadline'],
  [/^(?:respond|responds|responded|response)$/u, 'ResponseDeadline'],
  [/^(?:dismiss|dismissed|dismissal)$/u, 'DismissalDeadline'],
  [/^(?:discharge|discharged|bonded)$/u, 'DischargeDeadline'],
  [/^(?:notify|notifies|notified|notification)$/u, 'NotificationPeriod'],
  [/^notice$/u, 'NoticePeriod'],
];

const NOTICE = new Set(['NoticePeriod', 'NotificationPeriod']);

/** Words that say how long or which a period is, not what it is for ("an additional period of", "the same period of"). */
const GENERIC_PERIODS = /^(?:additional|further|reasonable|longer|shorter|like|same|similar|certain|initial|consecutive|subsequent|whole|entire|minimum|maximum|limited|extended|new|second|first|third|following|applicable|specified|stated|continuous|total|aggregate|average|weighted|weightedaverage|remaining|one|two|three)$/u;

/** Verbs that move a time by a period ("shall be delayed by one (1) day"), to the noun of that period. */
const MOVED_BY: Readonly<Record<string, string>> = { delayed: 'Delay', extended: 'Extension', postponed: 'Postponement', deferred: 'Deferral' };

function periodName(near: string[], next: string[]): string | null {
  // "If the restoration time is estimated to exceed 6 months": the bound a clause sets on how long its subject takes.
  if (near[0] === 'exceed') {
    let k = 1;
    while (k < near.length && /^(?:to|not|estimated|expected|likely|reasonably|anticipated|shall|will|may|is|are|be|does|do)$/u.test(near[k]!)) k++;
    const words: string[] = [];
    for (const w of near.slice(k, k + 3)) {
      if (FUNCTION_WORDS.has(w) || !/^\p{L}{3,}$/u.test(w)) break;
      words.unshift(w);
    }
    if (k > 1 && words.length >= 2 && /^(?:time|period|term|duration|delay)$/u.test(words.at(-1)!)) return `${pascal(words)}Limit`;
  }
  // "a grace period of fifteen (15) days", "a due diligence period of 45 days": the period the clause names before it.
  if (near[0] === 'of' && near[1] === 'period') {
    const words = phraseBefore(near, 2, 3);
    if (words.length && /^(?:a|an|the|such|any|this|its)$/u.test(near[2 + words.length] ?? '') && !words.some((w) => GENERIC_PERIODS.test(w))) return `${pascal(words)}Period`;
  }
  // "severance pay equal to six (6) months of base salary": a time that measures an amount is no period of its own.
  if (near[0] === 'to' && near[1] === 'equal') return null;
  // "The dates shall be delayed by one (1) day for each day …": how far a time is moved.
  if (near[0] === 'by' && MOVED_BY[near[1] ?? '']) return `${MOVED_BY[near[1]!]}Period`;
  // "an initial term of approximately twelve (12) years", "for a fixed term of ten (10) years": how long the term is.
  const of = near[0] === 'of' ? 1 : near[0] === 'approximately' && near[1] === 'of' ? 2 : 0;
  if (of && near[of] === 'term' && /^(?:a|an|the|its)$/u.test(near[of + 1] ?? '')) return 'TermLength';
  if (of && near[of] === 'term' && /^(?:a|an|the|its)$/u.test(near[of + 2] ?? '') && /^(?:initial|fixed|original|extended|renewal|primary|minimum|maximum)$/u.test(near[of + 1] ?? '')) return `${pascal([near[of + 1]!])}TermLength`;
  // "a one-month Interest Period", "the seven (7) day revocation period": the period the duration measures, by its own name.
  const period = next.slice(0, 3).indexOf('period');
  if (period > 0 && next.slice(0, period).every((w) => /^\p{L}{3,}$/u.test(w) && !FUNCTION_WORDS.has(w) && !/^(?:day|days|week|weeks|month|months|year|years|calendar|business|consecutive)$/u.test(w))) {
    return `${pascal(next.slice(0, period))}Period`;
  }
  // "shall automatically renew for successive one (1) year terms": the terms a renewal or an extension runs for.
  if (/^terms?$/u.test(next[0] ?? '')) {
    const verb = near.slice(0, 6).find((w) => /^(?:renew|extend)/u.test(w));
    if (verb) return /^renew/u.test(verb) ? 'RenewalTerm' : 'ExtensionTerm';
  }
  // "the Base Rent payable for the 12-month period", "payable during the last six months of the term": a period something
  // spans is no deadline of what happens in it.
  if (next[0] === 'period' && near[0] === 'the' && /^(?:for|during|over|throughout)$/u.test(near[1] ?? '')) return null;
  if (near.slice(0, 3).some((w) => w === 'during' || w === 'throughout')) return null;
  // "such failure continues for ten (10) days after written notice": how long a default may go on after notice is its cure period.
  const goesOn = near[0] === 'for' && /^continu(?:e|es|ed|ing)$/u.test(near[1] === 'shall' || near[1] === 'to' ? near[2] ?? '' : near[1] ?? '');
  if (goesOn && near.slice(1, 6).some((w) => /^(?:failure|breach|default|violation|event)$/u.test(w)) && next.slice(0, 8).some((w) => NOTICE_FORMS.test(w))) return 'CurePeriod';
  // "shall be extended for an additional period of five (5) years": what is extended.
  const extended = near[0] === 'for' ? extensionName(near, 'Period') : near[0] === 'of' && near[1] === 'period' && near[3] === 'for' ? extensionName(near.slice(3), 'Period') : null;
  if (extended) return extended;
  // "ten (10) days to cure", "forty-five (45) days within which to consider", "a seven (7) day revocation period".
  for (let i = 0; i < next.length; i++) {
    if (next[i] !== 'to' && !(next[i + 1] === 'period' && i === 0)) continue;
    const verb = next[i] === 'to' ? next[i + 1] : next[i];
    if (verb) for (const [re, name] of PERIOD_EVENTS) if (re.test(verb) && !NOTICE.has(name)) return name;
  }
  // "ten days' written notice", "two months of notice" are the notice; "within 30 days after notice from Landlord, provide …",
  // "within thirty days of such notice" run from one: the period is for what is done in it.
  const notice = next.slice(0, 3).some((w, k) => w === 'notice' && !next.slice(0, k).some((x, j) => /^(?:after|following|from|upon|receipt)$/u.test(x) || (x === 'of' && j < k - 1)));
  // "does not cure the failure within thirty (30) days after written notice": the purpose before it first; a verb
  // governing "within" may stand further back ("will be paid to the Employee's bank account within 30 days").
  const reach = near[0] === 'within' ? 12 : 6;
  const terminate = near.slice(0, Math.max(8, reach)).some((w) => /^terminat/u.test(w));
  // "shall pay rent for ten (10) years", "payable over a period of twelve (12) months": how long something goes on is its
  // period, not a deadline for it.
  const bound = near[0] === 'to' && near[1] === 'up' ? 2 : 0; // "for up to eighteen (18) months"
  const lasting = /^(?:for|over)$/u.test(near[bound] ?? '') || (near[0] === 'of' && near[1] === 'period' && /^(?:for|over)$/u.test(near[3] ?? ''));
  // "not to compete with the Company for a period of two (2) years": past "for a period of" to the verb.
  const over = near[0] === 'of' && near[1] === 'period' && near[3] === 'for' ? 4 : 0;
  for (const [k, w] of near.slice(0, reach + over).entries()) {
    // "severance pay of 12 (twelve) months' salary": pay as a noun says what is paid, not by when.
    if (w === 'pay' && near[k - 1] === 'of') continue;
    for (const [re, name] of PERIOD_EVENTS) if (re.test(w) && !NOTICE.has(name)) return lasting ? name.replace(/Deadline$/u, 'Period') : name;
  }
  const governed = governingVerbPeriod(near);
  if (governed) return governed;
  if (notice || near.slice(0, 6).some((w) => w === 'notice' || (w === 'notifying' && near.includes('by')))) return terminate ? 'TerminationNoticePeriod' : 'NoticePeriod';
  if (near.slice(0, 6).some((w) => PERIOD_EVENTS.at(-2)![0].test(w))) return 'NotificationPeriod';
  return null;
}

/** Adjectives an object's noun phrase often opens with ("provide initial responses", "deliver final plans"). */
const ADJECTIVES = new Set(['initial', 'final', 'annual', 'additional', 'further', 'prior', 'partial', 'full', 'complete', 'reasonable', 'timely', 'proper', 'appropriate', 'necessary', 'new', 'revised', 'updated', 'detailed', 'certain', 'formal', 'preliminary', 'quarterly', 'monthly', 'audited', 'financial']);

const NOTICE_FORMS = /^(?:notice|notifying|notify|notifies|notified|notification)$/u;

/** Words after which an object's noun phrase has ended. */
const OBJECT_ENDS = /^(?:following|after|before|within|during|upon|under|from|with|by|since|until|through)$/u;

const MODALS = /^(?:shall|will|must|may|to|can|should|would|might)$/u;

const PASSIVE = /^(?:be|been|is|are|was|were)$/u;

export const NOT_SUBJECTS = new Set([...FUNCTION_WORDS, 'it', 'he', 'she', 'they', 'we', 'you', 'which', 'who', 'that', 'same', 'thereof', 'hereunder', 'unless', 'if', 'when', 'whether', 'where', 'while', 'until', 'because', 'although', 'provided', 'then', 'so', 'once']);

/**
 * `Seller shall deliver the Goods within ten (10) days` → `DeliveryDeadline`, `notice shall be given within` → `NoticePeriod`:
 * the verb in the clause that governs a period ("within", "no later than"), in its noun form; a verb that carries no event
 * ("given", "made") passes to the noun it is said of. What one must do by then is a deadline, what one may do, a period.
 */
/** A verb form Quire knows: one with a noun, one of doing or a light one, or one of lasting ("continue for …"). */
export function isVerb(word: string): boolean {
  const base = infinitive(word);
  return nounOfVerb(base) !== null || DOING_VERBS.has(base) || LIGHT_VERBS.has(base) || /^(?:continue|remain|last|run|extend)$/u.test(base);
}

export function governingVerbPeriod(near: string[]): string | null {
  // "for a period of three (3) months": what goes on over it is a period, whatever the modal.
  const over = near[0] === 'of' && near[1] === 'period' && /^(?:a|the)$/u.test(near[2] ?? '') && near[3] === 'for' ? 4 : 0;
  const by = near[0] === 'within' ? 1 : near[0] === 'than' && near[1] === 'later' ? 3 : over;
  if (!by) return null;
  for (let i = by; i < Math.min(near.length, 13); i++) {
    // "terminate this Lease by notifying Tenant within 90 days": the period is the notice's.
    if (NOTICE_FORMS.test(near[i]!)) return null;
    // "shall commence on the Effective Date and continue for a period of three years": the period is the
    // nearer verb's, which has no modal of its own; the one before "and", with its own complement, governs
    // something else. (Verbs side by side share it: "to approve or reject the plans within 15 days".)
    if (/^(?:and|or)$/u.test(near[i]!) && i > by && isVerb(near[i - 1]!) && !isVerb(near[i + 1] ?? '')) return null;
    // ("provided that" is no verb; "will be provided" is.)
    if (NOT_SUBJECTS.has(near[i]!) && !(near[i] === 'provided' && PASSIVE.test(near[i + 1] ?? ''))) continue;
    let m = i + 1;
    if ((/ly$/u.test(near[m] ?? '') && near[m]!.length > 4) || near[m] === 'not') m++;
    const passive = PASSIVE.test(near[m] ?? '');
    if (passive) m++;
    if (passive && near[m] === 'not') m++;
    const modal = near[m];
    // "is not dismissed within": a passive needs no modal.
    if (!(passive && /^(?:is|are|was|were)$/u.test(near[m - 1]!)) && (!modal || !MODALS.test(modal) || (passive && modal === 'to'))) continue;
    const verb = infinitive(near[i]!);
    // What one may do ("may object", "the right to terminate", "entitled to elect"), a period; what one must, a deadline.
    const may = modal === 'may' || modal === 'can' || (modal === 'to' && /^(?:right|option|entitled|elect|able|free|permitted|opportunity)$/u.test(near[m + 1] ?? ''));
    const suffix = may || over ? 'Period' : 'Deadline';
    // "to conduct an audit within", "shall furnish the certificates within": an active verb of doing names the period by its object.
    if (!passive && (DOING_VERBS.has(verb) || LIGHT_VERBS.has(verb)) && verb !== 'be' && verb !== 'have') {
      let o = i - 1;
      while (o >= by && (FUNCTION_WORDS.has(near[o]!) || /^(?:all|such|written|same)$/u.test(near[o]!))) o--;
      // The object's head, its last word, past its modifiers ("obtain any such Required Consent following Closing" → consent,
      // "complete the Landlord Work" → work, "provide initial responses to" → response: a plural in -es named in the
      // singular; "the Goods" stay goods), not an adjective after it ("make such documents available" → documents).
      while (o - 1 >= by && /^\p{L}{3,}$/u.test(near[o - 1]!) && !FUNCTION_WORDS.has(near[o - 1]!) && !OBJECT_ENDS.test(near[o - 1]!) && !MODALS.test(near[o - 1]!) && !ADJECTIVES.has(near[o - 1]!) && !/(?:able|ible|ed|ing)$/u.test(near[o - 1]!)) o--;
      const object = o >= by ? near[o]! : undefined;
      if (object && /^\p{L}{4,}$/u.test(object) && !NOTICE_FORMS.test(object) && !/(?:ly|ed|ing)$/u.test(object)) return `${pascal(/(?<!ss)es$/u.test(object) ? singular([object]) : [object])}${suffix}`;
      if (DOING_VERBS.has(verb)) return null;
    }
    if (LIGHT_VERBS.has(verb) || (passive && DOING_VERBS.has(verb))) {
      // "notice of a claim shall be given": the head before "of".
      const of = near.slice(m + 1, m + 5).indexOf('of');
      const head = of >= 0 ? near.slice(m + 2 + of).find((w) => !/^(?:the|a|an|any|such|each|all|written)$/u.test(w)) : near[m + 1];
      const subject = passive ? head : undefined;
      if (!subject || NOT_SUBJECTS.has(subject) || !/^\p{L}{3,}$/u.test(subject)) return null;
      // "the drug screen must be completed": a compound subject is named whole (a modifier that is no verb form: "signed" is not).
      const modifier = of < 0 ? near[m + 2] : undefined;
      const compound = modifier && !NOT_SUBJECTS.has(modifier) && /^\p{L}{3,}$/u.test(modifier) && !/(?:ed|ing)$/u.test(modifier) ? [modifier, subject] : [subject];
      return `${pascal(compound)}${subject === 'notice' ? 'Period' : suffix}`;
    }
    const noun = nounOfVerb(verb);
    // "the parts to the Buyer within": a "to" after a word that is no verb is a preposition.
    if (!noun && modal === 'to' && !passive) continue;
    return noun ? `${pascal([noun])}${suffix}` : null;
  }
  return null;
}

/**
 * `This Agreement shall remain in full force and effect for two (2) years` → `AgreementTerm`, `the Lease shall continue for
 * a period of five years` → `LeaseTerm`: how long a document lasts is its term.
 */
function documentTerm(near: string[]): string | null {
  let k = near[0] === 'for' ? 1 : near[0] === 'of' && near[1] === 'period' && /^(?:a|the)$/u.test(near[2] ?? '') && near[3] === 'for' ? 4 : 0;
  if (!k) return null;
  if (near[k] === 'effect' && near[k + 1] === 'in') k += 2;
  else if (near[k] === 'effect' && near[k + 1] === 'and' && near[k + 2] === 'force' && near[k + 4] === 'in') k += 5;
  if (!/^(?:remain|remains|continue|continues|last|lasts)$/u.test(near[k] ?? '')) return null;
  k++;
  while (/^(?:shall|will|to|hereof|thereof)$/u.test(near[k] ?? '')) k++;
  const document = near[k];
  // (The words read before a value stop at twelve: the determiner may be past them.)
  return document && DOCUMENTS.has(document) && (near[k + 1] === undefined || /^(?:this|the|such)$/u.test(near[k + 1]!)) ? `${pascal([document])}Term` : null;
}

/**
 * `Landlord will, at its expense, replace all of the doors … within 90 days` → `ReplacementDeadline`, `shall fail to discharge
 * any lien placed upon the Premises … within 20 days` → `DischargeDeadline`, `All property not removed from the Premises … within
 * thirty (30) days` → `RemovalDeadline`: a period set by "within" or "no later than" further back than the words next to it
 * reach is governed by its clause's verb: the first verb of doing after a modal (past asides in commas and "fail to"), or a
 * denied participle; named by its noun, as what must be done by then (a deadline) or may be (a period).
 */
export function clauseVerbPeriod(tokens: Token[], start: number, floor: number, time?: { end: number }): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  const word = (k: number) => tokens[k]?.text.toLowerCase();
  // "within", "no later than", and what one may take "up to" ("may consider … by taking up to twenty-one days"); a time
  // of day only by "no later than".
  const by = word(i) === 'within' ? 1 : word(i) === 'than' && word(i - 1) === 'later' ? 3 : word(i) === 'to' && word(i - 1) === 'up' ? 2 : 0;
  if (!by || (time && by !== 3)) return null;
  const words: string[] = [];
  for (i -= by; i >= 0 && words.length < 30 && tokens[i]!.end > floor && !/^[.;:]$/u.test(tokens[i]!.text); i--) {
    if (/^\p{L}/u.test(tokens[i]!.text)) words.unshift(tokens[i]!.text.toLowerCase());
  }
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const modal = /^(?:shall|will|must|may)$/u.test(w);
    if (!modal && w !== 'not') continue;
    let j = k + 1;
    // "will, at its expense, replace": an aside of a few words and adverbs before the verb.
    while (j < words.length && j < k + 6 && (/ly$/u.test(words[j]!) || /^(?:at|its|his|her|their|own|sole|cost|and|expense|not|promptly|also|then|thereafter)$/u.test(words[j]!))) j++;
    if (words[j] === 'fail' && words[j + 1] === 'to') j += 2;
    if (modal && words[j] === 'be') j++;
    // "the Security Trustee shall, no later than 3:30 p.m., New York time, on the date of such payment, remit …": the verb
    // stands after the phrases the deadline opens.
    const verb = words[j] ?? (modal && time ? verbAfterAsides(tokens, time.end) : undefined);
    if (!verb || (!modal && !/ed$/u.test(verb))) continue;
    const noun = nounOfVerb(verb) ?? (PERIOD_EVENTS.find(([re]) => re.test(verb))?.[1].replace(/(?:Deadline|Period)$/u, '').toLowerCase() || null);
    if (!noun || LIGHT_VERBS.has(infinitive(verb)) || DOING_VERBS.has(infinitive(verb)) || NOTICE_FORMS.test(verb)) return null;
    // What may be done by then, or how long one may take ("up to"), is a period; what must be done by then, a deadline.
    return `${pascal([noun])}${w === 'may' || by === 2 ? 'Period' : 'Deadline'}`;
  }
  return null;
}

/** The first word after a comma, within a few phrases after `end`, that is a verb with a noun ("…, remit to the Lender"). */
function verbAfterAsides(tokens: Token[], end: number): string | undefined {
  const first = firstAtOrAfter(tokens, end);
  for (let k = first; k < tokens.length && k < first + 30 && !/^[.;:]$/u.test(tokens[k]!.text); k++) {
    const next = tokens[k + 1]?.text;
    if (tokens[k]!.text === ',' && next && /^\p{Ll}+$/u.test(next) && nounOfVerb(next)) return next;
  }
  return undefined;
}

/**
 * `Within seven (7) days of Kodak's request, I will provide documentation …` → `DocumentationDeadline`, `shall, within five
 * Business Days of demand, pay to …` → `PaymentDeadline`: a period opening its clause is governed by the verb after the
 * phrase it opens (past the comma or bracket that closes that phrase); a verb that carries no event passes to its object.
 */
/** The capitalised words of a term from `i` ("Letter of Credit"), joined by "of"; none when `i` starts none. */
function capitalisedTerm(raw: readonly string[], i: number): string[] {
  const out: string[] = [];
  for (let k = i; k < raw.length && out.length < 5; k++) {
    if (/^\p{Lu}\p{Ll}+$/u.test(raw[k]!)) out.push(raw[k]!);
    else if (raw[k] === 'of' && out.length && /^\p{Lu}\p{Ll}+$/u.test(raw[k + 1] ?? '')) out.push('of');
    else break;
  }
  return out;
}

function verbAfterPeriod(tokens: Token[], end: number): string | null {
  let i = firstAtOrAfter(tokens, end);
  const first = i;
  while (i < tokens.length && i - first < 14 && !/^[,)]$/u.test(tokens[i]!.text)) {
    if (/^[.;:(]$/u.test(tokens[i]!.text)) return null;
    i++;
  }
  if (!/^[,)]$/u.test(tokens[i]?.text ?? '')) return null;
  const raw: string[] = [];
  for (i++; i < tokens.length && raw.length < 10 && !/^[.;,:()]$/u.test(tokens[i]!.text); i++) raw.push(tokens[i]!.text);
  const words = raw.map((w) => w.toLowerCase());
  const m = words.slice(0, 5).findIndex((w) => /^(?:shall|will|must|may)$/u.test(w));
  let v = m >= 0 ? m + 1 : 0;
  if (/ly$/u.test(words[v] ?? '') && words[v]!.length > 4) v++;
  const form = words[v];
  if (!form || (m < 0 && v !== 0)) return null;
  const verb = infinitive(form);
  const suffix = words[m] === 'may' ? 'Period' : 'Deadline';
  if (LIGHT_VERBS.has(verb)) {
    // "shall furnish to Landlord a statement": the party it goes to is no object.
    let o = v + 1;
    if (/^(?:to|for|with)$/u.test(words[o] ?? '') && isRoleNoun(words[o + 1] ?? '')) o += 2;
    while (o < words.length && o < v + 4 && NOT_SUBJECTS.has(words[o]!)) o++;
    // "provide a substitute Letter of Credit": a defined term after a modifier is the object.
    const term = /^\p{Ll}/u.test(raw[o] ?? '') ? capitalisedTerm(raw, o + 1) : [];
    if (term.length) return `${pascal(term)}${suffix}`;
    const object = words[o];
    return object && !NOT_SUBJECTS.has(object) && /^\p{L}{4,}$/u.test(object) && !/(?:ly|ed|ing)$/u.test(object) ? `${pascal([object])}${suffix}` : null;
  }
  const noun = nounOfVerb(verb);
  return noun ? `${pascal([noun])}${suffix}` : null;
}

const EXTEND = /^(?:extend|extends|extended|extending)$/u;

/**
 * `Lender agrees to extend its Commitment as to the Revolving Line to November 29, 2013` → `CommitmentExtensionDate`, `The
 * Term shall be extended for an additional period of five (5) years` → `TermExtensionPeriod`, `the Maturity Date is hereby
 * extended to` → `ExtendedMaturityDate`: a date or period a thing is extended to or by is named by the thing (the verb's
 * object, or a passive's subject). `near` opens on the preposition before the value ("to", "for").
 */
export function extensionName(near: readonly string[], type: 'Date' | 'Period'): string | null {
  const k = near.slice(1, 9).findIndex((w) => EXTEND.test(w)) + 1;
  if (k < 1) return null;
  let words: string[];
  const object = near.slice(1, k).reverse();
  if (near[k] !== 'extended' && object.length) {
    // Active: the object after the verb, past its determiner, up to a preposition ("its Commitment as to …", "the Term of the Lease").
    let i = 0;
    while (/^(?:its|the|this|such|their|his|her|our|each)$/u.test(object[i] ?? '')) i++;
    words = [];
    for (; i < object.length && words.length < 2 && /^\p{L}{3,}$/u.test(object[i]!) && !FUNCTION_WORDS.has(object[i]!) && !NOT_SUBJECTS.has(object[i]!); i++) words.push(object[i]!);
    // What comes between the object and the preposition is at most a short "as to …" or "of …" phrase.
    if (!words.length || (i < object.length && !/^(?:as|of|under|hereunder|thereunder)$/u.test(object[i]!))) return null;
  } else if (near[k] === 'extended' && k === 1) {
    // Passive: the subject before "is / shall be (hereby) extended".
    let j = k + 1;
    while (/^(?:is|are|be|been|being|shall|will|hereby|automatically|further|was)$/u.test(near[j] ?? '')) j++;
    if (j === k + 1) return null;
    // "The Term of the Lease shall be extended": the head before what it is of.
    if (near[j + 2] === 'of' && /^(?:the|this)$/u.test(near[j + 1] ?? '')) j += 3;
    words = phraseBefore(near, j, 2);
    // (The words read before a value stop at twelve: the determiner may be past them.)
    const determiner = near[j + words.length];
    if (!words.length || (determiner !== undefined && !/^(?:the|this|such|its|each)$/u.test(determiner))) return null;
  } else return null;
  if (words.some((w) => NOT_SUBJECTS.has(w))) return null;
  return words.at(-1) === 'date' && type === 'Date' ? `Extended${pascal(words)}` : `${pascal(words)}Extension${type}`;
}

/**
 * The words before a period as the rules read them: "within a period of", "within a maximum period of" as "within"; "for an
 * additional period of" as "for a period of" (how long or which a period is says nothing of what it is for); and a cap set
 * on a "within" ("within a reasonable time following termination, not to exceed sixty (60) days", "within a period not to
 * exceed 180 days") as that "within".
 */
function plainPeriodWords(near: string[], tokens: Token[], start: number, floor: number): string[] {
  if (near[0] === 'of' && near[1] === 'period') {
    let k = 2;
    while (GENERIC_PERIODS.test(near[k] ?? '')) k++;
    if (!/^(?:a|an|the)$/u.test(near[k] ?? '')) return near;
    if (near[k + 1] === 'within') return near.slice(k + 1);
    if (k > 2 && /^(?:for|over)$/u.test(near[k + 1] ?? '')) return ['of', 'period', 'a', ...near.slice(k + 1)];
    return near;
  }
  if (near[0] !== 'exceed' || near[1] !== 'to' || near[2] !== 'not') return near;
  // "within a period not to exceed": the cap is the within's.
  if (/^(?:period|time)$/u.test(near[3] ?? '') && /^(?:a|the)$/u.test(near[4] ?? '') && near[5] === 'within') return near.slice(5);
  if (near.length !== 3) return near;
  // "within a reasonable time following …, not to exceed": past the comma to a "within" a few words back.
  const comma = firstAtOrAfter(tokens, start) - 4;
  if (tokens[comma]?.text !== ',') return near;
  const back = before(tokens, tokens[comma]!.start, floor, 12);
  const within = back.indexOf('within');
  return within > 0 && back.slice(0, within).some((w) => w === 'time' || w === 'period') ? back.slice(within) : near;
}

/** A period's name: the document it lasts, what it is for, or the verb of its clause. */
export function durationLabel({ tokens, value: v, near: words, floor }: ValueContext): string | null {
  const near = plainPeriodWords(words, tokens, v.start, floor);
  return (
    documentTerm(near) ??
    periodName(near, after(tokens, v.end, 12)) ??
    (near.length === 1 && near[0] === 'within' ? verbAfterPeriod(tokens, v.end) : null) ??
    clauseVerbPeriod(tokens, v.start, floor)
  );
}
