import { randomBytes } from 'node:crypto';
import type { Store } from '../store/db/index.js';

/** A server-wide secret kept in the database, so every process signs and checks with the same one. */
export async function serverSecret(store: Store, name: string): Promise<Buffer> {
  const hex = await store.settings.getOrInit(`secret:${name}`, randomBytes(32).toString('hex'));
  return Buffer.from(hex, 'hex');
}
