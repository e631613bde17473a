import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/quire.js';
import { scratchDir } from '../helpers/scratch.js';

const dataDir = scratchDir('quire-cli-');
const env = { PATH: process.env.PATH, HOME: process.env.HOME, QUIRE_DATA_DIR: dataDir };
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('migrate, workspaces create and list', async () => {
  const m = await runCli(['migrate'], env);
  assert.equal(m.code, 0, m.stderr);
  const made = await runCli(['workspaces', 'create', 'acme'], env);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, /created workspace acme/);
  const list = await runCli(['workspaces', 'list'], env);
  assert.equal(list.code, 0);
  assert.match(list.stdout, /\bdefault\b/);
  assert.match(list.stdout, /\bacme\b/);
  const dup = await runCli(['workspaces', 'create', 'acme'], env);
  assert.equal(dup.code, 1);
  assert.match(dup.stderr, /^quire: A workspace named "acme" already exists\.\n$/);
});

test('keys create prints the key once on stdout; keys list never shows it', async () => {
  const r = await runCli(['keys', 'create', '--workspace', 'acme', '--scopes', 'read:documents,write:documents', '--name', 'ci'], env);
  assert.equal(r.code, 0, r.stderr);
  const secret = r.stdout.trim();
  assert.match(secret, /^qk_[A-Za-z0-9_-]{32}$/);
  assert.match(r.stderr, /shown only now/);
  const list = await runCli(['keys', 'list'], env);
  assert.equal(list.code, 0);
  assert.match(list.stdout, /read:documents,write:documents/);
  assert.ok(!list.stdout.includes(secret));
  assert.ok(list.stdout.includes(secret.slice(0, 7)));
  const id = list.stdout.split('\n').find((l) => l.includes(' ci '))!.split(/\s+/)[0]!;
  const revoked = await runCli(['keys', 'revoke', id], env);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.match((await runCli(['keys', 'list', '--workspace', 'acme'], env)).stdout, /\d{4}-\d\d-\d\dT.*Z\s*$/m);
});

test('a bare quire prints the help (and serves nothing); --version; COMMAND --help describes every command on stdout, exit 0', async () => {
  const version = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')).version;
  const untouched = path.join(dataDir, 'bare');
  const bare = await runCli([], { ...env, QUIRE_DATA_DIR: untouched });
  assert.equal(bare.code, 0, bare.stderr);
  assert.match(bare.stdout, new RegExp(`^quire ${version.replace(/\./g, '\\.')}: `));
  assert.match(bare.stdout, /server commands/);
  assert.match(bare.stdout, /client commands/);
  assert.equal(bare.stderr, '');
  for (const flag of ['--version', '-v', 'version']) {
    const v = await runCli([flag], env);
    assert.equal(v.code, 0);
    assert.equal(v.stdout, `${version}\n`);
  }
  // Every command the overview lists answers --help (and `help COMMAND`) with its usage.
  const commands = [...bare.stdout.matchAll(/^  ([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'quire');
  assert.ok(commands.length >= 15, commands.join(' '));
  const helps = await Promise.all(commands.map((c) => runCli([c, '--help'], env)));
  for (const [i, c] of commands.entries()) {
    const h = helps[i]!;
    assert.equal(h.code, 0, `${c}: ${h.stderr}`);
    assert.match(h.stdout, new RegExp(`^quire ${c}\\b`), c);
    assert.equal(h.stderr, '', c);
  }
  assert.equal((await runCli(['help', 'upload'], env)).stdout, helps[commands.indexOf('upload')]!.stdout);
  // Sub-command help too, and every flag the upload parser takes is described.
  const sub = await runCli(['keys', 'create', '-h'], env);
  assert.equal(sub.code, 0);
  assert.match(sub.stdout, /--scopes a,b +\S/);
  const upload = helps[commands.indexOf('upload')]!.stdout;
  for (const flag of ['docset', 'classify', 'metadata', 'wait', 'wait-timeout', 'chunk-threshold', 'parallel', 'url', 'key', 'json']) {
    assert.match(upload, new RegExp(`^ +--${flag}\\b.* {2,}\\S`, 'm'), `upload --help describes --${flag}`);
  }
  const unknown = await runCli(['help', 'frobnicate'], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^quire: unknown command "frobnicate"/);
  // The bare command opened no data folder (it started no server).
  assert.equal(fs.existsSync(untouched), false);
});

test('admin commands print JSON under --json', async () => {
  const made = await runCli(['workspaces', 'create', 'json-co', '--json'], env);
  assert.equal(made.code, 0, made.stderr);
  const w = JSON.parse(made.stdout);
  assert.equal(w.name, 'json-co');
  assert.match(w.createdAt, /^\d{4}-\d\d-\d\dT/);
  const list = JSON.parse((await runCli(['workspaces', 'list', '--json'], env)).stdout);
  assert.ok(list.some((x: { id: string }) => x.id === w.id));
  const quota = JSON.parse((await runCli(['workspaces', 'set-quota', 'json-co', '--pages', '77', '--json'], env)).stdout);
  assert.equal(quota.quota.pages, 77);
  const expiry = JSON.parse((await runCli(['workspaces', 'set-expiry', 'json-co', '2099-01-01', '--json'], env)).stdout);
  assert.equal(expiry.expiresAt, '2099-01-01T00:00:00.000Z');
  const key = await runCli(['keys', 'create', '--workspace', 'json-co', '--scopes', 'read:documents', '--json'], env);
  assert.equal(key.code, 0, key.stderr);
  const k = JSON.parse(key.stdout);
  assert.match(k.secret, /^qk_/);
  assert.deepEqual(k.scopes, ['read:documents']);
  const keys = JSON.parse((await runCli(['keys', 'list', '--workspace', 'json-co', '--json'], env)).stdout);
  assert.deepEqual(keys.map((x: { id: string }) => x.id), [k.id]);
  assert.ok(!JSON.stringify(keys).includes(k.secret));
  const revoked = JSON.parse((await runCli(['keys', 'revoke', k.id, '--json'], env)).stdout);
  assert.match(revoked.revokedAt, /^\d{4}-/);
});

test('usage errors exit non-zero with a one-line reason', async () => {
  const cases: [string[], number, RegExp][] = [
    [['frobnicate'], 2, /^quire: unknown command "frobnicate"/],
    [['keys', 'create', '--scopes', 'admin'], 2, /^quire: keys create needs --workspace NAME/],
    [['keys', 'create', '--workspace', 'acme'], 2, /^quire: keys create needs --scopes/],
    [['keys', 'create', '--workspace', 'acme', '--scopes', 'read:everything'], 2, /^quire: unknown scope "read:everything"/],
    [['keys', 'create', '--workspace', 'nowhere', '--scopes', 'admin'], 1, /^quire: Workspace "nowhere" was not found/],
    [['keys', 'revoke'], 2, /^quire: keys revoke takes one ID/],
    [['keys', 'revoke', 'nosuchkey'], 1, /^quire: API key "nosuchkey" was not found/],
    [['workspaces', 'create'], 2, /^quire: workspaces create takes one NAME/],
    [['workspaces', 'create', 'bad name!'], 1, /^quire: Workspace names/],
    [['keys', 'list', '--bogus'], 2, /^quire: Unknown option '--bogus'/],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
  for (const [i, [args, code, pattern]] of cases.entries()) {
    const r = results[i]!;
    assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern, args.join(' '));
  }
});

test('invalid configuration stops start-up with one line naming the variable', async () => {
  for (const [name, value] of [['PORT', 'eighty'], ['DATABASE_URL', 'mysql://x'], ['QUIRE_PUBLIC_URL', 'nope'], ['QUIRE_OCR_LANGUAGES', 'eng,deu']] as const) {
    const r = await runCli(['serve'], { ...env, [name]: value });
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, new RegExp(`^quire: invalid configuration: ${name} `));
  }
});
