import { sql, type Kysely } from 'kysely';

// Webhooks, their deliveries (one per webhook and event) and every delivery attempt. Events get a
// `webhooks_done` mark: the fan-out takes unmarked events in id order and marks them in the
// transaction that creates their deliveries, so an event committed late (a long transaction, another
// process) is never skipped the way a moving cursor would skip it. Portable column types only.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    /** JSON array of event names. */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('disabled_at', 'bigint')
    .addColumn('disabled_reason', 'text')
    /** Since when deliveries fail without a success in between (null: healthy). */
    .addColumn('failing_since', 'bigint')
    /** 1 while a delivery job of this webhook is queued or running (at most one at a time). */
    .addColumn('scheduled', 'integer', (c) => c.notNull().defaultTo(0))
    /** Bumped whenever deliveries become due, so a delivery job ending knows whether it missed some. */
    .addColumn('gen', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('webhooks_workspace').on('webhooks').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('webhooks_workspace_target').on('webhooks').columns(['workspace_id', 'target', 'id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    /** The exact JSON body sent on every attempt (the signature covers it). */
    .addColumn('body', 'text', (c) => c.notNull())
    /** pending | delivered | failed */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').unique().on('webhook_deliveries').columns(['webhook_id', 'event_id']).execute();
  await db.schema.createIndex('webhook_deliveries_hook').on('webhook_deliveries').columns(['webhook_id', 'state', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('next_retry_at', 'bigint')
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();

  await db.schema.alterTable('events').addColumn('webhooks_done', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Events recorded before webhooks existed have nobody to go to.
  await db.updateTable('events').set({ webhooks_done: 1 }).execute();
  await db.schema
    .createIndex('events_webhooks_pending')
    .on('events')
    .column('id')
    .where(sql.ref('webhooks_done'), '=', 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_webhooks_pending').ifExists().execute();
  await db.schema.alterTable('events').dropColumn('webhooks_done').execute();
  for (const t of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) await db.schema.dropTable(t).ifExists().execute();
}
