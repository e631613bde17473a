import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Cursors } from '../../src/http/pagination.js';
import { DomainError } from '../../src/domain/errors.js';

const cursors = new Cursors(randomBytes(32));
const state = { r: 'documents', w: 'ws1', f: { status: 'Ready' }, a: 'abc', l: 2 };

test('a cursor round-trips its list, workspace, filters, position and limit', () => {
  const token = cursors.encode(state);
  assert.deepEqual(cursors.decode(token, 'documents', 'ws1'), state);
});

test('a changed cursor is refused as invalid (400)', () => {
  const token = cursors.encode(state);
  const [payload, mac] = token.split('.');
  const changed = Buffer.from(JSON.stringify({ ...state, a: 'zzz' })).toString('base64url');
  for (const bad of [`${changed}.${mac}`, `${payload}.${mac!.slice(1)}x`, payload!, `${token}.x`, '']) {
    assert.throws(() => cursors.decode(bad, 'documents', 'ws1'), (e: DomainError) => e.kind === 'invalid');
  }
});

test('a cursor signed by another secret is refused', () => {
  const token = new Cursors(randomBytes(32)).encode(state);
  assert.throws(() => cursors.decode(token, 'documents', 'ws1'), (e: DomainError) => e.kind === 'invalid');
});

test('another list: 400; another workspace: 404', () => {
  const token = cursors.encode(state);
  assert.throws(() => cursors.decode(token, 'docsets', 'ws1'), (e: DomainError) => e.kind === 'invalid');
  assert.throws(() => cursors.decode(token, 'documents', 'ws2'), (e: DomainError) => e.kind === 'not-found');
});

test('resolve: the cursor wins over query filters; limit from the query if given', () => {
  const token = cursors.encode(state);
  const r = cursors.resolve({ cursor: token, limit: 5 }, 'documents', 'ws1', () => ({ status: 'Error' }));
  assert.deepEqual(r, { filter: { status: 'Ready' }, page: { after: 'abc', limit: 5 } });
  const fresh = cursors.resolve({}, 'documents', 'ws1', () => ({ status: 'Error' }));
  assert.deepEqual(fresh, { filter: { status: 'Error' }, page: { limit: 30 } });
});

test('nextUrl is absolute, carries cursor and filters, or is null on the last page', () => {
  const base = 'http://q.example/v1preview1';
  const common = { base, path: '/documents', route: 'documents', workspaceId: 'ws1', filter: { status: 'Ready' }, filterQuery: { status: 'Ready' }, limit: 2 };
  assert.equal(cursors.nextUrl({ ...common, nextAfter: null }), null);
  const url = new URL(cursors.nextUrl({ ...common, nextAfter: 'abc' })!);
  assert.equal(url.origin + url.pathname, `${base}/documents`);
  assert.equal(url.searchParams.get('status'), 'Ready');
  assert.equal(url.searchParams.get('limit'), '2');
  assert.deepEqual(cursors.decode(url.searchParams.get('cursor')!, 'documents', 'ws1').a, 'abc');
});
