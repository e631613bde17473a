import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from './schema.js';
import type { DeliveryAttempt, DeliveryRecord, DeliveryState, DeliveryWithAttempts, Page, PageRequest, WebhookFilter, WebhookRecord } from '../../model/records.js';
import type { WebhookTarget } from '../../model/events.js';
import type { EventRecord } from './events.js';
import { keysetPage } from './keyset.js';
import type { SecretBox } from '../../runtime/secret-box.js';

/** What a webhook's secret is sealed with: its id, so a ciphertext copied into another row does not open. */
const secretContext = (webhookId: string) => `webhook:${webhookId}`;

function toHook(r: Selectable<WebhooksTable>, secrets: SecretBox | undefined): WebhookRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    target: r.target as WebhookTarget,
    targetId: r.target_id,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    secret: openSecret(r, secrets),
    createdAt: Number(r.created_at),
    disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since === null ? null : Number(r.failing_since),
  };
}

function openSecret(r: Pick<Selectable<WebhooksTable>, 'id' | 'secret' | 'secret_key_id'>, secrets: SecretBox | undefined): string | null {
  if (r.secret === null || r.secret_key_id === null) return r.secret;
  if (!secrets) throw new Error('this store was opened without the secret key: it cannot read webhook secrets');
  return secrets.open(r.secret_key_id, r.secret, secretContext(r.id));
}

type DeliveryRow = Omit<Selectable<WebhookDeliveriesTable>, 'body'>;

function toDelivery(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    workspaceId: r.workspace_id,
    eventId: r.event_id,
    eventType: r.event_type,
    state: r.state as DeliveryState,
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
  };
}

const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'workspace_id',
  'event_id',
  'event_type',
  'state',
  'attempts',
  'next_attempt_at',
  'last_status',
  'last_error',
  'created_at',
  'delivered_at',
] as const;

export interface NewDelivery {
  id: string;
  webhookId: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  body: string;
  createdAt: number;
  /** When the first attempt is due. */
  dueAt: number;
}

/** A due delivery as the sender needs it. */
export interface OutgoingDelivery {
  id: string;
  eventId: string;
  body: string;
  attempts: number;
  nextAttemptAt: number;
}

export interface AttemptOutcome {
  deliveryId: string;
  attempt: number;
  attemptedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** delivered, failed (for good), or pending with `nextAttemptAt`. */
  state: DeliveryState;
  nextAttemptAt: number | null;
}

/** Webhooks, their deliveries and attempts, and the webhook side of the events outbox. */
export class WebhooksRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets?: SecretBox,
  ) {}

  private seal(webhookId: string, secret: string): { secret: string; secret_key_id: string } {
    if (!this.secrets) throw new Error('this store was opened without the secret key: it cannot store webhook secrets');
    const { keyId, sealed } = this.secrets.seal(secret, secretContext(webhookId));
    return { secret: sealed, secret_key_id: keyId };
  }

  async insert(h: WebhookRecord): Promise<void> {
    await this.db
      .insertInto('webhooks')
      .values({
        id: h.id,
        workspace_id: h.workspaceId,
        target: h.target,
        target_id: h.targetId,
        url: h.url,
        events: JSON.stringify(h.events),
        ...(h.secret === null ? { secret: null, secret_key_id: null } : this.seal(h.id, h.secret)),
        created_at: h.createdAt,
        disabled_at: null,
        disabled_reason: null,
        failing_since: null,
        scheduled: 0,
        gen: 0,
      })
      .execute();
  }

  async get(workspaceId: string, id: string): Promise<WebhookRecord | undefined> {
    const row = await this.db.selectFrom('webhooks').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    return row && toHook(row, this.secrets);
  }

  /** With the delivery job's bookkeeping: `gen` (see scheduleDrain). */
  async getForDelivery(id: string): Promise<(WebhookRecord & { gen: number }) | undefined> {
    const row = await this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { ...toHook(row, this.secrets), gen: Number(row.gen) };
  }

  async list(workspaceId: string, f: WebhookFilter, page: PageRequest): Promise<Page<WebhookRecord>> {
    let q = this.db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('target', 'in', f.targets);
    if (f.targetId !== undefined) q = q.where('target_id', '=', f.targetId);
    if (page.after !== undefined) q = q.where('id', '>', page.after);
    return keysetPage(await q.orderBy('id').limit(page.limit + 1).execute(), page.limit, (r) => toHook(r, this.secrets));
  }

  async count(workspaceId: string): Promise<number> {
    const row = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('webhooks').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return false;
    await this.db.deleteFrom('webhook_attempts').where('webhook_id', '=', id).execute();
    await this.db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    return true;
  }

  /** Enabled webhooks of these workspaces. */
  async enabledIn(workspaceIds: string[]): Promise<WebhookRecord[]> {
    if (workspaceIds.length === 0) return [];
    const rows = await this.db.selectFrom('webhooks').selectAll().where('workspace_id', 'in', workspaceIds).where('disabled_at', 'is', null).execute();
    return rows.map((r) => toHook(r, this.secrets));
  }

  // --- secrets at rest --------------------------------------------------------------------------

  /** The ids of the keys stored secrets are sealed with. */
  async secretKeyIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('webhooks').select('secret_key_id').distinct().where('secret_key_id', 'is not', null).execute();
    return rows.map((r) => r.secret_key_id!);
  }

  /**
   * Seals under the current key the secrets stored plain (rows from before sealing existed) and, with
   * `rotate`, those sealed under an older key; returns how many it changed. Each row is updated only if
   * it still holds what was read, so a concurrent run or edit is never overwritten.
   */
  async reseal(opts: { rotate: boolean }): Promise<number> {
    if (!this.secrets) throw new Error('this store was opened without the secret key');
    const current = this.secrets.currentKeyId;
    let changed = 0;
    for (let after = ''; ; ) {
      let q = this.db.selectFrom('webhooks').select(['id', 'secret', 'secret_key_id']).where('secret', 'is not', null).where('id', '>', after);
      q = opts.rotate ? q.where((eb) => eb.or([eb('secret_key_id', 'is', null), eb('secret_key_id', '!=', current)])) : q.where('secret_key_id', 'is', null);
      const rows = await q.orderBy('id').limit(200).execute();
      for (const r of rows) {
        const sealed = this.seal(r.id, openSecret(r, this.secrets)!);
        let u = this.db.updateTable('webhooks').set(sealed).where('id', '=', r.id).where('secret', '=', r.secret);
        u = r.secret_key_id === null ? u.where('secret_key_id', 'is', null) : u.where('secret_key_id', '=', r.secret_key_id);
        changed += Number((await u.executeTakeFirst()).numUpdatedRows);
      }
      if (rows.length < 200) return changed;
      after = rows[rows.length - 1]!.id;
    }
  }

  // --- the outbox side -------------------------------------------------------------------------

  /** PostgreSQL: one fan-out at a time across processes, for the rest of this transaction. */
  async tryFanOutLock(): Promise<boolean> {
    const r = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(72731, 1) AS locked`.execute(this.db);
    return r.rows[0]?.locked === true;
  }

  /** Events not yet taken by the fan-out, in id order (the partial index `events_webhooks_pending`). */
  async undispatchedEvents(limit: number): Promise<EventRecord[]> {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'workspace_id', 'type', 'payload', 'created_at'])
      .where(sql<boolean>`webhooks_done = 0`)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, type: r.type, payload: JSON.parse(r.payload), createdAt: Number(r.created_at) }));
  }

  async markDispatched(ids: string[]): Promise<void> {
    if (ids.length) await this.db.updateTable('events').set({ webhooks_done: 1 }).where('id', 'in', ids).execute();
  }

  async insertDeliveries(ds: NewDelivery[]): Promise<void> {
    for (let i = 0; i < ds.length; i += 200) {
      const chunk = ds.slice(i, i + 200);
      await this.db
        .insertInto('webhook_deliveries')
        .values(
          chunk.map((d) => ({
            id: d.id,
            webhook_id: d.webhookId,
            workspace_id: d.workspaceId,
            event_id: d.eventId,
            event_type: d.eventType,
            body: d.body,
            state: 'pending',
            attempts: 0,
            next_attempt_at: d.dueAt,
            last_status: null,
            last_error: null,
            created_at: d.createdAt,
            delivered_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .execute();
    }
  }

  /**
   * Notes that deliveries of the webhook became due; returns true when no delivery job is queued or
   * running for it, in which case the caller enqueues one in this transaction (`scheduled` is set).
   * The UPDATE comes first so that it takes the row lock: a job ending concurrently sees the new gen.
   */
  async markDue(webhookId: string): Promise<boolean> {
    await this.db.updateTable('webhooks').set({ gen: sql`gen + 1` }).where('id', '=', webhookId).execute();
    const r = await this.db.updateTable('webhooks').set({ scheduled: 1 }).where('id', '=', webhookId).where('scheduled', '=', 0).where('disabled_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The delivery job ends: unless deliveries became due since it read `gen`. */
  async unschedule(webhookId: string, gen: number): Promise<boolean> {
    const r = await this.db.updateTable('webhooks').set({ scheduled: 0 }).where('id', '=', webhookId).where('gen', '=', gen).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Forgets a delivery job that will not run again (it failed for good). */
  async forceUnschedule(webhookId: string): Promise<void> {
    await this.db.updateTable('webhooks').set({ scheduled: 0 }).where('id', '=', webhookId).execute();
  }

  /** Webhooks without a delivery job whose head (oldest pending delivery) is due by `now`: retries coming due. */
  async dueUnscheduled(now: number, limit: number): Promise<{ id: string; workspaceId: string }[]> {
    const rows = await this.headDue(0, now, limit);
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
  }

  /**
   * Webhooks marked as having a delivery job whose head has been due since `dueBy` or earlier: either
   * their job is waiting for a slot or sending, or it is gone and the mark is stale (see the sweep).
   */
  async dueScheduled(dueBy: number, limit: number): Promise<{ id: string; workspaceId: string; gen: number }[]> {
    const rows = await this.headDue(1, dueBy, limit);
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, gen: Number(r.gen) }));
  }

  /** Enabled webhooks with this `scheduled` mark whose oldest pending delivery is due by `dueBy`. */
  private headDue(scheduled: 0 | 1, dueBy: number, limit: number) {
    return this.db
      .selectFrom('webhooks as w')
      .select(['w.id', 'w.workspace_id', 'w.gen'])
      .where('w.scheduled', '=', scheduled)
      .where('w.disabled_at', 'is', null)
      .where((eb) =>
        eb(
          eb.selectFrom('webhook_deliveries as d').select('d.next_attempt_at').whereRef('d.webhook_id', '=', 'w.id').where('d.state', '=', 'pending').orderBy('d.id').limit(1),
          '<=',
          dueBy,
        ),
      )
      .limit(limit)
      .execute();
  }

  /** Clears a stale `scheduled` mark, unless deliveries were scheduled since `gen` was read. */
  async clearStaleSchedule(webhookId: string, gen: number): Promise<boolean> {
    const r = await this.db.updateTable('webhooks').set({ scheduled: 0 }).where('id', '=', webhookId).where('scheduled', '=', 1).where('gen', '=', gen).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The webhook's pending deliveries in order: the head first. */
  async pending(webhookId: string, limit: number): Promise<OutgoingDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'body', 'attempts', 'next_attempt_at'])
      .where('webhook_id', '=', webhookId)
      .where('state', '=', 'pending')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, eventId: r.event_id, body: r.body, attempts: Number(r.attempts), nextAttemptAt: Number(r.next_attempt_at ?? 0) }));
  }

  async recordAttempt(webhookId: string, o: AttemptOutcome): Promise<void> {
    await this.db
      .insertInto('webhook_attempts')
      .values({
        delivery_id: o.deliveryId,
        attempt: o.attempt,
        webhook_id: webhookId,
        attempted_at: o.attemptedAt,
        status_code: o.statusCode,
        duration_ms: Math.round(o.durationMs),
        error: o.error,
        next_retry_at: o.nextAttemptAt,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        state: o.state,
        attempts: o.attempt,
        next_attempt_at: o.nextAttemptAt,
        last_status: o.statusCode,
        last_error: o.error,
        ...(o.state === 'delivered' ? { delivered_at: o.attemptedAt } : {}),
      })
      .where('id', '=', o.deliveryId)
      .execute();
  }

  /** Successful attempts, recorded together (one INSERT, one UPDATE per status code). */
  async recordDelivered(webhookId: string, outcomes: AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db
      .insertInto('webhook_attempts')
      .values(
        outcomes.map((o) => ({
          delivery_id: o.deliveryId,
          attempt: o.attempt,
          webhook_id: webhookId,
          attempted_at: o.attemptedAt,
          status_code: o.statusCode,
          duration_ms: Math.round(o.durationMs),
          error: null,
          next_retry_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
    const byStatus = new Map<number | null, AttemptOutcome[]>();
    for (const o of outcomes) byStatus.set(o.statusCode, [...(byStatus.get(o.statusCode) ?? []), o]);
    for (const [status, group] of byStatus) {
      await this.db
        .updateTable('webhook_deliveries')
        .set({ state: 'delivered', attempts: sql`attempts + 1`, next_attempt_at: null, last_status: status, last_error: null, delivered_at: group[group.length - 1]!.attemptedAt })
        .where('id', 'in', group.map((o) => o.deliveryId))
        .execute();
    }
  }

  async setFailingSince(webhookId: string, since: number | null): Promise<void> {
    let q = this.db.updateTable('webhooks').set({ failing_since: since }).where('id', '=', webhookId);
    q = since === null ? q.where('failing_since', 'is not', null) : q.where('failing_since', 'is', null);
    await q.execute();
  }

  async disable(webhookId: string, reason: string, now: number): Promise<void> {
    await this.db.updateTable('webhooks').set({ disabled_at: now, disabled_reason: reason.slice(0, 1000) }).where('id', '=', webhookId).where('disabled_at', 'is', null).execute();
  }

  /**
   * Deletes up to `batch` deliveries made before `beforeId` (an id floor) that are over (delivered or
   * failed for good), with their attempts; returns how many. Call it in a transaction.
   */
  async purgeFinished(beforeId: string, batch: number): Promise<number> {
    const ids = (
      await this.db.selectFrom('webhook_deliveries').select('id').where('id', '<', beforeId).where('state', '!=', 'pending').orderBy('id').limit(batch).execute()
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    await this.db.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
    const r = await this.db.deleteFrom('webhook_deliveries').where('id', 'in', ids).where('state', '!=', 'pending').executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  // --- deliveries as the API shows them -------------------------------------------------------------

  async listDeliveries(webhookId: string, page: PageRequest): Promise<Page<DeliveryWithAttempts>> {
    let q = this.db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('webhook_id', '=', webhookId);
    // Newest first: the keyset runs backwards.
    if (page.after !== undefined) q = q.where('id', '<', page.after);
    const rows = await q.orderBy('id', 'desc').limit(page.limit + 1).execute();
    const result = keysetPage(rows, page.limit, toDelivery);
    const attempts = await this.attemptsOf(result.items.map((d) => d.id));
    return { items: result.items.map((d) => ({ ...d, attemptLog: attempts.get(d.id) ?? [] })), nextAfter: result.nextAfter };
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts | undefined> {
    const row = await this.db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('id', '=', deliveryId).where('webhook_id', '=', webhookId).executeTakeFirst();
    if (!row) return undefined;
    const d = toDelivery(row);
    return { ...d, attemptLog: (await this.attemptsOf([d.id])).get(d.id) ?? [] };
  }

  /** Due now, whatever its state; false when there is no such delivery. */
  async redeliver(webhookId: string, deliveryId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_at: now })
      .where('id', '=', deliveryId)
      .where('webhook_id', '=', webhookId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  private async attemptsOf(deliveryIds: string[]): Promise<Map<string, DeliveryAttempt[]>> {
    const out = new Map<string, DeliveryAttempt[]>();
    if (deliveryIds.length === 0) return out;
    const rows = await this.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('attempt').execute();
    for (const r of rows) {
      const list = out.get(r.delivery_id) ?? [];
      list.push({
        attempt: Number(r.attempt),
        attemptedAt: Number(r.attempted_at),
        statusCode: r.status_code === null ? null : Number(r.status_code),
        durationMs: Number(r.duration_ms),
        error: r.error,
        nextRetryAt: r.next_retry_at === null ? null : Number(r.next_retry_at),
      });
      out.set(r.delivery_id, list);
    }
    return out;
  }
}
