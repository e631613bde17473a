import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { AWS_CREDENTIALS, SETTINGS } from '../../src/runtime/environment.js';
import { scratchDir } from '../helpers/scratch.js';
import { ROOT, runCli } from '../helpers/quire.js';

test('defaults: port 8080 on 127.0.0.1, SQLite and files under ./data', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.publicUrl, 'http://127.0.0.1:8080');
  assert.equal(c.apiBase, 'http://127.0.0.1:8080/v1preview1');
  assert.equal(c.database.kind, 'sqlite');
  assert.match(c.dataDir, /\/data$/);
  assert.equal(c.storage.kind, 'fs');
  assert.equal(c.bootstrapKey, undefined);
});

test('QUIRE_PUBLIC_URL is the base of every URL (trailing slash dropped)', () => {
  assert.equal(loadConfig({ QUIRE_PUBLIC_URL: 'https://docs.example.com/quire/' }).apiBase, 'https://docs.example.com/quire/v1preview1');
});

test('DATABASE_URL selects PostgreSQL', () => {
  const c = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/quire' });
  assert.deepEqual(c.database, { kind: 'postgres', url: 'postgres://u:p@db:5432/quire', readCacheBytes: 64 * 1024 * 1024, readCacheTtlMs: 5000 });
});

test('QUIRE_READ_CACHE_TTL_MS bounds how long PostgreSQL keeps a looked-up value (default 5 s)', () => {
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/q', QUIRE_READ_CACHE_TTL_MS: '1500' }).database.readCacheTtlMs, 1500);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/q', QUIRE_READ_CACHE_TTL_MS: '0' }).database.readCacheTtlMs, 0);
  assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/q', QUIRE_READ_CACHE_TTL_MS: '-1' }), /QUIRE_READ_CACHE_TTL_MS/);
});

test('QUIRE_READ_CACHE_MB bounds the kept point reads on either database; 0 keeps none', () => {
  assert.equal(loadConfig({}).database.readCacheBytes, 64 * 1024 * 1024);
  assert.equal(loadConfig({ QUIRE_READ_CACHE_MB: '0' }).database.readCacheBytes, 0);
  assert.equal(loadConfig({ QUIRE_READ_CACHE_MB: '8', DATABASE_URL: 'postgres://db/q' }).database.readCacheBytes, 8 * 1024 * 1024);
  for (const v of ['-1', 'lots', '4097', '1.5']) assert.throws(() => loadConfig({ QUIRE_READ_CACHE_MB: v }), /QUIRE_READ_CACHE_MB/);
});

test('page images: 50 megapixels, 1 render per workspace, 10 s wait, 1 GiB kept by default; validated ranges', () => {
  assert.deepEqual(loadConfig({}).pageImages, { maxPixels: 50_000_000, rendersPerWorkspace: 1, renderWaitMs: 10_000, cacheBytes: 1024 * 1024 * 1024 });
  const set = loadConfig({ QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS: '8', QUIRE_PAGE_RENDERS_PER_WORKSPACE: '0', QUIRE_PAGE_RENDER_WAIT_MS: '0', QUIRE_PAGE_IMAGE_CACHE_MB: '0' }).pageImages;
  assert.deepEqual(set, { maxPixels: 8_000_000, rendersPerWorkspace: 0, renderWaitMs: 0, cacheBytes: 0 });
  for (const [name, v] of [['QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS', '0'], ['QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS', '251'], ['QUIRE_PAGE_RENDERS_PER_WORKSPACE', '-1'], ['QUIRE_PAGE_RENDER_WAIT_MS', 'soon'], ['QUIRE_PAGE_IMAGE_CACHE_MB', '1.5']] as [string, string][]) {
    assert.throws(() => loadConfig({ [name]: v }), new RegExp(name), `${name}=${v}`);
  }
});

test('QUIRE_PDFIUM_COMPILE: all of PDFium optimised at start by default, or lazily', () => {
  assert.equal(loadConfig({}).ingest.pdfiumCompile, 'optimized');
  assert.equal(loadConfig({ QUIRE_PDFIUM_COMPILE: 'lazy' }).ingest.pdfiumCompile, 'lazy');
  assert.throws(() => loadConfig({ QUIRE_PDFIUM_COMPILE: 'eager' }), /QUIRE_PDFIUM_COMPILE/);
});

test('QUIRE_PDF_ENGINE picks what reads PDFs: PDFium by default, or pdf.js', () => {
  assert.equal(loadConfig({}).ingest.pdfEngine, 'pdfium');
  assert.equal(loadConfig({ QUIRE_PDF_ENGINE: 'pdfjs' }).ingest.pdfEngine, 'pdfjs');
  assert.throws(() => loadConfig({ QUIRE_PDF_ENGINE: 'mupdf' }), /QUIRE_PDF_ENGINE/);
});

test('QUIRE_OCR_LANGUAGES: English by default, or tesseract language codes joined by +', () => {
  assert.equal(loadConfig({}).ingest.ocrLanguages, 'eng');
  assert.equal(loadConfig({ QUIRE_OCR_LANGUAGES: ' eng+deu ' }).ingest.ocrLanguages, 'eng+deu');
  assert.equal(loadConfig({ QUIRE_OCR_LANGUAGES: 'chi_sim' }).ingest.ocrLanguages, 'chi_sim');
  for (const v of ['eng,deu', 'eng+', 'ENG', 'de', 'eng deu', '../eng']) {
    assert.throws(() => loadConfig({ QUIRE_OCR_LANGUAGES: v }), (e: Error) => e instanceof ConfigError && /^invalid configuration: QUIRE_OCR_LANGUAGES must be/.test(e.message), v);
  }
});

test('QUIRE_METRICS_PORT: where a worker answers GET /metrics; unset for none', () => {
  assert.equal(loadConfig({}).metricsPort, null);
  assert.equal(loadConfig({ QUIRE_METRICS_PORT: '9464' }).metricsPort, 9464);
  assert.throws(() => loadConfig({ QUIRE_METRICS_PORT: '70000' }), /QUIRE_METRICS_PORT/);
});

test('QUIRE_OFFICE_IDLE_MS: how long a resident LibreOffice waits for work; 0 for none', () => {
  assert.equal(loadConfig({}).ingest.officeIdleMs, 120_000);
  assert.equal(loadConfig({ QUIRE_OFFICE_IDLE_MS: '0' }).ingest.officeIdleMs, 0);
  assert.throws(() => loadConfig({ QUIRE_OFFICE_IDLE_MS: '-1' }), /QUIRE_OFFICE_IDLE_MS/);
});

test('QUIRE_OFFICE_REQUIRE_ISOLATION: refuse Word files LibreOffice could only convert with a network; off by default', () => {
  assert.equal(loadConfig({}).ingest.officeRequireIsolation, false);
  assert.equal(loadConfig({ QUIRE_OFFICE_REQUIRE_ISOLATION: 'true' }).ingest.officeRequireIsolation, true);
  assert.equal(loadConfig({ QUIRE_OFFICE_REQUIRE_ISOLATION: 'false' }).ingest.officeRequireIsolation, false);
  assert.throws(() => loadConfig({ QUIRE_OFFICE_REQUIRE_ISOLATION: 'always' }), /QUIRE_OFFICE_REQUIRE_ISOLATION/);
});

test('QUIRE_INITIAL_OLD_SPACE_MB sets the old generation new threads start with; 0 keeps V8\'s sizing', () => {
  assert.equal(loadConfig({}).ingest.initialOldSpaceMb, 256);
  assert.equal(loadConfig({ QUIRE_INITIAL_OLD_SPACE_MB: '0' }).ingest.initialOldSpaceMb, 0);
  assert.equal(loadConfig({ QUIRE_INITIAL_OLD_SPACE_MB: '128' }).ingest.initialOldSpaceMb, 128);
  // Never above a quarter of the threads' heap limit: a thread retires when over half of it is used.
  assert.equal(loadConfig({ QUIRE_INGEST_MEMORY_MB: '400' }).ingest.initialOldSpaceMb, 100);
  assert.equal(loadConfig({ QUIRE_INGEST_MEMORY_MB: '4096', QUIRE_INITIAL_OLD_SPACE_MB: '2048' }).ingest.initialOldSpaceMb, 1024);
  for (const v of ['-1', 'big', '20000']) assert.throws(() => loadConfig({ QUIRE_INITIAL_OLD_SPACE_MB: v }), /QUIRE_INITIAL_OLD_SPACE_MB/);
});

test('QUIRE_OCR_CONCURRENCY bounds the OCR engines of a process: one per core by default', () => {
  assert.equal(loadConfig({}).ingest.ocrConcurrency, Math.max(1, os.availableParallelism()));
  assert.equal(loadConfig({ QUIRE_OCR_CONCURRENCY: '3' }).ingest.ocrConcurrency, 3);
  for (const v of ['0', '-1', 'many', '1.5']) assert.throws(() => loadConfig({ QUIRE_OCR_CONCURRENCY: v }), /QUIRE_OCR_CONCURRENCY/);
});

test('each invalid setting is one clear line naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^invalid configuration: PORT /],
    [{ PORT: '70000' }, /PORT/],
    [{ HOST: ' ' }, /HOST/],
    [{ QUIRE_PUBLIC_URL: 'not a url' }, /QUIRE_PUBLIC_URL/],
    [{ QUIRE_PUBLIC_URL: 'ftp://x' }, /QUIRE_PUBLIC_URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ QUIRE_STORAGE_URL: 'gopher://x' }, /QUIRE_STORAGE_URL/],
    [{ QUIRE_BOOTSTRAP_KEY: 'short' }, /QUIRE_BOOTSTRAP_KEY/],
    [{ QUIRE_LOG_LEVEL: 'loud' }, /QUIRE_LOG_LEVEL/],
  ];
  for (const [env, pattern] of cases) {
    assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && pattern.test(err.message) && !err.message.includes('\n'));
  }
});

test('upload session settings: defaults 8 MiB chunks and 24 h; validated ranges', () => {
  const d = loadConfig({});
  assert.equal(d.uploadChunkBytes, 8 * 1024 * 1024);
  assert.equal(d.uploadSessionTtlSeconds, 24 * 3600);
  const c = loadConfig({ QUIRE_UPLOAD_CHUNK_BYTES: '65536', QUIRE_UPLOAD_SESSION_TTL_SECONDS: '2' });
  assert.equal(c.uploadChunkBytes, 65536);
  assert.equal(c.uploadSessionTtlSeconds, 2);
  for (const env of [
    { QUIRE_UPLOAD_CHUNK_BYTES: '65535' },
    { QUIRE_UPLOAD_CHUNK_BYTES: String(64 * 1024 * 1024 + 1) },
    { QUIRE_UPLOAD_CHUNK_BYTES: '8MiB' },
    { QUIRE_UPLOAD_SESSION_TTL_SECONDS: '0' },
    { QUIRE_UPLOAD_SESSION_TTL_SECONDS: '-1' },
    { QUIRE_UPLOAD_SESSION_TTL_SECONDS: String(31 * 24 * 3600) },
  ]) {
    const name = Object.keys(env)[0]!;
    assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && err.message.startsWith(`invalid configuration: ${name} `));
  }
});

test("deploy/compose.yaml's placeholder bootstrap key is refused at start with a clear message", async () => {
  const compose = fs.readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8');
  const placeholder = /QUIRE_BOOTSTRAP_KEY: (\S+)/.exec(compose)?.[1];
  assert.ok(placeholder, 'compose.yaml sets QUIRE_BOOTSTRAP_KEY');
  for (const key of [placeholder, 'CHANGE-ME-please-0123456789', 'changeme-0123456789abcdef']) {
    assert.throws(() => loadConfig({ QUIRE_BOOTSTRAP_KEY: key }), (err: Error) => err instanceof ConfigError && /QUIRE_BOOTSTRAP_KEY is still the placeholder/.test(err.message));
  }
  assert.equal(loadConfig({ QUIRE_BOOTSTRAP_KEY: 'a-real-secret-0123456789' }).bootstrapKey, 'a-real-secret-0123456789');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-placeholder-'));
  const started = await runCli(['serve'], { PATH: process.env.PATH, QUIRE_DATA_DIR: dataDir, QUIRE_BOOTSTRAP_KEY: placeholder, PORT: '1' });
  assert.equal(started.code, 1);
  assert.match(started.stderr, /^quire: invalid configuration: QUIRE_BOOTSTRAP_KEY is still the placeholder of deploy\/compose\.yaml/);
  assert.deepEqual(fs.readdirSync(dataDir), [], 'nothing was started or written');
});

test('any setting may come from a file (NAME_FILE), one trailing newline dropped; both set or an unreadable file is one clear error', () => {
  const dir = scratchDir('config-files-');
  try {
    fs.writeFileSync(path.join(dir, 'db'), 'postgres://u:p@db:5432/quire\n');
    fs.writeFileSync(path.join(dir, 'key'), 'a-bootstrap-key-from-a-file');
    const c = loadConfig({ DATABASE_URL_FILE: path.join(dir, 'db'), QUIRE_BOOTSTRAP_KEY_FILE: path.join(dir, 'key') });
    assert.equal(c.database.kind === 'postgres' && c.database.url, 'postgres://u:p@db:5432/quire');
    assert.equal(c.bootstrapKey, 'a-bootstrap-key-from-a-file');
    assert.throws(
      () => loadConfig({ QUIRE_BOOTSTRAP_KEY: 'another-key-of-16-chars', QUIRE_BOOTSTRAP_KEY_FILE: path.join(dir, 'key') }),
      (e: Error) => e instanceof ConfigError && /^invalid configuration: QUIRE_BOOTSTRAP_KEY_FILE and QUIRE_BOOTSTRAP_KEY are both set/.test(e.message),
    );
    assert.throws(() => loadConfig({ DATABASE_URL_FILE: path.join(dir, 'missing') }), /^Error: invalid configuration: DATABASE_URL_FILE names a file that cannot be read \(ENOENT: /);
    // A value from a file is validated as the variable itself is.
    fs.writeFileSync(path.join(dir, 'port'), 'eighty\n');
    assert.throws(() => loadConfig({ PORT_FILE: path.join(dir, 'port') }), /invalid configuration: PORT must be an integer/);
    // S3 credentials from files are handed to the S3 client (the AWS SDK reads only its own variables).
    fs.writeFileSync(path.join(dir, 'id'), 'AKIDEXAMPLE\n');
    fs.writeFileSync(path.join(dir, 'secret'), 's3cr3t\n');
    const s3 = loadConfig({ QUIRE_STORAGE_URL: 's3://bucket?region=eu-west-1', AWS_ACCESS_KEY_ID_FILE: path.join(dir, 'id'), AWS_SECRET_ACCESS_KEY_FILE: path.join(dir, 'secret') });
    assert.deepEqual(s3.storage.kind === 's3' && s3.storage.credentials, { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 's3cr3t', sessionToken: undefined });
    const plain = loadConfig({ QUIRE_STORAGE_URL: 's3://bucket?region=eu-west-1' }).storage;
    assert.equal(plain.kind === 's3' && plain.credentials, undefined);
    assert.throws(() => loadConfig({ QUIRE_STORAGE_URL: 's3://bucket?region=eu-west-1', AWS_ACCESS_KEY_ID_FILE: path.join(dir, 'id') }), /AWS_ACCESS_KEY_ID_FILE needs AWS_SECRET_ACCESS_KEY/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown QUIRE_* variable is a warning naming the closest known one; client and test variables are not', () => {
  const c = loadConfig({ QUIRE_WORKERS_CONCURENCY: '4', QUIRE_LOGLEVEL: 'debug', QUIRE_BOOTSTRAP_KY_FILE: '/x', QUIRE_URL: 'http://x', QUIRE_API_KEY: 'k', QUIRE_TEST_STRICT_TMP: '1', PORT_FILE: '' });
  assert.deepEqual(c.warnings, [
    'unknown variable QUIRE_BOOTSTRAP_KY_FILE is ignored; did you mean QUIRE_BOOTSTRAP_KEY_FILE?',
    'unknown variable QUIRE_LOGLEVEL is ignored; did you mean QUIRE_LOG_LEVEL?',
    'unknown variable QUIRE_WORKERS_CONCURENCY is ignored; did you mean QUIRE_WORKER_CONCURRENCY?',
  ]);
  assert.deepEqual(loadConfig({}).warnings, []);
});

test('config.ts reads exactly the listed settings, and .env.example lists every one', () => {
  const source = fs.readFileSync(path.join(ROOT, 'src/runtime/config.ts'), 'utf8');
  const read = new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
  const listed = new Set<string>([...SETTINGS, ...AWS_CREDENTIALS, 'AWS_REGION', 'AWS_DEFAULT_REGION']);
  assert.deepEqual([...read].filter((v) => !listed.has(v)), [], 'read by config.ts but not in SETTINGS (src/runtime/environment.ts)');
  assert.deepEqual(SETTINGS.filter((v) => !read.has(v)), [], 'in SETTINGS but never read');
  const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  assert.deepEqual(SETTINGS.filter((v) => !new RegExp(`^(# )?${v}=`, 'm').test(example)), [], 'missing from .env.example');
  // Documented once: the README's table (what operators set) or docs/tuning.md.
  const rows = (file: string) => [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
  const documented = [...rows('README.md'), ...rows('docs/tuning.md')];
  assert.deepEqual(SETTINGS.filter((v) => !documented.includes(v)), [], 'not in the README table nor docs/tuning.md');
  assert.equal(new Set(documented).size, documented.length, 'a setting documented twice');
});

test('QUIRE_SECRET_KEY: 32 bytes as base64 or hex, or a file; old keys listed; placeholders and junk refused', () => {
  const raw = Buffer.alloc(32, 9);
  assert.equal(loadConfig({}).secrets.key, null);
  assert.deepEqual(loadConfig({ QUIRE_SECRET_KEY: raw.toString('base64') }).secrets.key, raw);
  assert.deepEqual(loadConfig({ QUIRE_SECRET_KEY: raw.toString('hex') }).secrets.key, raw);
  assert.deepEqual(loadConfig({ QUIRE_SECRET_KEY: raw.toString('base64url') }).secrets.key, raw);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-key-'));
  const file = path.join(dir, 'key');
  fs.writeFileSync(file, `${raw.toString('base64')}\n`);
  assert.deepEqual(loadConfig({ QUIRE_SECRET_KEY_FILE: file }).secrets.key, raw);
  const old = Buffer.alloc(32, 1);
  assert.deepEqual(loadConfig({ QUIRE_SECRET_KEY: raw.toString('hex'), QUIRE_SECRET_KEY_OLD: ` ${old.toString('base64')} ,${raw.toString('hex')}` }).secrets.oldKeys, [old, raw]);
  fs.rmSync(dir, { recursive: true });
  for (const [env, pattern] of [
    [{ QUIRE_SECRET_KEY: 'change-me-secret-key' }, /QUIRE_SECRET_KEY is still the placeholder/],
    [{ QUIRE_SECRET_KEY: 'a passphrase is not a key at all, sorry' }, /QUIRE_SECRET_KEY must be 32 random bytes/],
    [{ QUIRE_SECRET_KEY: Buffer.alloc(16).toString('base64') }, /QUIRE_SECRET_KEY must be 32/],
    [{ QUIRE_SECRET_KEY: raw.toString('base64'), QUIRE_SECRET_KEY_FILE: file }, /both set/],
    [{ QUIRE_SECRET_KEY_FILE: file }, /QUIRE_SECRET_KEY_FILE names a file that cannot be read/],
    [{ QUIRE_SECRET_KEY_OLD: 'nope' }, /QUIRE_SECRET_KEY_OLD must be 32/],
  ] as [Record<string, string>, RegExp][]) {
    assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && pattern.test(err.message), JSON.stringify(env));
  }
});
