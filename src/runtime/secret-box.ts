import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, parseSecretKey, SECRET_KEY_BYTES, type Config } from './config.js';

/**
 * Secrets at rest (webhook signing secrets): AES-256-GCM under the server key, `QUIRE_SECRET_KEY`
 * (or the file `QUIRE_SECRET_KEY_FILE` names). Each ciphertext is stored with the id of the key that
 * sealed it, so a rotated key keeps opening older rows while it is listed in `QUIRE_SECRET_KEY_OLD`,
 * and `quire secrets rotate` re-seals every row under the current key.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The key file written for the single-machine default (SQLite, no key configured). */
export const DEFAULT_SECRET_KEY_FILE = 'secret.key';

/** A key's public name: a hash of it, so the same key gets the same id on every process. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('quire secret key id\0').update(key).digest('hex').slice(0, 16);
}

/** A sealed value's key id is unknown to this process: the key it needs is not configured. */
export class SecretKeyMissingError extends Error {
  constructor(readonly keyId: string) {
    super(`a stored secret is sealed with key ${keyId}, which is neither QUIRE_SECRET_KEY nor in QUIRE_SECRET_KEY_OLD`);
  }
}

export class SecretBox {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, old: readonly Buffer[] = []) {
    this.currentKeyId = keyIdOf(current);
    this.keys.set(this.currentKeyId, current);
    for (const k of old) if (!this.keys.has(keyIdOf(k))) this.keys.set(keyIdOf(k), k);
  }

  knows(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /**
   * `context` (e.g. `webhook:<id>`) is authenticated with the value: a ciphertext copied into another
   * row does not open there.
   */
  seal(plain: string, context: string): { keyId: string; sealed: string } {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { keyId: this.currentKeyId, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
  }

  open(keyId: string, sealed: string, context: string): string {
    const key = this.keys.get(keyId);
    if (!key) throw new SecretKeyMissingError(keyId);
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/**
 * The server's secret box. With no key configured: on SQLite (one machine) a key is generated once
 * into `<data dir>/secret.key` (mode 0600), kept apart from the database file so that a copy of
 * `quire.db` alone does not reveal the secrets; on PostgreSQL start-up stops, because processes on
 * other machines would each make their own key and fail to open each other's secrets.
 */
export function loadSecretBox(config: Config): { box: SecretBox; generated: string | null } {
  const s = config.secrets;
  if (s.key) return { box: new SecretBox(s.key, s.oldKeys), generated: null };
  if (config.database.kind === 'postgres') {
    throw new ConfigError('QUIRE_SECRET_KEY', 'is required with PostgreSQL (every process must share it): set it, or QUIRE_SECRET_KEY_FILE, to 32 random bytes (openssl rand -base64 32)');
  }
  const file = path.join(config.dataDir, DEFAULT_SECRET_KEY_FILE);
  let generated: string | null = null;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    try {
      // `wx`: a process starting at the same moment that wrote it first wins; both then read its key.
      fs.writeFileSync(file, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
      generated = file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = parseSecretKey(file, fs.readFileSync(file, 'utf8'));
  return { box: new SecretBox(key, s.oldKeys), generated };
}
