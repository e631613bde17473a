import { invalid } from './errors.js';

/** A label is at most this long (it becomes an XML element name). */
export const MAX_LABEL_LENGTH = 200;

// XML 1.0 (fourth edition) NameChar: Letter | Digit | '.' | '-' | '_' | ':' | CombiningChar | Extender.
// Its Letter, Digit and CombiningChar tables are Unicode 2.0's letters, decimal digits and marks;
// Unicode's general categories stand for them here.
const EXTENDERS = new Set([0xb7, 0x2d0, 0x2d1, 0x387, 0x640, 0xe46, 0xec6, 0x3005, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309d, 0x309e, 0x30fc, 0x30fd, 0x30fe]);
const NAME_CHAR = /[\p{L}\p{Nd}\p{M}._:-]/u;
const NAME_START = /[\p{L}_:]/u;

function describe(ch: string): string {
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /\p{C}|\s/u.test(ch) ? code : `"${ch}" (${code})`;
}

/**
 * A property label as users write it ("Accident Number", "2nd Party"): XML 1.0 name rules, except
 * that spaces and a leading digit are allowed. Anything else is a 400 naming the offending character.
 */
export function validateLabel(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid('A property needs a "label" (a string).');
  const label = raw.trim().replace(/ +/g, ' ');
  if (!label) throw invalid('The label is empty.');
  if ([...label].length > MAX_LABEL_LENGTH) throw invalid(`Labels are limited to ${MAX_LABEL_LENGTH} characters.`);
  const chars = [...label];
  for (const [i, ch] of chars.entries()) {
    if (ch === ' ') continue;
    const cp = ch.codePointAt(0)!;
    const ok = NAME_CHAR.test(ch) || EXTENDERS.has(cp);
    if (!ok) throw invalid(`The label contains ${describe(ch)}, which is not allowed in a label (letters, digits, spaces, ".", "-", "_" and ":" are).`);
    if (i === 0 && !NAME_START.test(ch) && !/\p{Nd}/u.test(ch)) {
      throw invalid(`A label cannot start with ${describe(ch)}: start it with a letter, a digit or "_".`);
    }
  }
  return label;
}

/**
 * The DGML element name of a label: spaces removed, characters kept as written, ":" dropped (DGML
 * element names are prefixed, so the local name may not contain one), and "_" before a first
 * character that cannot start a name. `Accident Number` -> `AccidentNumber`, `2nd Party` -> `_2ndParty`.
 */
export function labelIdOf(label: string): string {
  const id = [...label].filter((ch) => ch !== ' ' && ch !== ':').join('');
  if (!id) return '_';
  return /^[\p{L}_]/u.test(id) ? id : `_${id}`;
}
