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
  for (const [name, value] of [['PORT', 'eighty'], ['DATABASE_URL', 'mysql://x'], ['QUIRE_PUBLIC_URL', 'nope']] as const) {
    const r = await runCli(['serve'], { ...env, [name]: value });
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, new RegExp(`^quire: invalid configuration: ${name} `));
  }
});
