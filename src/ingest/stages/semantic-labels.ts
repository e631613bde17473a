/**
 * Semantic labels: values in running text named by the role their context gives them, with no
 * property defined, so that DGML says what each is (`<docset:TenantName>`, `<docset:TerminationDate>`,
 * `<docset:CurePeriod>`), as Docugami's does. The name comes from the text only where it says:
 * - a party's role (`(the "Company")`, `, as Administrative Agent`, `Tenant:`, `its general partner`) → `CompanyName`;
 * - the event a date belongs to (`shall terminate on`, `commencing on`, `matures on`, `dated as of`) → `TerminationDate`;
 * - what a period is for (`cure within`, `revoke within`, `days' notice`, `pay within`) → `CurePeriod`, `PaymentDeadline`;
 * - the noun an amount or rate is of (`a base salary of`, `an interest rate of`) → `BaseSalary`.
 * Nothing is named where the context does not say: a wrong name misleads every chunk that carries it.
 * Deterministic, so one role gets one name in every document of a docset.
 */
import type { Leaf, StructureNode } from '../../document/structure.js';
import { continuation } from './properties/prose.js';
import { valueSpans } from './properties/prose-spans.js';
import { tokenize, type Token } from './properties/tokens.js';
import { DOING_VERBS, LIGHT_VERBS, infinitive, nounOfVerb } from './properties/nominal.js';
import { isRoleNoun } from './properties/label-kind.js';

/** Verbs and nouns of the events dates belong to, to the noun a label names them by. */
const DATE_EVENTS: [RegExp, string][] = [
  [/^terminat/u, 'Termination'],
  [/^expir/u, 'Expiration'],
  [/^commenc/u, 'Commencement'],
  [/^matur/u, 'Maturity'],
  [/^amend/u, 'Amendment'],
  [/^effective$/u, 'Effective'],
  [/^execut(?:e|es|ed|ing|ion)$/u, 'Execution'],
  [/^clos(?:e|es|ed|ing)$/u, 'Closing'],
  [/^renew/u, 'Renewal'],
  [/^vest/u, 'Vesting'],
  [/^resign/u, 'Resignation'],
  [/^retire/u, 'Retirement'],
  [/^appoint/u, 'Appointment'],
  [/^grant/u, 'Grant'],
  [/^deliver/u, 'Delivery'],
  [/^settle/u, 'Settlement'],
  [/^(?:begin|beginning|start|starting)$/u, 'Start'],
  // "records" is mostly the noun ("permanent analog records by December 31, 2024"): only "record", "recorded", "recording" are the event.
  [/^record(?:ed|ing)?$/u, 'Recording'],
  [/^enact(?:s|ed|ing|ment)?$/u, 'Enactment'],
];
/** "dated", "entered into as of", "made as of", "accepted and agreed on": the date of the document that says it. */
const DOCUMENT_DATED = /^(?:dated|entered|made|executed|agreed)$/u;
/** Securities that fall "due" on their maturity: "Senior Notes due June 1, 2021". */
const SECURITIES = /^(?:notes?|bonds?|debentures?|loans?|debt|obligations?)$/u;
/** Documents a date may be "of": "this Lease, dated …" → `LeaseDate`. */
const DOCUMENTS = new Set(['agreement', 'lease', 'sublease', 'amendment', 'indenture', 'note', 'guaranty', 'guarantee', 'plan', 'contract', 'letter', 'supplement', 'assignment', 'release', 'policy']);

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

/** Nouns an amount or rate is "of" that name it, as the words before `of`: "base salary", "purchase price". */
/** Nouns that name an amount themselves ("base salary", "purchase price"). */
const AMOUNT_HEADS = new Set(['salary', 'price', 'rent', 'fee', 'deposit', 'premium', 'bonus', 'amount', 'compensation', 'allowance', 'cap', 'limit', 'value', 'cost', 'charge', 'commission', 'penalty', 'retainer', 'wage', 'fine', 'royalty', 'abatement', 'expense', 'installment']);
/** Nouns of things an amount measures: named with "Amount" ("a payment of $450" → `PaymentAmount`). */
const AMOUNT_OF = new Set(['payment', 'loan', 'commitment', 'investment', 'distribution', 'contribution', 'award', 'grant', 'advance', 'credit', 'reimbursement', 'severance', 'settlement', 'dividend', 'deductible', 'note', 'notes', 'facility']);
/** Nouns that name a rate ("an interest rate of 5%"). */
const RATE_HEADS = new Set(['rate', 'percentage', 'interest', 'margin', 'spread', 'discount', 'increase', 'threshold', 'ratio', 'yield']);
const FUNCTION_WORDS = new Set(['no', 'each', 'every', 'a', 'an', 'the', 'of', 'to', 'in', 'for', 'and', 'or', 'its', 'his', 'her', 'their', 'any', 'such', 'this', 'that', 'total', 'sum', 'excess', 'up', 'at', 'least', 'not', 'more', 'than', 'less', 'by', 'with', 'on', 'from', 'as', 'per', 'upon', 'into', 'under', 'within']);

/** `["Widget", "Corp."]` → `WidgetCorp`: words joined in Pascal case, their punctuation left out. */
const pascal = (words: readonly string[]): string =>
  words.map((w) => w.replace(/[^\p{L}\p{N}]/gu, '')).map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('');

function lowerWords(tokens: readonly Token[]): string[] {
  return tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text)).map((t) => t.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''));
}

/** The clause's words just before a value, nearest first, up to the previous value or a sentence break. */
function before(tokens: Token[], start: number, floor: number, max = 8): string[] {
  const out: Token[] = [];
  for (let i = firstAtOrAfter(tokens, start) - 1; i >= 0 && out.length < max; i--) {
    const t = tokens[i]!;
    if (t.end > start) continue;
    if (t.end <= floor || t.text === '.' || t.text === ';' || t.text === ',') break;
    out.push(t);
  }
  return lowerWords(out);
}

/** As `before`, the words as written. */
function wordsBefore(tokens: Token[], start: number, floor: number, max: number): string[] {
  const out: string[] = [];
  for (let i = firstAtOrAfter(tokens, start) - 1; i >= 0 && out.length < max; i--) {
    const t = tokens[i]!;
    if (t.end <= floor || t.text === '.' || t.text === ';' || t.text === ',') break;
    if (/[\p{L}\p{N}]/u.test(t.text)) out.push(t.text.replace(/[^\p{L}\p{N}]/gu, ''));
  }
  return out;
}

/** The index of the first token starting at or after `at` (tokens are in text order). */
function firstAtOrAfter(tokens: readonly Token[], at: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid]!.start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function after(tokens: Token[], end: number, max = 4): string[] {
  const out: Token[] = [];
  for (let i = firstAtOrAfter(tokens, end); i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '.' || t.text === ';' || out.length >= max) break;
    out.push(t);
  }
  return lowerWords(out);
}

/** Head words a `Label:` before a value may end in, by the value's kind. */
const LABEL_HEADS: Record<string, RegExp> = {
  date: /^(?:date|day)$/u,
  duration: /^(?:period|term|deadline|notice)$/u,
  money: /^(?:amount|price|rent|fee|salary|deposit|premium|payment|value|cost)$/u,
  percent: /^(?:rate|percentage|percent|interest)$/u,
  party: /^(?:name|party|company|landlord|tenant|lender|borrower|agent|buyer|seller|purchaser|guarantor|employee|employer|trustee)$/u,
  time: /^time$/u,
  plan: /^(?:plan|program)$/u,
  address: /^address$/u,
};

/** `Commencement Date for the Initial Premises: October 1, 2018`: the label the line gives the value, up to its first "for"/"of". */
function labelBefore(tokens: Token[], start: number, kind: string): string | null {
  // A party's label (`Tenant:`) is one of its roles: named by partyName.
  if (kind === 'party') return null;
  const i = firstAtOrAfter(tokens, start);
  if (i < 2 || tokens[i - 1]!.text !== ':') return null;
  const words: string[] = [];
  for (let k = i - 2; k >= 0 && words.length < 8; k--) {
    const t = tokens[k]!.text;
    if (!/[\p{L}]/u.test(t) || t === ':') break;
    words.unshift(t.toLowerCase());
  }
  const cut = words.findIndex((w) => /^(?:for|of|in|under|to)$/u.test(w));
  // "Tenant's Address:": the possessive's owner names it.
  const label = (cut > 0 ? words.slice(0, cut) : words).filter((w) => !/^(?:the|a|an|[ivx]+)$/u.test(w)).map((w) => w.replace(/['’]s$/u, '')).slice(-4);
  // A bare "Address:" says whose it is no more than the value does.
  if (kind === 'address' && label.length < 2) return null;
  return label.length && LABEL_HEADS[kind]?.test(label.at(-1)!) ? pascal(label) : null;
}

/** `Credit Agreement dated as of …`: the document the text names just before "dated", as written. */
function documentDate(tokens: Token[], start: number): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  while (i >= 0 && /^(?:as|of|on)$/iu.test(tokens[i]!.text)) i--;
  if (i < 1 || !/^dated$/iu.test(tokens[i]!.text)) return null;
  let k = i - 1;
  while (k >= 0 && /^[,()"“”']$/u.test(tokens[k]!.text)) k--;
  const words: string[] = [];
  for (; k >= 0 && words.length < 4 && /^\p{Lu}/u.test(tokens[k]!.text); k--) words.unshift(tokens[k]!.text.toLowerCase());
  const document = words.at(-1);
  if (!document || !DOCUMENTS.has(document)) return null;
  // "the Liquefaction Tolling Agreement, dated …", "Lease Agreement dated …": the date of an agreement is its `AgreementDate`,
  // whatever kind of agreement the title says (a docset's documents name their kinds differently; the role is the same).
  return `${pascal([document])}Date`;
}

/** `on or about February 24, 2014, Oakridge and Expedia entered into a Loan Agreement`: the date of the document entered into after it. */
function enteredDate(tokens: Token[], end: number): string | null {
  const next = after(tokens, end, 14);
  const at = next.findIndex((w, i) => (w === 'entered' && next[i + 1] === 'into') || w === 'executed' || w === 'signed');
  if (at < 0 || at > 8) return null;
  const document = next.slice(at + 1, at + 6).find((x) => DOCUMENTS.has(x));
  return document ? `${pascal([document])}Date` : null;
}

/**
 * `This Agreement ("Agreement") is effective by and between Jane Roe ("Employee") and Acme, Inc. ("Employer") as of
 * September 9, 2013`: a bare "as of" after the parties dates what the sentence's document is (effective, entered into).
 */
function preambleDate(tokens: Token[], start: number, near: string[]): string | null {
  const at = firstAtOrAfter(tokens, start);
  // Right after the last party or its defined term: `… ("Employer") as of`.
  if (near[0] !== 'of' || near[1] !== 'as' || (near.length > 2 && !/^[),]$/u.test(tokens[at - 3]?.text ?? ''))) return null;
  const words: string[] = [];
  for (let i = at - 1; i >= 0 && words.length < 60; i--) {
    const t = tokens[i]!.text;
    if (t === '.' || t === ';') break;
    if (/[\p{L}]/u.test(t)) words.unshift(t.toLowerCase());
  }
  // The sentence opens on the document ("This Agreement", "THIS LEASE") and says what it is before its parties.
  if (!/^(?:this|the)$/u.test(words[0] ?? '')) return null;
  const doc = words.slice(1, 6).findIndex((w) => DOCUMENTS.has(w));
  const between = words.indexOf('between');
  if (doc < 0 || between < 0) return null;
  const verb = words.slice(doc + 2, between).find((w) => w === 'effective' || DOCUMENT_DATED.test(w));
  if (!verb) return null;
  return verb === 'effective' ? 'EffectiveDate' : `${pascal([words[doc + 1]!])}Date`;
}

/**
 * `As of May 31, 2014, Employee hereby resigns from …`, `On June 1, 2026, the Lease terminated`: a date opening its sentence
 * is the date of the event its verb says, a finite verb (not "termination") a few words on.
 */
function openingDate(near: string[], next: string[]): string | null {
  if (!near.length || near.length > 3 || !near.every((w) => /^(?:as|of|on|effective)$/u.test(w))) return null;
  for (const [k, w] of next.slice(0, 6).entries()) {
    const finite = /(?:s|ed)$/u.test(w) || /^(?:hereby|shall|will)$/u.test(next[k - 1] ?? '');
    if (!finite || k === 0) continue;
    for (const [re, noun] of DATE_EVENTS) {
      if (!re.test(w) || noun === 'Effective') continue;
      // "On July 17, 2023, the Circuit Court granted Apple's motion": a grant's date is an award's or a licence's.
      if (noun === 'Grant' && !next.slice(k + 1, k + 14).some((x) => GRANTED.test(x))) return null;
      return `${noun}Date`;
    }
  }
  return null;
}

/** What a grant date is the date of: an equity award, an option, a licence or a right. */
const GRANTED = /^(?:awards?|options?|units?|shares?|stock|rsus?|psus?|sars?|licen[cs]es?|rights?|warrants?|equity)$/iu;

/** `for the reporting period ended March 31, 2012`, `the fiscal year ending December 31`: the end date of the period named before. */
function periodEndDate(near: string[]): string | null {
  // The periods a company reports on: "for the reporting period ended", "the fiscal year ended", "the three months ended".
  return /^(?:ended|ending)$/u.test(near[0] ?? '') && /^(?:period|year|quarter|months|weeks)$/u.test(near[1] ?? '') ? 'ReportingPeriodEndDate' : null;
}

/**
 * `in the event that a Change in Control occurs prior to January 1, 2015` → `ChangeInControlDate`, `if the commencement
 * date of the lease occurs on or before May 1, 2015` → `CommencementDate`: the date an event "occurs" on or by is that
 * event's, named by the subject of "occurs": a capitalised term whole, otherwise its head before an "of".
 */
function occurrenceDate(words: readonly string[]): string | null {
  const near = words.map((w) => w.toLowerCase());
  let k = near[0] === 'on' || near[0] === 'before' ? 1 : (near[0] === 'to' && near[1] === 'prior') || (near[0] === 'than' && near[1] === 'later') ? 2 : 0;
  if (!k) return null;
  while (/^(?:or|on|no|not)$/u.test(near[k] ?? '')) k++;
  if (!/^(?:occurs?|occurred|happens?|happened)$/u.test(near[k] ?? '')) return null;
  k++;
  while (/^(?:shall|will|may|not|have|has|had|does|did|to)$/u.test(near[k] ?? '')) k++;
  const subject: string[] = [];
  for (; k < near.length && subject.length < 10; k++) {
    // "a Sale of the Company": a determiner after "of" is inside the subject.
    if (/^(?:a|an|the|that|this|such|any|if|when|unless|until|its|his|her|their)$/u.test(near[k]!) && near[k + 1] !== 'of') break;
    subject.unshift(words[k]!);
  }
  if (k >= near.length || !subject.length) return null;
  const of = subject.findIndex((w) => w.toLowerCase() === 'of');
  // "Change of Control Event" is one term; "the delivery date of the second tranche", a head and what it is of.
  const term = subject.every((w) => /^\p{Lu}/u.test(w) || /^(?:of|in|and|the)$/u.test(w));
  const head = (term ? subject : of > 0 ? subject.slice(0, of) : subject).filter((w) => w.toLowerCase() !== 'the');
  if (head.length > 5 || NOT_SUBJECTS.has(head[0]!.toLowerCase()) || head.some((w) => !/^\p{L}+$/u.test(w))) return null;
  return head.at(-1)!.toLowerCase() === 'date' ? pascal(head) : `${pascal(head)}Date`;
}

function dateName(near: string[], title?: string): string | null {
  // "has hereto set her hand this 13th day of May", "signed into law October 17, 1986".
  if (/^hands?$/u.test(near[1] ?? '') && /^(?:his|her|their|its|my|our)$/u.test(near[2] ?? '') && /^sets?$/u.test(near[3] ?? '')) return 'SignatureDate';
  if (near[0] === 'law' && near[1] === 'into' && /^signed$/u.test(near[2] ?? '')) return 'EnactmentDate';
  // "terminates his employment due to Retirement or Disability prior to …": a cause between the event and its date is passed over.
  const causeAt = near.slice(0, 7).findIndex((w, k) => w === 'to' && near[k + 1] === 'due');
  for (const [i, w] of near.slice(0, causeAt >= 0 ? causeAt + 6 : 7).entries()) {
    // "shall commence on the Effective Date and continue until …": an event's word in another date's term ("Effective
    // Date") is that date's, and a verb between it and this date ("continue") says this one is of something else.
    if (i >= 2 && near[i - 1] === 'date' && near.slice(0, i - 1).some((x) => /^(?:continue|continues|continuing|remain|remains|last|lasts|until|through)$/u.test(x))) return null;
    if (w === 'due' && near.slice(i + 1, i + 4).some((x) => SECURITIES.test(x))) return 'MaturityDate';
    // "terminates his employment due to Retirement or Disability prior to …": a cause is not the event the date is of.
    const cause = near.slice(i + 1, i + 5).findIndex((x, k, a) => x === 'to' && (a[k + 1] === 'due' || (a[k + 1] === 'owing')));
    for (const [re, noun] of DATE_EVENTS) {
      if (!re.test(w) || cause >= 0) continue;
      // "my commission expires": the noun the event is of.
      const of = near[i + 1];
      const prefix = of && /^(?:commission|lease|term|option|agreement|employment|offer|warrant)$/u.test(of) ? pascal([of]) : '';
      // The subject before its modal: "Tenant's obligation to pay Rent shall commence on" → `RentCommencementDate`;
      // "the Executive's employment under this Agreement shall begin on" → `EmploymentStartDate` (an employment starts).
      const subject = near.slice(i + 1, i + 7);
      const modal = /^(?:shall|will|may|would|to|is|be)$/u.test(of ?? '');
      // "this Sublease shall become effective on" → `SubleaseEffectiveDate`: a document other than the agreement itself says whose.
      if (noun === 'Effective') {
        let k = i + 1;
        while (k < near.length && k < i + 5 && /^(?:shall|will|be|become|becomes|is|was|been|has|have|hereby|and|this|the|such)$/u.test(near[k]!)) k++;
        const subject = near[k];
        if (subject && subject !== 'agreement' && DOCUMENTS.has(subject) && k > i + 1) return `${pascal([subject])}EffectiveDate`;
      }
      if (noun === 'Commencement' || noun === 'Start') {
        if (modal && subject.slice(0, 3).includes('rent')) return 'RentCommencementDate';
        if (subject.includes('employment') && !subject.includes('termination')) return 'EmploymentStartDate';
      }
      return `${prefix}${noun}Date`;
    }
    // "this signed and dated Agreement before …": "dated" before its noun describes the document, it does not date it here.
    if (DOCUMENT_DATED.test(w) && !(i > 0 && DOCUMENTS.has(near[i - 1]!))) {
      // "INDENTURE / Dated as of June 1, 2010": a line that only says "dated" is the date of the document its heading names.
      const titled = i === near.length - 1 ? title?.toLowerCase().match(/[\p{L}]+/gu)?.at(-1) : undefined;
      // "the Indenture for the 2019 Senior Notes dated as of": past what the document is for, to the document.
      const forAt = near.slice(i + 1, i + 6).findIndex((x) => x === 'for' || x === 'governing');
      const document = near.slice(i + 1, i + 6).find((x) => DOCUMENTS.has(x)) ?? (forAt >= 0 ? near.slice(i + 2 + forAt, i + 5 + forAt).find((x) => DOCUMENTS.has(x)) : undefined) ?? (titled && DOCUMENTS.has(titled) ? titled : undefined);
      // "the Statement of Values dated …": a thing of something, and no document, is dated; it is no agreement.
      if (!document && near[i + 2] === 'of') return null;
      return `${pascal([document ?? 'agreement'])}Date`;
    }
  }
  return null;
}

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
  // "the Base Rent payable for the 12-month period", "payable during the last six months of the term": a period something
  // spans is no deadline of what happens in it.
  if (next[0] === 'period' && near[0] === 'the' && /^(?:for|during|over|throughout)$/u.test(near[1] ?? '')) return null;
  if (near.slice(0, 3).some((w) => w === 'during' || w === 'throughout')) return null;
  // "such failure continues for ten (10) days after written notice": how long a default may go on after notice is its cure period.
  const goesOn = near[0] === 'for' && /^continu(?:e|es|ed|ing)$/u.test(near[1] === 'shall' || near[1] === 'to' ? near[2] ?? '' : near[1] ?? '');
  if (goesOn && near.slice(1, 6).some((w) => /^(?:failure|breach|default|violation|event)$/u.test(w)) && next.slice(0, 8).some((w) => NOTICE_FORMS.test(w))) return 'CurePeriod';
  // "ten (10) days to cure", "forty-five (45) days within which to consider", "a seven (7) day revocation period".
  for (let i = 0; i < next.length; i++) {
    if (next[i] !== 'to' && !(next[i + 1] === 'period' && i === 0)) continue;
    const verb = next[i] === 'to' ? next[i + 1] : next[i];
    if (verb) for (const [re, name] of PERIOD_EVENTS) if (re.test(verb) && !NOTICE.has(name)) return name;
  }
  const notice = next.slice(0, 3).some((w) => /^notice$/u.test(w));
  // "does not cure the failure within thirty (30) days after written notice": the purpose before it first; a verb
  // governing "within" may stand further back ("will be paid to the Employee's bank account within 30 days").
  const reach = near[0] === 'within' ? 12 : 6;
  const terminate = near.slice(0, Math.max(8, reach)).some((w) => /^terminat/u.test(w));
  for (const [k, w] of near.slice(0, reach).entries()) {
    // "severance pay of 12 (twelve) months' salary": pay as a noun says what is paid, not by when.
    if (w === 'pay' && near[k - 1] === 'of') continue;
    for (const [re, name] of PERIOD_EVENTS) if (re.test(w) && !NOTICE.has(name)) return name;
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
const NOT_SUBJECTS = new Set([...FUNCTION_WORDS, 'it', 'he', 'she', 'they', 'we', 'you', 'which', 'who', 'that', 'same', 'thereof', 'hereunder', 'unless', 'if', 'when', 'whether', 'where', 'while', 'until', 'because', 'although', 'provided', 'then', 'so', 'once']);

/**
 * `Seller shall deliver the Goods within ten (10) days` → `DeliveryDeadline`, `notice shall be given within` → `NoticePeriod`:
 * the verb in the clause that governs a period ("within", "no later than"), in its noun form; a verb that carries no event
 * ("given", "made") passes to the noun it is said of. What one must do by then is a deadline, what one may do, a period.
 */
/** A verb form Quire knows: one with a noun, one of doing or a light one, or one of lasting ("continue for …"). */
function isVerb(word: string): boolean {
  const base = infinitive(word);
  return nounOfVerb(base) !== null || DOING_VERBS.has(base) || LIGHT_VERBS.has(base) || /^(?:continue|remain|last|run|extend)$/u.test(base);
}

function governingVerbPeriod(near: string[]): string | null {
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
    if (NOT_SUBJECTS.has(near[i]!)) continue;
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

/** `The Civil Rights Act of 1964` → `CivilRightsActYear`: the year of the law its capitalised name says. */
function actYear(tokens: Token[], start: number): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  if (tokens[i]?.text !== 'of' || tokens[i - 1]?.text !== 'Act') return null;
  // Capitalised words, and the connectors and commas between two of them ("Americans with Disabilities Act", "Women,
  // Peace, and Security Act").
  const words: string[] = [];
  const capital = (k: number) => /^\p{Lu}[\p{L}-]*$/u.test(tokens[k]?.text ?? '');
  for (i--; i >= 0 && words.length < 8; i--) {
    const t = tokens[i]!.text;
    if (capital(i)) words.unshift(t);
    else if (((t === ',' || /^(?:with|of|and|for|on|to|the)$/u.test(t)) && capital(i - 1)) || (t === 'and' && tokens[i - 1]?.text === ',')) words.unshift(t);
    else break;
  }
  // "Title VII of The Civil Rights Act": an article starts the name (it is no word of it).
  const article = words.findLastIndex((w) => /^(?:the|an?)$/iu.test(w));
  const name = words.slice(article + 1).filter((w) => w !== ',').flatMap((w) => w.split('-'));
  return name.length >= 2 ? `${pascal(name)}Year` : null;
}

/**
 * `Landlord shall complete the Landlord Work on or before May 1, 2027` → `WorkDeadline`, `the Buyer shall deliver the
 * notice no later than …` → `NoticeDeadline`: a date set by "on or before", "no later than" or "not later than" is the
 * deadline of what its clause's verb does, named as a period "within" would be; a date is a deadline either way.
 */
function deadlineDate(near: string[]): string | null {
  const cue = near[0] === 'before' && near[1] === 'or' && near[2] === 'on' ? 3 : near[0] === 'than' && near[1] === 'later' && /^(?:no|not)$/u.test(near[2] ?? '') ? 3 : 0;
  if (!cue) return null;
  return governingVerbPeriod(['within', ...near.slice(cue)])?.replace(/Period$/u, 'Deadline') ?? null;
}

/**
 * `Landlord will, at its expense, replace all of the doors … within 90 days` → `ReplacementDeadline`, `shall fail to discharge
 * any lien placed upon the Premises … within 20 days` → `DischargeDeadline`, `All property not removed from the Premises … within
 * thirty (30) days` → `RemovalDeadline`: a period set by "within" or "no later than" further back than the words next to it
 * reach is governed by its clause's verb: the first verb of doing after a modal (past asides in commas and "fail to"), or a
 * denied participle; named by its noun, as what must be done by then (a deadline) or may be (a period).
 */
function clauseVerbPeriod(tokens: Token[], start: number, floor: number, time?: { end: number }): string | null {
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
function verbAfterPeriod(tokens: Token[], end: number): string | null {
  let i = firstAtOrAfter(tokens, end);
  const first = i;
  while (i < tokens.length && i - first < 14 && !/^[,)]$/u.test(tokens[i]!.text)) {
    if (/^[.;:(]$/u.test(tokens[i]!.text)) return null;
    i++;
  }
  if (!/^[,)]$/u.test(tokens[i]?.text ?? '')) return null;
  const words: string[] = [];
  for (i++; i < tokens.length && words.length < 10 && !/^[.;,:()]$/u.test(tokens[i]!.text); i++) words.push(tokens[i]!.text.toLowerCase());
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
    const object = words.slice(o, o + 3).find((w) => !NOT_SUBJECTS.has(w));
    return object && /^\p{L}{4,}$/u.test(object) && !/(?:ly|ed|ing)$/u.test(object) ? `${pascal([object])}${suffix}` : null;
  }
  const noun = nounOfVerb(verb);
  return noun ? `${pascal([noun])}${suffix}` : null;
}

/** `9:00 a.m. on December 9, 2013 (the "Effective Time")`: the defined term right after a value names it. */
function termAfter(tokens: Token[], end: number, kind: string): string | null {
  // Right after the value, no comma between: "9:00 a.m. on December 9, 2013 (…)" names the time, not only the date.
  const words = termAfterWords(tokens, end, false) ?? referredTerm(tokens, end) ?? (kind === 'date' ? otherDateTerm(tokens, end) : null);
  if (!words) return null;
  // Only a term of the value's own kind: `("Effective Date")` names a date, `(this "Agreement")` does not; a date's event is
  // its kind too: `February 25, 2010 (such consummation is hereinafter referred to as the "Closing")` → `ClosingDate`.
  if (kind === 'date' && words.length === 1 && /^\p{Lu}/u.test(words[0]!) && DATE_EVENTS.some(([re]) => re.test(words[0]!.toLowerCase()))) return `${pascal(words)}Date`;
  const named = /\p{Lu}/u.test(words[0]!) && LABEL_HEADS[kind]?.test(words.at(-1)!.toLowerCase());
  // `2015 Omnibus Incentive Plan (the "Plan")`: a plan's short name alone says no more than `PlanName` does.
  if (kind === 'plan' && words.length < 2) return null;
  return named ? pascal(words) : null;
}

/** `… (such consummation is hereinafter referred to as the "Closing")`, `(hereinafter the "Lease")`: a bracket right after a value that refers to it by a term. */
function referredTerm(tokens: Token[], end: number): string[] | null {
  const i = firstAtOrAfter(tokens, end);
  if (tokens[i]?.text !== '(') return null;
  for (let k = i + 1; k < tokens.length && k < i + 12 && tokens[k]!.text !== ')'; k++) {
    const w = tokens[k]!.text.toLowerCase();
    const referred = (w === 'as' && tokens[k - 1]?.text.toLowerCase() === 'to' && tokens[k - 2]?.text.toLowerCase() === 'referred') || w === 'hereinafter';
    if (!referred) continue;
    const term = quotedTerm(tokens, k + 1);
    if (term) return term;
  }
  return null;
}

/** `May 31, 2014 (or such later date as the parties may agree in writing, the "Outside Date")`: the term of a date "or such other date". */
function otherDateTerm(tokens: Token[], end: number): string[] | null {
  let i = firstAtOrAfter(tokens, end);
  const lead = tokens.slice(i, i + 5).map((t) => t.text.toLowerCase());
  if (lead[0] !== '(' || lead[1] !== 'or' || lead[2] !== 'such' || !/^(?:later|other|earlier|extended)$/u.test(lead[3] ?? '') || lead[4] !== 'date') return null;
  for (i += 5; i < tokens.length && i < firstAtOrAfter(tokens, end) + 30 && tokens[i]!.text !== ')'; i++) {
    const term = tokens[i]!.text === ',' && tokens[i + 1]?.text.toLowerCase() === 'the' ? quotedTerm(tokens, i + 1) : null;
    if (term) return term;
  }
  return null;
}

/**
 * `within thirty (30) days of the receipt of such notice (the "Cure Period")`: a defined term closing the value's clause
 * (no comma or other bracket between) names the value when it is of its kind; `through December 31, 2016 ("Non-Solicitation
 * Period")`: the date a period runs through or until is named by the period.
 */
function termClosing(tokens: Token[], v: { start: number; end: number }, kind: string): string | null {
  if (kind !== 'duration' && kind !== 'date') return null;
  let i = firstAtOrAfter(tokens, v.end);
  const first = i;
  for (; i < tokens.length && i - first < (kind === 'duration' ? 14 : 10) && tokens[i]!.text !== '('; i++) if (/^[,;.:"“”)]$/u.test(tokens[i]!.text)) return null;
  const words = tokens[i]?.text === '(' ? termAfterWords(tokens, tokens[i]!.start) : null;
  if (!words || words.length > 5) return null;
  const head = words.at(-1)!.toLowerCase();
  // `(the "severance period")`: a term in lower case still names a duration by its own head.
  if (kind === 'duration' && LABEL_HEADS.duration!.test(head)) return pascal(words.flatMap((w) => w.split('-')));
  if (!/^\p{Lu}/u.test(words[0]!)) return null;
  // `the twelve (12) month period following the Termination Date (the "Forward Bonus")`: the period of what the term names.
  if (kind === 'duration' && i > first && /^period$/iu.test(tokens[first]?.text ?? '') && !LABEL_HEADS.date!.test(head)) return `${pascal(words.flatMap((w) => w.split('-')))}Period`;
  // The end of a period: only when the date closes it ("through", "until") right before the term. The date is the
  // period's end, named so with its type ("through December 31, 2015 (the "Non-Competition Period")" → `NonCompetitionPeriodEndDate`).
  const k = firstAtOrAfter(tokens, v.start) - 1;
  if (kind === 'date' && i === first && head === 'period' && /^(?:through|until|thru)$/iu.test(tokens[k]?.text ?? '')) return `${pascal(words.flatMap((w) => w.split('-')))}EndDate`;
  return null;
}

/**
 * `the Rent Commencement Date shall be October 1, 2019`, `The Cure Period is ten (10) days`, `the Base Rent will equal
 * $4,000`: a capitalised term of the value's kind that the sentence says the value is.
 */
function termBefore(tokens: Token[], start: number, kind: string): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  let linked = false;
  for (let steps = 0; i >= 0 && steps < 5; steps++, i--) {
    const w = tokens[i]!.text.toLowerCase();
    if (/^(?:is|be|means|mean|equals|equal|occur|occurs|was)$/u.test(w)) linked = true;
    // "is hereby accelerated to", "shall be extended to": a term moved to the value is the value.
    else if (!/^(?:on|shall|will|to|of|as|the|each|at|by|hereby|deemed|have|been|accelerated|extended|postponed|deferred|changed|moved|advanced|delayed)$/u.test(w)) break;
  }
  if (!linked || i < 0) return null;
  // `"Outside Date" means June 30, 2027`, `"Fiscal Year" shall mean each twelve (12) month period`: the term defined as the value.
  if (/^["”]$/u.test(tokens[i]!.text)) return definedTermBefore(tokens, i, kind);
  // "the Rent Commencement Date of 1 South is hereby accelerated to": past what the term is of, to the term.
  const of = tokens.slice(Math.max(0, i - 3), i + 1).findLastIndex((t) => t.text === 'of');
  const termEnd = Math.max(0, i - 3) + of - 1;
  // "The Term of this Lease shall be": the document a one-word term is of says whose it is (`LeaseTerm`).
  let document: string | undefined;
  if (of >= 0 && !LABEL_HEADS[kind]?.test(tokens[i]!.text.toLowerCase()) && termEnd >= 0 && LABEL_HEADS[kind]?.test(tokens[termEnd]!.text.toLowerCase())) {
    document = tokens.slice(termEnd + 2, i + 1).map((t) => t.text.toLowerCase()).find((w) => DOCUMENTS.has(w));
    i = termEnd;
  }
  const words: string[] = [];
  for (; i >= 0 && words.length < 5 && /^\p{Lu}[\p{Ll}]+$/u.test(tokens[i]!.text); i--) words.unshift(tokens[i]!.text);
  // A sentence's first word is no part of the term ("Rent is …" names nothing; "The Rent Commencement Date is …" does).
  if (words.length && (i < 0 || tokens[i]!.text === '.') && !/^(?:the|this|such)$/iu.test(tokens[i]?.text ?? 'x')) words.shift();
  // "the warranty period shall be", "The initial term of this Agreement shall be": a term in lower case after its determiner.
  if (!words.length) words.push(...lowerTermAt(tokens, i));
  const head = words.at(-1)?.toLowerCase();
  if (!head || !LABEL_HEADS[kind]?.test(head)) return null;
  if (words.length === 1) return document ? pascal([document, words[0]!]) : null;
  return pascal(words);
}

/** The words of a term in lower case ending at token `end` (at most three), right after "the", "this" or "such"; else none. */
function lowerTermAt(tokens: Token[], end: number): string[] {
  const words: string[] = [];
  let k = end;
  for (; k >= 0 && words.length < 3 && /^\p{Ll}+$/u.test(tokens[k]!.text) && !FUNCTION_WORDS.has(tokens[k]!.text); k--) words.unshift(tokens[k]!.text);
  return words.length && /^(?:the|this|such)$/iu.test(tokens[k]?.text ?? '') ? words : [];
}

/** A defined time span is named by its term when the term's head is a unit of time ("Fiscal Year", "Lease Quarter"). */
const DEFINED_DURATION_HEADS = /^(?:year|quarter|month)$/u;

/** The capitalised term in the quotes closing at token `close`, when its head says it is of `kind`. */
function definedTermBefore(tokens: Token[], close: number, kind: string): string | null {
  const words: string[] = [];
  let k = close - 1;
  for (; k >= 0 && words.length < 6 && !/^["“]$/u.test(tokens[k]!.text); k--) words.unshift(tokens[k]!.text);
  if (k < 0 || !words.length || words.length > 5 || !words.every((w) => /^\p{Lu}[\p{L}\p{N}-]*$/u.test(w))) return null;
  const head = words.at(-1)!.toLowerCase();
  const fits = LABEL_HEADS[kind]?.test(head) || (kind === 'duration' && DEFINED_DURATION_HEADS.test(head));
  return fits ? pascal(words.flatMap((w) => w.split('-'))) : null;
}

/**
 * Whose or what address: `Kevin Young ("Employee"), residing at …` → `EmployeeAddress` (the party named just before it),
 * `the premises located at …` → `PremisesAddress`, `… (the "Property")` → `PropertyAddress`.
 */
function addressName(tokens: Token[], v: { start: number; end: number }, near: string[], named: readonly { end: number; name: string }[]): string | null {
  // `…, Providence, Rhode Island 02903, as Administrative Agent (the "Agent")`: past the role the firm at the address takes.
  let end = v.end;
  const k = firstAtOrAfter(tokens, v.end);
  if (tokens[k]?.text === ',' && tokens[k + 1]?.text.toLowerCase() === 'as') {
    const open = tokens.slice(k + 2, k + 8).findIndex((t) => t.text === '(' || /^[,;.]$/u.test(t.text));
    if (open >= 0 && tokens[k + 2 + open]!.text === '(') end = tokens[k + 1 + open]!.end;
  }
  const term = termAfterWords(tokens, end);
  if (term && /^\p{Lu}/u.test(term[0]!) && term.length <= 3) return `${pascal(term)}Address`;
  const whose = whoseAddress(tokens, v.start) ?? noticeTo(tokens, v.start);
  if (whose) return whose;
  // "with a notice address of …", "its mailing address is …": the kind of address the text gives.
  if (/^(?:of|is|at)$/u.test(near[0] ?? '') && near[1] === 'address' && /^(?:notice|mailing|billing|business|registered|home|residence|email|delivery)$/u.test(near[2] ?? '')) return `${pascal([near[2]!])}Address`;
  const at = near.findIndex((w) => /^(?:located|residing|resides|address|offices?|business|situated)$/u.test(w));
  if (at < 0 || at > 8 || !/^(?:at|is|in|of)$/u.test(near[0] ?? '')) return null;
  const place = near.slice(at + 1, at + 3).find((w) => /^(?:premises|property|building|facility|site)$/u.test(w));
  if (place) return `${pascal([place])}Address`;
  // The party just before, in the same sentence, not further than a few words back.
  let party: { end: number; name: string } | undefined;
  for (let k = named.length - 1; k >= 0 && !party; k--) if (named[k]!.name.endsWith('Name') && named[k]!.end <= v.start) party = named[k];
  if (!party || v.start - party.end >= 80) return null;
  const between = tokens.slice(firstAtOrAfter(tokens, party.end), firstAtOrAfter(tokens, v.start));
  return between.some((t) => t.text === '.' || t.text === ';') ? null : party.name.replace(/Name$/u, 'Address');
}

/** `If to Landlord: …`, `If intended for Sublandlord, to: Alkermes, Inc. 852 Winter Street …` → `SublandlordAddress`: a notice's addressee. */
function noticeTo(tokens: Token[], start: number): string | null {
  const end = firstAtOrAfter(tokens, start);
  for (let k = Math.max(0, end - 20); k < end - 2; k++) {
    if (tokens[k]!.text.toLowerCase() !== 'if') continue;
    let j = k + 1;
    if (tokens[j]?.text.toLowerCase() === 'intended' || tokens[j]?.text.toLowerCase() === 'sent' || tokens[j]?.text.toLowerCase() === 'given') j++;
    if (!/^(?:to|for)$/iu.test(tokens[j]?.text ?? '')) return null;
    j++;
    if (/^the$/iu.test(tokens[j]?.text ?? '')) j++;
    const words: string[] = [];
    for (; j < end && words.length < 3 && /^\p{Lu}\p{Ll}+$/u.test(tokens[j]!.text); j++) words.push(tokens[j]!.text);
    if (!words.length || !/^[,:]$/u.test(tokens[j]?.text ?? '')) return null;
    // Nothing but the addressee's name and punctuation between: the address is the addressee's.
    return tokens.slice(j, end).some((t) => /^[.;]$/u.test(t.text)) ? null : `${pascal(words)}Address`;
  }
  return null;
}

/** `… (the "Bank"), whose address is …` → `BankAddress`: the defined term the relative clause is said of. */
function whoseAddress(tokens: Token[], start: number): string | null {
  let k = firstAtOrAfter(tokens, start) - 1;
  const want = ['is', 'address', 'whose'];
  for (const w of want) {
    if (tokens[k]?.text.toLowerCase() !== w) return null;
    k--;
  }
  while (k >= 0 && /^[,)]$/u.test(tokens[k]!.text)) k--;
  if (!/^["”]$/u.test(tokens[k]?.text ?? '')) return null;
  const words: string[] = [];
  for (k--; k >= 0 && words.length < 4 && /^\p{L}/u.test(tokens[k]!.text); k--) words.unshift(tokens[k]!.text);
  return words.length && /^["“]$/u.test(tokens[k]?.text ?? '') && /^\p{Lu}/u.test(words[0]!) ? `${pascal(words)}Address` : null;
}

/** The words of a defined term right after a value: `… (the "Premises")` → ["Premises"]; `afterComma`: `…, (the "Premises")` too. */
function termAfterWords(tokens: Token[], end: number, afterComma = true): string[] | null {
  let i = firstAtOrAfter(tokens, end);
  if (afterComma && tokens[i]?.text === ',') i++;
  return tokens[i]?.text === '(' ? quotedTerm(tokens, i + 1) : null;
}

/** The words of a quoted term at `i`, an article before it passed over (`the "Cure Period"` → ["Cure", "Period"]), or null. */
function quotedTerm(tokens: Token[], i: number): string[] | null {
  if (/^(?:the|this|each|a)$/iu.test(tokens[i]?.text ?? '')) i++;
  if (!/^["“]$/u.test(tokens[i]?.text ?? '')) return null;
  const words: string[] = [];
  for (i++; i < tokens.length && words.length < 6 && !/^["”]$/u.test(tokens[i]!.text); i++) {
    if (!/[\p{L}\p{N}]/u.test(tokens[i]!.text)) return null;
    words.push(tokens[i]!.text);
  }
  return words.length && /^["”]$/u.test(tokens[i]?.text ?? '') ? words : null;
}

/** "payments received after 12:00 noon", "no later than 5:00 p.m.": a time is a deadline or a cut-off. */
function timeName(near: string[]): string | null {
  if (near.slice(0, 6).some((w) => /^(?:effective|effect)$/u.test(w))) return 'EffectiveTime';
  return scheduledName(near, 'Time');
}

/** `A conference call to review earnings is scheduled for 4:30 p.m.` → `ConferenceCallTime`: what is scheduled for it, by its head. */
function scheduledName(near: string[], type: 'Date' | 'Time'): string | null {
  if (!/^(?:for|at|on)$/u.test(near[0] ?? '') || near[1] !== 'scheduled' || !/^(?:is|are|was|were|been|be)$/u.test(near[2] ?? '')) return null;
  let k = 3;
  while (/^(?:has|have|will|shall|currently|now|tentatively)$/u.test(near[k] ?? '')) k++;
  // "a conference call to review earnings": the noun before what it is for.
  const to = near.slice(k, k + 5).indexOf('to');
  if (to >= 0) k += to + 1 + (near[k + to + 1] === 'to' ? 1 : 0);
  const subject: string[] = [];
  for (; k < near.length && subject.length < 5 && (near[k] === 'of' || !FUNCTION_WORDS.has(near[k]!)); k++) subject.unshift(near[k]!);
  // "the annual meeting of members": the head before what it is of.
  const of = subject.indexOf('of');
  const head = of >= 0 ? subject.slice(0, of) : subject;
  if (!head.length || head.length > 3 || !/^(?:a|an|the|its|our|this)$/u.test(near[k] ?? '') || head.some((w) => !/^\p{L}{3,}$/u.test(w))) return null;
  return `${pascal(head)}${type}`;
}

/** "a base salary of $410,000", "an interest rate equal to 5%", "a payment of $450": the noun phrase the value is of. */
function amountName(near: string[], kind: 'money' | 'percent'): string | null {
  const heads = kind === 'money' ? AMOUNT_HEADS : RATE_HEADS;
  // "payments of more than $5,000,000", "a fee not to exceed $500", "a bonus of up to 50%": the comparison between the noun and its value is passed over.
  const comparison = near[0] === 'than' && /^(?:more|less|greater|fewer)$/u.test(near[1] ?? '') ? (near[2] === 'not' || near[2] === 'no' ? 3 : 2) : near[0] === 'exceed' && near[1] === 'to' && near[2] === 'not' ? 3 : (near[0] === 'least' && near[1] === 'at') || (near[0] === 'to' && near[1] === 'up') ? 2 : 0;
  if (comparison) near = near.slice(comparison);
  // "hereby increases its Commitment to $75,000,000": what a change brings to the value is an amount of it.
  const changed = near[0] === 'to' && near.slice(2, 5).some((w) => /^(?:increase[sd]?|decrease[sd]?|reduce[sd]?|raise[sd]?|adjust(?:s|ed)?)$/u.test(w));
  const link = near[0] === 'of' || changed ? 1 : near[0] === 'to' && near[1] === 'equal' ? 2 : near[0] === 'be' && near[1] === 'shall' ? 2 : near[0] && (heads.has(near[0]) || (comparison > 0 && heads.has(singularNoun(near[0], 1))) || AMOUNT_OF.has(near[0])) ? 0 : -1;
  if (link < 0) return null;
  let at = link;
  // "shall be equal to $2.70": the verb before "equal to".
  if (link === 2 && near[0] === 'to' && near[2] === 'be' && near[3] === 'shall') at = 4;
  // "a base salary in the amount of $302,000", "Employers Liability Insurance in an amount not less than": the noun before
  // "in the amount of", an amount of it.
  const inAmount = kind === 'money' && near[at] === 'amount' && /^(?:the|an)$/u.test(near[at + 1] ?? '') && near[at + 2] === 'in';
  if (inAmount) at += 3;
  // "the purchase price for the Assets shall be …": the subject's head, past what it is for.
  if (at >= 2 && near[at - 1] === 'shall') {
    const of = near.slice(at, at + 4).findIndex((w) => /^(?:for|of|under)$/u.test(w));
    if (of > 0) at += of + 1;
  }
  const words: string[] = [];
  for (const w of near.slice(at, at + 3)) {
    if (FUNCTION_WORDS.has(w) || /\d/u.test(w)) break;
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
  const at = lower.findIndex((w) => AMOUNT_SUBJECTS.has(w));
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
  if (!k) return null;
  if (near[k] === 'be') k++;
  if (!/^(?:shall|will|must|is|are|may|to|can)$/u.test(near[k] ?? '')) return null;
  const words: string[] = [];
  for (const w of near.slice(k + 1, k + 4)) {
    if (FUNCTION_WORDS.has(w) || /\d/u.test(w) || /^(?:such|aggregate)$/u.test(w)) break;
    words.unshift(w);
  }
  const head = words.at(-1);
  // A subject that is a noun of what is owed or spent: not a party ("Tenant shall not exceed …" caps nothing it names).
  if (!head || !/^(?:liability|liabilities|costs?|expenses?|fees?|payments?|amounts?|obligations?|indemnification|investment|investments|damages|losses|claims|compensation|borrowings?|indebtedness|contributions?|distributions?|charges?)$/u.test(head)) return null;
  const one = singularNoun(head, 4);
  return `${pascal([...words.slice(0, -1), one])}Limit`;
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

/** Cues of a party's role: a defined term, `as …`, `its …`, `Label:`, `means`, `I, …`, `appeared`. */
const PARTY_CUE = /\(\s*(?:the\s+|this\s+|each\s+|collectively\s+)?["“]|["“][^"”()]{1,40}["”]\s*\)|\((?:the\s+)?\p{Lu}\p{L}*\)|\b(?:as|AS)\s+(?:an?\s+|the\s+|AN?\s+|THE\s+)?["“]?\p{L}|,\s+(?:[Ss]ole\s+|SOLE\s+)?(?:[Mm]ember|MEMBER|[Mm]anager|MANAGER|[Pp]artner|PARTNER|[Tt]enant|TENANT|[Ll]andlord|LANDLORD|[Tt]rustee|TRUSTEE|[Gg]uarantor|GUARANTOR)\s*$|,\s+its\s+\p{L}|\p{L}:\s*\p{Lu}|\bmean(?:s)?\s+\p{Lu}|\bI,\s+\p{Lu}|\/s\/|^\s*\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*){1,3}\s+(?:Chief|Executive|Senior|Vice|President|Secretary|Treasurer|Chairman|Managing|General|Interim|Acting|Deputy|Assistant)\b|\bappeared\s+\p{Lu}|\bbecomes?\s+(?:a|an|the)\s+\p{L}|\bis\s+the\s+(?:sole\s+)?(?:general\s+partner|managing\s+member|manager|trustee|parent|sponsor)\b|\bacting\s|\(\p{Lu}\p{L}*\)|,\s+an?\s+(?:\p{Lu}[\p{L}.]*\s+){1,3}(?:limited\s+liability\s+|limited\s+|general\s+)?(?:corporation|company|partnership)\b|,\s+an?\s+(?:corporation|company)\s+(?:incorporated|organi[sz]ed|existing|formed|duly)\b|\bbetween\s+\p{Lu}|(?:^|[.;]\s+)(?:The|THE)\s+\p{Lu}\p{L}+,\s+\p{Lu}/u;
const MONTH_CUE = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/u;
const HYPHEN_CUE = /-(?:day|week|month|year|hour)/iu;
const TIME_CUE = /\d:\d|[ap]\.?m\b|noon/iu;
const PLAN_CUE = /\b(?:Plan|Program)\b/u;
/** "the Civil Rights Act of 1964": a law's year (the only year named on its own). */
const ACT_YEAR_CUE = /\bAct\s+of\s+(?:1[789]|20)\d\d\b/u;
/** A rank given by its number: "at Work Level 5", "Salary Grade 12", "Tier 2". */
const GRADE_CUE = /\b(?:Level|Grade|Tier|Band|Step)\s+\d/u;

/** A count in words and figure of a thing named by two words after it: "twenty five (25) vacation days". */
const COUNT_NOUN_CUE = /\(\d[\d,]*\)\s+\p{Ll}{3,}\s+\p{Ll}{3,}s\b/u;

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

/** Roles that say who signs, not what the party is: a firm "By:" is the party's name only where nothing better names it. */
const WEAK_ROLES = new Set(['by', 'name', 'signatory']);

/**
 * Last words of a "role" that is none: what an `as …` says of a law or a term ("as amended", "as defined in", "as of", "North"),
 * and defined terms of things, not parties (`(the "Closing")`, `(the "Grant Date")`, `(the "Landlord's Change Notice")`).
 */
const NOT_ROLES = new Set([
  'amended', 'defined', 'provided', 'directed', 'described', 'specified', 'supplemented', 'modified', 'restated', 'contemplated', 'permitted', 'required',
  'applicable', 'effective', 'into', 'of', 'north', 'south', 'east', 'west', 'floor', 'date', 'period', 'deadline', 'term', 'agreement', 'notice', 'change',
  'delay', 'act', 'regulations', 'code', 'contract', 'contracts', 'closing', 'formation', 'stock', 'premise', 'premises', 'control', 'certificate',
  'amendment', 'lease', 'law', 'section', 'article', 'plan', 'delivery', 'termination', 'commencement', 'expiration', 'maturity', 'execution',
  'renewal', 'settlement', 'vesting', 'resignation', 'retirement', 'consummation', 'merger', 'acquisition', 'transaction', 'transactions', 'offering',
  // Things a contract defines by a term: lists, programs, sums, instruments.
  'list', 'program', 'programs', 'property', 'building', 'project', 'value', 'amount', 'price', 'fee', 'rent', 'trigger', 'estimate', 'estimates',
  'report', 'policy', 'schedule', 'exhibit', 'terms', 'conditions', 'award', 'units', 'shares', 'notes', 'note', 'loan', 'loans', 'facility',
  'obligations', 'assets', 'securities', 'rules', 'requirements', 'standards',
]);

function partyName(roles: readonly string[][] | undefined): string | null {
  roles = roles?.filter((r) => !NOT_ROLES.has(r.at(-1)!) && !/^\d/u.test(r[0]!));
  if (!roles?.length) return null;
  const strong = roles.find((r) => !WEAK_ROLES.has(r.join(' ')));
  const role = strong ?? roles.find((r) => r[0] === 'signatory');
  // "in its capacity as Stockholder Representative": the capacity is the role.
  const words = role?.filter((w) => w !== 'capacity');
  // "as Administrative Agent and Collateral Agent": the first role listed (the role the party is known by; joined lists measured worse).
  if (!words?.length) return null;
  // "Print Name: James Carter": a label that says "name" already is one.
  const name = pascal(singular(words));
  return /Name$/u.test(name) ? name : `${name}Name`;
}

/** "as Joint Lead Arrangers": a role is named in the singular. */
/** A plural noun in the singular when longer than `longerThan` ("payments" → "payment"); "bonus", "address", "status" stay. */
function singularNoun(word: string, longerThan: number): string {
  return word.length > longerThan && /[^su]s$/u.test(word) ? word.slice(0, -1) : word;
}

function singular(words: readonly string[]): string[] {
  const last = words.at(-1);
  return last === undefined ? [] : [...words.slice(0, -1), singularNoun(last, 4)];
}

/** The label spans of one leaf: each value whose context names it. */
export function labelSpans(leaf: Leaf, previous?: string, next?: string, title?: string): { start: number; end: number; name: string }[] {
  const text = leaf.text;
  const spans = leaf.spans ?? [];
  const out: { start: number; end: number; name: string }[] = [];
  let floor = -1;
  let lastFloor = -1;
  // Most leaves name nothing: only the kinds the leaf can hold are looked for (parties only beside a role's cue).
  const types = new Set(spans.map((x) => (x.tag.kind === 'entity' ? x.tag.type : '')));
  const kinds: ('party' | 'date' | 'duration' | 'money' | 'percent' | 'time' | 'plan' | 'address' | 'count' | 'year')[] = [];
  if (PARTY_CUE.test(next === undefined ? text : `${text} ${next}`) || (previous !== undefined && /:\s*$|^\s*["“][\p{L} ]{2,30}["”]\s*$/u.test(previous))) kinds.push('party');
  if (types.has('Date') || MONTH_CUE.test(text) || /_\s+day\s+of/u.test(text)) kinds.push('date');
  if (types.has('TimeDuration') || HYPHEN_CUE.test(text)) kinds.push('duration');
  if (types.has('Money')) kinds.push('money');
  if (types.has('Percent')) kinds.push('percent');
  if (TIME_CUE.test(text)) kinds.push('time');
  if (PLAN_CUE.test(text)) kinds.push('plan');
  if (GRADE_CUE.test(text) || COUNT_NOUN_CUE.test(text)) kinds.push('count');
  if (types.has('Address')) kinds.push('address');
  if (ACT_YEAR_CUE.test(text)) kinds.push('year');
  if (!kinds.length) return [];
  const values = kinds
    .flatMap((kind) => valueSpans(kind, text, spans, kind === 'party' ? previous : undefined, kind === 'party' ? next : undefined).map((v) => ({ ...v, kind })))
    .filter((v) => v.kind !== 'party' || v.roles?.length || v.incorporated)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  if (!values.length) return [];
  const tokens = tokenize(text);
  let last: (typeof values)[number] | undefined;
  for (const v of values) {
    if (out.some((o) => o.start < v.end && v.start < o.end)) continue;
    // "will terminate as of 11:59 p.m. on February 28, 2013": a date written on after its time reads past the time.
    const onTime = v.kind === 'date' && last?.kind === 'time' && /^\s*(?:on|,)?\s*$/u.test(text.slice(last.end, v.start));
    const near = onTime ? [...before(tokens, v.start, last!.end, 2), ...before(tokens, last!.start, lastFloor, 12)] : before(tokens, v.start, floor, 12);
    lastFloor = floor;
    // "as of 9:00 a.m. on December 9, 2013 (the "Effective Time")": a time written on its date is named by the term after the date.
    const onDate = v.kind === 'time' ? values.find((d) => d.kind === 'date' && d.start >= v.end && /^\s*(?:on|,)?\s*$/u.test(text.slice(v.end, d.start))) : undefined;
    const name =
      (v.kind === 'party' || v.kind === 'address' ? null : termAfter(tokens, onDate?.end ?? v.end, v.kind)) ??
      termClosing(tokens, v, v.kind) ??
      labelBefore(tokens, v.start, v.kind) ??
      (v.kind === 'party' ? null : termBefore(tokens, v.start, v.kind)) ??
      // A plan's name alone on its line ("Contributing Program" over a table's column) heads something; it is no value named in a sentence.
      (v.kind === 'plan' ? (text.slice(0, v.start).trim() || text.slice(v.end).replace(/^[\s.:]+/u, '') ? 'PlanName' : null) : null) ??
      (v.kind === 'count' ? gradeName(tokens, v.start) ?? countName(after(tokens, v.end, 3)) : null) ??
      (v.kind === 'address' ? addressName(tokens, v, near, out) : null) ??
      (v.kind === 'year' ? actYear(tokens, v.start) : null) ??
      (v.kind === 'time' ? timeName(near) ?? clauseVerbPeriod(tokens, v.start, floor, v) : null) ??
      (v.kind === 'party'
        ? partyName(v.roles) ?? (v.incorporated ? 'CompanyName' : null)
        : v.kind === 'date'
          ? documentDate(tokens, v.start) ?? periodEndDate(near) ?? (last?.kind === 'duration' && /^\s+ended\s+$/u.test(text.slice(last.end, v.start)) && /(?:months|years|weeks|quarters)$/iu.test(text.slice(last.start, last.end)) ? 'ReportingPeriodEndDate' : null) ?? dateName(near, title) ?? occurrenceDate(wordsBefore(tokens, v.start, floor, 20)) ?? scheduledName(near, 'Date') ?? enteredDate(tokens, v.end) ?? openingDate(near, after(tokens, v.end, 20)) ?? preambleDate(tokens, v.start, near) ?? deadlineDate(near)
          : v.kind === 'duration'
            ? documentTerm(near) ?? periodName(near, after(tokens, v.end, 12)) ?? (near.length === 1 && near[0] === 'within' ? verbAfterPeriod(tokens, v.end) : null) ?? clauseVerbPeriod(tokens, v.start, floor)
            : v.kind === 'money' || v.kind === 'percent'
              ? (v.kind === 'money' ? parValueName(tokens, v) ?? limitName(near) : shareName(after(tokens, v.end, 8))) ?? amountOf(amountName(near, v.kind), wordsBefore(tokens, v.start, floor, 24)) ?? definitionName(tokens, v.start, v.kind) ?? (v.kind === 'money' ? rateName(after(tokens, v.end, 3)) : null)
              : null);
    // "the 2011 Incentive Plan effective on April 21, 2015": a plan just before is what is effective then.
    const ofPlan = name === 'EffectiveDate' && last?.kind === 'plan' && near.length <= 4 && !/[.,;:()]/u.test(text.slice(last.end, v.start));
    floor = v.end;
    last = v;
    // "Master Sublease Agreement dated as of April 4, 2014, but effective as of February 1, 2014 (the "Sublease")": the document the
    // term after it names is what is effective then.
    const document = name === 'EffectiveDate' ? termAfterWords(tokens, v.end) : null;
    const ofDocument = document?.length === 1 && DOCUMENTS.has(document[0]!.toLowerCase()) && document[0]!.toLowerCase() !== 'agreement' ? `${pascal(document)}EffectiveDate` : null;
    if (ofPlan) out.push({ start: v.start, end: v.end, name: 'PlanEffectiveDate' });
    else if (ofDocument) out.push({ start: v.start, end: v.end, name: ofDocument });
    else if (name) out.push({ start: v.start, end: v.end, name });
  }
  return out;
}

/** Adds label spans to every body leaf of running text (not table cells: a form's values are named by their labels). */
export function tagSemanticLabels(nodes: StructureNode[]): void {
  const { body, titles, previous } = collectProse(nodes);
  body.forEach((leaf, i) => {
    const found = labelSpans(leaf, previous[i], continuation([leaf.text, body[i + 1]?.text, body[i + 2]?.text], 0) ?? titleLine(leaf.text, body[i + 1]?.text), titles[i]);
    if (!found.length) return;
    const existing = leaf.spans ?? [];
    const added = found
      .filter((f) => !existing.some((s) => s.tag.kind !== 'entity' && s.start < f.end && f.start < s.end))
      .map((f) => ({ start: f.start, end: f.end, tag: { kind: 'label' as const, name: f.name } }));
    // A label around the same words as an entity is the outer element: `<docset:EffectiveDate><dg:chunk xsi:type="date">…`.
    leaf.spans = [...added, ...existing].sort((a, b) => a.start - b.start || b.end - a.end);
  });
}

/** A signer's title on the line under a name alone on its line (`Gary M. Crosby` / `Interim Chief Executive Officer`): read with the name. */
const OFFICER_TITLE = /^(?:Chief|Executive|Senior|Vice|President|Secretary|Treasurer|Chairman|Managing|General|Interim|Acting|Deputy|Assistant)\b/u;
function titleLine(text: string, next: string | undefined): string | undefined {
  if (next === undefined || text.length > 80 || !OFFICER_TITLE.test(next.trim())) return undefined;
  const words = text.trim().split(/\s+/u);
  return words.length >= 2 && words.length <= 4 && !/[.,;:]$/u.test(text.trim()) ? next : undefined;
}

const AS_ROLE = /^,?\s*(?:as|AS)\s+(?:(?:the|an?|its|THE|AN?|ITS)\s+)?\p{L}/u;

/**
 * The body leaves of running text, each with the heading of the section it is in (a title: "SUPPLEMENTAL INDENTURE")
 * and the text just before it, a heading's too (`LANDLORD:` set as a heading over the name).
 */
function collectProse(nodes: StructureNode[]): { body: Leaf[]; titles: (string | undefined)[]; previous: (string | undefined)[] } {
  const body: Leaf[] = [];
  const titles: (string | undefined)[] = [];
  const previous: (string | undefined)[] = [];
  let last: string | undefined;
  const walk = (list: readonly StructureNode[], title: string | undefined) => {
    for (const n of list) {
      if (n.type === 'paragraph') {
        if (n.role === 'body') {
          body.push(n.leaf);
          titles.push(title);
          previous.push(last);
        }
        last = n.leaf.text;
      } else if (n.type === 'section') {
        // A name set alone on its line over its role (`SANNE TRUSTEE SERVICES LIMITED` / `as trustee of …`) is read as the
        // sentence's first line: the role names it.
        const first = n.children[0];
        if (n.heading && first?.type === 'paragraph' && first.role === 'body' && AS_ROLE.test(first.leaf.text)) {
          body.push(n.heading);
          titles.push(title);
          previous.push(last);
        }
        last = n.heading?.text ?? last;
        walk(n.children, n.heading?.text ?? title);
      } else if (n.type === 'list') for (const item of n.items) walk(item.children, title);
      else last = undefined;
    }
  };
  walk(nodes, undefined);
  return { body, titles, previous };
}
