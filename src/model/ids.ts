import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 7;

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * 16 lowercase characters: 9 of time (milliseconds, base 36) then 7 random. Ids sort by creation
 * time, which makes id order the stable keyset order of every list. Within one process they are also
 * strictly increasing: an id made in the same millisecond as the one before takes the previous random
 * part plus one, so records written one after another (a transaction's events) keep their order.
 */
export function newId(): string {
  let time = Date.now();
  let random: number[];
  if (time > lastTime) {
    random = [...randomBytes(RANDOM_CHARS)].map((b) => b % 36);
  } else {
    time = lastTime;
    random = [...lastRandom];
    let i = RANDOM_CHARS - 1;
    while (i >= 0 && random[i] === 35) random[i--] = 0;
    if (i >= 0) random[i]!++;
    else time++; // 36^7 ids in one millisecond: borrow the next one
  }
  lastTime = time;
  lastRandom = random;
  return time.toString(36).padStart(9, '0') + random.map((d) => ALPHABET[d]).join('');
}

/** The smallest id `newId` makes at `ms`: every id below it was made earlier. */
export function idFloorAt(ms: number): string {
  return Math.max(0, Math.floor(ms)).toString(36).padStart(9, '0');
}

/**
 * What the API accepts as an id (path parameters, `docset.id`, `ids` lists): newId's ids, and the
 * longer ones of other systems a client may carry over. The OpenAPI schema (src/api/common.ts) states it.
 */
export const ID_PATTERN = '^[0-9A-Za-z_-]+$';
export const ID_MAX_LENGTH = 64;
const ID_RE = new RegExp(ID_PATTERN);

export function isId(s: string): boolean {
  return s.length >= 1 && s.length <= ID_MAX_LENGTH && ID_RE.test(s);
}

/** When a newId id was made (epoch ms), or null for an id newId did not make. */
export function timeOfId(id: string): number | null {
  if (!/^[0-9a-z]{16}$/.test(id)) return null;
  const time = parseInt(id.slice(0, 9), 36);
  return Number.isFinite(time) ? time : null;
}
