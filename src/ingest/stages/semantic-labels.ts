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
import { labelsNextLine } from './properties/parties.js';
import { continuation } from './properties/prose.js';
import { valueSpans } from './properties/prose-spans.js';
import { tokenize } from './properties/tokens.js';
import type { ValueKind } from './properties/label-kind.js';
import { amountLabel, countLabel } from './semantic-labels/amounts.js';
import { ACT_YEAR_CUE, AREA_CUE, COUNT_NOUN_CUE, GRADE_CUE, HYPHEN_CUE, MONTH_CUE, PARTY_CUE, PLAN_CUE, SHARES_CUE, TIME_CUE } from './semantic-labels/cues.js';
import { actYear, dateLabel, timeLabel } from './semantic-labels/dates.js';
import { addressName, partyName } from './semantic-labels/parties.js';
import { durationLabel } from './semantic-labels/periods.js';
import { labelBefore, termAfter, termAfterWords, termBefore, termClosing } from './semantic-labels/terms.js';
import { DOCUMENTS, before, pascal, type FoundValue, type ValueContext } from './semantic-labels/words.js';

const WEEKDAY_BEFORE = /(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),?\s+$/u;

/** The rules that name a value of each kind once no term or label of its own names it. */
const BY_KIND: Partial<Record<ValueKind, (context: ValueContext) => string | null>> = {
  party: ({ value }) => partyName(value.roles) ?? (value.incorporated ? 'CompanyName' : null),
  date: dateLabel,
  time: timeLabel,
  duration: durationLabel,
  money: amountLabel,
  percent: amountLabel,
  count: countLabel,
  address: ({ tokens, value, near, named }) => addressName(tokens, value, near, named),
  year: ({ tokens, value }) => actYear(tokens, value.start),
  // A plan's name alone on its line ("Contributing Program" over a table's column) heads something; it is no value named in a sentence.
  plan: ({ text, value }) => (text.slice(0, value.start).trim() || text.slice(value.end).replace(/^[\s.:]+/u, '') ? 'PlanName' : null),
};

/** The label spans of one leaf: each value whose context names it. */
export function labelSpans(leaf: Leaf, previous?: string, next?: string, title?: string): { start: number; end: number; name: string }[] {
  const text = leaf.text;
  const spans = leaf.spans ?? [];
  const out: { start: number; end: number; name: string }[] = [];
  let floor = -1;
  let lastFloor = -1;
  // Most leaves name nothing: only the kinds the leaf can hold are looked for (parties only beside a role's cue).
  const types = new Set(spans.map((x) => (x.tag.kind === 'entity' ? x.tag.type : '')));
  const kinds: ValueKind[] = [];
  if (PARTY_CUE.test(next === undefined ? text : `${text} ${next}`) || (previous !== undefined && labelsNextLine(previous))) kinds.push('party');
  if (types.has('Date') || MONTH_CUE.test(text) || /_\s+day\s+of|\bday\s+(?:of\s+(?:each|every|the)|following|after)\b/iu.test(text)) kinds.push('date');
  if (types.has('TimeDuration') || HYPHEN_CUE.test(text)) kinds.push('duration');
  if (types.has('Money')) kinds.push('money');
  if (types.has('Percent')) kinds.push('percent');
  if (TIME_CUE.test(text)) kinds.push('time');
  if (PLAN_CUE.test(text)) kinds.push('plan');
  if (GRADE_CUE.test(text) || COUNT_NOUN_CUE.test(text) || AREA_CUE.test(text) || SHARES_CUE.test(text)) kinds.push('count');
  if (types.has('Address')) kinds.push('address');
  if (ACT_YEAR_CUE.test(text)) kinds.push('year');
  if (!kinds.length) return [];
  const values = kinds
    .flatMap((kind) => valueSpans(kind, text, spans, kind === 'party' ? previous : undefined, kind === 'party' ? next : undefined).map((v) => ({ ...v, kind })))
    .filter((v) => v.kind !== 'party' || v.roles?.length || v.incorporated)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  if (!values.length) return [];
  const tokens = tokenize(text);
  let last: FoundValue | undefined;
  for (const v of values) {
    if (out.some((o) => o.start < v.end && v.start < o.end)) continue;
    // "one (1) year terms": a count inside a duration, a date or an amount is that value's figure, not a count of its own.
    if (v.kind === 'count' && values.some((o) => o.kind !== 'count' && o.start < v.end && v.start < o.end)) continue;
    // "will terminate as of 11:59 p.m. on February 28, 2013": a date written on after its time reads past the time.
    const onTime = v.kind === 'date' && last?.kind === 'time' && /^\s*(?:on|,)?\s*$/u.test(text.slice(last.end, v.start));
    // "on Thursday, November 4, 2010": the clause's words run on before the day of the week.
    const start = v.kind === 'date' ? v.start - (WEEKDAY_BEFORE.exec(text.slice(Math.max(0, v.start - 12), v.start))?.[0].length ?? 0) : v.start;
    const near = onTime ? [...before(tokens, start, last!.end, 2), ...before(tokens, last!.start, lastFloor, 12)] : before(tokens, start, floor, 12);
    lastFloor = floor;
    // "as of 9:00 a.m. on December 9, 2013 (the "Effective Time")": a time written on its date is named by the term after the date.
    const onDate = v.kind === 'time' ? values.find((d) => d.kind === 'date' && d.start >= v.end && /^\s*(?:on|,)?\s*$/u.test(text.slice(v.end, d.start))) : undefined;
    const context: ValueContext = { text, tokens, value: v, near, floor, previous: last, title, named: out };
    const name =
      (v.kind === 'party' || v.kind === 'address' ? null : termAfter(tokens, onDate?.end ?? v.end, v.kind)) ??
      termClosing(tokens, v, v.kind) ??
      labelBefore(tokens, v.start, v.kind) ??
      (v.kind === 'party' ? null : termBefore(tokens, v.start, v.kind)) ??
      BY_KIND[v.kind]?.(context) ??
      null;
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
  const { body, titles, previous, following } = collectProse(nodes);
  body.forEach((leaf, i) => {
    const next = continuation([leaf.text, body[i + 1]?.text, body[i + 2]?.text], 0) ?? titleLine(leaf.text, body[i + 1]?.text) ?? roleLine(following[i]);
    const found = labelSpans(leaf, previous[i], next, titles[i]);
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

/** A party's role in capitals alone on the line under its name, often set as a heading (`Siga Technologies, Inc.` / `TENANT`). */
const ROLE_LINE = /^\s*(?:TENANT|LANDLORD|BORROWER|LENDER|GUARANTOR|BUYER|SELLER|PURCHASER|LICENSEE|LICENSOR|SUBTENANT|SUBLANDLORD)S?:?\s*$/u;

function roleLine(next: string | undefined): string | undefined {
  return next !== undefined && ROLE_LINE.test(next) ? next.replace(/[:\s]+$/u, '').trim() : undefined;
}

const AS_ROLE = /^,?\s*(?:as|AS)\s+(?:(?:the|an?|its|THE|AN?|ITS)\s+)?\p{L}/u;

/**
 * The body leaves of running text, each with the heading of the section it is in (a title: "SUPPLEMENTAL INDENTURE")
 * and the text just before it, a heading's too (`LANDLORD:` set as a heading over the name).
 */
function collectProse(nodes: StructureNode[]): { body: Leaf[]; titles: (string | undefined)[]; previous: (string | undefined)[]; following: (string | undefined)[] } {
  const body: Leaf[] = [];
  const titles: (string | undefined)[] = [];
  const previous: (string | undefined)[] = [];
  // The text right after each body leaf, a heading's too; set when that text is met.
  const following: (string | undefined)[] = [];
  let last: string | undefined;
  const meet = (text: string | undefined) => {
    if (following.length < body.length) following.push(text);
  };
  const walk = (list: readonly StructureNode[], title: string | undefined) => {
    for (const n of list) {
      if (n.type === 'paragraph') {
        meet(n.leaf.text);
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
        meet(n.heading?.text);
        if (n.heading && first?.type === 'paragraph' && first.role === 'body' && AS_ROLE.test(first.leaf.text)) {
          body.push(n.heading);
          titles.push(title);
          previous.push(last);
        }
        last = n.heading?.text ?? last;
        walk(n.children, n.heading?.text ?? title);
      } else if (n.type === 'list') for (const item of n.items) walk(item.children, title);
      else {
        meet(undefined);
        last = undefined;
      }
    }
  };
  walk(nodes, undefined);
  while (following.length < body.length) following.push(undefined);
  return { body, titles, previous, following };
}
