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
