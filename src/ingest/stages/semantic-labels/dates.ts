/**
 * Dates and times named by the event or document they belong to: "shall terminate on" → `TerminationDate`,
 * "Credit Agreement dated as of" → `AgreementDate`, "no later than" → a deadline, "scheduled for" → `ConferenceCallTime`.
 */
import type { Token } from '../properties/tokens.js';
import { DOING_VERBS, LIGHT_VERBS, infinitive } from '../properties/nominal.js';
import { NOT_SUBJECTS, clauseVerbPeriod, extensionName, governingVerbPeriod, isVerb } from './periods.js';
import { DOCUMENTS, FUNCTION_WORDS, SECURITIES, after, before, firstAtOrAfter, pascal, phraseBefore, singular, wordsBefore, type ValueContext } from './words.js';

/** Verbs and nouns of the events dates belong to, to the noun a label names them by. */
export const DATE_EVENTS: [RegExp, string][] = [
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
  [/^approv(?:e|es|ed|al)$/u, 'Approval'],
  // "a cash dividend … payable on August 17, 2023": the date it is paid.
  [/^(?:payable|paid)$/u, 'Payment'],
  [/^deliver/u, 'Delivery'],
  [/^incorporat(?:ed|ion)$/u, 'Incorporation'],
  [/^settle/u, 'Settlement'],
  [/^(?:begin|begins|began|beginning|start|starts|started|starting)$/u, 'Start'],
  // ("ended" is the adjective of reported periods: "the Three Months Ended June 25, 2022", named by periodEndDate.)
  [/^(?:end|ends)$/u, 'End'],
  // "records" is mostly the noun ("permanent analog records by December 31, 2024"): only "record", "recorded", "recording" are the event.
  [/^record(?:ed|ing)?$/u, 'Recording'],
  [/^enact(?:s|ed|ing|ment)?$/u, 'Enactment'],
];

/** What falls due on a date: a payment and its kinds. */
const PAYMENTS = /^(?:payments?|rent|invoices?|premiums?|installments?|instalments?|fees?|interest|amounts?|balance|dividends?|distributions?)$/u;

/** "dated", "entered into as of", "made as of", "accepted and agreed on": the date of the document that says it. */
const DOCUMENT_DATED = /^(?:dated|entered|made|executed|agreed)$/u;

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

/** Nouns of a span of time whose start or end a date is: "the Performance Period", "the first Lease Year". */
const PERIOD_HEADS = /^(?:period|term|year|quarter)$/u;

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
  // "The Closing shall take place no later than …" as "occurs".
  if (near[k] === 'place' && /^(?:take|takes|took|taken|taking)$/u.test(near[k + 1] ?? '')) k++;
  else if (!/^(?:occurs?|occurred|happens?|happened)$/u.test(near[k] ?? '')) return null;
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

/** `wider`: the words before the date further back than `near` (it starts with them), for a subject far from its verb. */
function dateName(near: string[], title?: string, wider: () => string[] = () => near): string | null {
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
    // "The first payment shall be due on", "Rent is due on": the date a payment falls due.
    if (w === 'due' && i <= 1) {
      let k = i + 1;
      while (/^(?:be|is|are|shall|will|become|becomes|and|payable)$/u.test(near[k] ?? '')) k++;
      if (k > i + 1 && PAYMENTS.test(near[k] ?? '')) return `${pascal(singular([near[k]!]))}DueDate`;
    }
    // "The first Lease Year shall commence on the Commencement Date and end on December 31": the end of what commences.
    if (w === 'end' && near[i + 1] === 'and' && near.slice(0, i).every((x) => /^(?:on|the|next|following)$/u.test(x))) {
      const start = near.slice(i + 2, i + 9).findIndex((x) => /^(?:commence|begin|start)$/u.test(x));
      if (start < 0) return 'EndDate';
      // The subject may stand further back than `near` reaches.
      const wide = wider();
      let at = i + 2 + start + (/^(?:shall|will|would|may)$/u.test(wide[i + 3 + start] ?? '') ? 2 : 1);
      // "the first Lease Year during the term of this Lease shall commence": the subject is before the phrase that places it.
      const placed = wide.slice(at, at + 7).findIndex((x) => /^(?:during|under|throughout|within)$/u.test(x));
      if (!PERIOD_HEADS.test(wide[at] ?? '') && placed > 0 && PERIOD_HEADS.test(wide[at + placed + 1] ?? '')) at += placed + 1;
      const head = wide[at];
      const words = head ? [...phraseBefore(wide, at + 1, 2).filter((x) => !/^(?:first|last|initial|final|second|third)$/u.test(x)), head] : [];
      return head && PERIOD_HEADS.test(head) && words.length > 1 ? `${pascal(words)}EndDate` : 'EndDate';
    }
    // "Executive's employment terminated effective as of", "the appointment of Kevin Smith as Chief Operating Officer
    // effective June 4": the event that takes effect then is what the date is of.
    if (w === 'effective') {
      const event = near.slice(i + 1, i + 12).find((x) => /^(?:terminated|resigned|retired|appointed|termination|resignation|retirement|appointment)$/u.test(x));
      const noun = event && DATE_EVENTS.find(([re]) => re.test(event))?.[1];
      if (noun) return `${noun}Date`;
    }
    // "terminates his employment due to Retirement or Disability prior to …": a cause is not the event the date is of.
    const cause = near.slice(i + 1, i + 5).findIndex((x, k, a) => x === 'to' && (a[k + 1] === 'due' || (a[k + 1] === 'owing')));
    // "at the end of": "end" names an event only as a verb ("shall end on").
    if (w === 'end' && !/^(?:shall|will|would|to|may)$/u.test(near[i + 1] ?? '')) continue;
    // "to shareholders of record as of August 14": who holds on that date is paid; it is the record date.
    if (w === 'record' && near[i + 1] === 'of') return 'RecordDate';
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
        // "Rent shall be payable commencing July 1".
        if (/^(?:payable|due)$/u.test(of ?? '') && subject.slice(1, 4).includes('rent')) return 'RentCommencementDate';
        if (subject.includes('employment') && !subject.includes('termination')) return 'EmploymentStartDate';
        // "The Employee starts on": an employee's start is the employment's.
        if (noun === 'Start' && /^(?:employee|executive)$/u.test(subject.find((x) => !/^(?:shall|will|the)$/u.test(x)) ?? '')) return 'EmploymentStartDate';
      }
      // "The Performance Period begins on … and ends on …", "The Lease shall begin on": the start or end of the period, term or
      // document that is the subject.
      if (noun === 'Start' || noun === 'End' || noun === 'Commencement') {
        const at = /^(?:shall|will|would|may)$/u.test(of ?? '') ? i + 2 : i + 1;
        const head = near[at];
        // (A document's commencement is the Commencement Date itself: "The Lease shall commence on" names no LeaseCommencementDate.)
        if (head && (/^(?:period|term|year|quarter)$/u.test(head) || (DOCUMENTS.has(head) && head !== 'agreement' && noun !== 'Commencement'))) {
          const words = [...phraseBefore(near, at + 1, 2), head];
          if (/^(?:the|this|each|such)$/u.test(near[at + words.length] ?? '') && (words.length > 1 || head !== 'term')) return `${pascal(words)}${noun}Date`;
        }
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
      // "Awards will be made as of January 1": what "will be made" is no document being made.
      if (!document && w !== 'dated' && near[i + 1] === 'be') return null;
      return `${pascal([document ?? 'agreement'])}Date`;
    }
  }
  return null;
}

/** `The Civil Rights Act of 1964` → `CivilRightsActYear`: the year of the law its capitalised name says. */
export function actYear(tokens: Token[], start: number): string | null {
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
 * How many words before a date or time set it as a deadline: "on or before", "no later than", "not later than", and "by",
 * "before" and "prior to", which set one only where a modal verb governs them (`deadlineDate`).
 */
function deadlineCue(near: string[]): { words: number; strict: boolean; inverted?: boolean } | null {
  if (near[0] === 'before' && near[1] === 'or' && near[2] === 'on') return { words: 3, strict: true };
  if (near[0] === 'than' && near[1] === 'later' && /^(?:no|not)$/u.test(near[2] ?? '')) return { words: 3, strict: true };
  // "In no event shall this Agreement be returned later than": the negation opens the clause, its modal before the subject.
  if (near[0] === 'than' && near[1] === 'later' && /\bevent no in\b/u.test(near.slice(2, 12).join(' '))) return { words: 2, strict: true, inverted: true };
  if (near[0] === 'by' || near[0] === 'before') return { words: 1, strict: false };
  if (near[0] === 'to' && near[1] === 'prior' && near[2] === 'or' && near[3] === 'on') return { words: 4, strict: true };
  if (near[0] === 'to' && near[1] === 'prior') return { words: 2, strict: false };
  return null;
}

/**
 * `Tenant shall remove its equipment no later than June 30` → `RemovalDeadline`, `the Buyer shall deliver the notice no
 * later than …` → `NoticeDeadline`, `Bids must be submitted by 5:00 p.m.` → `SubmissionDeadline`: a date or time
 * set by a deadline's words is the deadline of what its clause's verb must do, named as a period "within" would be. Where
 * the verb is one that may be done ("may terminate … prior to"), the date is no deadline.
 */
function deadlineDate(near: string[], tokens?: Token[], start?: number): string | null {
  const cue = deadlineCue(near);
  if (!cue) return null;
  const term = cue.strict && tokens && start !== undefined ? termDeadline(tokens, start, cue.words) : null;
  if (term) return term;
  const name = governingVerbPeriod(['within', ...(cue.inverted ? uninverted(near.slice(cue.words)) : near.slice(cue.words))]);
  return name?.endsWith('Deadline') || (cue.strict && name) ? name.replace(/Period$/u, 'Deadline') : null;
}

/**
 * The words before "later than" of "in no event shall this Agreement be returned", nearest first, in the order of "this
 * Agreement shall be returned": the verb and its auxiliaries, then the modal, then the subject.
 */
function uninverted(near: string[]): string[] {
  const modal = near.findIndex((w) => /^(?:shall|will|may|must|can|should|would)$/u.test(w));
  if (modal < 2) return near;
  const inOrder = near.slice(0, modal).reverse();
  const verb = inOrder.findIndex((w, k) => k > 0 && (/^(?:be|have)$/u.test(w) || isVerb(w)));
  if (verb < 0) return near;
  return [...inOrder.slice(verb).reverse(), near[modal]!, ...inOrder.slice(0, verb).reverse(), ...near.slice(modal + 1)];
}

/**
 * `If on or prior to September 1, 2014, Landlord achieves Milestone 1, …` → `Milestone1Deadline`: a deadline opening its clause
 * is what the clause after it reaches or does by then, a defined term after a verb of attaining or doing.
 */
function openingDeadline(near: string[], tokens: Token[], end: number): string | null {
  const cue = deadlineCue(near);
  if (!cue?.strict || !near.slice(cue.words).every((w) => /^(?:if|unless|when|where|and|that|provided)$/u.test(w))) return null;
  let i = firstAtOrAfter(tokens, end);
  if (tokens[i]?.text === ',') i++;
  // The subject: a few capitalised words ("Landlord", "the Company").
  if (/^(?:the|The)$/u.test(tokens[i]?.text ?? '')) i++;
  const subject = i;
  while (i < subject + 4 && /^\p{Lu}/u.test(tokens[i]?.text ?? '')) i++;
  if (i === subject) return null;
  while (/^(?:does|do|did|has|have|shall|will|not|fails|fail|to)$/u.test(tokens[i]?.text ?? '')) i++;
  const verb = tokens[i]?.text.toLowerCase();
  if (!verb || !(/^(?:achieve|achieves|attain|attains|reach|reaches)$/u.test(verb) || DOING_VERBS.has(infinitive(verb)) || LIGHT_VERBS.has(infinitive(verb)))) return null;
  i++;
  if (/^(?:the|a|an)$/u.test(tokens[i]?.text ?? '')) i++;
  const words: string[] = [];
  for (; words.length < 5 && /^(?:\p{Lu}\p{Ll}+|\d+|of)$/u.test(tokens[i]?.text ?? ''); i++) words.push(tokens[i]!.text);
  while (words.at(-1) === 'of') words.pop();
  return words.length && /^\p{Lu}/u.test(words[0]!) ? `${pascal(words)}Deadline` : null;
}

/**
 * `achieve Substantial Completion on or before March 1, 2025` → `SubstantialCompletionDeadline`, `obtain the Certificate of
 * Occupancy no later than` → `CertificateOfOccupancyDeadline`: a defined term just before a deadline's words, done by a verb,
 * is what must be reached by then, named whole.
 */
function termDeadline(tokens: Token[], start: number, cueWords: number): string | null {
  let i = firstAtOrAfter(tokens, start) - 1 - cueWords;
  const words: string[] = [];
  for (; i >= 0 && words.length < 6; i--) {
    const t = tokens[i]!.text;
    if (/^\p{Lu}\p{Ll}+$/u.test(t) || (t === 'of' && /^\p{Lu}\p{Ll}+$/u.test(tokens[i - 1]?.text ?? '') && words.length)) words.unshift(t);
    else break;
  }
  if (words.length < 2 || words[0] === 'of') return null;
  const before = tokens[i]?.text.toLowerCase() === 'the' ? tokens[i - 1]?.text.toLowerCase() : tokens[i]?.text.toLowerCase();
  // The verb that reaches it: one of attaining or of doing ("complete", "obtain"). A verb that is an event of its own names the
  // deadline by its noun ("pay the Purchase Price no later than" → PaymentDeadline).
  if (!before || !/^\p{Ll}+$/u.test(before) || !(/^(?:achieve|achieves|attain|attains|reach|reaches|cause|causes)$/u.test(before) || DOING_VERBS.has(infinitive(before)) || LIGHT_VERBS.has(infinitive(before)))) return null;
  return `${pascal(words.flatMap((w) => w.split('-')))}Deadline`;
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

/** Events one holds: "shall hold its annual meeting on", "will host a conference call on". */
const HELD_EVENTS = /^(?:meeting|meetings|call|hearing|conference|auction|session|election|vote|presentation|webcast|inspection|closing|ceremony)$/u;

/** `The Company shall hold its annual meeting on May 15, 2024` → `AnnualMeetingDate`: the event a clause holds then. */
function heldEventName(near: string[], type: 'Date' | 'Time'): string | null {
  if (near[0] !== 'on' && near[0] !== 'at') return null;
  let words = phraseBefore(near, 1, 4);
  let k = 1 + words.length;
  // "host a conference call with investors on": who it is held with is passed over.
  if (near[k] === 'with') {
    words = phraseBefore(near, k + 1, 4);
    k += 1 + words.length;
  }
  while (k < 12 && near[k] && /^(?:a|an|the|its|their|his|her)$/u.test(near[k]!)) k++;
  if (!/^(?:hold|holds|held|host|hosts|hosted|conduct|conducts|conducted|convene|convenes|convened)$/u.test(near[k] ?? '')) return null;
  return words.length && HELD_EVENTS.test(words.at(-1)!) ? `${pascal(words)}${type}` : null;
}

/** "the 1st day of each month", "the last day of every calendar quarter": how often a date comes back, as its name's first word. */
const RECURS = /\b(?:each|every)\s+(?:(?:calendar|fiscal)\s+)?(month|quarter|year)$/iu;
const FREQUENCY: Readonly<Record<string, string>> = { month: 'Monthly', quarter: 'Quarterly', year: 'Annual' };

/** A date's name: the document, period, event or deadline its clause makes it the date of, with how often it comes back. */
export function dateLabel(context: ValueContext): string | null {
  // "on or before the 1st day of each month": the article opens the date, the words before it are the clause's.
  if (context.near[0] === 'the') context = { ...context, near: context.near.slice(1) };
  const name = onceDateLabel(context);
  const recurs = RECURS.exec(context.text.slice(context.value.start, context.value.end));
  if (!name || !recurs) return name;
  // "shall pay … on or before the 1st day of each month": a deadline that comes back each month is the day it falls due.
  const frequency = FREQUENCY[recurs[1]!.toLowerCase()]!;
  const dated = name.replace(/Deadline$/u, 'Date');
  return dated.startsWith(frequency) || !dated.endsWith('Date') ? dated : `${frequency}${dated}`;
}

function onceDateLabel(context: ValueContext): string | null {
  // "to a maturity date earlier than the 91st day after …": a bound the event's date must keep to is not that date.
  const { near } = context;
  if (near[0] === 'than' && /^(?:earlier|later|sooner)$/u.test(near[1] ?? '') && !deadlineCue(near)) return null;
  const name = dateEventLabel(context);
  // "The Performance Period begins on January 1, 2024 and ends on December 31, 2026": the end of what the start was of.
  const { text, value: v, previous, named } = context;
  const start = named.at(-1);
  if (name === 'EndDate' && previous?.kind === 'date' && start?.end === previous.end && /StartDate$/u.test(start.name) && /^\s*and\s+(?:shall\s+|will\s+)?ends?\s+on\s*$/u.test(text.slice(previous.end, v.start))) {
    return start.name.replace(/StartDate$/u, 'EndDate');
  }
  // "The policy period is from June 1, 2024 to June 1, 2025": the second date of a span ends what the first starts.
  if (!name && previous?.kind === 'date' && start?.end === previous.end && /StartDate$/u.test(start.name) && /^\s*(?:to|through|until|thru)\s+$/iu.test(text.slice(previous.end, v.start))) {
    return start.name.replace(/StartDate$/u, 'EndDate');
  }
  return name ?? spanStart(context.near);
}

/**
 * `The policy period is from June 1, 2024 to …`, `the Term shall run from …`: the first date of a period's span is its start,
 * named by the period (a noun phrase ending in period, term or year) its sentence is about.
 */
function spanStart(near: string[]): string | null {
  if (near[0] !== 'from') return null;
  let k = 1;
  while (/^(?:is|are|was|shall|will|be|run|runs|extend|extends|extending|running|last|lasts|commencing|beginning)$/u.test(near[k] ?? '')) k++;
  if (k === 1) return null;
  const head = near[k];
  if (!head || !/^(?:period|term|year|quarter|coverage)$/u.test(head)) return null;
  const words = [...phraseBefore(near, k + 1, 2), head];
  return /^(?:the|this|each|such|its|our)$/u.test(near[k + words.length] ?? '') && (words.length > 1 || head !== 'term') ? `${pascal(words)}StartDate` : null;
}

function dateEventLabel({ text, tokens, value: v, near, floor, previous, title }: ValueContext): string | null {
  return (
    documentDate(tokens, v.start) ??
    periodEndDate(near) ??
    // "for the six months ended June 30, 2012": the end of the reported period.
    (previous?.kind === 'duration' && /^\s+ended\s+$/iu.test(text.slice(previous.end, v.start)) && /(?:months|years|weeks|quarters)$/iu.test(text.slice(previous.start, previous.end)) ? 'ReportingPeriodEndDate' : null) ??
    // "shall deliver the statements on or before April 15": what must be done by then is its deadline, not its date.
    (deadlineCue(near) ? occurrenceDate(wordsBefore(tokens, v.start, floor, 20)) ?? deadlineDate(near, tokens, v.start) ?? openingDeadline(near, tokens, v.end) : null) ??
    (near[0] === 'to' ? extensionName(near, 'Date') : null) ??
    dateName(near, title, () => before(tokens, v.start, floor, 20)) ??
    heldEventName(near, 'Date') ??
    occurrenceDate(wordsBefore(tokens, v.start, floor, 20)) ??
    scheduledName(near, 'Date') ??
    enteredDate(tokens, v.end) ??
    openingDate(near, after(tokens, v.end, 20)) ??
    preambleDate(tokens, v.start, near)
  );
}

/** A time's name: a deadline or cut-off ("no later than 5:00 p.m."), or the verb of its clause. */
export function timeLabel({ text, tokens, value: v, near, floor, previous, named }: ValueContext): string | null {
  return timeName(near) ?? cutoffTime(near, wordsBefore(tokens, v.start, floor, 30)) ?? deadlineDate(near, tokens, v.start) ?? clauseVerbPeriod(tokens, v.start, floor, v) ?? timeOfDate(text, v, previous, named);
}

/** `will host a conference call on August 8, 2018 at 2:00 p.m. Pacific` → `ConferenceCallTime`: the time of the event its date just named. */
function timeOfDate(text: string, v: { start: number }, previous: ValueContext['previous'], named: ValueContext['named']): string | null {
  const date = named.at(-1);
  if (previous?.kind !== 'date' || !date || date.end !== previous.end || !/^[\p{L}\p{N}]+Date$/u.test(date.name) || date.name === 'AgreementDate') return null;
  return /^,?\s+at\s+$/u.test(text.slice(previous.end, v.start)) ? date.name.replace(/Date$/u, 'Time') : null;
}

const isContentWord = (w: string | undefined): w is string => w !== undefined && /^\p{L}{3,}$/u.test(w) && !FUNCTION_WORDS.has(w) && !NOT_SUBJECTS.has(w);

/**
 * `Payments of principal received after 12:00 noon are considered received the next Business Day` → `PaymentCutoffTime`,
 * `Wire transfers will be given credit the day received only if received before 3:00 p.m.` → `WireTransferCutoffTime`: the
 * time of day by which a thing must be received to count that day is its cut-off, named by the thing received (the noun
 * before "received", the head of an "of" phrase, or else the sentence's subject).
 */
function cutoffTime(near: string[], sentence: string[]): string | null {
  if (!/^(?:after|before)$/u.test(near[0] ?? '') || near[1] !== 'received') return null;
  let k = 2;
  while (isContentWord(near[k]) || (/^(?:and|or)$/u.test(near[k] ?? '') && isContentWord(near[k + 1]) && k > 2)) k++;
  let head = near[k] === 'of' && k > 2 ? phraseBefore(near, k + 1, 2) : phraseBefore(near, 2, 3);
  if (head.some((w) => /^(?:and|or)$/u.test(w))) head = head.slice(head.findLastIndex((w) => /^(?:and|or)$/u.test(w)) + 1);
  if (!head.length) {
    // The sentence's subject: its opening words up to its verb.
    const words = [...sentence].reverse().map((w) => w.toLowerCase());
    let i = /^(?:the|all|any|each)$/u.test(words[0] ?? '') ? 1 : 0;
    const subject: string[] = [];
    for (; i < words.length && subject.length < 4 && isContentWord(words[i]) && !/^(?:will|shall|must|may|are|is|be|received)$/u.test(words[i]!); i++) subject.push(words[i]!);
    if (!subject.length || subject.length > 3 || !/^(?:will|shall|must|may|are|is)$/u.test(words[i] ?? '')) return null;
    head = subject;
  }
  return head.length ? `${pascal(singular(head))}CutoffTime` : null;
}
