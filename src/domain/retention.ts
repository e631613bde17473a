import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Store } from '../store/db/index.js';
import { idFloorAt } from '../model/ids.js';

/** Rows deleted per statement: each a short transaction, so writers never wait long behind the purge. */
export const RETENTION_BATCH = 500;

/**
 * Deletes what is older than `retentionMs` and no longer needed: events the webhook fan-out has taken,
 * and webhook deliveries that are over (delivered, or failed for good) with their attempts. Pending
 * deliveries and events not yet fanned out are kept whatever their age. In batches, giving the event
 * loop a turn between them.
 */
export async function purgeExpired(store: Store, retentionMs: number, now = Date.now(), batch = RETENTION_BATCH): Promise<{ events: number; deliveries: number }> {
  const floor = idFloorAt(now - retentionMs);
  let deliveries = 0;
  for (;;) {
    const n = await store.tx((s) => s.webhooks.purgeFinished(floor, batch));
    deliveries += n;
    if (n < batch) break;
    await yieldToLoop();
  }
  let events = 0;
  for (;;) {
    const n = await store.events.purgeDispatched(floor, batch);
    events += n;
    if (n < batch) break;
    await yieldToLoop();
  }
  return { events, deliveries };
}
