import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * 16 lowercase characters: 9 of time (milliseconds, base 36) then 7 random. Ids sort by creation
 * time, which makes id order the stable keyset order of every list.
 */
export function newId(): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const bytes = randomBytes(7);
  let rand = '';
  for (const b of bytes) rand += ALPHABET[b % 36];
  return time + rand;
}

export const ID_PATTERN = '^[0-9a-z]{1,64}$';
