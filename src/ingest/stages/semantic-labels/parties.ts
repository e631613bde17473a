/** Parties named by their role (`CompanyName`, `ManagingMemberName`) and addresses by whose or what they are (`EmployeeAddress`). */
import { PARTY_NOUNS } from '../properties/label-kind.js';
import type { Token } from '../properties/tokens.js';
import { termAfterWords } from './terms.js';
import { firstAtOrAfter, pascal, singular } from './words.js';

/**
 * Whose or what address: `Kevin Young ("Employee"), residing at …` → `EmployeeAddress` (the party named just before it),
 * `the premises located at …` → `PremisesAddress`, `… (the "Property")` → `PropertyAddress`.
 */
export function addressName(tokens: Token[], v: { start: number; end: number }, near: string[], named: readonly { end: number; name: string }[]): string | null {
  // `…, Providence, Rhode Island 02903, as Administrative Agent (the "Agent")`: past the role the firm at the address takes.
  let end = v.end;
  const k = firstAtOrAfter(tokens, v.end);
  if (tokens[k]?.text === ',' && tokens[k + 1]?.text.toLowerCase() === 'as') {
    const open = tokens.slice(k + 2, k + 8).findIndex((t) => t.text === '(' || /^[,;.]$/u.test(t.text));
    if (open >= 0 && tokens[k + 2 + open]!.text === '(') end = tokens[k + 1 + open]!.end;
  }
  const term = termAfterWords(tokens, end);
  if (term && /^\p{Lu}/u.test(term[0]!) && term.length <= 3) return `${pascal(term)}Address`;
  const whose = whoseAddress(tokens, v.start) ?? noticeTo(tokens, v.start) ?? noticesSentTo(tokens, v.start);
  if (whose) return whose;
  // "with a notice address of …", "its mailing address is …": the kind of address the text gives.
  if (/^(?:of|is|at)$/u.test(near[0] ?? '') && near[1] === 'address' && /^(?:notice|mailing|billing|business|registered|home|residence|email|delivery)$/u.test(near[2] ?? '')) return `${pascal([near[2]!])}Address`;
  const at = near.findIndex((w) => /^(?:located|residing|resides|address|offices?|business|situated)$/u.test(w));
  if (at < 0 || at > 8 || !/^(?:at|is|in|of)$/u.test(near[0] ?? '')) return null;
  const place = near.slice(at + 1, at + 3).find((w) => /^(?:premises|property|building|facility|site)$/u.test(w));
  if (place) return `${pascal([place])}Address`;
  // "The Company's principal executive offices are located at …", "The Employee resides at …": the party the clause opens on.
  const opener = near.length - 2;
  const role = near[opener] ?? '';
  if (opener > at && opener <= at + 6 && near[opener + 1] === 'the' && (PARTY_NOUNS.has(role) || (/s$/u.test(role) && PARTY_NOUNS.has(role.slice(0, -1))))) {
    return `${pascal([PARTY_NOUNS.has(role) ? role : role.slice(0, -1)])}Address`;
  }
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

/** `Notices to the Company shall be sent to 100 Main Street, …` → `CompanyAddress`: where a party's notices go. */
function noticesSentTo(tokens: Token[], start: number): string | null {
  const end = firstAtOrAfter(tokens, start);
  const words = tokens.slice(Math.max(0, end - 12), end).map((t) => t.text);
  const text = words.join(' ');
  const m = /(?:^|\s)(?:[Nn]otices?|[Cc]ommunications)\s(?:to|for)\s(?:the\s)?((?:\p{Lu}\p{Ll}+\s){1,3})(?:shall|will|must|may|should)\s(?:be\s)?(?:sent|delivered|given|addressed|mailed)\s(?:to|at)$/u.exec(text);
  return m ? `${pascal(m[1]!.trim().split(/\s+/u))}Address` : null;
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

export function partyName(roles: readonly string[][] | undefined): string | null {
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
