import fs from 'node:fs';

/**
 * Every environment variable the server reads (config.ts reads nothing else; a unit test holds the
 * two and `.env.example` together). Any of them may instead name a file holding its value with a
 * `_FILE` suffix (`DATABASE_URL_FILE=/run/secrets/db`), as container platforms provide secrets.
 */
export const SETTINGS = [
  'PORT',
  'HOST',
  'QUIRE_DATA_DIR',
  'QUIRE_PUBLIC_URL',
  'DATABASE_URL',
  'QUIRE_STORAGE_URL',
  'QUIRE_BOOTSTRAP_KEY',
  'QUIRE_SECRET_KEY',
  'QUIRE_SECRET_KEY_OLD',
  'QUIRE_LOG_LEVEL',
  'QUIRE_WORKER_CONCURRENCY',
  'QUIRE_INGEST_TIMEOUT_MS',
  'QUIRE_METRICS_PORT',
  'QUIRE_OFFICE_IDLE_MS',
  'QUIRE_OFFICE_REQUIRE_ISOLATION',
  'QUIRE_PDF_ENGINE',
  'QUIRE_OCR_PAGE_TIMEOUT_MS',
  'QUIRE_OCR_CONCURRENCY',
  'QUIRE_OCR_LANGUAGES',
  'QUIRE_PDFIUM_COMPILE',
  'QUIRE_ANALYSIS_WARM_UP_MS',
  'QUIRE_INITIAL_OLD_SPACE_MB',
  'QUIRE_INGEST_MEMORY_MB',
  'QUIRE_JOB_LEASE_MS',
  'QUIRE_JOB_POLL_MS',
  'QUIRE_JOB_RETRY_MS',
  'QUIRE_UPLOAD_CHUNK_BYTES',
  'QUIRE_UPLOAD_SESSION_TTL_SECONDS',
  'QUIRE_WORKSPACE_MAX_WEBHOOKS',
  'QUIRE_WORKSPACE_MAX_UPLOAD_SESSIONS',
  'QUIRE_WORKSPACE_MAX_STORED_MB',
  'QUIRE_PROJECT_DEBOUNCE_MS',
  'QUIRE_PROJECT_SETTLE_MAX_MS',
  'QUIRE_WEBHOOK_ALLOW_PRIVATE',
  'QUIRE_WEBHOOK_ALLOW_HOSTS',
  'QUIRE_WEBHOOK_RETRY_SCHEDULE',
  'QUIRE_WEBHOOK_TIMEOUT_MS',
  'QUIRE_WEBHOOK_DISABLE_AFTER',
  'QUIRE_EVENT_RETENTION',
  'QUIRE_RATE_LIMIT',
  'QUIRE_READ_CACHE_MB',
  'QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS',
  'QUIRE_PAGE_RENDERS_PER_WORKSPACE',
  'QUIRE_PAGE_RENDER_WAIT_MS',
  'QUIRE_PAGE_IMAGE_CACHE_MB',
  'QUIRE_READ_CACHE_TTL_MS',
  'QUIRE_CORS_ORIGINS',
] as const;

/** Read by the AWS SDK for the S3 store; from files too. */
export const AWS_CREDENTIALS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;

/** `QUIRE_*` variables that are not the server's settings: the client commands' and the test harness's. */
const OTHER_QUIRE = new Set(['QUIRE_URL', 'QUIRE_API_KEY', 'QUIRE_CLI_STATE_DIR', 'QUIRE_PROGRESS', 'QUIRE_CHROMIUM', 'QUIRE_CLUSTER_LOG_DIR']);

export class EnvironmentError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/**
 * The environment with each `NAME_FILE` replaced by `NAME` holding the file's content (one trailing
 * newline dropped, as `echo secret > file` leaves one). Both set, or a file that cannot be read, is
 * an EnvironmentError naming the variable.
 */
export function resolveFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of [...SETTINGS, ...AWS_CREDENTIALS]) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') throw new EnvironmentError(`${name}_FILE`, `and ${name} are both set; set one of them`);
    let value: string;
    try {
      value = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new EnvironmentError(`${name}_FILE`, `names a file that cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}: ${file})`);
    }
    out[name] = value.replace(/\r?\n$/, '');
    delete out[`${name}_FILE`];
  }
  return out;
}

/** One warning per `QUIRE_*` variable the server does not know, naming the closest known one. */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = new Set<string>([...SETTINGS, ...SETTINGS.map((s) => `${s}_FILE`)]);
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('QUIRE_') || known.has(name) || OTHER_QUIRE.has(name) || name.startsWith('QUIRE_TEST_')) continue;
    const bare = name.replace(/_FILE$/, '');
    const closest = SETTINGS.reduce((best, s) => (distance(bare, s) < distance(bare, best) ? s : best), SETTINGS[0] as string);
    warnings.push(`unknown variable ${name} is ignored; did you mean ${closest}${name.endsWith('_FILE') ? '_FILE' : ''}?`);
  }
  return warnings;
}

/** Levenshtein distance (two rows). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
