/** Organisations: capitalised words ending with a legal suffix ("Widget Corp.", "CW of Arizona, LLC"). */
import { type Candidate, regex, WORD_END, WORD_START } from './candidate.js';
import { nameStart, NOT_NAME_WORDS, ROLE_WORDS } from './names.js';
import { isStateName } from './places.js';

const DOTTED_SUFFIXES = String.raw`Co\.,?\s+Ltd\.|CO\.,?\s+LTD\.|Inc\.|Corp\.|Ltd\.|Co\.|L\.L\.C\.|L\.P\.|L\.L\.P\.|P\.L\.L\.C\.|N\.A\.|S\.A\.|B\.V\.|N\.V\.|INC\.|CORP\.|LTD\.`;
const BARE_SUFFIXES = String.raw`Inc|Corp|Ltd|LLC|LLP|PLLC|LP|PLC|plc|GmbH|INC|CORP|LTD`;
/** Also ordinary words: not a suffix when a capitalised word follows ("Limited Warranty"). */
const WORD_SUFFIXES = String.raw`(?:Incorporated|Corporation|Limited|INCORPORATED|CORPORATION|LIMITED|(?:Company|COMPANY)(?!\s(?:of|OF)\s))(?!\s\p{Lu}\p{Ll})`;
const SUFFIX = String.raw`(?:${DOTTED_SUFFIXES}|(?:${BARE_SUFFIXES})${WORD_END}|${WORD_SUFFIXES}${WORD_END})`;
/** A name runs through no other firm's suffix: "Blue River Holdings LLC and Acme Corp." is two firms. */
const NOT_SUFFIX = String.raw`(?!(?:${BARE_SUFFIXES}),?(?:\s|$))`;
const NAME_WORD = String.raw`(?:(?:\p{Lu}\.){1,4}|${NOT_SUFFIX}\p{Lu}[\p{L}\p{N}'’&/-]{0,30}|&)`;
/** "Trinity Rail Leasing 2017 LLC", "First States Investors 4100B GP, LLC", "CENTER 21, LP": a figure among a name's words, not its first. */
const FIGURE_WORD = String.raw`\d[\p{L}\p{N}]{0,10}`;
const CONNECTOR = String.raw`(?:of|and|for|the|de|la|du|der|van|von)`;
/**
 * "1700 Broadway Holdings LLC": a house number opening a firm's name, where a name stands (a line's start, after a comma or
 * "between"/"and"); not a year ("In 2019 Apple Inc.") nor a count ("Pay 5 Acme Corp. shares").
 */
const NUMBER_FIRST = String.raw`(?:(?<=^\s*|[,(:;]\s|(?:between|and|among|BETWEEN|AND|AMONG)\s)(?!(?:19|20)\d\d\s)\d{1,6}\s(?=\p{Lu}))?`;
/** "GLOBAL PAYMENTS ACQUISITION CORPORATION 2, a Luxembourg …": a series number after the suffix is the name's. */
const SERIES = String.raw`(?:\s\d{1,2}(?=[,;)]|\s*$))?`;
/** "US Group (DE) Inc.", "Morgan Stanley (Asia) Limited": a place or jurisdiction in brackets before the suffix is the name's. */
const BRACKETED = String.raw`(?:\s\(\p{Lu}[\p{L}.]{1,20}\))?`;
const ORGANISATION = regex('gu', WORD_START, '(?<name>', NUMBER_FIRST, NAME_WORD, String.raw`(?:\s(?:${CONNECTOR}\s)?(?:`, NAME_WORD, '|', FIGURE_WORD, ')){0,5}', BRACKETED, ')', String.raw`,?\s`, SUFFIX, SERIES);

const SUFFIX_CUE = regex('u', SUFFIX);

/** A word in capitals (letters all upper case; digits and "&" pass). */
const isCapitalised = (w: string): boolean => !/\p{Ll}/u.test(w);

/** "Co." only after an ampersand ("Smith & Co."), where it cannot be an abbreviation of something else. */
const CO_WITHOUT_AMPERSAND = /(?<!&)\sCo\.$/u;

/** A signature block's label for the signer's title or capacity, right before a run of capitalised words. */
const TITLE_LABEL_BEFORE = /(?:Title|TITLE|Its|ITS)\s*:\s*(?:(?:\p{Lu}[\p{L}.-]*|and|of|&)\s+){0,6}$/u;
/** The last word of a job title ("Vice President", "General Manager", "Class B Manager"). */
const JOB_TITLE_HEADS = new Set(['president', 'manager', 'director', 'officer', 'secretary', 'treasurer', 'chairman', 'partner', 'member', 'controller', 'counsel', 'signatory', 'ceo', 'cfo', 'coo']);
const MONTHS = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER)$/u;
/** "Company" as the suffix itself (not "Company, L.P."). */
const COMPANY_END = /\s(?:Company|COMPANY)$/u;

const plain = (w: string): string => w.replace(/[^\p{L}]/gu, '').toLowerCase();

/** Whether a name's last word is a party's role that the word before it, a word of a name, makes the firm's own. */
function ownLastWord(words: readonly string[]): boolean {
  const last = words.at(-1);
  const before = words.at(-2);
  return last !== undefined && before !== undefined && ROLE_WORDS.has(plain(last)) && (before === '&' || (/^\p{Lu}/u.test(before) && !NOT_NAME_WORDS.has(plain(before))));
}

/** What a sentence opens after: a text's or line's start, or a sentence's end (SENTENCE_END alone). */
const SENTENCE_OPENING = /(?:^|[.!?]["”’)]?|\n)\s*$/u;
const SENTENCE_END = /[.!?]["”’)]?\s*$/u;
/** A name's line ending right after it: punctuation at most, then the line's or text's end. */
const NAME_LINE_END = /^[\s,.;:)]*(?:\n|$)/u;
/**
 * A firm's bodies, members and officers: "the Board of Directors of Acme Inc." is not Acme's name ("Board of Trade of the
 * City of Chicago, Inc." is a name: "Board" alone is no such word).
 */
const BODY_WORDS = new Set([
  'directors', 'committee', 'shareholders', 'stockholders', 'members', 'managers', 'officers', 'officer', 'president', 'chairman',
  'secretary', 'treasurer', 'employees', 'affiliates', 'holders', 'creditors',
]);
/** A list's roman numeral ("IV.", "X."): no initial of a name. */
const LIST_NUMERAL = /^(?:I{2,3}|IV|VI{0,3}|I?X|XI{1,3})\.$/u;
const ARTICLE_BEFORE = /(?<![\p{L}\p{N}])(?:The|THE) $/u;

/**
 * How many characters of a "The" right before a name are the name's own ("limited to: The J. Jill Group, Inc.", "and THE
 * ULTIMATE SOFTWARE GROUP, INC"), or 0: written as the name is (capitalised before a name in title case, in capitals before
 * one in capitals) where a sentence does not open, so its capital is the name's, not the sentence's. A line in capitals is a
 * cover page's or signature block's name line ("THE BANK OF NEW YORK MELLON, as Trustee"): its start opens no sentence. A
 * role ("the Company") is in lower case or never gets here.
 */
function ownArticle(text: string, start: number, end: number, kept: string): number {
  // One character more than "The ", for the lookbehind to see what stands before it ("BATHE" is no article).
  const article = ARTICLE_BEFORE.exec(text.slice(Math.max(0, start - 5), start))?.[0];
  if (!article) return 0;
  const inCapitals = kept.split(' ').every(isCapitalised);
  if (article === 'THE ' ? !inCapitals : inCapitals && /^\p{L}{2}/u.test(kept)) return 0;
  const before = text.slice(Math.max(0, start - 44), start - 4);
  // A line that is the name alone ("The Nasdaq Stock Market LLC" in a table's cell) is no sentence: its "The" is the name's.
  const opening = article === 'THE ' || NAME_LINE_END.test(text.slice(end, end + 40)) ? SENTENCE_END : SENTENCE_OPENING;
  return opening.test(before) ? 0 : article.length;
}

export function findOrganisations(text: string): Candidate[] {
  if (!SUFFIX_CUE.test(text)) return [];
  const out: Candidate[] = [];
  for (const m of text.matchAll(ORGANISATION)) {
    const name = m.groups?.name ?? '';
    if (CO_WITHOUT_AMPERSAND.test(m[0])) continue;
    const words = name.split(' ');
    // "Graham Packaging Company, L.P.", "Computershare Trust Company, N.A.": a role word right before the suffix, after a word of
    // the name, is the firm's own ("the Company" elsewhere is a role).
    const own = ownLastWord(words);
    let first = nameStart(own ? words.slice(0, -1) : words, { capitals: true });
    if (first < 0) continue;
    // "Title: Senior Vice President and General Manager Taiwan Cooperative Bank, Ltd.": a signer's title, then the next firm's name.
    if (TITLE_LABEL_BEFORE.test(text.slice(Math.max(0, m.index - 80), m.index))) {
      const title = words.findLastIndex((w) => JOB_TITLE_HEADS.has(w.toLowerCase()));
      if (title >= first && title < words.length - 1) first = title + 1;
    }
    // "In 2019 Apple Inc.", "Section 5 Acme LLC", "June 2020 Acme LLC": a figure opens no name (a house number where a name
    // stands is NUMBER_FIRST's, at the match's start), nor runs on from a month's name.
    const month = words.findLastIndex((w, i) => i >= first && MONTHS.test(w));
    if (month >= 0 && /^\d/u.test(words[month + 1] ?? '')) first = month + 1;
    while (first > 0 && first < words.length && /^\d/u.test(words[first]!)) first++;
    // "X. Republic Airways Holdings Inc. shall …": a roman numeral opening a line numbers it ("A. O. Smith" keeps its initials).
    if (first === 0 && LIST_NUMERAL.test(words[0]!) && words.length > 1 && SENTENCE_OPENING.test(text.slice(Math.max(0, m.index - 40), m.index))) first = 1;
    // "the Board of Directors of Acme Holdings Inc.", "Shareholders of Acme Inc.": a firm's body, members or officers "of" it
    // are not its name.
    const body = words.findLastIndex((w, i) => i >= first && BODY_WORDS.has(plain(w)) && /^(?:of|OF)$/u.test(words[i + 1] ?? ''));
    if (body >= 0) {
      first = body + 2;
      while (first < words.length - 1 && /^(?:the|THE)$/u.test(words[first]!)) first++;
    }
    // "Pay 5 Acme Corp. shares": a figure after one capitalised word ends a sentence's opening, not a name's words.
    const figure = words.findIndex((w, i) => i > first && /^\d+$/u.test(w));
    if (figure > 0 && figure - first < 2) first = figure + 1;
    if (first >= words.length) continue;
    // "Insurance Company", "the Operating Company": "Company" makes a firm's name only after two words of it ("Arizona Public
    // Service Company"), or after one where the name's own "The" says it is one ("and The Coca-Cola Company").
    if (COMPANY_END.test(m[0]) && words.length - first < 2) {
      const one = words[first]!;
      if (!ownArticle(text, m.index + name.length - one.length, m.index + m[0].length, one)) continue;
    }
    // "Director GLOBAL PAYMENTS ACQUISITION CORPORATION": a name written in capitals does not open on words that are not
    // (a signer's title before it).
    const caps = words.findIndex((w, i) => i >= first && isCapitalised(w) && /^\p{Lu}/u.test(w));
    const suffixInCapitals = isCapitalised(m[0].slice(name.length));
    if (suffixInCapitals && caps > first && words.slice(caps).filter((w) => /\p{L}/u.test(w)).length >= 2 && words.slice(caps).every(isCapitalised) && words.slice(first, caps).every((w) => /^\p{Lu}\p{Ll}+$/u.test(w))) first = caps;
    const kept = words.slice(first).join(' ');
    // "a Washington Corporation" describes where a company is incorporated, it does not name it.
    if (isStateName(kept)) continue;
    const skipped = name.length - kept.length;
    const article = ownArticle(text, m.index + skipped, m.index + m[0].length, kept);
    out.push({ start: m.index + skipped - article, end: m.index + m[0].length, type: 'Org' });
  }
  return out;
}
