/**
 * Names a value's own words give it: a defined term after it (`(the "Effective Date")`), a label before it
 * (`Commencement Date: October 1, 2018`) or a term defined as it (`"Outside Date" means June 30, 2027`).
 */
import type { Token } from '../properties/tokens.js';
import { DATE_EVENTS } from './dates.js';
import { DOCUMENTS, FUNCTION_WORDS, firstAtOrAfter, pascal } from './words.js';

/** Head words a `Label:` before a value may end in, by the value's kind. */
const LABEL_HEADS: Record<string, RegExp> = {
  date: /^(?:date|day)$/u,
  duration: /^(?:period|term|deadline|notice)$/u,
  money: /^(?:amount|price|rent|fee|salary|deposit|premium|payment|value|cost)$/u,
  percent: /^(?:rate|percentage|percent|interest|share)$/u,
  party: /^(?:name|party|company|landlord|tenant|lender|borrower|agent|buyer|seller|purchaser|guarantor|employee|employer|trustee)$/u,
  time: /^time$/u,
  plan: /^(?:plan|program)$/u,
  address: /^address$/u,
};

/** `Commencement Date for the Initial Premises: October 1, 2018`: the label the line gives the value, up to its first "for"/"of". */
export function labelBefore(tokens: Token[], start: number, kind: string): string | null {
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

/** `9:00 a.m. on December 9, 2013 (the "Effective Time")`: the defined term right after a value names it. */
export function termAfter(tokens: Token[], end: number, kind: string): string | null {
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
export function termClosing(tokens: Token[], v: { start: number; end: number }, kind: string): string | null {
  if (kind !== 'duration' && kind !== 'date') return null;
  let i = firstAtOrAfter(tokens, v.end);
  const first = i;
  for (; i < tokens.length && i - first < (kind === 'duration' ? 14 : 10) && tokens[i]!.text !== '('; i++) if (/^[,;.:"“”)]$/u.test(tokens[i]!.text)) return null;
  const words = tokens[i]?.text === '(' ? termAfterWords(tokens, tokens[i]!.start) : null;
  if (!words || words.length > 5) return null;
  const head = words.at(-1)!.toLowerCase();
  // `(the "severance period")`: a term in lower case still names a duration by its own head.
  if (kind === 'duration' && LABEL_HEADS.duration!.test(head)) return pascal(words);
  if (!/^\p{Lu}/u.test(words[0]!)) return null;
  // `the twelve (12) month period following the Termination Date (the "Forward Bonus")`: the period of what the term names.
  if (kind === 'duration' && i > first && /^period$/iu.test(tokens[first]?.text ?? '') && !LABEL_HEADS.date!.test(head)) return `${pascal(words)}Period`;
  // The end of a period: only when the date closes it ("through", "until") right before the term. The date is the
  // period's end, named so with its type ("through December 31, 2015 (the "Non-Competition Period")" → `NonCompetitionPeriodEndDate`).
  const k = firstAtOrAfter(tokens, v.start) - 1;
  if (kind === 'date' && i === first && head === 'period' && /^(?:through|until|thru)$/iu.test(tokens[k]?.text ?? '')) return `${pascal(words)}EndDate`;
  return null;
}

/**
 * `the Rent Commencement Date shall be October 1, 2019`, `The Cure Period is ten (10) days`, `the Base Rent will equal
 * $4,000`: a capitalised term of the value's kind that the sentence says the value is.
 */
export function termBefore(tokens: Token[], start: number, kind: string): string | null {
  let i = firstAtOrAfter(tokens, start) - 1;
  let linked = false;
  for (let steps = 0; i >= 0 && steps < 5; steps++, i--) {
    const w = tokens[i]!.text.toLowerCase();
    if (/^(?:is|be|means|mean|equals|equal|occur|occurs|was)$/u.test(w)) linked = true;
    // "The non-compete period shall last for two (2) years": how long a term lasts is its length.
    else if (kind === 'duration' && /^(?:last|lasts|continue|continues|run|runs|remain|remains)$/u.test(w) && tokens[i + 1]?.text.toLowerCase() === 'for') linked = true;
    // "The Restricted Period means the period of eighteen (18) months": "the period of" only restates the kind.
    else if (kind === 'duration' && w === 'period' && tokens[i + 1]?.text.toLowerCase() === 'of') continue;
    // "is hereby accelerated to", "shall be extended to": a term moved to the value is the value.
    else if (!/^(?:on|shall|will|to|of|as|the|each|at|by|for|hereby|deemed|have|been|accelerated|extended|postponed|deferred|changed|moved|advanced|delayed)$/u.test(w)) break;
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
  for (; k >= 0 && words.length < 3 && /^\p{Ll}+(?:-\p{Ll}+)*$/u.test(tokens[k]!.text) && !FUNCTION_WORDS.has(tokens[k]!.text); k--) words.unshift(tokens[k]!.text);
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
  return fits ? pascal(words) : null;
}

/** The words of a defined term right after a value: `… (the "Premises")` → ["Premises"]; `afterComma`: `…, (the "Premises")` too. */
export function termAfterWords(tokens: Token[], end: number, afterComma = true): string[] | null {
  let i = firstAtOrAfter(tokens, end);
  if (afterComma && tokens[i]?.text === ',') i++;
  return tokens[i]?.text === '(' ? quotedTerm(tokens, i + 1) : null;
}

/** The words of a quoted term at `i`, an article before it passed over (`the "Cure Period"` → ["Cure", "Period"]), or null. */
function quotedTerm(tokens: Token[], i: number): string[] | null {
  if (/^(?:the|this|each|a)$/iu.test(tokens[i]?.text ?? '')) i++;
  // "(each a "Grant Date")", "(each, an "Advance")": the term of each of several.
  if (/^(?:each|every)$/iu.test(tokens[i - 1]?.text ?? '') && tokens[i]?.text === ',') i++;
  if (/^(?:each|every)$/iu.test(tokens[i - 1]?.text ?? '') && /^(?:a|an)$/iu.test(tokens[i]?.text ?? '')) i++;
  if (!/^["“]$/u.test(tokens[i]?.text ?? '')) return null;
  const words: string[] = [];
  for (i++; i < tokens.length && words.length < 6 && !/^["”]$/u.test(tokens[i]!.text); i++) {
    if (!/[\p{L}\p{N}]/u.test(tokens[i]!.text)) return null;
    words.push(tokens[i]!.text);
  }
  return words.length && /^["”]$/u.test(tokens[i]?.text ?? '') ? words : null;
}
