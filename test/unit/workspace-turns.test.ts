import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkspaceTurns } from '../../src/domain/workspace-turns.js';
import { DomainError } from '../../src/domain/errors.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

test('at most `limit` turns per workspace; the next waits, first come first served; other workspaces are not held', async () => {
  const turns = new WorkspaceTurns(2, 60_000);
  const order: string[] = [];
  const a1 = await turns.enter('a');
  const a2 = await turns.enter('a');
  const waiting = ['a3', 'a4'].map((name) => turns.enter('a').then((leave) => (order.push(name), leave)));
  await tick();
  assert.deepEqual(order, [], 'beyond the limit nothing enters');
  const b1 = await turns.enter('b'); // another workspace goes straight in
  a1();
  a1(); // leaving twice frees one turn only
  await tick();
  assert.deepEqual(order, ['a3']);
  a2();
  await tick();
  assert.deepEqual(order, ['a3', 'a4']);
  for (const leave of await Promise.all(waiting)) leave();
  b1();
  // Every turn was given back: two enter at once again.
  const again = [await turns.enter('a'), await turns.enter('a')];
  again.forEach((leave) => leave());
});

test('a wait past waitMs is a 503 with retry-after, and leaves the queue', async () => {
  const turns = new WorkspaceTurns(1, 30);
  const first = await turns.enter('a');
  await assert.rejects(turns.enter('a'), (err: unknown) => {
    assert.ok(err instanceof DomainError);
    assert.equal(err.kind, 'unavailable');
    assert.equal(err.headers['retry-after'], '1');
    assert.match(err.message, /QUIRE_PAGE_RENDERS_PER_WORKSPACE/);
    return true;
  });
  first();
  // The timed-out waiter did not take the freed turn.
  const next = await Promise.race([turns.enter('a'), new Promise<null>((r) => setTimeout(() => r(null), 20))]);
  assert.ok(next, 'the turn is free');
  next();
});

test('limit 0: no limit', async () => {
  const turns = new WorkspaceTurns(0, 0);
  const all = await Promise.all(Array.from({ length: 50 }, () => turns.enter('a')));
  all.forEach((leave) => leave());
});
