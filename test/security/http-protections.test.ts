/**
 * What protects a browser and the service at the HTTP level, through a real server: security headers
 * on every response (and a /docs page whose inline scripts the policy allows by hash only), CORS off
 * by default and an allow-list when configured, and per-key rate limiting with 429 + retry-after.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/runtime/config.js';
import { startQuire, type Quire } from '../helpers/quire.js';

const auth = (q: Quire, key = q.key) => ({ authorization: `Bearer ${key}` });

function directives(csp: string | null): Map<string, string[]> {
  assert.ok(csp, 'a content-security-policy header');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

describe('HTTP protections (defaults)', () => {
  let q: Quire;
  before(async () => {
    q = await startQuire();
  });
  after(async () => {
    await q?.stop();
  });

  test('every kind of response carries the security headers; the API policy loads nothing and cannot be framed', async () => {
    const responses = [
      await fetch(`${q.origin}/healthz`),
      await fetch(`${q.api}/documents`, { headers: auth(q) }),
      await fetch(`${q.api}/documents`), // 401 Problem
      await fetch(`${q.api}/no-such-route`, { headers: auth(q) }), // 404 Problem
      await fetch(`${q.origin}/openapi.json`),
    ];
    for (const r of responses) {
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', r.url);
      assert.equal(r.headers.get('x-frame-options'), 'DENY', r.url);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer', r.url);
      const csp = directives(r.headers.get('content-security-policy'));
      assert.deepEqual(csp.get('default-src'), ["'none'"], r.url);
      assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], r.url);
    }
  });

  test('/docs: no unsafe-inline, no framing, and each inline script and style of the page is allowed by its hash', async () => {
    const r = await fetch(`${q.origin}/docs/static/index.html`);
    assert.equal(r.status, 200);
    const html = await r.text();
    const csp = directives(r.headers.get('content-security-policy'));
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    for (const [name, values] of csp) assert.ok(!values.includes("'unsafe-inline'") && !values.includes("'unsafe-eval'"), `${name}: ${values.join(' ')}`);
    const inline = (tag: 'script' | 'style') => [...html.matchAll(new RegExp(`<${tag}(?![^>]*\\bsrc=)[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!).filter((s) => s.trim());
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    for (const s of inline('script')) assert.ok(csp.get('script-src')?.includes(hash(s)), `inline script not allowed by the policy: ${s.slice(0, 80)}`);
    for (const s of inline('style')) assert.ok(csp.get('style-src')?.includes(hash(s)), `inline style not allowed by the policy: ${s.slice(0, 80)}`);
    // The page's own scripts are served from this origin.
    for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) assert.equal((await fetch(new URL(m[1]!, r.url))).status, 200, m[1]);
  });

  test('CORS is off: no allow-origin for any origin, and a preflight is not granted', async () => {
    const r = await fetch(`${q.api}/documents`, { headers: { ...auth(q), origin: 'https://elsewhere.example' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), null);
    const pre = await fetch(`${q.api}/documents`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.ok(pre.status >= 400 && pre.status < 500, `preflight answered ${pre.status}`);
  });

  test('the default rate limit is generous: 300 quick requests of one key all succeed', async () => {
    const statuses = await Promise.all(Array.from({ length: 300 }, () => fetch(`${q.api}/documents?limit=1`, { headers: auth(q) }).then((r) => r.status)));
    assert.deepEqual([...new Set(statuses)], [200]);
  });
});

describe('HTTP protections (configured: CORS allow-list, 60 requests a minute)', () => {
  let q: Quire;
  let second: string;
  const allowed = 'https://app.example.com';
  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_CORS_ORIGINS: `${allowed}, http://localhost:5173`, QUIRE_RATE_LIMIT: '60' } });
    const made = await q.cli(['keys', 'create', '--workspace', 'default', '--scopes', 'admin', '--name', 'second']);
    assert.equal(made.code, 0, made.stderr);
    second = made.stdout.trim();
  });
  after(async () => {
    await q?.stop();
  });

  test('an allowed origin gets its preflight and readable responses; another origin gets nothing', async () => {
    const pre = await fetch(`${q.api}/documents`, {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), allowed);
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/);
    const r = await fetch(`${q.api}/documents`, { headers: { ...auth(q), origin: allowed } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), allowed);
    assert.match(r.headers.get('vary') ?? '', /origin/i);
    assert.match(r.headers.get('access-control-expose-headers') ?? '', /retry-after/);
    const other = await fetch(`${q.api}/documents`, { headers: { ...auth(q), origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const otherPre = await fetch(`${q.api}/documents`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    assert.equal(otherPre.headers.get('access-control-allow-origin'), null);
  });

  test('over its limit a key gets 429 Problems with retry-after, on REST and /ops alike; other keys and /healthz are unaffected', async () => {
    // The preflights and requests above were without a key or used under 10 of this key's 60.
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await fetch(`${q.api}/documents?limit=1`, { headers: auth(q) })).status);
    const firstRefused = statuses.indexOf(429);
    assert.ok(firstRefused >= 50 && firstRefused <= 60, `the first 429 came at request ${firstRefused + 1}: ${statuses.join(',')}`);
    assert.ok(statuses.slice(firstRefused).every((s) => s === 429), 'refused until the bucket refills');
    const refused = await fetch(`${q.api}/documents?limit=1`, { headers: auth(q) });
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
    const body = (await refused.json()) as { status: number; detail: string };
    assert.equal(body.status, 429);
    assert.match(body.detail, /limit/);
    const op = await fetch(`${q.origin}/ops/SearchDocuments`, { method: 'POST', headers: { ...auth(q), 'content-type': 'application/json' }, body: '{}' });
    assert.equal(op.status, 429, 'the operation-style interface shares the key’s limit');
    assert.equal((await fetch(`${q.api}/documents?limit=1`, { headers: auth(q, second) })).status, 200, 'another key has its own allowance');
    assert.equal((await fetch(`${q.origin}/healthz`)).status, 200);
    // One request's worth refills in a second (60 a minute).
    await new Promise((r) => setTimeout(r, 1100 * retryAfter));
    assert.equal((await fetch(`${q.api}/documents?limit=1`, { headers: auth(q) })).status, 200, 'allowed again after retry-after');
  });
});

test('configuration: an invalid CORS origin or rate stops start-up naming the variable', () => {
  assert.throws(() => loadConfig({ QUIRE_CORS_ORIGINS: 'app.example.com' }), /QUIRE_CORS_ORIGINS/);
  assert.throws(() => loadConfig({ QUIRE_CORS_ORIGINS: 'https://app.example.com/path' }), /QUIRE_CORS_ORIGINS/);
  assert.throws(() => loadConfig({ QUIRE_RATE_LIMIT: '-1' }), /QUIRE_RATE_LIMIT/);
  assert.deepEqual(loadConfig({ QUIRE_CORS_ORIGINS: 'https://a.example, http://localhost:5173/' }).http.corsOrigins, ['https://a.example', 'http://localhost:5173']);
  assert.equal(loadConfig({ QUIRE_RATE_LIMIT: '0' }).http.rateLimitPerMinute, 0);
});
