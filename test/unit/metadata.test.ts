import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMetadataRequest } from '../../src/domain/metadata.js';

test('accepts {metadata: [...]} and a bare list', () => {
  assert.deepEqual(parseMetadataRequest({ metadata: [{ key: 'a_1', value: 'x' }] }), [{ key: 'a_1', value: 'x' }]);
  assert.deepEqual(parseMetadataRequest([{ key: 'b', value: '' }]), [{ key: 'b', value: '' }]);
});

test('refuses more than 10, bad keys, non-string values, duplicates, other shapes', () => {
  const bad = [
    { metadata: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' })) },
    { metadata: [{ key: 'a-b', value: 'v' }] },
    { metadata: [{ key: '', value: 'v' }] },
    { metadata: [{ key: 'k'.repeat(101), value: 'v' }] },
    { metadata: [{ key: 'k', value: 1 }] },
    { metadata: [{ key: 'k', value: 'a' }, { key: 'k', value: 'b' }] },
    { metadata: 'k=v' },
    null,
    'x',
  ];
  for (const body of bad) assert.throws(() => parseMetadataRequest(body), /metadata|Metadata/);
});
