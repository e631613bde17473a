/**
 * Clause labels: a clause, list or table named for what it is, so that DGML says it (an element
 * `<docset:LicenseFee>` around the clause's block, which stays the chunk readers take; its xpath
 * carries the name, and a value named inside stays the nearest element around that value):
 * - from its heading, run-in ("License Fee. In consideration…" → `LicenseFee`, "Hyperlipidemia:
 *   Currently…" → `Hyperlipidemia`, "7.1 Tenant's Insurance. Tenant shall…" → `TenantsInsurance`) or
 *   the whole text ("Representations and Warranties."), without numbering or punctuation;
 * - failing one, from what it is about where that is clear (`SecurityDeposit`, `GoverningLaw`,
 *   `TreatmentPlan`): a vocabulary of standard clause and section names with weights over the
 *   clause's words (clause-weights.json, trained by scripts/train-clauses.ts), named only when sure.
 * Sections are named by their headings already (`sectionName`); a short document without headings
 * that is one clause as a whole is named around all its blocks. Nothing is named where it is not
 * clear: a wrong name misleads every chunk that carries it.
 */
import type { Leaf, List, Paragraph, StructureModel, StructureNode, Table } from '../../document/structure.js';
import { isFurniture, leaves } from '../../document/structure.js';
import { HEADING_NUMBER, sectionName } from '../../document/writers/dgml.js';
import { documentKinds } from './clause-domains.js';
import { topicName } from './clause-topics.js';
import { nounOfVerb } from './properties/nominal.js';
import { bareLabels, loneLabel, stackedValue } from './form-labels.js';

/** Small words a heading may hold in lower case ("Grant of License and Reservation of Ownership"). */
const CONNECTORS = new Set(['of', 'and', 'the', 'to', 'for', 'or', 'in', 'on', 'with', 'by', 'a', 'an', 'from', 'at', 'upon', 'under', 'as', 'per', 'vs', '&', '-', '–', '—', '/']);
/** Words of a sentence, never of a heading ("Payment is due.", "Tenant agrees."). */
const VERBS = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'shall', 'will', 'may', 'must', 'can', 'could', 'should', 'would', 'has', 'have', 'had',
  'does', 'do', 'did', 'not', 'agrees', 'agree', 'means', 'mean', 'includes', 'include', 'hereby', 'herein', 'which', 'that', 'who', 'if',
]);
/** First words of sentences that are not headings ("This Agreement.", "Each party:"). */
const SENTENCE_STARTS = new Set([
  'the', 'this', 'that', 'these', 'those', 'each', 'any', 'all', 'if', 'in', 'such', 'it', 'we', 'you', 'our', 'your', 'notwithstanding',
  'except', 'upon', 'for', 'as', 'at', 'no.', 'there', 'where', 'when', 'whereas', 'provided', 'subject', 'both', 'either', 'neither',
]);
/** Parties and pronouns a clause's first sentence opens with ("ASSIGNMENT Tenant shall not …"). */
const SUBJECTS = new Set([
  'a', 'an', 'no', 'neither', 'tenant', 'landlord', 'company', 'client', 'licensee', 'licensor', 'supplier', 'purchaser', 'buyer', 'seller', 'carrier',
  'shipper', 'borrower', 'lender', 'employee', 'employer', 'executive', 'contractor', 'consultant', 'patient', 'patients', 'we', 'you', 'insurance', 'coverage',
]);
/** A list bullet after a heading ("4. Hours of Operation • Engineering: …"). */
const BULLET = /^[•▪●◦‣∙]$/u;
/** Words before a colon or period that label a line, not a clause ("Note: …", "Inc."). */
const NOT_HEADINGS = new Set([
  'note', 'notes', 'nb', 'see', 're', 'attention', 'attn', 'subject', 'date', 'to', 'from', 'cc', 'comment', 'comments', 'example', 'e.g', 'i.e',
  'mr', 'mrs', 'ms', 'dr', 'inc', 'corp', 'co', 'ltd', 'llc', 'no', 'st', 'jr', 'sr', 'etc', 'u.s', 'fig', 'figure', 'page', 'id', 'name', 'by', 'its', 'title',
]);
const MAX_HEADING_WORDS = 8;
/** "Section 14.3 " before a clause's text: its number, not words of a run-in heading. */
const SECTION_NUMBER = /^\s*(?:Section|SECTION|Article|ARTICLE)\s+\d+(?:\.\d+)*[A-Z]?[.:]?\s+(?=\S)/u;
const unnumbered = (text: string): string => text.replace(SECTION_NUMBER, '').replace(HEADING_NUMBER, '');
/** A text of this many words or fewer, set as a title, is a heading by itself. */
const MAX_TITLE_WORDS = 10;
const MAX_TITLE_CHARS = 160;
/** A run-in heading is looked for this far into a clause. */
const RUN_IN_CHARS = 200;
/** A document of this many words or fewer without headings may be one clause as a whole. */
const MAX_CLAUSE_WORDS = 1000;

const isCapitalised = (w: string): boolean => /^["“(']?[\p{Lu}]/u.test(w);
const isAllCaps = (w: string): boolean => /\p{Lu}/u.test(w) && !/\p{Ll}/u.test(w);
const NOT_WORD_CHAR = /[^\p{L}\p{N}&]/u;
/** A word lower-cased without the punctuation around it ("(Tenant)," → "tenant"); most words have none to take off. */
const bare = (w: string): string => {
  const lower = w.toLowerCase();
  if (!lower || (!NOT_WORD_CHAR.test(lower[0]!) && !NOT_WORD_CHAR.test(lower[lower.length - 1]!))) return lower;
  return lower.replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&]+$/gu, '');
};

/** Label-like segments ("Location:", "Accident Number:") of a key/value form: a text with several is a form, not a clause with a heading. */
function formLabels(text: string): number {
  return text.match(/(?:^|\s)[\p{Lu}][\p{L}/&()'’.-]*(?:\s[\p{L}/&()'’.-]+){0,3}\s?:(?=\s)/gu)?.length ?? 0;
}

/** `^(?:\S+\s+){k}` for each k a heading's length can be, compiled once. */
const FIRST_WORDS = Array.from({ length: MAX_HEADING_WORDS + 1 }, (_, k) => new RegExp(`^(?:\\S+\\s+){${k}}`, 'u'));

/** The text after its first `k` words. */
function skipWords(text: string, k: number): string {
  return text.replace(FIRST_WORDS[k] ?? new RegExp(`^(?:\\S+\\s+){${k}}`, 'u'), '');
}

/** Words of a heading: capitalised, or small connectors; no verb; the first not a sentence's opening. */
function headingWords(words: readonly string[]): boolean {
  if (!words.length || words.length > MAX_HEADING_WORDS) return false;
  if (!isCapitalised(words[0]!) || SENTENCE_STARTS.has(words[0]!.toLowerCase())) return false;
  let letters = 0;
  for (const w of words) {
    const b = bare(w);
    if (!b) continue;
    if (VERBS.has(b)) return false;
    if (!isCapitalised(w) && !CONNECTORS.has(b) && !/^[\p{Ll}]/u.test(w)) return false;
    letters += b.replace(/[^\p{L}]/gu, '').length;
  }
  // Mostly capitalised: a sentence-case heading ("Limit on liability") has at most one lower-case content word.
  const lowerContent = words.filter((w) => /^[\p{Ll}]/u.test(w) && !CONNECTORS.has(bare(w))).length;
  if (lowerContent > 1) return false;
  return letters >= 3;
}

/** After a comma inside a heading: its next subject, capitalised, maybe after "and", "or" or "&". */
function listGoesOn(words: readonly string[], at: number): boolean {
  const next = words[at] ?? '';
  const subject = /^(?:and|or|&)$/u.test(next) ? (words[at + 1] ?? '') : next;
  return /^[\p{Lu}]/u.test(subject) && !SENTENCE_STARTS.has(bare(subject)) && !SUBJECTS.has(bare(subject));
}

/**
 * The run-in heading a clause opens with, numbering off ("7.1 Tenant's Insurance. Tenant shall…" →
 * "Tenant's Insurance"); of several in a row ("INSURANCE. 7.1 Tenant's Insurance. …") the last, the
 * clause's own. Null when the text does not open with one.
 */
export function runInHeading(text: string): string | null {
  let rest = text.trim();
  let found: string | null = null;
  for (let round = 0; round < 3; round++) {
    // "ARTICLE 5 - TERM The term …": the dash after a number is no word of the heading.
    const numbered = unnumbered(rest);
    rest = numbered === rest ? rest : numbered.replace(/^[-–—]\s+/u, '');
    const words = rest.slice(0, RUN_IN_CHARS).split(/\s+/);
    // The words cut at the window's end are not the text's: the text goes on after them.
    if (rest.length > RUN_IN_CHARS) words.push('…');
    let end = -1;
    // "Heading. Next sentence" / "Heading: text"
    for (let i = 0; i < Math.min(words.length - 1, MAX_HEADING_WORDS); i++) {
      const w = words[i]!;
      if ((/[.:]$/.test(w) && !/\.\.$/.test(w)) || BULLET.test(words[i + 1]!)) {
        end = i;
        break;
      }
      // A heading may list its subjects ("Study Procedures, Materials, and Potential Risks:"): a comma goes on to a
      // capitalised word, or to "and"/"or"/"&" and one; any other comma or a semicolon ends a sentence's clause, not a heading.
      if (/[,;]$/.test(w) && !(w.endsWith(',') && listGoesOn(words, i + 1))) break;
    }
    let heading: string[] | null = null;
    let after = '';
    if (end >= 0) {
      const candidate = words.slice(0, end + 1);
      const last = bare(candidate.at(-1)!);
      const next = words[end + 1] ?? '';
      const colon = candidate.at(-1)!.endsWith(':');
      const opensSentence = /^["“(‘'\d]|^[\p{Lu}]/u.test(next) || BULLET.test(next);
      if (headingWords(candidate) && !NOT_HEADINGS.has(last) && !(candidate.length === 1 && NOT_HEADINGS.has(bare(candidate[0]!))) && opensSentence && !/^\p{L}\.$/u.test(candidate.at(-1)!) && !(colon && formLabels(rest) >= 3)) {
        heading = candidate;
        after = skipWords(rest, end + 1);
      }
    }
    if (!heading) {
      // "KEY TERMS The terms of …": capitals then a sentence.
      let i = 0;
      while (i < words.length && i < MAX_HEADING_WORDS && isAllCaps(words[i]!) && /\p{L}/u.test(words[i]!)) i++;
      const next = words[i] ?? '';
      // The capitals end where a sentence begins ("KEY TERMS The terms …"), not a name ("BOCO Investments, LLC").
      const opens = /^[\p{Lu}][\p{Ll}]/u.test(next) && (SENTENCE_STARTS.has(bare(next)) || SUBJECTS.has(bare(next)));
      if (i >= 1 && i < words.length && opens && !words.slice(0, i).some((w) => w.includes('/')) && words.slice(0, i).join('').replace(/[^\p{L}]/gu, '').length >= 4) {
        const candidate = words.slice(0, i);
        if (!candidate.some((w) => VERBS.has(bare(w))) && !SENTENCE_STARTS.has(bare(candidate[0]!))) {
          heading = candidate;
          after = skipWords(rest, i);
        }
      }
    }
    // Nothing of a clause after the heading (a single word at most).
    if (!heading || !/\s/u.test(after)) break;
    // A parenthetical in a heading qualifies it ("Malaysia Inventory (EHS Register)").
    found = heading.join(' ').replace(/[.:]+$/, '').replace(/\s*\([^)]*\)/gu, '').trim() || null;
    rest = after;
  }
  return found;
}

/** Headings that say where a clause is, not what it is ("3.1 General."): the clause is named by its topic instead. */
const GENERIC_HEADINGS = new Set(['general', 'generally', 'miscellaneous', 'other', 'others', 'additional', 'introduction', 'overview', 'background', 'summary', 'provisions', 'general provisions', 'other provisions', 'additional provisions', 'continued', 'secondary', 'primary', 'exploratory']);
/** Words of an organisation's name: a line of them names a party, not a clause ("Co." is one, "Co-owner" is not). */
const ORGANISATION = /\b(?:company|corporation|inc|llc|l\.l\.c|ltd|limited|bank|plc|lp|llp|co)\b(?!-)\.?/iu;

export function isGenericHeading(heading: string): boolean {
  return GENERIC_HEADINGS.has(heading.toLowerCase().replace(/[^\p{L}\s]+/gu, '').trim());
}

/**
 * A text that is a heading by itself ("Representations and Warranties.", "Wreckage and Impact
 * Information"), numbering off; of a title with a qualifier after a dash or in parentheses ("Pollutant
 * Cleanup and Removal – Annual Aggregate", "Employee Benefits Liability (Claims Made Coverage)") the head.
 */
// Words apart by spaces only, so that a line that fails to match fails at once (no way to split a word twice).
const SCOPED_TITLE = /^((?:[\p{Lu}][\p{L}’'-]*\s+)+[\p{Lu}][\p{L}’'-]*)\s+(?:at|in|on|for|per|within|under)(?:\s+[\p{Ll}][\p{Ll}’'-]*)+\s*$/u;

export function titleText(text: string): string | null {
  if (text.length > MAX_TITLE_CHARS) return null;
  // A note's mark after it ("Included*") is the page's, not the words'.
  const t = unnumbered(text.trim()).replace(/\s*[*†‡]+$/u, '').replace(/[.:]$/, '');
  if (ORGANISATION.test(t) || NOT_TITLES.test(t)) return null;
  const head = t.replace(/\s*\([^)]*\)\s*$/u, '').split(/\s+[–—-]\s+/u)[0]!;
  if (head !== t && head.split(/\s+/).length >= 2) return titleText(head);
  // A title in capitals over a place or scope in lower case ("Personal Property at each premises"): the title.
  const scoped = SCOPED_TITLE.exec(t);
  if (scoped) return titleText(scoped[1]!);
  const words = t.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > MAX_TITLE_WORDS) return null;
  if (/[.;:,]/.test(words.slice(0, -1).join(' ').replace(/\b\p{L}\.(?=\p{L})/gu, ''))) return null;
  const titleCase = words.every((w) => isCapitalised(w) || CONNECTORS.has(bare(w)) || /^[\p{Lu}\d$%().,–-]+$/u.test(w));
  // Sentence case ("Potential acute health effects"): a short line of plain words.
  // Not an instruction, which opens on its verb ("Wear protective gloves", "Keep away from heat").
  // Nor a scope, which opens on its preposition ("At all described premises", "In any one occurrence").
  const sentenceCase =
    words.length <= 6 && words.slice(1).every((w) => /^[\p{Ll}]+$/u.test(w) || CONNECTORS.has(bare(w))) && !INSTRUCTIONS.has(bare(words[0]!)) && !(words.length > 1 && SCOPES.has(bare(words[0]!)));
  if (!titleCase && !sentenceCase) return null;
  if (words.some((w) => VERBS.has(bare(w)))) return null;
  if (!isCapitalised(words[0]!) || /\d/.test(t.replace(/\b\d+(?:st|nd|rd|th)\b/g, ''))) return null;
  return formTitle(t.replace(/[^\p{L}\p{N})]+$/u, ''));
}

/**
 * Lines that are no title: an aside in brackets ("(Mark One)", "(Signature Page to Follow)"), an answer
 * ("None.", "Yes", "Included": a form's value set on its own line), an ordinal alone (a schedule's "Second"
 * year), a line that goes on (it ends on a comma or a small word: "Railways,", "For the transition
 * period from to .").
 */
const NOT_TITLES = /^\(.*\)$|^(?:[Nn]one|NONE|N\/A|n\/a|[Nn]ot applicable|[Yy]es|YES|[Nn]o|NO|[Ii]ncluded|INCLUDED|[Ee]xcluded|EXCLUDED|[Nn]ot [Cc]overed|[Nn]ot [Ii]ncluded|First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth)$|[,;]$|\s(?:of|and|the|to|for|or|in|on|with|by|a|an|from|at)\s*\.?$/u;

/** Prepositions a scope opens on: a line in sentence case opening on one says where or when, it names nothing. */
const SCOPES = new Set(['at', 'in', 'on', 'for', 'per', 'within', 'under', 'by', 'from', 'to', 'during']);

/** Verbs an instruction opens on (safety data, handling, first aid): a line that opens on one tells what to do, it names nothing. */
const INSTRUCTIONS = new Set([
  'put', 'keep', 'wear', 'wash', 'rinse', 'avoid', 'use', 'store', 'remove', 'take', 'call', 'get', 'seek', 'do', 'dispose', 'handle', 'follow',
  'read', 'ensure', 'move', 'flush', 'contact', 'prevent', 'protect', 'check', 'make', 'see', 'refer', 'place', 'open', 'close', 'turn', 'press',
]);

/** A form's own word after the title in capitals: its kind ("… LIMITATION ENDT"), that it applies ("… LIMITATION APPLIES"), its edition ("… CONDITIONS-DELUXE"). */
const FORM_WORDS = /(?:\s+(?:ENDT|ENDMT|APPLIES|APPLY)|(?<=\S\s+\S+)-[\p{Lu}]+)$/u;

/** A title in capitals without its form's own word ("ELECTRONIC VANDALISM LIMITATION ENDT" → "ELECTRONIC VANDALISM LIMITATION"). */
function formTitle(title: string): string {
  if (/\p{Ll}/u.test(title)) return title;
  const head = title.replace(FORM_WORDS, '');
  return head.split(/\s+/).length >= 2 ? head : title;
}

/** A definition: ("(g) "Modifications" means …", "The term "Gross Revenue" shall mean …") and the term it defines. */
const DEFINITION = /^\s*(?:\(?[a-z0-9]{1,4}[.)]\s+)?(?:the\s+terms?\s+)?["“]([^"”]{2,60})["”]\s+(?:means|shall\s+mean|includes|shall\s+include|has\s+the\s+meaning|refers\s+to|is\s+defined)\b/iu;

/** The term a clause defines ("Gross Revenue"), or null. */
export function definedTerm(text: string): string | null {
  return DEFINITION.exec(text)?.[1]?.trim() ?? null;
}

/**
 * "This Mutual Non-Disclosure Agreement (this "Agreement") is …", "THIS OFFICE LEASE (the "Lease") is made …": a document
 * opening on its own name, which ends on the word it is then called by.
 */
const SELF_NAME = /^\s*(?:This|THIS)\s+((?:[\p{Lu}][\p{L}'’-]*\s+){0,6}([\p{Lu}][\p{L}'’-]*))\s*\((?:the\s+|this\s+)?["“]([\p{L}]+)["”]\)/u;

/** The name a document gives itself as it opens, or null. */
export function selfName(text: string): string | null {
  const m = SELF_NAME.exec(text);
  return m && m[2]!.toLowerCase() === m[3]!.toLowerCase() ? m[1]! : null;
}

/** Parties a clause's duty falls on ("Client will defend, indemnify …"). */
const PARTIES = new Set([
  'tenant', 'landlord', 'company', 'client', 'licensee', 'licensor', 'supplier', 'purchaser', 'buyer', 'seller', 'carrier', 'shipper', 'borrower',
  'lender', 'employee', 'employer', 'executive', 'contractor', 'consultant', 'customer', 'vendor', 'distributor', 'owner', 'manager', 'guarantor',
]);
/** "Client will defend, indemnify and hold …": the party and the verbs of its duty. */
const DUTY = /^(?:the\s+)?([\p{Lu}][\p{Ll}]+)\s+(?:shall|will|must|agrees\s+to|hereby\s+agrees\s+to|covenants\s+to)\s+((?:[\p{Ll}]+,?\s+){1,6})/u;

/**
 * A one-word heading that names the duty of the party its clause opens on ("Indemnification. Client
 * will defend, indemnify …") is that party's: "Client Indemnification". Otherwise the heading.
 */
export function partyHeading(heading: string, text: string): string {
  if (/\s/u.test(heading.trim())) return heading;
  const at = text.indexOf(heading);
  const duty = at < 0 ? null : DUTY.exec(text.slice(at + heading.length).replace(/^[.:]\s*/u, ''));
  // A duty not to ("Tenant shall not assign") is no party's assignment.
  if (!duty || !PARTIES.has(duty[1]!.toLowerCase()) || /^(?:not|never)\b/u.test(duty[2]!)) return heading;
  const noun = heading.toLowerCase();
  const verbs = duty[2]!.split(/[\s,]+/u).filter((w) => w && w !== 'and' && w !== 'or');
  return verbs.some((v) => nounOfVerb(v) === noun) ? `${duty[1]} ${heading}` : heading;
}

/** The name a clause's text gives itself (a heading, a term it defines) or its topic gives it, or null. */
export function clauseName(text: string, wholeText = text, kinds?: ReadonlySet<string>): string | null {
  const runIn = runInHeading(text);
  const heading = runIn ? partyHeading(runIn, text) : titleText(text);
  if (heading && !isGenericHeading(heading)) {
    const name = sectionName(heading);
    if (name !== 'Section') return name;
  }
  const term = definedTerm(text);
  if (term) return sectionName(`${term} Definition`);
  return topicLabel(wholeText, kinds);
}

/** The element name of what a text is about, or null; only a topic of the kinds of text around it (absent: any). */
function topicLabel(text: string, kinds?: ReadonlySet<string>): string | null {
  if (isCarePlan(text)) return kinds && !kinds.has('clinical') ? null : CARE_PLAN;
  const topic = topicName(text, kinds);
  return topic ? sectionName(topic) : null;
}

/** What a clinical note's orders are: its plan of treatment. */
const CARE_PLAN = 'TreatmentPlan';
/** Verbs a clinician's orders open with ("Give patient …", "Continue …", "HOLD altace …"). */
const CARE_ORDERS = new Set([
  'give', 'continue', 'hold', 'resume', 'start', 'stop', 'consider', 'monitor', 'consult', 'admit', 'obtain', 'order', 'check', 'repeat', 'discontinue',
  'titrate', 'increase', 'decrease', 'recheck', 'administer', 'schedule', 'refer', 'encourage', 'educate', 'counsel', 'prescribe', 'begin', 'initiate', 'avoid', 'taper', 'wean',
]);
/** A problem's tag and a bullet or list marker before an order ("++Swollen tongue: • Give …", "a. Admit to telemetry"). */
const ORDER_LEAD = /^\s*(?:\+\+[^•:\n]{1,40}:?\s*)?(?:[•▪●◦‣∙-]\s*|\(?[a-z0-9]{1,3}[.)]\s+)?/u;
/** Words of clinical care: an order among them is a clinician's, not a contract's "Give notice". */
const CLINICAL = /\b(?:patients?|meds?|medications?|mg|mcg|prn|bid|tid|qhs|qday|iv|po|drip|dose|doses|nebs?|telemetry|mri|ekg|ecg|tte|labs)\b/iu;

/** A clinical text that opens on an order ("Give patient corticosteroid …", "HOLD altace …") is a plan of treatment. */
export function isCarePlan(text: string): boolean {
  const [verb, next] = text.replace(ORDER_LEAD, '').split(/\s+/u, 2);
  if (!verb || !next || !CARE_ORDERS.has(verb.toLowerCase()) || !/^[\p{Ll}]/u.test(next)) return false;
  // An order is a verb in its bare form at the start: "Give", "give" or "HOLD", not "Continued" or a name.
  if (!/^(?:[\p{Lu}]?[\p{Ll}]+|[\p{Lu}]+)$/u.test(verb)) return false;
  return CLINICAL.test(text.slice(0, MAX_BLOCK_CHARS));
}

/** A block's text is read this far: its topic shows in its first 2,000 characters, its heading in its first 200. */
const MAX_BLOCK_CHARS = 4000;

/** A block's text, its leaves' joined; up to `limit` characters or a little over. */
function blockText(n: Paragraph | List | Table, limit = Infinity): string {
  const texts: string[] = [];
  let length = 0;
  for (const leaf of leaves([n])) {
    texts.push(leaf.text);
    length += leaf.text.length + 1;
    if (length > limit) break;
  }
  return texts.join(' ');
}

/** A value under a form's label is this many words at most ("$132,477,622", "05/29/2021 – 05/29/2022"). */
const MAX_VALUE_WORDS = 8;

/** A line that is only a label ("Building Rate:", "Policy Number") over a short value line, as a form sets them. */
function isFormLabel(block: StructureNode, next: StructureNode | undefined): boolean {
  if (block.type !== 'paragraph' || next?.type !== 'paragraph') return false;
  if (block.leaf.text.trim().split(/\s+/).length > MAX_TITLE_WORDS || runInHeading(block.leaf.text)) return false;
  const value = next.leaf.text.trim();
  return value.split(/\s+/).length <= MAX_VALUE_WORDS && !runInHeading(value) && !titleText(value);
}

/** Short lines in a row, this many or more, one of them opening on a street's or a postal code's figure, are an address. */
const MIN_ADDRESS_LINES = 3;
const ADDRESS_LINE_WORDS = 8;
/** "200 rue de Paris", "93350 Le Bourget Cedex", "1 Infinite Loop": a figure, then a word. */
const NUMBERED_LINE = /^\d{1,6}\s+\p{L}/u;

/**
 * The paragraphs among `nodes` that are the lines of an address ("Aircraft Accident Investigation Bureau" / "Zone Sud" /
 * "200 rue de Paris" / "93350 Le Bourget Cedex" / "France", each a short line): their indices. Each line names a place
 * on the envelope, not a clause; page furniture between them does not break the run.
 */
function addressLines(nodes: readonly StructureNode[]): Set<number> {
  const out = new Set<number>();
  let run: number[] = [];
  const flush = (): void => {
    if (run.length >= MIN_ADDRESS_LINES && run.some((i) => NUMBERED_LINE.test((nodes[i] as Paragraph).leaf.text.trim()))) for (const i of run) out.add(i);
    run = [];
  };
  nodes.forEach((n, i) => {
    if (n.type === 'paragraph' && isFurniture(n.role)) return;
    if (n.type === 'paragraph' && n.structure === 'div' && n.leaf.text.trim().split(/\s+/u).length <= ADDRESS_LINE_WORDS) run.push(i);
    else flush();
  });
  flush();
  return out;
}

/** An item that is a name alone is this many words at most. */
const MAX_NAME_ITEM_WORDS = 6;

/** A list whose items are each a short name and nothing more (page furniture aside): no sentence, no label's colon, nothing under it. */
function isListOfNames(list: List): boolean {
  return list.items.every((item) => {
    const own = item.children.filter((c) => c.type !== 'paragraph' || !isFurniture(c.role));
    const only = own.length === 1 ? own[0] : undefined;
    if (only?.type !== 'paragraph') return false;
    const text = only.leaf.text.trim();
    return text.split(/\s+/u).length <= MAX_NAME_ITEM_WORDS && !/[.:;,]$/u.test(text) && /^\p{Lu}/u.test(text);
  });
}

/** A short line set this many times in one document is a column's value or a form's label ("Prem/Ops.", "Signature:"), not a clause's title. */
const RECURRING_LINE = 3;

function recurringLines(all: readonly Leaf[]): Set<string> {
  const counts = new Map<string, number>();
  for (const leaf of all) {
    const text = leaf.text.trim();
    if (text.length <= MAX_TITLE_CHARS) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n >= RECURRING_LINE).map(([text]) => text));
}

/**
 * Names the clauses of a document: paragraphs, lists and tables outside a section that names them,
 * and a short document without headings as a whole.
 */
export function nameClauses(model: Pick<StructureModel, 'nodes' | 'clause'>): void {
  const body = model.nodes.filter((n) => n.type !== 'paragraph' || !isFurniture(n.role));
  // What kinds of text each block is in (a filing's statements, the contract among its exhibits): its topic must be of one.
  const all = [...leaves(model.nodes)];
  const order = new Map<Leaf, number>(all.map((leaf, i) => [leaf, i]));
  const kindsAround = documentKinds(all.map((leaf) => leaf.text));
  const recurring = recurringLines(all);
  const kindsOf = (n: StructureNode): ReadonlySet<string> | undefined => {
    let first: number | undefined;
    let last: number | undefined;
    for (const leaf of leaves([n])) {
      last = order.get(leaf);
      first ??= last;
    }
    return first === undefined ? undefined : kindsAround(first, last ?? first);
  };
  const walk = (nodes: readonly StructureNode[], named: boolean): void => {
    const bare = bareLabels(nodes);
    const address = addressLines(nodes);
    for (const [i, n] of nodes.entries()) {
      if (n.type === 'section') {
        // A section's only paragraph is its named body already, unless it opens on a heading of its own
        // (`7. INSURANCE.` over `7.1 Tenant's Insurance. Tenant shall …`).
        const only = n.children.length === 1 ? n.children[0] : undefined;
        if (only?.type === 'paragraph' && !isFurniture(only.role)) {
          const own = runInHeading(only.leaf.text);
          const name = own && !isGenericHeading(own) ? sectionName(own) : null;
          if (name && name !== sectionName(n.heading.text)) only.clause = name;
        }
        walk(n.children, n.children.length === 1);
        continue;
      }
      if (n.type === 'paragraph' && isFurniture(n.role)) continue;
      if (named) continue;
      // A form's field set one per line ("Aircraft Make:" over "Cirrus Design Corp."): the label names its value
      // (form-labels.ts); neither line is a clause's title.
      if (bare.has(i) || bare.has(i - 1) || stackedValue(nodes[i - 1], n) || stackedValue(n, nodes[i + 1]) || (loneLabel(n) && loneLabel(nodes[i + 1]))) continue;
      let name: string | null;
      if (n.type === 'list' && n.items.length > 1) {
        // Each item is a clause of its own; the list is named by what it is about, never by its first item's heading.
        // Items that are names alone ("Indigenous Peoples", "Women", "Youth") are the list's values, not clauses' titles.
        if (!isListOfNames(n)) for (const item of n.items) walk(item.children, false);
        name = topicLabel(blockText(n, MAX_BLOCK_CHARS), kindsOf(n));
      } else if (n.type === 'list') {
        // A list of one item ("9. Indemnification. Client will…") is that item's clause; one name alone is a value.
        if (isListOfNames(n)) continue;
        const text = blockText(n, MAX_BLOCK_CHARS);
        name = clauseName(text, text, kindsOf(n));
      } else {
        if (n.type === 'paragraph' && (recurring.has(n.leaf.text.trim()) || address.has(i))) continue;
        const text = n.type === 'paragraph' ? n.leaf.text : blockText(n, MAX_BLOCK_CHARS);
        name = clauseName(text, text, kindsOf(n));
      }
      if (name) n.clause = name;
    }
  };
  walk(model.nodes, false);
  const only = body.length === 1 ? body[0] : undefined;
  if (only?.type === 'section') {
    // A short document that is one section is that clause as a whole, heading and body: named by its heading around both.
    // A number alone ("Section 8.1") says where the clause is, not what it is.
    const numberOnly = !/\p{L}/u.test(only.heading.text.replace(/^\s*(?:section|article)\s+\d+(?:\.\d+)*[a-z]?\b/iu, '').replace(HEADING_NUMBER, ''));
    // A firm's name over its signature block ("DOCUGAMI INC.:") says whose the block is, not what it is.
    const name = isGenericHeading(only.heading.text) || numberOnly || ORGANISATION.test(only.heading.text) ? null : sectionName(only.heading.text);
    const words = [...leaves([only])].reduce((n, leaf) => n + leaf.text.split(/\s+/).length, 0);
    if (name && name !== 'Section' && words <= MAX_CLAUSE_WORDS) model.clause = name;
    return;
  }
  if (body.length < 2 || body.some((n) => n.type === 'section')) return;
  // A document without headings that names itself as it opens ("This Mutual Non-Disclosure Agreement (this "Agreement") is
  // entered into …") is that document as a whole, however long, its clauses inside it.
  const own = body[0]!.type === 'paragraph' ? selfName(body[0]!.leaf.text) : null;
  if (own) {
    model.clause = sectionName(own);
    for (const n of body) if ((n as Paragraph).clause === model.clause) delete (n as Paragraph).clause;
    return;
  }
  let words = 0;
  for (const n of body) {
    words += blockText(n as Paragraph | List | Table).split(/\s+/).length;
    if (words > MAX_CLAUSE_WORDS) return;
  }
  // Blocks with headings of their own after the first are clauses of their own: the document is not one.
  // The labels of a form ("Building Rate:" over "0.492") head values, not clauses: the form is one whole.
  const headed = body.map((n) => (n.type === 'paragraph' ? (runInHeading(n.leaf.text) ?? titleText(n.leaf.text)) : null));
  // A label's colon set on a line of its own (as text extraction leaves it) belongs to the label: the value is the line after.
  const valueOf = (i: number): StructureNode | undefined => {
    const next = body[i + 1];
    return next?.type === 'paragraph' && !/[\p{L}\p{N}]/u.test(next.leaf.text) ? body[i + 2] : next;
  };
  const formLabel = body.map((n, i) => headed[i] !== null && isFormLabel(n, valueOf(i)));
  if (headed.some((h, i) => i > 0 && h && !formLabel[i])) return;
  const whole = body.map((n) => blockText(n as Paragraph | List | Table)).join(' ');
  // A form is named by what it is about, not by its first label ("Rating Basis:" over a longer value is a label all the same).
  const form = formLabel[0] || (formLabel.some(Boolean) && body[0]!.type === 'paragraph' && /:\s*$/u.test(body[0]!.leaf.text));
  const heading = form ? null : headed[0];
  const name = heading && !isGenericHeading(heading) ? sectionName(heading) : topicLabel(whole, kindsAround(0, order.size - 1));
  if (!name) return;
  model.clause = name;
  // The blocks' own names under it that only repeat it go.
  for (const n of body) if ((n as Paragraph).clause === name) delete (n as Paragraph).clause;
}
