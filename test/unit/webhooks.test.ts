import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { isForbiddenAddress, refuseLiteralUrl } from '../../src/webhooks/ssrf.js';
import { signature } from '../../src/webhooks/sender.js';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { hookMatches } from '../../src/domain/webhooks.js';

test('SSRF guard: private, loopback, link-local, metadata, multicast and reserved addresses are refused, IPv4 and IPv6', () => {
  for (const a of [
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '2001:db8::1',
    '::ffff:127.0.0.1', '::ffff:10.1.2.3', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '64:ff9b::10.0.0.1',
  ]) {
    assert.equal(isForbiddenAddress(a), true, a);
  }
  for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::1']) {
    assert.equal(isForbiddenAddress(a), false, a);
  }
  assert.equal(isForbiddenAddress('not-an-ip'), true);
});

test('SSRF guard: every spelling of a forbidden address is refused (issue 46)', () => {
  const forbidden: Record<string, string[]> = {
    'IPv4 private': ['10.255.0.1', '172.20.1.1', '192.168.255.254'],
    'IPv4 loopback': ['127.0.0.1', '127.255.255.254'],
    'IPv4 link-local (cloud metadata)': ['169.254.169.254', '169.254.0.1'],
    'IPv4 CGNAT': ['100.64.0.1', '100.127.255.254'],
    'IPv4 this network, broadcast, benchmarking, AS112': ['0.1.2.3', '255.255.255.255', '198.19.0.1', '192.175.48.1'],
    'IPv6 loopback and unspecified': ['::1', '0:0:0:0:0:0:0:1', '::'],
    'IPv6 unique local': ['fc00::1', 'fd12:3456:789a::1'],
    'IPv6 link-local (with a zone)': ['fe80::1', 'fe80::a9fe:a9fe', 'fe80::1%eth0', 'febf::1'],
    'IPv6 site-local, multicast, discard, documentation': ['fec0::1', 'ff02::1', '100::1', '2001:db8::1'],
    'IPv4-mapped': ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::ffff:192.168.0.1'],
    'IPv4-translated (RFC 6145)': ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a00:1'],
    'IPv4-compatible': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::a9fe:a9fe', '::c0a8:1'],
    'NAT64 well-known': ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::c0a8:101'],
    'NAT64 local-use': ['64:ff9b:1::1', '64:ff9b:1::808:808', '64:ff9b:1:ffff::7f00:1'],
    '6to4': ['2002:7f00:1::1', '2002:a00:1::', '2002:808:808::1'],
    Teredo: ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff::1'],
  };
  for (const [form, list] of Object.entries(forbidden)) {
    for (const a of list) assert.equal(isForbiddenAddress(a), true, `${form}: ${a}`);
  }
  // What carries a public IPv4 address (other than by 6to4 or Teredo) is judged by it.
  for (const a of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::101:101', '::8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001::1', '8.8.4.4']) {
    assert.equal(isForbiddenAddress(a), false, a);
  }
  for (const a of ['', 'localhost', '127.1', '0x7f000001', '2130706433', '::ffff:127.0.0.1.1', '1.2.3.4.5']) assert.equal(isForbiddenAddress(a), true, JSON.stringify(a));

  // The WHATWG URL parser writes every IPv4 spelling (decimal, octal, hex, short forms) and IPv6
  // form in its canonical form; each is refused at creation.
  const guard = { allowPrivate: false, allowHosts: [] };
  for (const url of [
    'http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://0x7f.0.0.1/', 'http://127.1/', 'http://0/', 'http://017700000001/',
    'http://169.254.169.254./latest/meta-data', 'http://0xa9fea9fe/', 'http://[::127.0.0.1]/', 'http://[::ffff:127.0.0.1]/', 'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://[::ffff:0:7f00:1]/', 'http://[64:ff9b::7f00:1]/', 'http://[64:ff9b:1::a9fe:a9fe]/', 'http://[2002:7f00:1::1]/', 'http://[2001::1]/', 'http://[fd00::1]:8080/',
    'http://[fe80::1]/', 'http://[::]/', 'http://[::1]/',
  ]) {
    assert.match(refuseLiteralUrl(new URL(url), guard) ?? '', /private/, url);
  }
  assert.equal(refuseLiteralUrl(new URL('http://[::ffff:8.8.8.8]/'), guard), undefined);
  assert.equal(refuseLiteralUrl(new URL('http://134744072/'), guard), undefined, '8.8.8.8 spelt in decimal');
});

test('URLs naming a forbidden address literally are refused unless allowed', () => {
  const guard = { allowPrivate: false, allowHosts: ['10.9.9.9', 'hooks.internal'] };
  assert.match(refuseLiteralUrl(new URL('http://127.0.0.1:9000/x'), guard) ?? '', /private/);
  assert.match(refuseLiteralUrl(new URL('http://[fe80::1]/x'), guard) ?? '', /private/);
  assert.equal(refuseLiteralUrl(new URL('http://10.9.9.9/x'), guard), undefined);
  assert.equal(refuseLiteralUrl(new URL('https://example.com/x'), guard), undefined);
  assert.equal(refuseLiteralUrl(new URL('http://127.0.0.1/x'), { allowPrivate: true, allowHosts: [] }), undefined);
});

test('signatures verify with the standardwebhooks package, for whsec_ and plain secrets', () => {
  const body = JSON.stringify({ id: 'evt1', type: 'Documents.Create', data: { name: 'ünïcode' } });
  const ts = Math.floor(Date.now() / 1000);
  const whsec = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  new Webhook(whsec).verify(body, { 'webhook-id': 'evt1', 'webhook-timestamp': String(ts), 'webhook-signature': signature(whsec, 'evt1', ts, body) });
  const plain = 'my plain secret ü 123';
  new Webhook(new TextEncoder().encode(plain) as never, { format: 'raw' }).verify(body, { 'webhook-id': 'evt1', 'webhook-timestamp': String(ts), 'webhook-signature': signature(plain, 'evt1', ts, body) });
  assert.throws(() => new Webhook(whsec).verify(body + ' ', { 'webhook-id': 'evt1', 'webhook-timestamp': String(ts), 'webhook-signature': signature(whsec, 'evt1', ts, body) }));
});

test('webhook configuration: retry schedule, timeout, allow list', () => {
  const d = loadConfig({}).webhooks;
  assert.deepEqual(d.retryScheduleMs, [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  assert.equal(d.timeoutMs, 15_000);
  assert.equal(d.disableAfterMs, 5 * 86_400_000);
  assert.equal(d.allowPrivate, false);
  const c = loadConfig({ QUIRE_WEBHOOK_RETRY_SCHEDULE: '0, 250ms, 1.5s', QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true', QUIRE_WEBHOOK_ALLOW_HOSTS: 'Hooks.Internal, [::1]' }).webhooks;
  assert.deepEqual(c.retryScheduleMs, [0, 250, 1500]);
  assert.equal(c.allowPrivate, true);
  assert.deepEqual(c.allowHosts, ['hooks.internal', '::1']);
  assert.throws(() => loadConfig({ QUIRE_WEBHOOK_RETRY_SCHEDULE: '0,5 parsecs' }), ConfigError);
  assert.throws(() => loadConfig({ QUIRE_WEBHOOK_ALLOW_PRIVATE: 'maybe' }), ConfigError);
  assert.throws(() => loadConfig({ QUIRE_WEBHOOK_TIMEOUT_MS: '5' }), ConfigError);
});

test('matching: target, event list, targetId, and only events after the webhook was made', () => {
  const hook = { target: 'Docset' as const, targetId: 'A', events: ['Docset.Document.Add', 'Docset.Document.Remove'], createdAt: 100 };
  assert.equal(hookMatches(hook, 'Docset.Document.Add', { documentId: 'd', docsetId: 'A' }, 200), true);
  assert.equal(hookMatches(hook, 'Docset.Document.Add', { documentId: 'd', docsetId: 'B' }, 200), false);
  assert.equal(hookMatches(hook, 'Docset.Document.Dgml', { documentId: 'd', docsetId: 'A' }, 200), false);
  assert.equal(hookMatches(hook, 'Docset.Document.Add', { documentId: 'd', docsetId: 'A' }, 50), false);
  const project = { target: 'Project' as const, targetId: null, events: ['Project.Artifacts.Version'], createdAt: 0 };
  assert.equal(hookMatches(project, 'Project.Artifacts.Version', { projectId: 'p' }, 1), true);
  assert.equal(hookMatches(project, 'Documents.Create', { documentId: 'd' }, 1), false);
});
