import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/model/ids.js';

test('ids are 16 base-36 characters, strictly increasing within a process, even in one millisecond', () => {
  const ids = Array.from({ length: 50_000 }, () => newId());
  for (const id of ids) assert.match(id, /^[0-9a-z]{16}$/);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} then ${ids[i]}`);
  // 50,000 ids take far fewer milliseconds: many share one, and still sort in the order made.
  const millis = new Set(ids.map((id) => id.slice(0, 9)));
  assert.ok(millis.size < ids.length);
});
