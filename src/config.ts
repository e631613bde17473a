import os from 'node:os';
import path from 'node:path';

export const MAX_UPLOAD_BYTES = 300 * 1024 * 1024;
export const DEFAULT_UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
export const MIN_UPLOAD_CHUNK_BYTES = 64 * 1024;
export const MAX_UPLOAD_CHUNK_BYTES = 64 * 1024 * 1024;
export const DEFAULT_UPLOAD_SESSION_TTL_SECONDS = 24 * 60 * 60;
export const MAX_UPLOAD_SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

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
  /** Ingestion workers and their durable job queue. */
  ingest: {
    /** Documents read at once per process (QUIRE_WORKER_CONCURRENCY, default: CPU cores). */
    concurrency: number;
    /** Per-document reading time budget (QUIRE_INGEST_TIMEOUT_MS). */
    timeoutMs: number;
    /** Per-document heap budget of the reading thread (QUIRE_INGEST_MEMORY_MB). */
    memoryMb: number;
    /** Per-page OCR time budget (QUIRE_OCR_PAGE_TIMEOUT_MS); analysis gets the reading budget plus this per page. */
    ocrPageTimeoutMs: number;
    /** Job lease (QUIRE_JOB_LEASE_MS): a job whose process died runs again after it expires. */
    leaseMs: number;
    /** Idle poll interval (QUIRE_JOB_POLL_MS). */
    pollMs: number;
    /** First retry delay, doubled per attempt (QUIRE_JOB_RETRY_MS). */
    retryBaseMs: number;
  };
  /** Chunk size of chunked upload sessions (QUIRE_UPLOAD_CHUNK_BYTES). */
  uploadChunkBytes: number;
  /** Lifetime of an upload session in seconds (QUIRE_UPLOAD_SESSION_TTL_SECONDS). */
  uploadSessionTtlSeconds: number;
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

  const uploadChunkBytes = parseIntRange(
    'QUIRE_UPLOAD_CHUNK_BYTES',
    env.QUIRE_UPLOAD_CHUNK_BYTES,
    DEFAULT_UPLOAD_CHUNK_BYTES,
    MIN_UPLOAD_CHUNK_BYTES,
    MAX_UPLOAD_CHUNK_BYTES,
  );
  const uploadSessionTtlSeconds = parseIntRange(
    'QUIRE_UPLOAD_SESSION_TTL_SECONDS',
    env.QUIRE_UPLOAD_SESSION_TTL_SECONDS,
    DEFAULT_UPLOAD_SESSION_TTL_SECONDS,
    1,
    MAX_UPLOAD_SESSION_TTL_SECONDS,
  );

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
    ingest: {
      concurrency: parseIntRange('QUIRE_WORKER_CONCURRENCY', env.QUIRE_WORKER_CONCURRENCY, Math.max(1, os.availableParallelism()), 1, 256),
      timeoutMs: parseIntRange('QUIRE_INGEST_TIMEOUT_MS', env.QUIRE_INGEST_TIMEOUT_MS, 120_000, 100, 24 * 3600_000),
      memoryMb: parseIntRange('QUIRE_INGEST_MEMORY_MB', env.QUIRE_INGEST_MEMORY_MB, 1024, 64, 65_536),
      ocrPageTimeoutMs: parseIntRange('QUIRE_OCR_PAGE_TIMEOUT_MS', env.QUIRE_OCR_PAGE_TIMEOUT_MS, 30_000, 100, 3600_000),
      leaseMs: parseIntRange('QUIRE_JOB_LEASE_MS', env.QUIRE_JOB_LEASE_MS, 5 * 60_000, 200, 24 * 3600_000),
      pollMs: parseIntRange('QUIRE_JOB_POLL_MS', env.QUIRE_JOB_POLL_MS, 200, 10, 60_000),
      retryBaseMs: parseIntRange('QUIRE_JOB_RETRY_MS', env.QUIRE_JOB_RETRY_MS, 5_000, 0, 3600_000),
    },
    uploadChunkBytes,
    uploadSessionTtlSeconds,
  };
}

function parseIntRange(variable: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim();
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new ConfigError(variable, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(v);
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
