// The deployment artifacts (Dockerfile, .dockerignore, deploy/compose.yaml, docs/deploy.md), checked
// offline: no Docker engine runs where this suite runs. The files are parsed and held against the code
// they describe (commands, routes, configuration variables, the lockfile), so neither can drift alone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/runtime/config.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

// ---------------------------------------------------------------------------------------------------
// A small Dockerfile parser: instructions with their line, continuations joined, comments dropped.

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buf = '';
  let start = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const trimmed = raw.trim();
    if (/^#\s*escape\s*=/i.test(trimmed) && out.length === 0 && buf === '') throw new Error('the escape directive is not supported by this parser');
    // Comment lines are dropped, also inside a continuation (as Docker does); blank ones too.
    if (trimmed.startsWith('#') || trimmed === '') continue;
    if (buf === '') start = i + 1;
    if (/\\\s*$/.test(raw)) {
      buf += raw.replace(/\\\s*$/, ' ');
      continue;
    }
    buf += raw;
    const m = /^\s*([A-Za-z]+)(?:\s+([\s\S]*))?$/.exec(buf);
    if (!m) throw new Error(`line ${start}: not an instruction: ${buf.trim().slice(0, 60)}`);
    out.push({ keyword: m[1]!.toUpperCase(), args: (m[2] ?? '').trim(), line: start });
    buf = '';
  }
  if (buf) throw new Error(`line ${start}: a line continuation runs into the end of the file`);
  return out;
}

/** Leading `--name=value` flags and the rest. */
function flagsOf(args: string): { flags: Map<string, string>; rest: string } {
  const flags = new Map<string, string>();
  let rest = args;
  for (let m; (m = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest)); rest = rest.slice(m[0].length)) flags.set(m[1]!, m[2] ?? '');
  return { flags, rest };
}

/** The JSON array of an exec-form instruction, or null for the shell form. */
function execForm(args: string): string[] | null {
  if (!args.startsWith('[')) return null;
  try {
    const v: unknown = JSON.parse(args);
    return Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : null;
  } catch {
    return null;
  }
}

function substitute(value: string, vars: Map<string, string>): string {
  return value.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a: string | undefined, b: string | undefined) => vars.get((a ?? b)!) ?? whole);
}

interface Stage {
  index: number;
  name: string | null;
  image: string;
  line: number;
  body: Instruction[];
}

function stagesOf(instructions: Instruction[]): Stage[] {
  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const { rest } = flagsOf(ins.args);
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      assert.ok(m, `line ${ins.line}: FROM ${ins.args} is not "image [AS name]"`);
      stages.push({ index: stages.length, name: m[2]?.toLowerCase() ?? null, image: substitute(m[1]!, globalArgs), line: ins.line, body: [] });
    } else if (stages.length === 0) {
      assert.equal(ins.keyword, 'ARG', `line ${ins.line}: only ARG may come before the first FROM`);
      const [name, ...value] = ins.args.split('=');
      globalArgs.set(name!.trim(), value.join('=').trim().replace(/^"(.*)"$/, '$1'));
    } else {
      stages.at(-1)!.body.push(ins);
    }
  }
  return stages;
}

const dockerfile = parseDockerfile(read('Dockerfile'));
const stages = stagesOf(dockerfile);
const runtime = stages.at(-1)!;
const runsOf = (s: Stage) => s.body.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const stageByRef = (ref: string, before: number) =>
  stages.find((s) => s.index < before && (s.name === ref.toLowerCase() || String(s.index) === ref));

test('parser: continuations join, comments inside them drop, and a dangling continuation is an error', () => {
  const parsed = parseDockerfile('# c\nFROM a:1 AS x\nRUN one \\\n  # inside\n  two\n\nCMD ["x"]\n');
  assert.deepEqual(parsed, [
    { keyword: 'FROM', args: 'a:1 AS x', line: 2 },
    { keyword: 'RUN', args: 'one    two', line: 3 },
    { keyword: 'CMD', args: '["x"]', line: 7 },
  ]);
  assert.throws(() => parseDockerfile('FROM a:1\nRUN x \\\n'), /continuation/);
  assert.equal(execForm('["node", "x"]')?.length, 2);
  assert.equal(execForm('node x'), null);
});

test('Dockerfile: multi-stage, pinned Debian base images, every COPY --from names an earlier stage', () => {
  assert.ok(stages.length >= 2, `${stages.length} FROM`);
  for (const s of stages) {
    if (stageByRef(s.image, s.index)) continue; // FROM an earlier stage
    assert.doesNotMatch(s.image, /\$/, `line ${s.line}: base image ${s.image} has an unresolved variable`);
    const m = /^([^@\s]+?)(?::([\w][\w.-]*))?(?:@sha256:[0-9a-f]{64})?$/.exec(s.image);
    assert.ok(m, `line ${s.line}: unreadable image ${s.image}`);
    const tag = m[2];
    assert.ok(tag || s.image.includes('@sha256:'), `line ${s.line}: ${s.image} has no tag`);
    assert.notEqual(tag, 'latest', `line ${s.line}: ${s.image} is not pinned`);
    if (!s.image.includes('@sha256:')) assert.match(tag!, /\d+\.\d+\.\d+/, `line ${s.line}: ${s.image} names no exact version`);
    // glibc: libsql and @napi-rs/canvas have no prebuilt binaries of ours for musl in the lockfile's sense.
    assert.doesNotMatch(s.image, /alpine/, `line ${s.line}: ${s.image} is Alpine (musl)`);
    // The image's Node meets package.json's engines (">=22.13").
    const nodeTag = /^node:(\d+)\.(\d+)\.\d+/.exec(s.image);
    if (nodeTag) assert.ok(Number(nodeTag[1]) > 22 || (Number(nodeTag[1]) === 22 && Number(nodeTag[2]) >= 13), `line ${s.line}: ${s.image} is older than Node 22.13`);
  }
  for (const s of stages) {
    for (const ins of s.body.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
      const from = flagsOf(ins.args).flags.get('from');
      if (from === undefined) continue;
      assert.ok(stageByRef(from, s.index), `line ${ins.line}: COPY --from=${from} names no earlier stage`);
    }
  }
});

test('Dockerfile: no ADD of remote URLs; apt installs without recommends and without lists left behind', () => {
  for (const ins of dockerfile.filter((i) => i.keyword === 'ADD')) {
    assert.doesNotMatch(ins.args, /(https?|ftp):\/\/|git@/, `line ${ins.line}: ADD of a URL`);
  }
  const aptRuns = dockerfile.filter((i) => i.keyword === 'RUN' && /\bapt(-get)?\s+install\b/.test(i.args));
  assert.ok(aptRuns.length > 0, 'the runtime installs its optional tools with apt');
  for (const ins of aptRuns) {
    assert.match(ins.args, /apt(-get)?\s+update/, `line ${ins.line}: install without update in the same layer`);
    assert.match(ins.args, /--no-install-recommends/, `line ${ins.line}: apt install without --no-install-recommends`);
    assert.match(ins.args, /rm\s+-rf\s+\/var\/lib\/apt\/lists/, `line ${ins.line}: apt lists not removed in the same layer`);
  }
  const installed = aptRuns.flatMap((i) => i.args.split(/\s+/));
  // The Word-metric fonts too, as .ci/run installs them: without them LibreOffice paginates Word files differently.
  // Trixie's names: fonts-liberation is Liberation 2 (bookworm's fonts-liberation2), and Liberation Sans
  // Narrow (bookworm's fonts-liberation, Liberation 1) is fonts-liberation-sans-narrow.
  for (const pkg of ['tini', 'libreoffice-writer-nogui', 'tesseract-ocr', 'tesseract-ocr-eng', 'fonts-liberation', 'fonts-liberation-sans-narrow', 'fonts-crosextra-carlito', 'fonts-crosextra-caladea']) {
    assert.ok(installed.includes(pkg), `apt package ${pkg} is not installed`);
  }
});

test('Dockerfile: npm ci only; dev dependencies stay out of the runtime; the build runs tsc explicitly', () => {
  const runs = dockerfile.filter((i) => i.keyword === 'RUN');
  for (const r of runs) assert.doesNotMatch(r.args, /\bnpm\s+(install|i|add)\b/, `line ${r.line}: npm install (use npm ci)`);
  assert.ok(runs.some((r) => /\bnpm\s+ci\b/.test(r.args)), 'no npm ci');

  const copyFrom = (dest: RegExp) => {
    const ins = runtime.body.find((i) => i.keyword === 'COPY' && flagsOf(i.args).flags.has('from') && dest.test(flagsOf(i.args).rest));
    assert.ok(ins, `the runtime stage copies no ${dest}`);
    return stageByRef(flagsOf(ins.args).flags.get('from')!, runtime.index)!;
  };
  const depsStage = copyFrom(/node_modules/);
  assert.ok(
    runsOf(depsStage).some((r) => /\bnpm\s+ci\b[^&;|]*--omit=dev/.test(r) || /\bnpm\s+prune\b[^&;|]*--omit=dev/.test(r)),
    `the runtime's node_modules come from stage ${depsStage.name}, which does not omit dev dependencies`,
  );
  const buildStage = copyFrom(/\bdist\b/);
  const buildRuns = runsOf(buildStage);
  const ci = buildRuns.findIndex((r) => /\bnpm\s+ci\b/.test(r));
  const build = buildRuns.findIndex((r) => /\bnpm\s+run\s+build\b|\btsc\b/.test(r));
  assert.ok(ci >= 0 && build > ci, `stage ${buildStage.name}: npm ci, then the build`);
  if (/--ignore-scripts/.test(buildRuns[ci]!)) {
    // `prepare` did not run: the build must, after the sources are in.
    const srcCopy = buildStage.body.findIndex((i) => i.keyword === 'COPY' && /\bsrc\b/.test(i.args));
    const buildIns = buildStage.body.findIndex((i) => i.keyword === 'RUN' && /\bnpm\s+run\s+build\b|\btsc\b/.test(i.args));
    assert.ok(srcCopy >= 0 && buildIns > srcCopy, `stage ${buildStage.name}: src/ is copied before the build`);
  }
  // What `npm run build` compiles to is what CMD runs.
  const buildConfig = JSON.parse(read('tsconfig.build.json')) as { compilerOptions: { outDir: string; rootDir: string } };
  assert.equal(buildConfig.compilerOptions.outDir, 'dist');
  assert.equal(buildConfig.compilerOptions.rootDir, 'src');
});

test('Dockerfile: no production package has an install script that --ignore-scripts would skip', () => {
  // Each entry says why skipping its script is fine. A new native package with a build step fails here.
  const harmless: Record<string, string> = { 'node_modules/tesseract.js': 'opencollective-postinstall: prints a banner' };
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }> };
  const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript && !p.dev).map(([k]) => k);
  const prodIgnores = stages.some((s) => runsOf(s).some((r) => /\bnpm\s+ci\b/.test(r) && /--omit=dev/.test(r) && /--ignore-scripts/.test(r)));
  if (!prodIgnores) return;
  assert.deepEqual(scripted.filter((k) => !(k in harmless)), [], 'production packages whose install scripts the image skips');
  for (const k of Object.keys(harmless)) assert.ok(scripted.includes(k), `${k} no longer has an install script: drop it from the list`);
});

test('Dockerfile: the runtime runs as a non-root user, exposes 8080, checks /healthz, and starts `serve` in exec form', () => {
  const users = runtime.body.filter((i) => i.keyword === 'USER');
  assert.ok(users.length > 0, 'the final stage sets no USER (it would run as root)');
  const user = users.at(-1)!.args.split(':')[0]!;
  assert.ok(user !== 'root' && user !== '0', `the final stage runs as ${user}`);

  const expose = runtime.body.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/));
  assert.ok(expose.includes('8080') || expose.includes('8080/tcp'), `EXPOSE ${expose.join(' ')}`);

  const env = new Map<string, string>();
  for (const i of runtime.body.filter((x) => x.keyword === 'ENV')) {
    for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env.set(m[1]!, m[2]!.replace(/^"(.*)"$/, '$1'));
  }
  assert.equal(env.get('HOST'), '0.0.0.0', 'in a container Quire must listen on every interface');
  assert.equal(env.get('QUIRE_DATA_DIR'), '/data');
  assert.ok(runtime.body.some((i) => i.keyword === 'VOLUME' && i.args.includes('/data')), 'no VOLUME /data');
  // src/runtime/version.ts reads ../package.json at run time.
  assert.match(read('src/runtime/version.ts'), /\.\.\/package\.json/);
  assert.ok(runtime.body.some((i) => i.keyword === 'COPY' && !flagsOf(i.args).flags.has('from') && /package\.json/.test(i.args)), 'package.json is not in the image');

  const hc = runtime.body.filter((i) => i.keyword === 'HEALTHCHECK');
  assert.equal(hc.length, 1, 'one HEALTHCHECK in the final stage');
  const hcCmd = /^(?:--\S+\s+)*CMD\s+([\s\S]+)$/.exec(hc[0]!.args);
  assert.ok(hcCmd, `HEALTHCHECK ${hc[0]!.args}`);
  const probe = execForm(hcCmd[1]!);
  assert.ok(probe, 'HEALTHCHECK CMD in exec form');
  assert.equal(probe[0], 'node', 'the slim image has no curl: the probe is node');
  assert.match(probe.join(' '), /\/healthz/);
  assert.match(read('src/http/system.ts'), /'\/healthz'/, 'the server has a /healthz route');

  for (const kw of ['CMD', 'ENTRYPOINT']) {
    for (const i of dockerfile.filter((x) => x.keyword === kw)) assert.ok(execForm(i.args), `line ${i.line}: ${kw} in shell form`);
  }
  const entrypoint = execForm(runtime.body.findLast((i) => i.keyword === 'ENTRYPOINT')?.args ?? '[]')!;
  assert.match(entrypoint[0] ?? '', /tini/, 'an init (tini) is PID 1, forwarding SIGTERM to node');
  const cmd = execForm(runtime.body.findLast((i) => i.keyword === 'CMD')!.args)!;
  assert.deepEqual(cmd, ['node', 'dist/main.js', 'serve']);
  assert.ok(fs.existsSync(path.join(ROOT, 'src/main.ts')));
  assert.match(read('src/main.ts'), /case 'serve':/);
});

test('.dockerignore: secrets, dependencies and data stay out of the build context; every COPY source stays in', () => {
  const lines = read('.dockerignore').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  // Docker's rule: the last matching pattern wins. Enough for top-level names with `*` and `!name`.
  const excluded = (name: string) => {
    let out = false;
    for (const l of lines) {
      const neg = l.startsWith('!');
      const pat = (neg ? l.slice(1) : l).replace(/^\/+|\/+$/g, '');
      const body = pat.split('**').map((part) => part.split('*').map((lit) => lit.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('.*');
      const re = new RegExp(`^${body}(/.*)?$`);
      if (re.test(name)) out = !neg;
    }
    return out;
  };
  for (const name of ['node_modules', '.env', 'data', 'dist', '.git', 'bench/results', 'scratch-1']) {
    assert.ok(excluded(name), `${name} is sent to the build context`);
  }
  for (const s of stages) {
    for (const ins of s.body.filter((i) => i.keyword === 'COPY' && !flagsOf(i.args).flags.has('from'))) {
      const parts = flagsOf(ins.args).rest.split(/\s+/);
      for (const src of parts.slice(0, -1)) {
        assert.ok(!excluded(src.replace(/^\.\//, '')), `line ${ins.line}: COPY ${src}, which .dockerignore excludes`);
        assert.ok(fs.existsSync(path.join(ROOT, src)), `line ${ins.line}: COPY ${src}, which does not exist`);
      }
    }
  }
});

// hadolint is not packaged for Debian bookworm nor on npm, so it is not run: the rule checks above
// stand in for it (docs/deploy.md says so).

// ---------------------------------------------------------------------------------------------------
// deploy/compose.yaml

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  volumes?: (string | { type?: string; source?: string })[];
  ports?: (string | { target?: number; published?: number | string })[];
  deploy?: { replicas?: number };
  restart?: string;
}

const composeText = read('deploy/compose.yaml');
const compose = parseYaml(composeText, { merge: true }) as { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
const services = compose.services;
const svcNames = Object.keys(services ?? {});
const workerNames = svcNames.filter((n) => /^worker/.test(n));

function envOf(s: ComposeService): Record<string, string> {
  const e = s.environment ?? {};
  const pairs = Array.isArray(e) ? e.map((kv) => kv.split(/=(.*)/s).slice(0, 2) as [string, string]) : Object.entries(e).map(([k, v]) => [k, v == null ? '' : String(v)] as [string, string]);
  return Object.fromEntries(pairs);
}
const asArgs = (c: string[] | string | undefined) => (Array.isArray(c) ? c : (c ?? '').split(/\s+/).filter(Boolean));
const dependsOn = (s: ComposeService) =>
  Array.isArray(s.depends_on) ? Object.fromEntries(s.depends_on.map((n) => [n, { condition: 'service_started' }])) : (s.depends_on ?? {});
/** Services others wait for to complete: one-shot jobs, not long-running ones. */
const oneShots = new Set(svcNames.flatMap((n) => Object.entries(dependsOn(services[n]!)).filter(([, d]) => d.condition === 'service_completed_successfully').map(([k]) => k)));

test('compose: postgres, minio, api and at least two workers; one-shots are jobs, the rest have health checks', () => {
  for (const n of ['postgres', 'minio', 'api']) assert.ok(services[n], `no service ${n}`);
  const workers = workerNames.reduce((sum, n) => sum + (services[n]!.deploy?.replicas ?? 1), 0);
  assert.ok(workers >= 2, `${workers} worker(s)`);
  for (const n of svcNames) {
    const s = services[n]!;
    for (const dep of Object.keys(dependsOn(s))) assert.ok(services[dep], `${n} depends on ${dep}, which is not a service`);
    if (oneShots.has(n)) {
      assert.equal(s.restart ?? 'no', 'no', `${n} is a one-shot job and must not restart`);
      continue;
    }
    assert.ok(s.healthcheck && !s.healthcheck.disable && s.healthcheck.test, `${n} has no health check`);
    assert.notEqual(s.restart ?? 'no', 'no', `${n} is long-running: give it a restart policy`);
  }
  for (const [n, s] of Object.entries(services)) {
    if (s.build) continue;
    assert.ok(s.image && /:[\w][\w.-]*$/.test(s.image) && !s.image.endsWith(':latest'), `${n}: image ${s.image} is not pinned`);
  }
});

test('compose: api and workers wait for a healthy postgres and minio and run the commands src/main.ts has', () => {
  const main = read('src/main.ts');
  for (const n of ['api', ...workerNames]) {
    const deps = dependsOn(services[n]!);
    for (const d of ['postgres', 'minio']) assert.equal(deps[d]?.condition, 'service_healthy', `${n} does not wait for ${d} to be healthy`);
  }
  const api = asArgs(services.api!.command);
  assert.deepEqual(api.slice(0, 3), ['node', 'dist/main.js', 'serve']);
  assert.ok(api.includes('--no-worker'), 'the api runs without workers');
  assert.match(main, /'no-worker'/);
  for (const n of workerNames) assert.deepEqual(asArgs(services[n]!.command), ['node', 'dist/main.js', 'worker'], `${n} command`);
  assert.match(main, /case 'worker':/);
  for (const n of oneShots) {
    const args = asArgs(services[n]!.command);
    if (args[1] === 'dist/main.js') assert.match(main, new RegExp(`case '${args[2]}':`), `${n}: no command ${args[2]} in src/main.ts`);
  }
  // The api's probe is the readiness route; the port it publishes is the one Quire listens on.
  assert.match(asArgs(services.api!.healthcheck!.test).join(' '), /\/readyz/);
  assert.match(read('src/http/system.ts'), /'\/readyz'/);
  const port = envOf(services.api!).PORT ?? '8080';
  assert.ok((services.api!.ports ?? []).some((p) => (typeof p === 'string' ? p.split(':').at(-1)!.split('/')[0] === port : String(p.target) === port)), `api does not publish port ${port}`);
});

const OPERATOR_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

test('compose: Quire accepts the environment of api and workers, and it points at the postgres and minio services', () => {
  const pg = envOf(services.postgres!);
  const minio = envOf(services.minio!);
  for (const n of ['api', ...workerNames, ...[...oneShots].filter((o) => services[o]!.image === services.api!.image)]) {
    const raw = envOf(services[n]!);
    // The bootstrap key is a placeholder Quire refuses to start with (issue 46): the operator sets one.
    if (raw.QUIRE_BOOTSTRAP_KEY) assert.throws(() => loadConfig({ ...raw, QUIRE_SECRET_KEY: OPERATOR_SECRET_KEY }), /QUIRE_BOOTSTRAP_KEY is still the placeholder/, `${n}: placeholder accepted`);
    // So is the key sealing webhook secrets, which every process needs on PostgreSQL.
    assert.throws(() => loadConfig({ ...raw, QUIRE_BOOTSTRAP_KEY: undefined }), /QUIRE_SECRET_KEY is still the placeholder/, `${n}: secret key placeholder accepted`);
    const env: Record<string, string> = { ...raw, QUIRE_SECRET_KEY: OPERATOR_SECRET_KEY, ...(raw.QUIRE_BOOTSTRAP_KEY ? { QUIRE_BOOTSTRAP_KEY: 'an-operator-secret-0123456789' } : {}) };
    const config = loadConfig(env);
    assert.equal(config.host, '0.0.0.0', `${n}: HOST`);
    assert.equal(config.database.kind, 'postgres', `${n}: DATABASE_URL`);
    const db = new URL(env.DATABASE_URL!);
    assert.ok(services[db.hostname], `${n}: DATABASE_URL host ${db.hostname} is not a service`);
    assert.equal(db.hostname, 'postgres');
    assert.equal(decodeURIComponent(db.username), pg.POSTGRES_USER, `${n}: database user`);
    assert.equal(decodeURIComponent(db.password), pg.POSTGRES_PASSWORD, `${n}: database password`);
    assert.equal(db.pathname.slice(1), pg.POSTGRES_DB ?? pg.POSTGRES_USER, `${n}: database name`);

    assert.equal(config.storage.kind, 's3', `${n}: QUIRE_STORAGE_URL`);
    if (config.storage.kind !== 's3') continue;
    const endpoint = new URL(config.storage.endpoint!);
    assert.equal(endpoint.hostname, 'minio', `${n}: the S3 endpoint is not the minio service`);
    assert.equal(endpoint.port, '9000');
    assert.equal(config.storage.forcePathStyle, true, `${n}: MinIO needs path-style requests`);
    assert.equal(env.AWS_ACCESS_KEY_ID, minio.MINIO_ROOT_USER, `${n}: access key`);
    assert.equal(env.AWS_SECRET_ACCESS_KEY, minio.MINIO_ROOT_PASSWORD, `${n}: secret key`);
    // The bucket the one-shot creates is the one Quire uses.
    const mb = svcNames.map((o) => asArgs(services[o]!.command).join(' ')).map((c) => /\bmc\s+mb\b[^&;]*?\s(\S+)\/(\S+)\s*$/m.exec(c)).find(Boolean);
    assert.ok(mb, 'no service creates the bucket (mc mb)');
    assert.equal(mb[2], config.storage.bucket, 'the bucket created is not the one in QUIRE_STORAGE_URL');
  }
});

test('compose: environment keys exist in src/runtime/config.ts, secrets are placeholders, every named volume is declared', () => {
  const configSrc = read('src/runtime/config.ts');
  for (const n of svcNames.filter((x) => services[x]!.image === services.api!.image)) {
    for (const key of Object.keys(envOf(services[n]!))) {
      if (key.startsWith('AWS_')) continue; // the AWS SDK's own chain
      assert.match(configSrc, new RegExp(`\\b${key}\\b`), `${n}: ${key} is not read by src/runtime/config.ts`);
    }
  }
  for (const [n, s] of Object.entries(services)) {
    for (const [k, v] of Object.entries(envOf(s))) {
      if (/PASSWORD|SECRET|BOOTSTRAP_KEY/.test(k)) assert.match(v, /change-me/, `${n}: ${k} is not an obvious placeholder`);
    }
  }
  assert.match(composeText, /placeholder/i, 'a comment says the secrets are placeholders');

  const declared = new Set(Object.keys(compose.volumes ?? {}));
  const used = new Set<string>();
  for (const s of Object.values(services)) {
    for (const v of s.volumes ?? []) {
      const source = typeof v === 'string' ? (v.includes(':') ? v.split(':')[0]! : null) : v.type === 'volume' || !v.type ? (v.source ?? null) : null;
      if (source && !/^[./~$]/.test(source)) used.add(source);
    }
  }
  assert.ok(used.size > 0, 'no named volume is used');
  for (const v of used) assert.ok(declared.has(v), `volume ${v} is used but not declared`);
});

test('compose: docker compose config (.ci/run installs docker-compose)', (t) => {
  const file = path.join(ROOT, 'deploy/compose.yaml');
  const v2 = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  const v1 = spawnSync('sh', ['-c', 'command -v docker-compose'], { encoding: 'utf8' });
  const cmd = v2.status === 0 ? ['docker', 'compose'] : v1.status === 0 ? ['docker-compose'] : null;
  if (!cmd) {
    t.skip('neither the Docker Compose plugin nor docker-compose is installed; the structure checks above stand in for it');
    return;
  }
  let target = file;
  if (cmd[0] === 'docker-compose') {
    // Compose v1 (Debian's docker-compose 1.29) predates the top-level `name`; it checks the rest.
    const dir = scratchDir('quire-compose-');
    target = path.join(dir, 'compose.yaml');
    fs.writeFileSync(target, composeText.replace(/^name:.*$/m, ''));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  }
  const r = spawnSync(cmd[0]!, [...cmd.slice(1), '-f', target, '--project-directory', path.dirname(file), 'config', '-q'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd.join(' ')} config:\n${r.stdout}${r.stderr}`);
});

// ---------------------------------------------------------------------------------------------------
// docs/deploy.md

test('docs and compose name only configuration variables that src/runtime/config.ts reads', () => {
  const configSrc = read('src/runtime/config.ts');
  const docs = read('docs/deploy.md');
  const named = new Set([...`${composeText}\n${docs}`.matchAll(/\bQUIRE_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]));
  assert.ok(named.size >= 10, `only ${named.size} variables named`);
  for (const v of named) assert.match(configSrc, new RegExp(`\\b${v}\\b`), `${v} is named in the docs or compose file but src/runtime/config.ts does not read it`);
});

test('docs: the sizing figure is the measured one in bench/README.md, and the per-core rate follows from it', () => {
  const docs = read('docs/deploy.md');
  const m = /([\d.]+) pages\/s on (\d+) cores?\b/.exec(docs);
  assert.ok(m, 'docs/deploy.md quotes no measured pages/s');
  const [fig, cores] = [Number(m[1]), Number(m[2])];
  assert.ok(read('bench/README.md').includes(`**${m[1]}**`), `${m[1]} pages/s is not a figure in bench/README.md`);
  const perMin = /about ([\d,]+) pages per minute per core/.exec(docs);
  assert.ok(perMin, 'no pages per minute per core');
  const stated = Number(perMin[1]!.replace(/,/g, ''));
  const derived = (fig / cores) * 60;
  assert.ok(Math.abs(stated - derived) / derived < 0.05, `${stated} pages/min/core, but ${fig} pages/s on ${cores} cores is ${derived.toFixed(0)}`);
  for (const section of ['Sizing', 'Configuration', 'Backup and restore', 'Upgrading', 'How these files were checked']) {
    assert.match(docs, new RegExp(`^## ${section}$`, 'm'), `no section ${section}`);
  }
  for (const c of ['pg_dump', 'pg_restore', 'mc mirror', 'aws s3 sync', 'migrate', 'npm ci && npm start']) assert.ok(docs.includes(c), `docs/deploy.md does not mention ${c}`);
  assert.match(docs, /checked, not run/i);
});
