import { type Candidate, matchesOf, regex } from './candidate.js';

/** US phone numbers (NANP: area code and exchange start with 2-9) and e-mail addresses. */
const PHONE = regex(
  'gu',
  String.raw`(?<![\p{L}\p{N}+(-])(?:\+?1[\s.-])?(?:\([2-9]\d{2}\)\s?|[2-9]\d{2}[-.])[2-9]\d{2}[-.]\d{4}(?![\p{N}-])(?:\s?(?:x|ext\.?)\s?\d{1,5}(?!\p{N}))?`,
);
const EMAIL = regex('gu', String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}(?![\p{L}\p{N}-])`);

export function findPhones(text: string): Candidate[] {
  if (!/\d{4}/u.test(text)) return [];
  return matchesOf(text, PHONE, 'Phone');
}

export function findEmails(text: string): Candidate[] {
  return text.includes('@') ? matchesOf(text, EMAIL, 'Email') : [];
}
