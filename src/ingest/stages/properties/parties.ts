/**
 * Parties and their roles in running text: who a contract names, and as what. A name is found
 * beside the words that give it a role:
 * - a defined term after it, `Global Payments Inc., a Georgia corporation (the "Company")`;
 * - `as`/`its` after it, `CITIBANK, N.A., as Administrative Agent`, `Duke Realty LP, its general partner`;
 * - a label before it, `Tenant: Elevate Credit Service, LLC`, `"Company" means Penn Virginia Corporation`;
 * - a signature, `By: /s/ Jane Roe`, `I, Larry Betterley,`, `personally appeared Vikas Sinha`.
 * Names are runs of capitalised words that stop at a job title's words ("Managing Director BANK OF
 * …"), with legal suffixes and their commas ("BANK OF AMERICA, N.A.").
 */
import { NOT_NAME_WORDS } from '../entities/names.js';
import { isRoleNoun, PARTY_NOUNS } from './label-kind.js';
import { tokenize, type Token } from './tokens.js';

const SUFFIXES = new Set(
  ['inc', 'inc.', 'corp', 'corp.', 'co.', 'ltd', 'ltd.', 'llc', 'l.l.c.', 'lp', 'l.p.', 'llp', 'l.l.p.', 'pllc', 'plc', 'n.a.', 's.a.', 'ag', 'gmbh', 'b.v.', 'n.v.', 's.a.r.l.', 'incorporated', 'corporation', 'limited', 'company', 'trust', 'bank', 'branch', 'lllp', 'jr.', 'sr.', 'ii', 'iii', 'iv', 'p.c.', 'p.a.', 'pc', 'pa', 's.p.a.', 'spa', 'pty', 'pte', 'sarl', 'bv', 'nv', 'kg', 'se', 'ab', 'as', 'oy', 'l.p.a.', 'lpa', 'chtd', 'chartered', 'associates', 'national', 'association'],
);
/** Words of a job title: a name does not run back over them ("General Manager Taiwan Business Bank"). */
const TITLE_WORDS = new Set(['manager', 'director', 'officer', 'president', 'secretary', 'treasurer', 'vice', 'chief', 'chairman', 'attorney', 'fact', 'signatory', 'authorized', 'partner', 'member', 'counsel', 'controller', 'principal', 'title', 'name', 'by', 'its', 'date', 'witness', 'notary', 'managing', 'senior', 'assistant', 'interim', 'deputy', 'executive', 'financial', 'operating']);
/** The last word of a job title ("Property Manager", "Plan Administrator"). */
const JOB_TITLE_HEADS = /^(?:manager|director|officer|president|secretary|treasurer|controller|counsel|administrator|coordinator|supervisor|superintendent)$/u;
const CONNECTORS = new Set(['of', 'the', 'de', 'du', 'la', 'der', 'van', 'von', 'for', '&', 'y']);

export interface PartyMention {
  start: number;
  end: number;
  /** Each role as its lower-case words: [["administrative", "agent"], ["collateral", "agent"]]. */
  roles: string[][];
  /** Roles given together by one list (`as Administrative Agent and Collateral Agent`): the party holds them as one capacity. */
  together?: string[][];
  /** No role, but a firm the sentence says is incorporated somewhere: a company, to name (not a role to rank values by). */
  incorporated?: true;
}

const lower = (t: Token | undefined): string => (t ? t.text.toLowerCase() : '');
const isCapitalised = (t: Token | undefined): boolean => !!t && /^[\p{Lu}\p{N}]/u.test(t.text) && /\p{L}|\p{N}/u.test(t.text);
const allCaps = (t: Token): boolean => /\p{Lu}.*\p{Lu}|^\p{Lu}$/u.test(t.text) && !/\p{Ll}/u.test(t.text);
const isSuffix = (t: Token | undefined): boolean => !!t && SUFFIXES.has(t.text.toLowerCase());
const isWord = (t: Token | undefined): boolean => !!t && /[\p{L}\p{N}]/u.test(t.text[0]!);

/** Capitalised words that end a name's run to the left: sentence openers, labels, roles. */
function stopsName(t: Token): boolean {
  if (/^\p{Lu}\.$/u.test(t.text)) return false; // an initial: "Gordon A. Davies"
  if (/^(?:\p{Lu}\.){2,}$/u.test(t.text)) return false; // initials of a name's word: "U.S. Bank"
  const w = t.text.toLowerCase().replace(/[^\p{L}]/gu, '');
  const one = w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w;
  return ((NOT_NAME_WORDS.has(w) || NOT_NAME_WORDS.has(one) || EXTRA_STOPS.has(w)) && !SUFFIXES.has(w)) || TITLE_WORDS.has(w);
}

/** Capitalised words that open sentences and blocks of contracts, never a name. */
const EXTRA_STOPS = new Set(['dated', 'hereto', 'thereto', 'hereof', 'we', 'i', 'you', 'us', 'reference', 'whereas', 'witnesseth', 'than', 'consent', 'waiver', 'page', 'signature', 'signatures', 'accepted', 'acknowledged', 'attest', 'mr', 'mrs', 'ms', 'dr']);
const HONORIFIC = /^(?:Mr|Mrs|Ms|Dr|Messrs)\.?$/u;

/**
 * The name that ends just before token `end` (exclusive), scanning left: capitalised words of one
 * case style, connectors between them, legal suffixes after a comma. Null when there is none.
 */
function nameBefore(tokens: Token[], end: number): { from: number; to: number } | null {
  let i = end - 1;
  while (i >= 0 && tokens[i]!.text === ',') i--;
  const to = i;
  let from = -1;
  let capitals = 0;
  for (; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.text === ',' && isSuffix(tokens[i + 1]) && isCapitalised(tokens[i - 1])) continue;
    if (t.text === ')' && tokens[i - 2]?.text === '(' && isCapitalised(tokens[i - 1]) && from === -1) {
      i -= 2; // "Tesco Corporation (US)"
      from = i;
      continue;
    }
    if (t.text === ',' && lower(tokens[to]) === 'branch' && isCapitalised(tokens[i - 1])) continue; // "Taiwan Business Bank, Los Angeles Branch"
    if (HONORIFIC.test(t.text) && from !== -1) {
      from = i; // "Mr. Bianco"
      break;
    }
    if (t.text === 'AND' && from !== -1 && allCaps(tokens[from]!) && isCapitalised(tokens[i - 1]) && allCaps(tokens[i - 1]!)) continue;
    if (CONNECTORS.has(lower(t)) && from !== -1) {
      let k = i - 1;
      while (k >= 0 && CONNECTORS.has(lower(tokens[k]))) k--;
      if (isCapitalised(tokens[k]) && !stopsName(tokens[k]!)) continue;
    }
    // "MORGAN STANLEY SENIOR FUNDING, INC.": a title's word inside a firm's name in capitals, between words that are not titles'.
    const inFirm = from !== -1 && TITLE_WORDS.has(lower(t)) && allCaps(t) && allCaps(tokens[from]!) && !TITLE_WORDS.has(lower(tokens[from])) && isCapitalised(tokens[i - 1]) && allCaps(tokens[i - 1]!) && !stopsName(tokens[i - 1]!) && isSuffix(tokens[to]);
    if (t.text === 'THE' && from !== -1 && capitals >= 2 && allCaps(tokens[from]!)) {
      from = i; // "THE ULTIMATE SOFTWARE GROUP, INC.": a name in capitals keeps its article
      break;
    }
    if (!inFirm && (!isCapitalised(t) || (!isSuffix(t) && stopsName(t)))) break;
    // "Title: Director SHAREHOLDER REPRESENTATIVE SERVICES LLC": a firm's name in capitals does not run back into a word that is not.
    if (from !== -1 && isWord(t) && !allCaps(t) && !isSuffix(t) && capitals >= 2 && allCaps(tokens[from]!)) break;
    if (isWord(t) && allCaps(t) && !isSuffix(t) && t.text.length > 1) capitals++;
    from = i;
  }
  if (from === -1) return null;
  // A leading "The"/"THE" is not the name's, unless the whole name is in capitals ("THE ULTIMATE SOFTWARE GROUP, INC.": a legal name's own).
  while (from <= to && /^(?:the|a|an)$/iu.test(tokens[from]!.text) && !(tokens[from]!.text === 'THE' && capitals >= 2)) from++;
  if (from > to || !tokens.slice(from, to + 1).some((t) => isWord(t) && !isSuffix(t))) return null;
  return { from, to };
}

/** The name that starts at token `start`, scanning right; the same rules as `nameBefore`. */
function nameAfter(tokens: Token[], start: number): { from: number; to: number } | null {
  let i = start;
  while (i < tokens.length && /^(?:\/s\/|s\/|\/|:|the)$/iu.test(tokens[i]!.text)) i++;
  const from = i;
  if (HONORIFIC.test(tokens[i]?.text ?? '') && isCapitalised(tokens[i + 1])) i++;
  let to = -1;
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === ',' && isSuffix(tokens[i + 1]) && to !== -1) continue;
    if (t.text === '(' && tokens[i + 2]?.text === ')' && isCapitalised(tokens[i + 1]) && allCaps(tokens[i + 1]!) && to !== -1) {
      i += 2;
      to = i;
      continue;
    }
    if (CONNECTORS.has(lower(t)) && to !== -1 && isCapitalised(tokens[i + 1])) continue;
    if (t.text === 'AND' && to !== -1 && allCaps(tokens[to]!) && isCapitalised(tokens[i + 1]) && allCaps(tokens[i + 1]!)) continue;
    if (!isCapitalised(t)) break;
    // "Acme Corp. Tenant": a word after a legal suffix is not the name's ("Bank of America": one after a connector is).
    if (to !== -1 && isSuffix(tokens[to]) && !isSuffix(t) && !CONNECTORS.has(lower(tokens[i - 1]))) break;
    // "LIFE SCIENCE GROUP, LP, AS LANDLORD": "as" before a word is the preposition, not the Norwegian suffix.
    if (lower(t) === 'as' && to !== -1 && isWord(tokens[i + 1])) break;
    if (!isSuffix(t) && stopsName(t)) break;
    to = i;
  }
  if (to === -1) return null;
  return { from, to };
}

/**
 * The role words after `as`/`its`: "as a Lender, Issuing Bank and as Swing Line Lender" → three roles.
 * A role in lower case names one only by a role noun ("as agent", "as escrow agent"): after a name, "as
 * set forth", "as soon as reasonably possible", "as escalated" say how, not who.
 */
function rolesFrom(tokens: Token[], start: number): string[][] {
  const roles: string[][] = [];
  let current: string[] = [];
  let previous: Token | undefined;
  let capitalised = false;
  /** Keeps the role read so far; false when it names none (the list ends there). */
  const push = (): boolean => {
    if (!current.length) return true;
    if (!capitalised && !isRoleNoun(current.at(-1)!) && !TITLE_WORDS.has(current.at(-1)!)) return false;
    roles.push(current);
    return true;
  };
  for (let i = start; i < tokens.length && i < start + 16; i++) {
    const w = lower(tokens[i]);
    if (/^(?:a|an|the|its|as|each|solely|individually|sole|joint)$/u.test(w) || QUOTE.test(w) || (w === 'capacity' && lower(tokens[i + 1]) === 'as' && !current.length)) continue;
    // "its general partner Witness:": a label of the next line is not the role's; nor a capitalised word after lower-case role words.
    if (current.length && (tokens[i + 1]?.text === ':' || (isCapitalised(tokens[i]) && previous && !isCapitalised(previous)))) break;
    // "a Lender pursuant to …", "as Agent hereunder": a lower-case word after capitalised role words, no role's own word, ends it.
    if (current.length && capitalised && isCapitalised(previous) && /^\p{Ll}/u.test(tokens[i]!.text) && !/^(?:and|or)$/u.test(w) && !PARTY_NOUNS.has(w) && !TITLE_WORDS.has(w)) break;
    if (w === ',' && /^(?:a|an|and)$/u.test(lower(tokens[i + 1]))) break;
    if (w === 'and' || w === ',' || w === '/') {
      // "the Premises as provided above, Tenant shall …": what follows a phrase that is no role is no list of roles.
      if (!push()) return roles;
      current = [];
      continue;
    }
    // "as Trustee c/o KeyBank": an address's care-of ends the role.
    if (!isWord(tokens[i]) || /^(?:for|of|in|under|to|with|hereunder|party|hereto|thereto|on|by|c\/o|attn|attention)$/u.test(w)) break;
    // "is the Nation's largest landlord": a role of someone else's is a description, not the name's role.
    if (/['’]s$/u.test(tokens[i]!.text)) return roles;
    if (!current.length) capitalised = isCapitalised(tokens[i]);
    current.push(w.replace(/[^\p{L}\p{N}]/gu, ''));
    previous = tokens[i];
    if (current.length > 4) break;
  }
  push();
  return roles.filter((r) => r.length > 0);
}

const QUOTE = /^["“”‘’']$/u;
/** Words of a line under a label ("Landlord:") that is the labelled party's name line: the name and its appositives. */
const MAX_LABELLED_LINE_WORDS = 24;
/** A line that is only a word or three in quotes: `"LANDLORD"` over a signature block. */
const QUOTED_LINE = /^\s*["“][\p{L} ]{2,30}["”]\s*$/u;
/** A signature block's line of the role alone, the name on the next line: `By its non-member manager,`. */
const ITS_ROLE_LINE = /^\s*(?:by\s+)?its\s+\p{Ll}+(?:-\p{Ll}+)?(?:\s+\p{Ll}+){0,2},\s*$/iu;

/** A signature page's line of the defined role alone over the name: `The Pledgor`, `THE SELLERS` (a role noun, checked where used). */
const THE_ROLE_LINE = /^\s*the(?:\s+\p{L}+){1,3}\s*$/iu;

/** Whether a line labels the party named on the line after it: `LANDLORD:`, `"Tenant"`, `By its general partner,`, `The Pledgor`. */
export const labelsNextLine = (line: string): boolean => /:\s*$/u.test(line) || QUOTED_LINE.test(line) || ITS_ROLE_LINE.test(line) || THE_ROLE_LINE.test(line);

/** Words in quotes inside brackets starting at token `open` ("(", then the/each, a quote): `(the "Company")`. */
function definedTermAt(tokens: Token[], open: number, name?: readonly Token[]): { role: string[]; close: number } | null {
  if (tokens[open]?.text !== '(') return null;
  let i = open + 1;
  const terms: string[][] = [];
  for (; i < tokens.length && i < open + 40; i++) {
    const t = tokens[i]!;
    if (t.text === ')') break;
    if (QUOTE.test(t.text)) {
      const quoted: string[] = [];
      let j = i + 1;
      while (j < tokens.length && !QUOTE.test(tokens[j]!.text) && tokens[j]!.text !== ')' && quoted.length < 6) quoted.push(lower(tokens[j++]).replace(/[^\p{L}\p{N}]/gu, ''));
      if (QUOTE.test(tokens[j]?.text ?? '') && quoted.filter(Boolean).length) terms.push(quoted.filter(Boolean));
      i = j;
    }
  }
  if (tokens[i]?.text !== ')') return null;
  // `(Employee)`, `(the Company)` without quotes: one to three capitalised words.
  if (!terms.length) {
    let inner = tokens.slice(open + 1, i);
    if (/^(?:the|this)$/iu.test(inner[0]?.text ?? '')) inner = inner.slice(1);
    // "(FedRAMP)", "(GNP)": an abbreviation in brackets is a short name, not a role.
    const abbreviation = inner.length === 1 && (/\p{Ll}\p{Lu}/u.test(inner[0]!.text) || /^\p{Lu}{2,4}s?$/u.test(inner[0]!.text));
    // Without quotes, only a role noun is taken for a role: "(Seller)", not "(Joint)".
    const words = inner.map((t) => lower(t).replace(/[^\p{L}\p{N}]/gu, ''));
    if (inner.length && inner.length <= 3 && inner.every(isCapitalised) && !abbreviation && isRoleNoun(words.at(-1)!)) terms.push(words);
  }
  // `("Acme" or the "Company")`, `("CML," and together with Comstock, "Obligor")`: the first term that is a role, not a short name.
  // ("NSA REIT" or the "Parent Guarantor"): a term that ends in a role noun before one that is a name of its own.
  const role = terms.find((t) => !isAlias(t, name) && isRoleNoun(t.at(-1)!)) ?? terms.find((t) => !isAlias(t, name)) ?? terms[0];
  return role ? { role, close: i } : null;
}

/**
 * "The Company and Ireland appealed the Decision to the General Court (the “General Court”)": a lower-case word right after
 * a name, other than an appositive's or a list's, opens the sentence's predicate; a term further on is not the name's.
 */
function predicateAt(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  return !!t && /^\p{Ll}/u.test(t.text) && !/^(?:a|an|and|or|having|with|whose|residing|located|incorporated|organized|duly|individually|each|both|together|jointly|c\/o)$/u.test(lower(t));
}

/**
 * "The Seller is XYZ Holdings, Inc.", "The Landlord shall be …": the role a sentence that opens on it says its subject is
 * (`b`: the lower-case words before the name, `before` as written).
 */
function subjectRole(b: readonly string[], before: readonly Token[]): string | null {
  const r = b.at(-1) === 'is' ? -2 : b.at(-1) === 'be' && /^(?:shall|will)$/u.test(b.at(-2) ?? '') ? -3 : 0;
  const role = r ? b.at(r) : undefined;
  if (!role || !PARTY_NOUNS.has(role) || b.at(r - 1) !== 'the' || !/^\p{Lu}/u.test(before.at(r)!.text)) return null;
  return b.length === 1 - r || /^[.;:"“]$/u.test(b.at(r - 2) ?? '') ? role : null;
}

/** Title-case words of a job title from token `i`, up to its "of" ("Executive Vice Chairman of the Board"), ending in a title's head. */
function titleAt(tokens: Token[], i: number): string[] | null {
  const words: string[] = [];
  for (let k = i; k < tokens.length && words.length < 5 && TITLE_WORDS.has(lower(tokens[k])) && isCapitalised(tokens[k]) && !allCaps(tokens[k]!); k++) words.push(lower(tokens[k]));
  const end = tokens[i + words.length];
  const closed = !end || /^(?:of|[,.;:)])$/u.test(end.text) || !/^\p{L}/u.test(end.text) || isCapitalised(end);
  return words.length && closed && /^(?:officer|president|chairman|member|manager|director|secretary|treasurer|partner|counsel|controller)$/u.test(words.at(-1)!) ? words : null;
}

/**
 * The roles the text gives the name spanning tokens `[from, to]`: what follows it (an appositive,
 * then a defined term, `as …` or `its …`) and what stands before it (`Label:`, `"Term" means`).
 */
function rolesAround(tokens: Token[], from: number, to: number, previous: string | undefined, together: string[][][] = [], facts: { incorporated?: boolean } = {}): string[][] {
  const roles: string[][] = [];
  const name = tokens.slice(from, to + 1);
  let i = to + 1;
  // Skip appositives: ", a Delaware corporation", ", individually", up to a bracket, "as" or "its".
  for (let steps = 0; i < tokens.length && steps < 30; steps++) {
    const w = lower(tokens[i]);
    if (w === '(' || w === 'as' || w === 'its' || w === 'acting') break;
    if (steps === 0 && predicateAt(tokens, i)) break;
    if (w === ',' && lower(tokens[i + 1]) === 'in' && lower(tokens[i + 2]) === 'its' && lower(tokens[i + 3]) === 'capacity') break;
    if (w === 'hereinafter' || (w === ',' && lower(tokens[i + 1]) === 'hereinafter')) break;
    if (w === ',' && /^(?:a|an|individually|each|acting|both|as|its)$/u.test(lower(tokens[i + 1]))) {
      i++;
      continue;
    }
    if (w === ',' || w === ';' || w === '.' || w === ':') {
      if (steps === 0) {
        // "David Manovich, Executive Vice Chairman of the Board": a job title in apposition is the role.
        const title = w === ',' ? titleAt(tokens, i + 1) : null;
        if (title) {
          roles.push(title);
          break;
        }
        i++;
        continue;
      }
      // `X, a Delaware limited liability company, Member` (a signature block): a role noun closing the appositive.
      if (w === ',') {
        const tail = rolesFrom(tokens, i + 1);
        let k = i + 1;
        while (k < tokens.length && isWord(tokens[k]) && k < i + 5) k++;
        const closes = k >= tokens.length || /^[,.;]$/u.test(tokens[k]!.text);
        if (tail.length === 1 && closes && PARTY_NOUNS.has(tail[0]!.at(-1)!)) roles.push(tail[0]!);
      }
      break;
    }
    if (steps === 0 && isWord(tokens[i]) && allCaps(tokens[i]!) && tokens[i]!.text.length > 2 && !isSuffix(tokens[i]) && PARTY_NOUNS.has(w.replace(/[^\p{L}]/gu, ''))) {
      roles.push([w]); // "Siga Technologies, Inc. TENANT"
      break;
    }
    if (steps === 0) break;
    i++;
  }
  // "Jane Smith's employment with the Company": whose employment it is, is the employee.
  if (!roles.length && /\p{L}['’]s$/u.test(tokens[to]!.text) && lower(tokens[to + 1]) === 'employment' && !name.some(isSuffix)) roles.push(['employee']);
  // `(as successor to RMK Acquisition Corporation) (the "U.S. Borrower")`: a note of its history is passed over.
  if (lower(tokens[i]) === '(' && ((lower(tokens[i + 1]) === 'as' && /^(?:successor|assignee|formerly)$/u.test(lower(tokens[i + 2]))) || /^(?:formerly|f\/k\/a|d\/b\/a|successor)$/u.test(lower(tokens[i + 1])))) {
    while (i < tokens.length && tokens[i]!.text !== ')') i++;
    i++;
  }
  const w = lower(tokens[i]);
  const listed = (found: string[][]) => {
    roles.push(...found);
    if (found.length > 1) together.push(found);
  };
  let close = i;
  if (w === '(') {
    // `(as Facility Agent, Security Agent and Account Bank)`
    if (lower(tokens[i + 1]) === 'as') listed(rolesFrom(tokens, i + 2));
    else {
      const term = definedTermAt(tokens, i, name);
      if (term) {
        roles.push(term.role);
        close = term.close;
      }
    }
  } else if (w === 'acting' && lower(tokens[i + 1]) === 'through') {
    // "acting through its New York Branch, as Lender": the branch it acts through is passed over.
    let k = i + 2;
    while (k < tokens.length && k < i + 12 && lower(tokens[k]) !== 'as') k++;
    if (lower(tokens[k]) === 'as') listed(rolesFrom(tokens, k + 1));
  } else if (w === 'as' || w === 'acting') listed(rolesFrom(tokens, i + 1));
  // "its general partner", "its Manager": what it owns ("having its principal office at") is no role.
  else if (w === 'its') listed(rolesFrom(tokens, i + 1).filter((r) => PARTY_NOUNS.has(r.at(-1)!) || TITLE_WORDS.has(r.at(-1)!)));
  // `, hereinafter referred to as "Landlord"`, `hereinafter called "Tenant"`: a defined term without brackets.
  else if (w === 'hereinafter' || (w === ',' && lower(tokens[i + 1]) === 'hereinafter')) {
    let k = w === ',' ? i + 2 : i + 1;
    while (k < tokens.length && k < i + 6 && !/^(?:as|called|named|designated)$/u.test(lower(tokens[k]))) k++;
    if (QUOTE.test(tokens[k + 1]?.text ?? '') || QUOTE.test(tokens[k + 2]?.text ?? '')) {
      const role = rolesFrom(tokens, k + 1)[0];
      if (role && !isAlias(role, name)) roles.push(role);
    }
  }
  // `in its capacity as "Administrative Agent"`
  else if (w === ',' && lower(tokens[i + 1]) === 'in' && lower(tokens[i + 2]) === 'its' && lower(tokens[i + 3]) === 'capacity' && lower(tokens[i + 4]) === 'as') listed(rolesFrom(tokens, i + 5));
  // `… ("Glimcher Corp.") is the sole general partner of Glimcher LP`, `has agreed to become a Lender`: a role the sentence gives it.
  if (!roles.length || close !== i) {
    let k = close === i ? i : close + 1;
    // "Resource Real Estate Group have acted as broker", "Harbor Bank will serve as Escrow Agent".
    let a = k;
    if (/^(?:has|have|had|will|shall|to|agrees)$/u.test(lower(tokens[a]))) a++;
    if (lower(tokens[a - 1]) === 'agrees' && lower(tokens[a]) === 'to') a++;
    if (/^(?:act|acts|acted|acting|serve|serves|served|serving)$/u.test(lower(tokens[a])) && lower(tokens[a + 1]) === 'as') {
      const r = rolesFrom(tokens, a + 2)[0];
      if (r && (PARTY_NOUNS.has(r.at(-1)!) || TITLE_WORDS.has(r.at(-1)!))) roles.push(r);
    }
    if (lower(tokens[k]) === 'has' && lower(tokens[k + 1]) === 'agreed' && lower(tokens[k + 2]) === 'to') k += 3;
    if (/^(?:is|become|becomes|shall)$/u.test(lower(tokens[k])) && (lower(tokens[k]) !== 'shall' || lower(tokens[k + 1]) === 'be')) {
      if (lower(tokens[k]) === 'shall') k++;
      if (/^(?:the|a|an)$/u.test(lower(tokens[k + 1]))) {
        const r = rolesFrom(tokens, k + 1)[0];
        if (r && PARTY_NOUNS.has(r.at(-1)!)) roles.push(r);
      }
    }
  }
  // Before it: `Role:` (one case style, up to three words), `"Role" means`, a signature's cue.
  const before = tokens.slice(Math.max(0, from - 12), from);
  // A signature's "/s/" (tokens "/", "s/") stands between the label and the name: `By: /s/ Jane Roe`.
  const signed = /^(?:\/s\/|s\/|\/)$/u;
  let signature = false;
  while (before.length && signed.test(lower(before.at(-1)))) {
    before.pop();
    signature = true;
  }
  const b = before.map(lower);
  if (signature && b.at(-1) !== ':' && (before.length === 0 || b.at(-1) === '.')) roles.push(['signatory']);
  // `J. Servodidio / Executive Vice President`: a person's name opening a line with a job title after it signs.
  const title = lower(tokens[to + 1]).replace(/[^\p{L}]/gu, '');
  if (from === 0 && !roles.length && /^(?:chief|executive|senior|vice|president|secretary|treasurer|chairman|managing|general|interim|acting|deputy|assistant)$/u.test(title) && isCapitalised(tokens[to + 1]) && !allCaps(tokens[to + 1]!)) {
    const words = name.filter(isWord);
    if (words.length >= 2 && words.length <= 4 && words.every((t) => !allCaps(t) || /^\p{Lu}\.$/u.test(t.text)) && !words.some(isSuffix)) roles.push(['signatory']);
  }
  if (b.at(-1) === ':') {
    const colon = b.lastIndexOf(':');
    const label: string[] = [];
    for (let k = colon - 1; k >= 0 && label.length < 3 && isCapitalised(before[k]) && /^\p{L}/u.test(before[k]!.text); k--) {
      if (label.length && allCaps(before[k]!) !== allCaps(before[k + 1]!)) break;
      // "Its: Chief Financial Officer Landlord:": the signer's title before is not the label's.
      if (label.length && /^(?:officer|president|secretary|treasurer|title|its|by|name|date)$/u.test(b[k]!.replace(/[^\p{L}]/gu, ''))) break;
      label.unshift(b[k]!.replace(/[^\p{L}\p{N}]/gu, ''));
    }
    // "Title: JV JEFFERSONVILLE, LLC": a firm after a signer's "Title:" label is not a title. A label names a role only by
    // a role noun or a signature block's word: "Lessee:", "Administrative Agent:", "Attention:", not "Desired Outcome:".
    const roleLabel = label.length > 0 && (isRoleNoun(label.at(-1)!) || TITLE_WORDS.has(label.at(-1)!) || /^(?:attention|attn)$/u.test(label.at(-1)!));
    // "Attention: On-Site Property Manager": words before a job title are the title's, not a name.
    const ofTitle = JOB_TITLE_HEADS.test(lower(tokens[to + 1])) && isCapitalised(tokens[to + 1]);
    if (roleLabel && !ofTitle && !(label.length === 1 && label[0] === 'title' && name.some(isSuffix))) roles.push(label);
    if (label[0] === 'by' || label[0] === 'name') roles.push(['signatory']);
  } else if (before.length > 2 && QUOTE.test(before.at(-1)!.text)) {
    // `"LANDLORD" CARMEL RIVER, LLC`, `"Tenant" ACME, INC.`: a signature block's role in quotes over the name.
    const open = before.slice(0, -1).findLastIndex((t) => QUOTE.test(t.text));
    const words = open >= 0 ? b.slice(open + 1, -1) : [];
    const last = words.at(-1) ?? '';
    const head = last.length > 4 && /[^s]s$/u.test(last) ? last.slice(0, -1) : last;
    if (words.length >= 1 && words.length <= 3 && words.every((w) => /^\p{L}+$/u.test(w)) && PARTY_NOUNS.has(head)) roles.push(words);
  } else if (b.at(-1) === 'means' || (b.at(-1) === 'mean' && b.at(-2) === 'shall')) {
    const end = b.lastIndexOf(b.at(-1) === 'means' ? 'means' : 'shall');
    const q = end - 1;
    if (q >= 0 && QUOTE.test(before[q]!.text)) {
      const words: string[] = [];
      for (let k = q - 1; k >= 0 && !QUOTE.test(before[k]!.text); k--) words.unshift(b[k]!);
      if (words.length) roles.push(words);
    }
  } else if (b.at(-1) === ',' && b.lastIndexOf('its') >= b.length - 6 && b.lastIndexOf('its') >= 0) {
    // "and its wholly owned subsidiary, Caterpillar Financial Services Corporation": the role before the name, in apposition.
    const words = b.slice(b.lastIndexOf('its') + 1, -1);
    const role = words.filter((w) => !/^(?:wholly|owned|direct|indirect|sole|new|former|current|then|principal|majority)$/u.test(w));
    if (role.length && role.length <= 3 && words.every((w, k) => /^\p{Ll}+(?:-\p{Ll}+)*$/u.test(before[b.lastIndexOf('its') + 1 + k]!.text)) && PARTY_NOUNS.has(role.at(-1)!)) roles.push(role);
  } else if (b.at(-1) === ',' && b.at(-3) === 'the' && (b.length === 3 || /^[.;:"“]$/u.test(b.at(-4)!)) && PARTY_NOUNS.has(b.at(-2)!) && /^\p{Lu}/u.test(before.at(-2)!.text) && tokens[to + 1]?.text === ',') {
    // "The Guarantor, XYZ Parent Inc., hereby guarantees": a sentence's defined role, then the name in apposition to it.
    roles.push([b.at(-2)!]);
  } else if (subjectRole(b, before)) {
    roles.push([subjectRole(b, before)!]);
  } else if ((b.at(-1) === ',' && b.at(-2) === 'i' && (b.length === 2 || /^[.;:,"“]$/u.test(b.at(-3)!))) || b.at(-1) === 'appeared' || (b.at(-1) === 'by' && from === 1)) {
    // "I, Timothy D. Cook, certify": the pronoun opening a sentence, not "Part I, Item 1".
    roles.push(['signatory']);
  }
  // `LANDLORD:` or `"LANDLORD"` on the line over the name, when the line is the name's, not a sentence it opens ("Community
  // Leaders:" over "DHS responds to incidents …").
  const after = tokens[to + 1];
  // ("GSA’s Senior Procurement Executive will …" under "Senior Procurement Executive:": the name owns the role, it is not it.)
  const opensSentence = (!!after && /^\p{Ll}/u.test(after.text) && !/^(?:a|an|the|as|its|and|acting|having|with|whose|residing|located|c\/o|by)$/u.test(lower(after))) || /['’]s$/u.test(tokens[to]!.text);
  // A label's value is a name line ("Acme LLC, a Delaware corporation"), not a paragraph that happens to open on a name.
  // A line that is itself a label ("Registered Owner:" over "Rated Power:", a form's blank field) holds no name.
  const labelLine = after?.text === ':' && tokens.length <= to + 2;
  const labelled = from === 0 && previous && !opensSentence && !labelLine && labelsNextLine(previous);
  if (labelled && tokens.filter(isWord).length <= MAX_LABELLED_LINE_WORDS) {
    const words: string[] = previous.replace(/:\s*$/u, '').replace(/^\s*(?:by\s+)?its\s+/iu, '').replace(/["“”]/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    // "Office of the Chief Economist:": what the label names is the noun before its first "of" (an office), not the role
    // after it.
    const of = words.indexOf('of');
    const all = of > 0 ? words.slice(0, of) : words;
    // "Science and Technology Advisor:" → technology advisor: the label's last words, after its last function word.
    const cut = all.findLastIndex((w) => /^(?:and|or|of|the|for|to|in|on|at|by|with|a|an)$/u.test(w));
    const label = all.slice(Math.max(cut + 1, all.length - 3));
    // Only a role's label ("LANDLORD:", "Administrative Agent:"): a heading such as "NOTICES:" or "WITNESSETH:" names no role.
    const last = label.at(-1) ?? '';
    const head = last.length > 4 && /[^s]s$/u.test(last) ? last.slice(0, -1) : last; // "LENDERS:" names lenders
    if (label.length && isRoleNoun(head)) roles.push(label);
  }
  // `COMSTOCK MINING INC., a Nevada corporation, having its chief executive offices at 1200 …, NV 89440 ("Lessee")`: the
  // defined term past the firm's address.
  if (!roles.length) {
    const address = tokens.findIndex((t, k) => k > to && k < to + 14 && t.text === ',' && /^(?:having|with|whose|residing|located)$/u.test(lower(tokens[k + 1])));
    for (let k = address + 2; address > 0 && k < tokens.length && k < address + 40; k++) {
      const w = lower(tokens[k]);
      if (w === ';' || w === '.' || w === 'and' || w === 'between') break;
      if (w !== '(') continue;
      const term = definedTermAt(tokens, k, name);
      if (term && !isAlias(term.role, name)) roles.push(term.role);
      break;
    }
  }
  // `TIC Properties Management, LLC, a Virginia limited liability company, on behalf of and as agent for …`: a role past the appositive.
  const apposition = roles.length ? -1 : incorporated(tokens, to);
  if (apposition > 0) {
    let k = apposition + 1;
    if (lower(tokens[k]) === 'on' && lower(tokens[k + 1]) === 'behalf' && lower(tokens[k + 2]) === 'of' && lower(tokens[k + 3]) === 'and') k += 4;
    const later = lower(tokens[k]) === 'as' ? rolesFrom(tokens, k + 1)[0] : undefined;
    if (later && PARTY_NOUNS.has(later.at(-1)!)) roles.push(later);
  }
  if (!roles.length && (apposition >= 0 || partyBetween(tokens, from, to))) facts.incorporated = true;
  return roles;
}

/**
 * `by and between ADDVANTAGE TECHNOLOGIES GROUP, INC., and …`, `between Acme Corp., having a place of business at …`: a firm
 * (its name ends in a legal suffix) that the agreement is between, with no role given, is a company as well.
 */
function partyBetween(tokens: Token[], from: number, to: number): boolean {
  if (!isSuffix(tokens[to]) || ['jr.', 'sr.', 'ii', 'iii', 'iv', 'as', 'se', 'ab'].includes(lower(tokens[to]))) return false;
  const w = lower(tokens[from - 1]);
  if (w === 'between') return true;
  // The second firm: "between X, Inc. and Y LLC" in the same sentence.
  if (w !== 'and') return false;
  for (let k = from - 2; k >= 0 && k > from - 40; k--) {
    const t = lower(tokens[k]);
    if (t === '.' || t === ';') return false;
    if (t === 'between') return true;
  }
  return false;
}

/** Kinds of legal entity an appositive may say a firm is. */
const ENTITY_KINDS = /^(?:corporation|company|partnership|société|societe|association|trust|bank)$/u;

/**
 * `ISSC Technologies Corp., a company incorporated … under the laws of …`, `STAR ASSOCIATES LLC, a Minnesota limited
 * liability company`: a firm (its name ends in a legal suffix) that the sentence says is a body incorporated somewhere and
 * gives no other role is a company: `CompanyName`. The index of the comma closing that appositive (0 where it does not
 * close with one), -1 where there is none.
 */
function incorporated(tokens: Token[], to: number): number {
  if (!isSuffix(tokens[to]) || ['jr.', 'sr.', 'ii', 'iii', 'iv', 'as', 'se', 'ab'].includes(lower(tokens[to]))) return -1;
  let i = to + 1;
  if (tokens[i]?.text === '.') i++;
  if (tokens[i]?.text !== ',' || !/^(?:a|an)$/u.test(lower(tokens[i + 1]))) return -1;
  let place = false;
  for (let k = i + 2; k < tokens.length && k < i + 9; k++) {
    const w = lower(tokens[k]);
    if (ENTITY_KINDS.test(w)) {
      if (!place && !/^(?:incorporated|organized|organised|existing|formed|duly)$/u.test(lower(tokens[k + 1]))) return -1;
      // The comma closing the appositive, if it closes there (the index of the token after the kind otherwise).
      return tokens[k + 1]?.text === ',' ? k + 1 : 0;
    }
    if (!isWord(tokens[k])) return -1;
    if (isCapitalised(tokens[k])) place = true;
  }
  return -1;
}

/** Cues after which a name follows: `Label:`, `means`, `I,`, `appeared`, `By:`. */
function nameStarts(tokens: Token[]): number[] {
  const out: number[] = [0];
  tokens.forEach((t, i) => {
    const w = lower(t);
    if (w === ':' || w === 'means' || w === 'appeared' || w === 'c/o' || (w === ',' && lower(tokens[i - 1]) === 'i') || w === 'between' || w === 'and' || w === 'with' || w === '_') out.push(i + 1);
    if (w === 'mean' && lower(tokens[i - 1]) === 'shall') out.push(i + 1);
  });
  return out;
}

/** Where names end: before a defined term, `, a …`, `as`, `its`. */
function nameEnds(tokens: Token[]): number[] {
  const out: number[] = [];
  tokens.forEach((t, i) => {
    const w = lower(t);
    if (w === '(' || w === 'as' || w === 'its' || w === 'acting') out.push(i);
    if (w === ',' && /^(?:a|an|as|its|individually|acting)$/u.test(lower(tokens[i + 1]))) out.push(i);
  });
  return out;
}

/** A name has a word of two letters or more, is not only role or title words, and not one letter. */
function plausibleName(words: readonly Token[]): boolean {
  if (!words.some((t) => /\p{L}{2}/u.test(t.text))) return false;
  // "Dayton Ohio 45402": a place and its postal code, not a party.
  if (/^\d{5}(?:-\d{4})?$/u.test(words.at(-1)!.text)) return false;
  const plain = words.map((t) => t.text.toLowerCase().replace(/[^\p{L}]/gu, ''));
  return !plain.every((w) => PARTY_NOUNS.has(w) || TITLE_WORDS.has(w) || NOT_NAME_WORDS.has(w) || (w.endsWith('s') && PARTY_NOUNS.has(w.slice(0, -1))));
}

/**
 * A short name the text gives a party, not a role: `("BW")`, `BSC:`; with the name, a term of its
 * own words (`Glimcher Properties Corporation ("Glimcher Corp.")`, `Richard Walker ("Walker")`) or
 * of its initials (`New England Telephone and Telegraph Company ("NETEL")`).
 */
function isAlias(role: readonly string[], name?: readonly Token[]): boolean {
  if (role.length === 1 && role[0]!.length <= 4 && !PARTY_NOUNS.has(role[0]!)) return true;
  if (!name?.length) return false;
  const words = name.filter(isWord).map((t) => lower(t).replace(/[^\p{L}\p{N}]/gu, ''));
  if (!PARTY_NOUNS.has(role[0]!) && words.includes(role[0]!)) return true;
  // Initials: the term's letters in order through the name's words, starting with its first.
  const term = role.join('');
  const letters = words.join('');
  if (role.length > 1 || term.length < 2 || term[0] !== letters[0] || PARTY_NOUNS.has(term)) return false;
  let k = 0;
  for (const ch of letters) if (ch === term[k]) k++;
  return k === term.length && words.length >= 2 && !/[aeiou]{2}/u.test(term) && term.length <= words.length + 3;
}

/** Role words that only qualify: "sole member", "joint lead arrangers". */
const ROLE_STOPS = new Set(['sole', 'joint']);
/** Words after which a name is a place, not a party: "the laws of Canada", "the State of Texas". */
const PLACE_BEFORE = /^(?:laws|state|commonwealth|province|republic|kingdom|county|city)$/u;
/** Words before "in" and a place: where a party does business, was formed or sits. */
const PLACE_VERBS = /^(?:business|organized|organised|incorporated|formed|located|domiciled|resident|headquartered|situated|qualified|registered)$/u;

/** What stands before a party's former name: "(f/k/a Quinpario Acquisition Corp.)", "(formerly Cobalt Holdings LLC)". */
const FORMERLY = /^(?:f\/k\/a\/?|fka|formerly)$/u;

/** Where a name ends: a possessive's "'s" off, and a name written twice (a signature, then the printed name) once. */
function nameEnd(tokens: Token[], from: number, last: number): number {
  const words = tokens.slice(from, last + 1);
  const n = words.length;
  if (n >= 2 && n % 2 === 0 && words.slice(0, n / 2).every((t, i) => t.text === words[n / 2 + i]!.text)) return words[n / 2 - 1]!.end;
  const end = tokens[last]!.end;
  return /['’]s$/u.test(tokens[last]!.text) ? end - 2 : end;
}

/** Words that open the clause of a party: `between A (…) and B (…)`, `among A, …`. */
const CLAUSE_BREAKS = new Set([')', ';', 'between', 'among', 'and']);

/**
 * `Winstanley Enterprises, LLC, 150 Baker Street, Concord Massachusetts 01742 ("Landlord")`: the
 * defined term closing a clause names the party that opens it, whatever stands between.
 */
function giveTermsToClauseOpeners(tokens: Token[], found: (PartyMention & { from: number; last: number })[]): void {
  tokens.forEach((t, p) => {
    if (t.text !== '(') return;
    let c = p - 1;
    while (c >= 0 && !CLAUSE_BREAKS.has(lower(tokens[c]))) c--;
    const opener = found.filter((m) => m.from > c && m.last < p).sort((a, b) => a.from - b.from)[0];
    if (!opener || predicateAt(tokens, opener.last + 1)) return;
    const name = tokens.slice(opener.from, opener.last + 1);
    const term = definedTermAt(tokens, p, name);
    if (!term || isAlias(term.role, name)) return;
    if (!opener.roles.some((r) => r.join(' ') === term.role.join(' '))) opener.roles.push(term.role);
  });
}

/**
 * `Guidant LLC ("Guidant"), and Boston Scientific Corporation ("BSC") (collectively, the "Parties")`, `JWMW LTD., and WILDCAT
 * PROPERTIES L.P., ("SELLERS")`: a plural role defined after a list of names is the role of each name in the list (the
 * names joined by commas and "and", each with its own short name in brackets), in the singular.
 */
function shareCollectiveTerms(tokens: Token[], found: (PartyMention & { from: number; last: number })[]): void {
  tokens.forEach((t, p) => {
    if (t.text !== '(') return;
    const term = definedTermAt(tokens, p);
    const head = term?.role.at(-1);
    if (!term || !head || !/[^s]s$/u.test(head)) return;
    const one = head.endsWith('ies') ? `${head.slice(0, -3)}y` : head.slice(0, -1);
    // ("the Parties": each is a party to the agreement, though "party" alone is no role a name is known by.)
    if (!isRoleNoun(one) && one !== 'party') return;
    const role = [...term.role.slice(0, -1), one];
    const members: (PartyMention & { from: number; last: number })[] = [];
    let k = p - 1;
    while (k >= 0 && members.length < 8) {
      const w = lower(tokens[k]);
      if (w === ',' || w === 'and' || w === '&') {
        k--;
        continue;
      }
      // A member's own short name in brackets ("Guidant").
      if (w === ')') {
        let d = k;
        while (d >= 0 && tokens[d]!.text !== '(' && k - d < 12) d--;
        if (tokens[d]?.text !== '(') break;
        k = d - 1;
        continue;
      }
      const member = found.find((m) => m.last === k || (m.last < k && tokens.slice(m.last + 1, k + 1).every((x) => !isWord(x) && x.text !== ',' && x.text !== ')')));
      if (!member) break;
      members.push(member);
      k = member.from - 1;
    }
    // A list: two names at least, the role given to those that have none of their own.
    if (members.length < 2) return;
    for (const m of members) if (!m.roles.some((r) => !isAlias(r, tokens.slice(m.from, m.last + 1)))) m.roles.push(role);
  });
}

/** The first index whose token passes `past`, for a test that fails up to some token and passes from it on (tokens are in text order). */
function firstIndex(tokens: readonly Token[], past: (t: Token) => boolean): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (past(tokens[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Every party the text names beside a role cue (and every extra span given, e.g. organisations found by the entity pass), with its roles. */
export function findParties(text: string, previous?: string, extra: readonly { start: number; end: number }[] = [], next?: string): PartyMention[] {
  // A role on the next line (`BANK OF AMERICA, N.A.,` / `as Administrative Agent`) is read with the name.
  const tokens = tokenize(next !== undefined ? `${text} ${next}` : text);
  const spans = new Map<string, { from: number; to: number }>();
  const add = (r: { from: number; to: number } | null) => {
    if (r && r.to >= r.from) spans.set(`${r.from}:${r.to}`, r);
  };
  for (const s of nameStarts(tokens)) add(nameAfter(tokens, s));
  for (const e of nameEnds(tokens)) add(nameBefore(tokens, e));
  for (const x of extra) {
    let from = firstIndex(tokens, (t) => t.start >= x.start);
    if (from === tokens.length) from = -1;
    if (from > 0 && HONORIFIC.test(tokens[from - 1]!.text)) from--;
    // An organisation found with the signer's title before it ("Director KESTREL HOLDINGS LLC"): the title is not the name's.
    while (from >= 0 && TITLE_WORDS.has(lower(tokens[from])) && !allCaps(tokens[from]!) && tokens[from + 1] && allCaps(tokens[from + 1]!) && tokens[from + 1]!.end <= x.end) from++;
    // The token the span ends in (a name without its possessive ends inside "Bianco's").
    const to = Math.min(tokens.length - 1, firstIndex(tokens, (t) => t.end >= x.end));
    if (from >= 0 && to >= from) add({ from, to });
  }
  const found: (PartyMention & { from: number; last: number })[] = [];
  for (const { from, to } of spans.values()) {
    let last = to;
    while (last > from && !isWord(tokens[last]) && tokens[last]!.text !== ')') last--;
    if (tokens[from]!.start >= text.length) continue;
    const words = tokens.slice(from, last + 1).filter(isWord);
    if (!plausibleName(words)) continue;
    // A name after "the laws of" or "the State of" is a place, and so is "the State of Delaware" itself.
    if (lower(tokens[from - 1]) === 'of' && PLACE_BEFORE.test(lower(tokens[from - 2]))) continue;
    if (PLACE_BEFORE.test(lower(tokens[from])) && lower(tokens[from + 1]) === 'of') continue;
    // "doing business in Florida as …", "organized in Delaware": where a party does business or was formed is a place.
    if (lower(tokens[from - 1]) === 'in' && PLACE_VERBS.test(lower(tokens[from - 2]))) continue;
    // "the Premises", "the Lease Term", "the Letter of Credit": a capitalised term after a lower-case "the", with no
    // company's suffix, is a thing the contract defines, not a party.
    // "MagicSoft, Inc. a Washington Corporation (“Company”)": the kind of entity it is, not another party.
    if (/^an?$/u.test(tokens[from - 1]?.text ?? '') && /^(?:corporation|company|partnership|trust|association|cooperative|organization|entity)$/u.test(lower(words.at(-1)))) continue;
    let lead = from - 1;
    while (lead > 0 && isCapitalised(tokens[lead]) && isWord(tokens[lead])) lead--;
    // "the extended Lease Term", "the initial Term": past one adjective.
    if (lead > 0 && /^\p{Ll}{3,}(?:ed|al|ing)$/u.test(tokens[lead]!.text) && tokens[lead - 1]!.text === 'the') lead--;
    if (tokens[lead]?.text === 'the' && !words.some(isSuffix)) continue;
    const together: string[][][] = [];
    const facts: { incorporated?: boolean } = {};
    // "Jason Industries, Inc. (f/k/a Quinpario Acquisition Corp.)": the name it had is its former name, whatever the sentence calls it now.
    const former = FORMERLY.test(lower(tokens[from - 1])) || (lower(tokens[from - 1]) === 'as' && lower(tokens[from - 2]) === 'known' && lower(tokens[from - 3]) === 'formerly');
    const roles = former ? [['former', 'company']] : rolesAround(tokens, from, last, previous, together, facts).filter((r) => !isAlias(r, tokens.slice(from, last + 1)));
    // One capitalised word opening a sentence is more often its verb or noun ("Deliver to Landlord …") than a name, and
    // one in -ly or -ing ("Increasingly, …", "Working with …") is never one.
    // So is one a lower-case word follows ("Along with …", "Oversees and coordinates …").
    const opener = words.length === 1 && !allCaps(words[0]!) && (from === 0 || tokens[from - 1]!.text === '.');
    if (opener && (!roles.length || /\p{Ll}(?:ly|ing)$/u.test(words[0]!.text) || /^\p{Ll}/u.test(tokens[last + 1]?.text ?? ''))) continue;
    // After "Title:" stands a job title, not a party (unless it is a firm's name: "Title: JV JEFFERSONVILLE, LLC").
    if (roles.some((r) => r.length === 1 && r[0] === 'title') && !words.some(isSuffix)) continue;
    found.push({ start: tokens[from]!.start, end: nameEnd(tokens, from, last), roles, ...(together[0] ? { together: together[0] } : {}), ...(facts.incorporated && !roles.length ? { incorporated: true as const } : {}), from, last });
  }
  giveTermsToClauseOpeners(tokens, found);
  shareCollectiveTerms(tokens, found);
  // A name inside a longer one is a piece of it, unless only it has a role.
  const out = found
    .filter((m) => !found.some((o) => o !== m && o.start <= m.start && o.end >= m.end && (o.roles.length > 0 || m.roles.length === 0)))
    .map(({ start, end, roles, together, incorporated }) => ({ start, end: Math.min(end, text.length), roles, ...(together ? { together } : {}), ...(incorporated ? { incorporated } : {}) }));
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}
