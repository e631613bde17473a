import path from 'node:path';

export const MAX_UPLOAD_BYTES = 300 * 1024 * 1024;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** `{publicUrl}/v1preview1`: the base of every REST URL in responses. */
  apiBase: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  storage: { kind: 'fs'; root: string };
  bootstrapKey: string | undefined;
  logLevel: string;
  maxUploadBytes: number;
}

/** A configuration problem: start-up stops with this one line. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  const host = (env.HOST ?? '127.0.0.1').trim();
  if (!host) throw new ConfigError('HOST', 'must not be empty');
  const dataDir = path.resolve(env.QUIRE_DATA_DIR || './data');

  const urlHost = host.includes(':') ? `[${host}]` : host;
  const publicUrl = parseHttpUrl('QUIRE_PUBLIC_URL', env.QUIRE_PUBLIC_URL ?? `http://${urlHost}:${port}`);

  let database: Config['database'];
  const dbUrl = env.DATABASE_URL?.trim();
  if (!dbUrl) {
    database = { kind: 'sqlite', file: path.join(dataDir, 'quire.db') };
  } else if (/^postgres(ql)?:\/\//.test(dbUrl)) {
    try {
      new URL(dbUrl);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    database = { kind: 'postgres', url: dbUrl };
  } else {
    throw new ConfigError('DATABASE_URL', 'must be unset (embedded SQLite) or a postgres:// URL');
  }

  let storage: Config['storage'];
  const storageUrl = env.QUIRE_STORAGE_URL?.trim();
  if (!storageUrl) {
    storage = { kind: 'fs', root: path.join(dataDir, 'blobs') };
  } else if (storageUrl.startsWith('file://')) {
    const root = new URL(storageUrl).pathname;
    if (!root || root === '/') throw new ConfigError('QUIRE_STORAGE_URL', 'file:// URL needs a directory path');
    storage = { kind: 'fs', root };
  } else {
    throw new ConfigError('QUIRE_STORAGE_URL', 'must be unset (files under QUIRE_DATA_DIR) or a file:///path URL');
  }

  const bootstrapKey = env.QUIRE_BOOTSTRAP_KEY;
  if (bootstrapKey !== undefined && bootstrapKey !== '') {
    if (bootstrapKey.length < 16 || /\s/.test(bootstrapKey)) {
      throw new ConfigError('QUIRE_BOOTSTRAP_KEY', 'must be at least 16 characters without spaces');
    }
  }

  const logLevel = env.QUIRE_LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('QUIRE_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }

  return {
    port,
    host,
    dataDir,
    publicUrl,
    apiBase: `${publicUrl}/v1preview1`,
    database,
    storage,
    bootstrapKey: bootstrapKey || undefined,
    logLevel,
    maxUploadBytes: MAX_UPLOAD_BYTES,
  };
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535 (got "${raw}")`);
  }
  return Number(raw);
}

function parseHttpUrl(variable: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(variable, `is not a valid URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(variable, 'must be an http:// or https:// URL');
  }
  if (url.search || url.hash) throw new ConfigError(variable, 'must not have a query or fragment');
  return url.toString().replace(/\/+$/, '');
}
