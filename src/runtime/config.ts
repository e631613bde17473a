import os from 'node:os';
import path from 'node:path';
import { EnvironmentError, resolveFiles, unknownVariableWarnings } from './environment.js';

export const MAX_UPLOAD_BYTES = 300 * 1024 * 1024;
export const DEFAULT_UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
export const MIN_UPLOAD_CHUNK_BYTES = 64 * 1024;
export const MAX_UPLOAD_CHUNK_BYTES = 64 * 1024 * 1024;
export const DEFAULT_UPLOAD_SESSION_TTL_SECONDS = 24 * 60 * 60;
/** Measured (bench/README.md): a warm server's batch ~10% faster than V8's sizing; see src/runtime/jit.ts. */
export const DEFAULT_INITIAL_OLD_SPACE_MB = 256;
export const MAX_UPLOAD_SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;
/**
 * How long PostgreSQL's point lookups keep a value at most: the longest a revoked key (or a deleted
 * document) can still be answered by another process should its notifications stop unnoticed.
 */
export const DEFAULT_READ_CACHE_TTL_MS = 5000;
/**
 * A job's lease, renewed every third of it while the job runs (a long ingestion keeps its job): a
 * worker killed outright has its jobs taken over about a lease later, within a minute on both queues
 * (test/cluster/cluster.test.ts, test/faults/lease-takeover.test.ts).
 */
export const DEFAULT_JOB_LEASE_MS = 30_000;

export const SECRET_KEY_BYTES = 32;

export interface Config {
  port: number;
  host: string;
  /** QUIRE_METRICS_PORT: where a `quire worker` (which serves no API) answers `GET /metrics`; unset: nowhere. */
  metricsPort: number | null;
  dataDir: string;
  publicUrl: string;
  /** `{publicUrl}/v1preview1`: the base of every REST URL in responses. */
  apiBase: string;
  /**
   * `readCacheBytes` (QUIRE_READ_CACHE_MB, default 64) bounds the values kept by the point lookups
   * (API key, document by id; src/store/db/point-reads.ts); 0 keeps none. On PostgreSQL
   * `readCacheTtlMs` (QUIRE_READ_CACHE_TTL_MS, default 5000) bounds how long one is kept, should
   * the notifications that drop them stop arriving unnoticed.
   */
  database: ({ kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }) & { readCacheBytes?: number; readCacheTtlMs?: number };
  storage: { kind: 'fs'; root: string } | S3StorageConfig;
  bootstrapKey: string | undefined;
  logLevel: string;
  /** Unknown QUIRE_* variables, each with the closest known name: logged at start-up. */
  warnings: string[];
  maxUploadBytes: number;
  /** The job consumers (ingestion) and their durable job queue. */
  ingest: {
    /** Documents read at once per process (QUIRE_WORKER_CONCURRENCY, default: CPU cores). */
    concurrency: number;
    /** Per-document reading time budget (QUIRE_INGEST_TIMEOUT_MS). */
    timeoutMs: number;
    /** Per-document heap budget of the reading thread (QUIRE_INGEST_MEMORY_MB). */
    memoryMb: number;
    /** Per-page OCR time budget (QUIRE_OCR_PAGE_TIMEOUT_MS); analysis gets the reading budget plus this per page. */
    ocrPageTimeoutMs: number;
    /** OCR engine processes at once per process, all documents together (QUIRE_OCR_CONCURRENCY, default: CPU cores). */
    ocrConcurrency: number;
    /**
     * The languages scanned pages are read in (QUIRE_OCR_LANGUAGES, default `eng`), tesseract's
     * `eng+deu` form: each must be installed for the engine that reads (checked at start).
     */
    ocrLanguages: string;
    /** What reads PDFs (QUIRE_PDF_ENGINE): PDFium (default) or pdf.js. */
    pdfEngine: 'pdfium' | 'pdfjs';
    /**
     * A reading thread keeps one LibreOffice running between office conversions and stops it after
     * this many ms idle (QUIRE_OFFICE_IDLE_MS, default 120,000; 0: each conversion starts its own).
     */
    officeIdleMs: number;
    /**
     * QUIRE_OFFICE_REQUIRE_ISOLATION=true: where LibreOffice cannot run without a network (`unshare -rn`),
     * DOCX and DOC end in Error instead of being converted with the host's network.
     */
    officeRequireIsolation: boolean;
    /**
     * How PDFium's WebAssembly is compiled (QUIRE_PDFIUM_COMPILE): `optimized` (default) all of it by
     * V8's optimising compiler once at start, `lazy` only what runs hot (src/ingest/readers/pdf/pdfium.ts).
     */
    pdfiumCompile: 'optimized' | 'lazy';
    /**
     * Each analysing thread started ahead of documents first analyses a made-up contract for this many
     * ms (QUIRE_ANALYSIS_WARM_UP_MS, default 500; 0: none), so its stages run compiled code on the
     * first real documents (src/ingest/warm-up.ts). A document arriving meanwhile stops it.
     */
    analysisWarmUpMs: number;
    /**
     * The old generation each new thread's heap starts with, MiB (QUIRE_INITIAL_OLD_SPACE_MB, default
     * 256; 0 keeps V8's sizing): see src/runtime/jit.ts. At most a quarter of `memoryMb`, so that garbage not
     * yet collected never makes a thread look crowded (it retires above half its limit).
     */
    initialOldSpaceMb: number;
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
  /** Webhook delivery (src/webhooks). */
  webhooks: WebhookConfig;
  /** HTTP protections (src/http/security.ts, src/http/rate-limit.ts). */
  http: {
    /** QUIRE_RATE_LIMIT: requests per minute per API key and process, bursts up to that many (0 = off; default 100000). */
    rateLimitPerMinute: number;
    /** QUIRE_CORS_ORIGINS: origins (scheme://host[:port]) browsers may call the API from; empty (the default) = no CORS. */
    corsOrigins: string[];
  };
  /**
   * The key sealing secrets at rest (src/runtime/secret-box.ts): QUIRE_SECRET_KEY (null: unset; see
   * loadSecretBox), and QUIRE_SECRET_KEY_OLD, the
   * comma-separated keys it replaced, still used to open what they sealed until `quire secrets rotate`.
   */
  secrets: { key: Buffer | null; oldKeys: Buffer[] };
  /**
   * What one workspace may hold (src/domain/limits.ts), 0 for no limit: webhooks
   * (QUIRE_WORKSPACE_MAX_WEBHOOKS, default 100), upload sessions open at once
   * (QUIRE_WORKSPACE_MAX_UPLOAD_SESSIONS, default 100), bytes of documents stored
   * (QUIRE_WORKSPACE_MAX_STORED_MB, default 0: none).
   */
  limits: { webhooks: number; uploadSessions: number; storedBytes: number };
  /**
   * QUIRE_EVENT_RETENTION (default 30d; 0 keeps them): events the webhook fan-out has taken and
   * webhook deliveries that are over, with their attempts, are deleted once this old (src/domain/retention.ts).
   */
  eventRetentionMs: number;
  /** Page images (src/domain/pages.ts). */
  pageImages: {
    /** QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS (default 50), in pixels: a larger image is a 422 naming the largest dpi that fits. */
    maxPixels: number;
    /** QUIRE_PAGE_RENDERS_PER_WORKSPACE (default 1; 0: no limit): one workspace's renders in flight at once per process. */
    rendersPerWorkspace: number;
    /** QUIRE_PAGE_RENDER_WAIT_MS (default 10,000): how long a render beyond them waits for a turn before a 503 with `retry-after`. */
    renderWaitMs: number;
    /** QUIRE_PAGE_IMAGE_CACHE_MB (default 1024; 0: no bound), in bytes: rendered images kept in storage, least recently used deleted first. */
    cacheBytes: number;
  };
  /** Publishing project versions. */
  projects: {
    /** QUIRE_PROJECT_DEBOUNCE_MS: changes closer together than this make one version (default 2000). */
    debounceMs: number;
    /** QUIRE_PROJECT_SETTLE_MAX_MS: publish anyway after waiting this long for in-flight documents and extraction (default 10 min). */
    settleMaxMs: number;
  };
}

/** `s3://bucket?endpoint=…&region=…&forcePathStyle=true&prefix=…`; credentials come from the AWS SDK's default chain. */
export interface S3StorageConfig {
  kind: 's3';
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, moto, …); unset = AWS. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Prepended to every object key: '' or ending with '/'. */
  prefix: string;
  /** Given when they came from AWS_*_FILE; otherwise the AWS SDK finds them (environment, profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export interface WebhookConfig {
  /** QUIRE_WEBHOOK_ALLOW_PRIVATE=true: deliver to private, loopback and link-local addresses too. */
  allowPrivate: boolean;
  /** QUIRE_WEBHOOK_ALLOW_HOSTS: host names (lowercase) exempt from the private-address guard. */
  allowHosts: string[];
  /** QUIRE_WEBHOOK_RETRY_SCHEDULE: the wait before each attempt (the first is usually 0), in ms. */
  retryScheduleMs: number[];
  /** QUIRE_WEBHOOK_TIMEOUT_MS: a response must complete within this. */
  timeoutMs: number;
  /** QUIRE_WEBHOOK_DISABLE_AFTER: a webhook failing without a success for this long is disabled. */
  disableAfterMs: number;
}

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';

/** `0,5s,5m,30m,2h` -> milliseconds; units ms, s, m, h, d; a bare number is milliseconds. */
export function parseDurationList(variable: string, raw: string): number[] {
  const out = raw.split(',').map((part) => parseDuration(variable, part));
  if (out.length === 0 || out.length > 50) throw new ConfigError(variable, 'must list 1 to 50 durations');
  return out;
}

export function parseDuration(variable: string, raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(raw);
  if (!m) throw new ConfigError(variable, `has an invalid duration "${raw}" (use e.g. 500ms, 5s, 5m, 2h, 5d)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
  return Math.round(Number(m[1]) * unit);
}

/** A configuration problem: start-up stops with this one line. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
  }
}

/** Tesseract's language codes (`eng`, `deu`, `chi_sim`), joined by `+`. */
const OCR_LANGUAGES = /^[a-z_]{3,}(\+[a-z_]{3,})*$/;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(given: NodeJS.ProcessEnv = process.env): Config {
  let env: NodeJS.ProcessEnv;
  try {
    env = resolveFiles(given);
  } catch (err) {
    if (err instanceof EnvironmentError) throw new ConfigError(err.variable, err.problem);
    throw err;
  }
  const port = parsePort(env.PORT);
  const host = (env.HOST ?? '127.0.0.1').trim();
  if (!host) throw new ConfigError('HOST', 'must not be empty');
  const dataDir = path.resolve(env.QUIRE_DATA_DIR || './data');

  const urlHost = host.includes(':') ? `[${host}]` : host;
  const publicUrl = parseHttpUrl('QUIRE_PUBLIC_URL', env.QUIRE_PUBLIC_URL ?? `http://${urlHost}:${port}`);

  let database: Config['database'];
  const dbUrl = env.DATABASE_URL?.trim();
  const readCacheBytes = parseIntRange('QUIRE_READ_CACHE_MB', env.QUIRE_READ_CACHE_MB, 64, 0, 4096) * 1024 * 1024;
  const readCacheTtlMs = parseIntRange('QUIRE_READ_CACHE_TTL_MS', env.QUIRE_READ_CACHE_TTL_MS, DEFAULT_READ_CACHE_TTL_MS, 0, 3600_000);
  if (!dbUrl) {
    database = { kind: 'sqlite', file: path.join(dataDir, 'quire.db'), readCacheBytes };
  } else if (/^postgres(ql)?:\/\//.test(dbUrl)) {
    try {
      new URL(dbUrl);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    database = { kind: 'postgres', url: dbUrl, readCacheBytes, readCacheTtlMs };
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
  } else if (storageUrl.startsWith('s3://')) {
    storage = parseS3Url(storageUrl, env);
    if (given.AWS_ACCESS_KEY_ID_FILE || given.AWS_SECRET_ACCESS_KEY_FILE) {
      if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) {
        throw new ConfigError('AWS_ACCESS_KEY_ID_FILE', 'needs AWS_SECRET_ACCESS_KEY(_FILE) with it, and the other way round');
      }
      storage.credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined };
    }
  } else {
    throw new ConfigError('QUIRE_STORAGE_URL', 'must be unset (files under QUIRE_DATA_DIR), a file:///path URL or an s3://bucket?region=… URL');
  }

  const bootstrapKey = env.QUIRE_BOOTSTRAP_KEY;
  if (bootstrapKey !== undefined && bootstrapKey !== '') {
    if (bootstrapKey.length < 16 || /\s/.test(bootstrapKey)) {
      throw new ConfigError('QUIRE_BOOTSTRAP_KEY', 'must be at least 16 characters without spaces');
    }
    // deploy/compose.yaml's placeholder (change-me-…) is public: a server started with it is open to anyone.
    if (/^change-?me/i.test(bootstrapKey)) {
      throw new ConfigError('QUIRE_BOOTSTRAP_KEY', 'is still the placeholder of deploy/compose.yaml; set a secret value of your own (e.g. openssl rand -base64 32)');
    }
  }

  const logLevel = env.QUIRE_LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('QUIRE_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const ingestMemoryMb = parseIntRange('QUIRE_INGEST_MEMORY_MB', env.QUIRE_INGEST_MEMORY_MB, 1024, 64, 65_536);
  const pdfEngine = env.QUIRE_PDF_ENGINE || 'pdfium';
  if (pdfEngine !== 'pdfium' && pdfEngine !== 'pdfjs') {
    throw new ConfigError('QUIRE_PDF_ENGINE', 'must be one of pdfium, pdfjs');
  }

  const ocrLanguages = env.QUIRE_OCR_LANGUAGES?.trim() || 'eng';
  if (!OCR_LANGUAGES.test(ocrLanguages)) {
    throw new ConfigError('QUIRE_OCR_LANGUAGES', `must be tesseract language codes joined by + (e.g. eng or eng+deu; got "${env.QUIRE_OCR_LANGUAGES}")`);
  }

  const pdfiumCompile = env.QUIRE_PDFIUM_COMPILE || 'optimized';
  if (pdfiumCompile !== 'optimized' && pdfiumCompile !== 'lazy') {
    throw new ConfigError('QUIRE_PDFIUM_COMPILE', 'must be one of optimized, lazy');
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

  const secrets = parseSecrets(env);

  return {
    port,
    metricsPort: env.QUIRE_METRICS_PORT ? parseIntRange('QUIRE_METRICS_PORT', env.QUIRE_METRICS_PORT, 0, 1, 65535) : null,
    host,
    dataDir,
    publicUrl,
    apiBase: `${publicUrl}/v1preview1`,
    database,
    storage,
    bootstrapKey: bootstrapKey || undefined,
    logLevel,
    warnings: unknownVariableWarnings(given),
    maxUploadBytes: MAX_UPLOAD_BYTES,
    ingest: {
      concurrency: parseIntRange('QUIRE_WORKER_CONCURRENCY', env.QUIRE_WORKER_CONCURRENCY, Math.max(1, os.availableParallelism()), 1, 256),
      timeoutMs: parseIntRange('QUIRE_INGEST_TIMEOUT_MS', env.QUIRE_INGEST_TIMEOUT_MS, 120_000, 100, 24 * 3600_000),
      memoryMb: ingestMemoryMb,
      ocrPageTimeoutMs: parseIntRange('QUIRE_OCR_PAGE_TIMEOUT_MS', env.QUIRE_OCR_PAGE_TIMEOUT_MS, 30_000, 100, 3600_000),
      ocrConcurrency: parseIntRange('QUIRE_OCR_CONCURRENCY', env.QUIRE_OCR_CONCURRENCY, Math.max(1, os.availableParallelism()), 1, 256),
      ocrLanguages,
      pdfEngine,
      officeIdleMs: parseIntRange('QUIRE_OFFICE_IDLE_MS', env.QUIRE_OFFICE_IDLE_MS, 120_000, 0, 24 * 3600_000),
      officeRequireIsolation: parseBool('QUIRE_OFFICE_REQUIRE_ISOLATION', env.QUIRE_OFFICE_REQUIRE_ISOLATION),
      pdfiumCompile,
      analysisWarmUpMs: parseIntRange('QUIRE_ANALYSIS_WARM_UP_MS', env.QUIRE_ANALYSIS_WARM_UP_MS, 500, 0, 60_000),
      initialOldSpaceMb: Math.min(
        parseIntRange('QUIRE_INITIAL_OLD_SPACE_MB', env.QUIRE_INITIAL_OLD_SPACE_MB, DEFAULT_INITIAL_OLD_SPACE_MB, 0, 16_384),
        Math.floor(ingestMemoryMb / 4),
      ),
      leaseMs: parseIntRange('QUIRE_JOB_LEASE_MS', env.QUIRE_JOB_LEASE_MS, DEFAULT_JOB_LEASE_MS, 200, 24 * 3600_000),
      pollMs: parseIntRange('QUIRE_JOB_POLL_MS', env.QUIRE_JOB_POLL_MS, 200, 10, 60_000),
      retryBaseMs: parseIntRange('QUIRE_JOB_RETRY_MS', env.QUIRE_JOB_RETRY_MS, 5_000, 0, 3600_000),
    },
    uploadChunkBytes,
    uploadSessionTtlSeconds,
    http: {
      rateLimitPerMinute: parseIntRange('QUIRE_RATE_LIMIT', env.QUIRE_RATE_LIMIT, 100_000, 0, 100_000_000),
      corsOrigins: parseOrigins(env.QUIRE_CORS_ORIGINS),
    },
    secrets,
    eventRetentionMs: parseDuration('QUIRE_EVENT_RETENTION', env.QUIRE_EVENT_RETENTION?.trim() || '30d'),
    limits: {
      webhooks: parseIntRange('QUIRE_WORKSPACE_MAX_WEBHOOKS', env.QUIRE_WORKSPACE_MAX_WEBHOOKS, 100, 0, 1_000_000),
      uploadSessions: parseIntRange('QUIRE_WORKSPACE_MAX_UPLOAD_SESSIONS', env.QUIRE_WORKSPACE_MAX_UPLOAD_SESSIONS, 100, 0, 1_000_000),
      storedBytes: parseIntRange('QUIRE_WORKSPACE_MAX_STORED_MB', env.QUIRE_WORKSPACE_MAX_STORED_MB, 0, 0, 1_000_000_000) * 1024 * 1024,
    },
    pageImages: {
      maxPixels: parseIntRange('QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS', env.QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS, 50, 1, 250) * 1_000_000,
      rendersPerWorkspace: parseIntRange('QUIRE_PAGE_RENDERS_PER_WORKSPACE', env.QUIRE_PAGE_RENDERS_PER_WORKSPACE, 1, 0, 1000),
      renderWaitMs: parseIntRange('QUIRE_PAGE_RENDER_WAIT_MS', env.QUIRE_PAGE_RENDER_WAIT_MS, 10_000, 0, 600_000),
      cacheBytes: parseIntRange('QUIRE_PAGE_IMAGE_CACHE_MB', env.QUIRE_PAGE_IMAGE_CACHE_MB, 1024, 0, 1_000_000_000) * 1024 * 1024,
    },
    projects: {
      debounceMs: parseIntRange('QUIRE_PROJECT_DEBOUNCE_MS', env.QUIRE_PROJECT_DEBOUNCE_MS, 2_000, 0, 3600_000),
      settleMaxMs: parseIntRange('QUIRE_PROJECT_SETTLE_MAX_MS', env.QUIRE_PROJECT_SETTLE_MAX_MS, 10 * 60_000, 0, 7 * 24 * 3600_000),
    },
    webhooks: {
      allowPrivate: parseBool('QUIRE_WEBHOOK_ALLOW_PRIVATE', env.QUIRE_WEBHOOK_ALLOW_PRIVATE),
      allowHosts: (env.QUIRE_WEBHOOK_ALLOW_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1'))
        .filter(Boolean),
      retryScheduleMs: parseDurationList('QUIRE_WEBHOOK_RETRY_SCHEDULE', env.QUIRE_WEBHOOK_RETRY_SCHEDULE?.trim() || DEFAULT_WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: parseIntRange('QUIRE_WEBHOOK_TIMEOUT_MS', env.QUIRE_WEBHOOK_TIMEOUT_MS, 15_000, 100, 600_000),
      disableAfterMs: parseDuration('QUIRE_WEBHOOK_DISABLE_AFTER', env.QUIRE_WEBHOOK_DISABLE_AFTER?.trim() || '5d'),
    },
  };
}

/** `openssl rand -base64 32` or `openssl rand -hex 32`: 32 bytes, base64 (either alphabet) or hex. */
export function parseSecretKey(variable: string, raw: string): Buffer {
  const v = raw.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(v)) key = Buffer.from(v, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) key = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== SECRET_KEY_BYTES) {
    throw new ConfigError(variable, `must be ${SECRET_KEY_BYTES} random bytes, base64 or hex (e.g. openssl rand -base64 32)`);
  }
  return key;
}

/** QUIRE_SECRET_KEY (or, as every setting, the file QUIRE_SECRET_KEY_FILE names) and QUIRE_SECRET_KEY_OLD. */
function parseSecrets(env: NodeJS.ProcessEnv): Config['secrets'] {
  const inline = env.QUIRE_SECRET_KEY?.trim();
  let key: Buffer | null = null;
  if (inline) {
    if (/^change-?me/i.test(inline)) throw new ConfigError('QUIRE_SECRET_KEY', 'is still the placeholder of deploy/compose.yaml; set a key of your own (openssl rand -base64 32)');
    key = parseSecretKey('QUIRE_SECRET_KEY', inline);
  }
  const oldKeys = (env.QUIRE_SECRET_KEY_OLD ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseSecretKey('QUIRE_SECRET_KEY_OLD', k));
  return { key, oldKeys };
}

/** `https://app.example.com,http://localhost:5173` -> exact origins (`*` allows any origin). */
function parseOrigins(raw: string | undefined): string[] {
  const out: string[] = [];
  for (const part of (raw ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    if (part === '*') {
      out.push(part);
      continue;
    }
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      throw new ConfigError('QUIRE_CORS_ORIGINS', `has an invalid origin "${part}" (use e.g. https://app.example.com)`);
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== part.replace(/\/$/, '')) {
      throw new ConfigError('QUIRE_CORS_ORIGINS', `has "${part}", which is not an origin (scheme://host[:port], no path)`);
    }
    out.push(url.origin);
  }
  return out;
}

const S3_PARAMS = ['endpoint', 'region', 'forcePathStyle', 'prefix'];

function parseS3Url(raw: string, env: NodeJS.ProcessEnv): S3StorageConfig {
  const v = 'QUIRE_STORAGE_URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(v, 'is not a valid s3://bucket URL');
  }
  const bucket = url.hostname;
  if (!bucket) throw new ConfigError(v, 'needs a bucket: s3://bucket?region=…');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(v, `has an invalid bucket name "${bucket}"`);
  if (url.username || url.password || url.port || (url.pathname && url.pathname !== '/')) {
    throw new ConfigError(v, 'must be s3://bucket with options in the query (use prefix=… for a key prefix; credentials come from AWS_* variables)');
  }
  const q = url.searchParams;
  const unknown = [...q.keys()].find((k) => !S3_PARAMS.includes(k));
  if (unknown) throw new ConfigError(v, `has an unknown option "${unknown}" (known: ${S3_PARAMS.join(', ')})`);
  let endpoint: string | undefined;
  const rawEndpoint = q.get('endpoint');
  if (rawEndpoint !== null) {
    let e: URL;
    try {
      e = new URL(rawEndpoint);
    } catch {
      throw new ConfigError(v, `endpoint is not a valid URL (got "${rawEndpoint}")`);
    }
    if (e.protocol !== 'http:' && e.protocol !== 'https:') throw new ConfigError(v, 'endpoint must be an http:// or https:// URL');
    endpoint = rawEndpoint.replace(/\/+$/, '');
  }
  const region = (q.get('region') ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? '').trim();
  if (!region) throw new ConfigError(v, 'needs a region: add region=… (or set AWS_REGION)');
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new ConfigError(v, `has an invalid region "${region}"`);
  const rawPathStyle = q.get('forcePathStyle');
  if (rawPathStyle !== null && rawPathStyle !== 'true' && rawPathStyle !== 'false') {
    throw new ConfigError(v, `forcePathStyle must be true or false (got "${rawPathStyle}")`);
  }
  let prefix = (q.get('prefix') ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(prefix) || prefix.split('/').some((p) => p === '' || p === '.' || p === '..')) {
      throw new ConfigError(v, `prefix must be path segments of letters, digits, '.', '_' and '-' (got "${q.get('prefix')}")`);
    }
    prefix += '/';
  }
  return { kind: 's3', bucket, region, endpoint, forcePathStyle: rawPathStyle === 'true', prefix };
}

function parseBool(variable: string, raw: string | undefined): boolean {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0' || v === 'no') return false;
  if (v === 'true' || v === '1' || v === 'yes') return true;
  throw new ConfigError(variable, `must be true or false (got "${raw}")`);
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
