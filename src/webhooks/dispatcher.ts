import type { Logger } from 'pino';
import type { Config } from '../runtime/config.js';
import type { Repos, Store } from '../store/db/index.js';
import { runAsLeader } from '../store/db/cluster-lock.js';
import type { AttemptOutcome, OutgoingDelivery, NewDelivery } from '../store/db/webhooks.js';
import type { Job, JobHandler, Queue } from '../store/queue/queue.js';
import { newId, timeOfId } from '../model/ids.js';
import { webhookMetrics } from '../runtime/metrics.js';
import { hookMatches, type SendResult } from '../domain/webhooks.js';
import type { WebhookRecord } from '../model/records.js';
import { WEBHOOK_JOB } from '../model/jobs.js';
import { renderEvent, renderPing } from './payload.js';
import { WebhookSender, type SendOutcome } from './sender.js';

/** Events taken per fan-out transaction (it holds SQLite's single connection meanwhile). */
const FANOUT_BATCH = 200;
/** Pending deliveries read at once by a delivery job. */
const DELIVERY_BATCH = 100;
/** A delivery job hands over (re-queues itself) after this many, so one busy webhook cannot hold a slot for ever. */
const MAX_PER_JOB = 5000;
/** Delivery jobs (webhooks served) at once per process. */
const CONCURRENCY = 16;
/** Successes are recorded together, at most this many at once. */
const FLUSH_EVERY = 64;
/** How long an idle delivery job waits for more deliveries before it ends. */
const LINGER_MS = 1000;

interface DrainPayload {
  webhookId: string;
}

type Step = 'next' | 'again' | 'blocked' | 'disabled';

/**
 * Webhook delivery. Events are the durable outbox (written in the transaction of their change):
 *
 * 1. Fan-out, a loop in every worker process (one at a time across processes: SQLite has a single
 *    writer, PostgreSQL takes an advisory lock): takes events not yet marked, creates one delivery per
 *    matching webhook with its rendered body, marks the events, and makes sure each webhook concerned
 *    has a delivery job, all in one transaction.
 * 2. Delivery jobs (the durable job queue, at most one per webhook at a time, see WebhooksRepo.markDue)
 *    send a webhook's due deliveries one after another in event order. A failing delivery blocks the
 *    ones after it until it succeeds or runs out of retries: order per webhook is kept. The job ends
 *    when the head is waiting for its retry; the sweep of the fan-out loop starts a new one when it is due.
 */
export class WebhookDispatcher {
  readonly sender: WebhookSender;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private lastSweep = 0;
  private readonly pollMs: number;
  private readonly sweepMs: number;
  /** A head due for longer than this while `scheduled` is set gets its job looked for (recoverStalled). */
  private readonly stallGraceMs: number;
  /** Idle delivery jobs of this process waiting for more, by webhook. */
  private readonly lingering = new Map<string, () => void>();

  constructor(
    private readonly store: Store,
    private readonly queue: Queue,
    private readonly config: Config,
    private readonly logger?: Logger,
  ) {
    const w = config.webhooks;
    this.sender = new WebhookSender({ allowPrivate: w.allowPrivate, allowHosts: w.allowHosts, timeoutMs: w.timeoutMs });
    this.pollMs = Math.min(100, config.ingest.pollMs);
    this.sweepMs = Math.max(this.pollMs, Math.min(1000, ...w.retryScheduleMs.filter((ms) => ms > 0)));
    this.stallGraceMs = w.timeoutMs + 2 * this.sweepMs;
  }

  /** Starts the fan-out loop and this process's delivery workers. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.queue.recoverLocal?.([WEBHOOK_JOB]);
    const handler: JobHandler<DrainPayload> = {
      run: (job, signal) => this.drain(job, signal),
      onFinalFailure: async (job) => this.store.webhooks.forceUnschedule(job.payload.webhookId),
    };
    this.queue.work(WEBHOOK_JOB, handler, { concurrency: CONCURRENCY });
    this.wake();
  }

  /** Looks for new events now. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pass(), 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  close(): void {
    this.sender.close();
  }

  /** Inside a transaction: makes sure the webhook has a delivery job (deliveries of it became due). */
  async schedule(s: Repos, hook: Pick<WebhookRecord, 'id' | 'workspaceId'>): Promise<void> {
    if (await s.webhooks.markDue(hook.id)) {
      await this.queue.enqueue(WEBHOOK_JOB, { webhookId: hook.id } satisfies DrainPayload, { workspaceId: hook.workspaceId, maxAttempts: 5 }, s);
    }
  }

  /** Sends a signed `Webhook.Test` now (not recorded as a delivery). */
  async ping(hook: WebhookRecord): Promise<SendResult> {
    const id = newId();
    const { gone: _gone, ...result } = await this.sender.send(hook.url, { id, body: renderPing(id, hook.workspaceId, hook.id, this.config.apiBase, Date.now()), secret: hook.secret });
    return result;
  }

  private pass(): void {
    this.running = (async () => {
      try {
        this.again = false;
        while (!this.stopped && (await this.fanOut()) === FANOUT_BATCH);
        if (Date.now() - this.lastSweep >= this.sweepMs) {
          this.lastSweep = Date.now();
          await this.sweep();
        }
      } catch (err) {
        this.logger?.error({ err }, 'webhooks: fan-out failed; trying again');
      }
    })().finally(() => {
      this.running = null;
      if (!this.stopped) this.timer = setTimeout(() => this.pass(), this.again ? 0 : this.pollMs);
    });
  }

  /** One fan-out transaction; returns how many events it took. */
  async fanOut(): Promise<number> {
    // A cheap look first (SQLite answers it from the read cache while nothing changed).
    if ((await this.store.webhooks.undispatchedEvents(1)).length === 0) return 0;
    const result = await this.store.tx(async (s) => {
      // SQLite's transactions hold the write lock from their start (store/db/connect.ts) already.
      if (this.store.dialect === 'postgres' && !(await s.webhooks.tryFanOutLock())) return { taken: 0, due: [] as string[] };
      const events = await s.webhooks.undispatchedEvents(FANOUT_BATCH);
      if (events.length === 0) return { taken: 0, due: [] as string[] };
      const hooks = await s.webhooks.enabledIn([...new Set(events.map((e) => e.workspaceId))]);
      const deliveries: NewDelivery[] = [];
      const due = new Map<string, WebhookRecord>();
      const now = Date.now();
      const firstDelay = this.config.webhooks.retryScheduleMs[0] ?? 0;
      for (const e of events) {
        const payload = (e.payload ?? {}) as Record<string, unknown>;
        const matching = hooks.filter((h) => h.workspaceId === e.workspaceId && hookMatches(h, e.type, payload, e.createdAt));
        if (matching.length === 0) continue;
        const body = await renderEvent(s, e, this.config.apiBase);
        for (const h of matching) {
          deliveries.push({ id: newId(), webhookId: h.id, workspaceId: h.workspaceId, eventId: e.id, eventType: e.type, body, createdAt: now, dueAt: now + firstDelay });
          due.set(h.id, h);
        }
      }
      await s.webhooks.insertDeliveries(deliveries);
      await s.webhooks.markDispatched(events.map((e) => e.id));
      for (const h of due.values()) await this.schedule(s, h);
      return { taken: events.length, due: [...due.keys()] };
    });
    for (const id of result.due) this.lingering.get(id)?.();
    return result.taken;
  }

  /**
   * Retries coming due: webhooks without a delivery job whose head is due get one. Every worker
   * process ticks; one at a time across the cluster does it (the others skip this tick).
   */
  private async sweep(): Promise<void> {
    await runAsLeader(this.store, 'webhookRetrySweep', async () => {
      const due = await this.store.webhooks.dueUnscheduled(Date.now(), 100);
      for (const h of due) await this.store.tx((s) => this.schedule(s, h));
      await this.recoverStalled();
    });
  }

  /**
   * `scheduled` says "a delivery job exists", and only that job clears it (`unschedule` when nothing
   * is due, `forceUnschedule` after its final failure). It was a lease without an expiry: a job that
   * ends any other way (its handler returning early on an aborted signal and the queue not running it
   * again; a claim committed by a process that then lost it; a job row gone) leaves the mark set,
   * `dueUnscheduled` skips the webhook for ever, and its deliveries stall for good however many
   * retries come due. The outage test of webhooks.test.ts, with a retry every few hundred ms, runs a
   * new delivery job for each one, so one such end among them on a loaded machine was enough for the
   * receiver to come back and get nothing.
   *
   * So a mark on a webhook whose head has been due for longer than one send could take is checked
   * against the queue: with no job of the webhook that may still run (queued, waiting for a retry,
   * running, or failed with onFinalFailure pending) it is cleared and a job enqueued, in one
   * transaction guarded by `gen` (markDue bumps it), so a job scheduled in the meantime is never
   * doubled. A job merely waiting for a free slot is live and left alone.
   */
  private async recoverStalled(): Promise<void> {
    if (!this.queue.livePayloads) return;
    const stalled = await this.store.webhooks.dueScheduled(Date.now() - this.stallGraceMs, 100);
    if (stalled.length === 0) return;
    const live = new Set((await this.queue.livePayloads(WEBHOOK_JOB)).map((p) => (p as Partial<DrainPayload> | null)?.webhookId));
    for (const h of stalled) {
      if (live.has(h.id)) continue;
      const rescheduled = await this.store.tx(async (s) => {
        if (!(await s.webhooks.clearStaleSchedule(h.id, h.gen))) return false;
        await this.schedule(s, h);
        return true;
      });
      if (rescheduled) this.logger?.warn({ webhook: h.id }, 'webhooks: the delivery job of this webhook was gone; a new one is queued');
    }
  }

  /** A delivery job: sends the webhook's due deliveries in order until none is due. */
  private async drain(job: Job<DrainPayload>, signal: AbortSignal): Promise<void> {
    const { webhookId } = job.payload;
    const run: DrainRun = { successes: [], sent: 0 };
    try {
      for (;;) {
        if (signal.aborted) return;
        const hook = await this.store.webhooks.getForDelivery(webhookId);
        if (!hook) return; // deleted with its deliveries
        if (hook.disabledAt !== null) return await this.store.webhooks.forceUnschedule(webhookId);
        if (run.sent >= MAX_PER_JOB) {
          // Back of the queue: other webhooks get their turn. `scheduled` stays set for the successor.
          await this.flush(hook, run);
          await this.store.tx((s) => this.queue.enqueue(WEBHOOK_JOB, { webhookId }, { workspaceId: hook.workspaceId, maxAttempts: 5 }, s));
          return;
        }
        const batch = await this.store.webhooks.pending(webhookId, DELIVERY_BATCH);
        let idle = batch.length === 0;
        for (const d of batch) {
          if (signal.aborted) return;
          if (d.nextAttemptAt > Date.now()) {
            idle = true;
            break;
          }
          const step = await this.attempt(hook, d, run);
          run.sent++;
          if (step === 'disabled') return await this.store.webhooks.forceUnschedule(webhookId);
          if (step === 'blocked') idle = true;
          if (step !== 'next') break;
        }
        await this.flush(hook, run);
        if (!idle) continue;
        // New deliveries usually follow within moments: wait for this process's fan-out to say so
        // rather than end the job and have the queue start another.
        if (batch.length === 0 && (await this.linger(webhookId, signal))) continue;
        // Done unless deliveries became due since `gen` was read.
        if (await this.store.webhooks.unschedule(webhookId, hook.gen)) return;
      }
    } finally {
      this.lingering.delete(webhookId);
      if (run.successes.length) {
        const hook = await this.store.webhooks.getForDelivery(webhookId);
        if (hook) await this.flush(hook, run);
      }
    }
  }

  /** Resolves true when the fan-out of this process made deliveries of the webhook due within LINGER_MS. */
  private linger(webhookId: string, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (v: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.lingering.delete(webhookId);
        resolve(v);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), LINGER_MS);
      signal.addEventListener('abort', onAbort);
      this.lingering.set(webhookId, () => done(true));
    });
  }

  /** Records the successes not yet recorded, in one transaction. */
  private async flush(hook: WebhookRecord, run: DrainRun): Promise<void> {
    if (run.successes.length === 0) return;
    const batch = run.successes.splice(0);
    const wasFailing = hook.failingSince !== null;
    await this.store.tx(async (s) => {
      await s.webhooks.recordDelivered(hook.id, batch);
      if (wasFailing) await s.webhooks.setFailingSince(hook.id, null);
    });
    hook.failingSince = null;
  }

  /**
   * One attempt at the head delivery; what the job does next. Successes are recorded in batches
   * (a crash before the flush sends them again: delivery is at least once); failures at once.
   */
  private async attempt(hook: WebhookRecord & { gen: number }, d: OutgoingDelivery, run: DrainRun): Promise<Step> {
    const attempt = d.attempts + 1;
    const attemptedAt = Date.now();
    const res: SendOutcome = await this.sender.send(hook.url, { id: d.eventId, body: d.body, secret: hook.secret });
    const now = Date.now();
    const base = { deliveryId: d.id, attempt, attemptedAt, statusCode: res.statusCode, durationMs: res.durationMs, error: res.error };
    if (res.ok) {
      webhookMetrics.deliveries.inc({ outcome: 'delivered' });
      const eventAt = timeOfId(d.eventId);
      if (eventAt !== null) webhookMetrics.lag.observe(Math.max(0, now - eventAt) / 1000);
      run.successes.push({ ...base, state: 'delivered', nextAttemptAt: null });
      if (run.successes.length >= FLUSH_EVERY) await this.flush(hook, run);
      return 'next';
    }
    await this.flush(hook, run);
    const failingSince = hook.failingSince ?? attemptedAt;
    const { retryScheduleMs, disableAfterMs } = this.config.webhooks;
    let reason: string | null = null;
    if (res.gone) reason = `The receiver answered 410 Gone at ${new Date(now).toISOString()}.`;
    else if (now - failingSince >= disableAfterMs) {
      reason = `Every delivery failed from ${new Date(failingSince).toISOString()} to ${new Date(now).toISOString()} (last: ${res.error}).`;
    }
    if (reason !== null) {
      await this.store.tx(async (s) => {
        await s.webhooks.recordAttempt(hook.id, { ...base, state: 'failed', nextAttemptAt: null });
        await s.webhooks.disable(hook.id, reason, now);
      });
      webhookMetrics.deliveries.inc({ outcome: 'disabled' });
      this.logger?.warn({ webhook: hook.id, reason }, 'webhook disabled');
      return 'disabled';
    }
    const delay = attempt < retryScheduleMs.length ? jitter(retryScheduleMs[attempt]!) : null;
    await this.store.tx(async (s) => {
      await s.webhooks.recordAttempt(hook.id, { ...base, state: delay === null ? 'failed' : 'pending', nextAttemptAt: delay === null ? null : now + delay });
      if (hook.failingSince === null) await s.webhooks.setFailingSince(hook.id, failingSince);
    });
    hook.failingSince = failingSince;
    webhookMetrics.deliveries.inc({ outcome: delay === null ? 'gave-up' : 'retrying' });
    if (delay === null) return 'next'; // out of retries: the next delivery goes
    return delay === 0 ? 'again' : 'blocked';
  }
}

interface DrainRun {
  /** Delivered, not yet recorded. */
  successes: AttemptOutcome[];
  sent: number;
}

/** ±20 %, so that receivers coming back are not hit by every retry at once. */
function jitter(ms: number): number {
  return ms === 0 ? 0 : Math.round(ms * (0.8 + Math.random() * 0.4));
}
