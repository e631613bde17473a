import type { Store } from '../store/db/index.js';
import type { DeliveryWithAttempts, Page, PageRequest, WebhookRecord } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { hasScope, type Scope } from '../model/scopes.js';
import { newId } from '../model/ids.js';
import { EVENTS_BY_TARGET, WEBHOOK_TARGETS, type WebhookTarget } from '../model/events.js';
import { checkWebhookLimit, NO_LIMITS, type WorkspaceLimits } from './limits.js';

export const MAX_WEBHOOK_URL = 2048;
export const MIN_SECRET = 1;
export const MAX_SECRET = 1024;

/** The outcome of one HTTP attempt (also the answer of the test ping). */
export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookInput {
  target?: unknown;
  url?: unknown;
  targetId?: unknown;
  events?: unknown;
  secret?: unknown;
}

/** Which target an event belongs to, from its name. */
export function targetOfEvent(type: string): WebhookTarget | undefined {
  for (const t of WEBHOOK_TARGETS) if (EVENTS_BY_TARGET[t].includes(type)) return t;
  return undefined;
}

/** The docset or project id a webhook with a `targetId` matches in an event's payload. */
export function targetIdOfEvent(type: string, payload: Record<string, unknown>): string | undefined {
  const target = targetOfEvent(type);
  const v = target === 'Docset' ? payload.docsetId : target === 'Project' ? payload.projectId : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Whether `hook` hears an event (of its workspace). */
export function hookMatches(hook: Pick<WebhookRecord, 'target' | 'targetId' | 'events' | 'createdAt'>, type: string, payload: Record<string, unknown>, createdAt: number): boolean {
  if (!hook.events.includes(type) || targetOfEvent(type) !== hook.target) return false;
  if (hook.createdAt > createdAt) return false;
  return hook.targetId === null || targetIdOfEvent(type, payload) === hook.targetId;
}

/**
 * The scope a webhook operation needs depends on its target: Documents and Docset webhooks need
 * `read:documents`/`write:documents`, Project webhooks `read:projects`/`write:projects`.
 * `read:webhooks`/`write:webhooks` grant webhooks of every target.
 */
export function scopesFor(target: WebhookTarget, access: 'read' | 'write'): Scope[] {
  const resource = target === 'Project' ? 'projects' : 'documents';
  return [`${access}:${resource}` as Scope, `${access}:webhooks` as Scope];
}

export function mayAccess(granted: readonly string[], target: WebhookTarget, access: 'read' | 'write'): boolean {
  return scopesFor(target, access).some((s) => hasScope(granted, s));
}

function requireAccess(granted: readonly string[], target: WebhookTarget, access: 'read' | 'write'): void {
  if (!mayAccess(granted, target, access)) {
    const [primary, general] = scopesFor(target, access);
    throw new DomainError('forbidden', `${access === 'read' ? 'Reading' : 'Changing'} ${target} webhooks needs the "${primary}" scope (or "${general}"), which this API key does not have.`);
  }
}

export interface WebhookServiceDeps {
  /** Why a URL may not be used (a private address given literally), or undefined. */
  refuseUrl?: (url: URL) => string | undefined;
  /** Sends a signed ping now (the `/test` route). */
  ping?: (hook: WebhookRecord) => Promise<SendResult>;
  /** Schedules a webhook's delivery job inside a transaction (after a manual retry). */
  schedule?: (s: import('../store/db/index.js').Repos, hook: WebhookRecord) => Promise<void>;
  /** Tells the dispatcher of this process to look now. */
  wake?: () => void;
  /** How many webhooks a workspace may have. */
  limits?: WorkspaceLimits;
}

export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly deps: WebhookServiceDeps = {},
  ) {}

  async create(workspaceId: string, granted: readonly string[], input: WebhookInput): Promise<WebhookRecord> {
    const target = parseTarget(input.target);
    requireAccess(granted, target, 'write');
    const url = this.parseUrl(input.url);
    const events = parseEvents(target, input.events);
    const secret = parseSecret(input.secret);
    let targetId: string | null = null;
    if (input.targetId !== undefined && input.targetId !== null) {
      if (typeof input.targetId !== 'string' || input.targetId === '') throw invalid('targetId must be a docset or project id.');
      if (target === 'Documents') throw invalid('Documents webhooks hear the whole workspace: targetId is only for Docset and Project webhooks.');
      targetId = input.targetId;
      const exists = target === 'Docset' ? await this.store.docsets.get(workspaceId, targetId) : await this.store.projects.get(workspaceId, targetId);
      if (!exists) throw notFound(target === 'Docset' ? 'Docset' : 'Project', targetId);
    }
    const hook: WebhookRecord = {
      id: newId(),
      workspaceId,
      target,
      targetId,
      url,
      events,
      secret,
      createdAt: Date.now(),
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    };
    await this.store.tx(async (s) => {
      await checkWebhookLimit(s, workspaceId, this.deps.limits ?? NO_LIMITS);
      await s.webhooks.insert(hook);
    });
    return hook;
  }

  /** Without `target`, the webhooks of every target the key may read. */
  async list(workspaceId: string, granted: readonly string[], q: { target?: WebhookTarget; targetId?: string }, page: PageRequest): Promise<Page<WebhookRecord>> {
    let targets: WebhookTarget[];
    if (q.target) {
      requireAccess(granted, q.target, 'read');
      targets = [q.target];
    } else {
      targets = WEBHOOK_TARGETS.filter((t) => mayAccess(granted, t, 'read'));
    }
    if (targets.length === 0) return { items: [], nextAfter: null };
    return this.store.webhooks.list(workspaceId, { targets, ...(q.targetId !== undefined ? { targetId: q.targetId } : {}) }, page);
  }

  async get(workspaceId: string, granted: readonly string[], id: string, access: 'read' | 'write' = 'read'): Promise<WebhookRecord> {
    const hook = await this.store.webhooks.get(workspaceId, id);
    if (!hook) throw notFound('Webhook', id);
    requireAccess(granted, hook.target, access);
    return hook;
  }

  async delete(workspaceId: string, granted: readonly string[], id: string): Promise<void> {
    await this.get(workspaceId, granted, id, 'write');
    await this.store.tx((s) => s.webhooks.delete(workspaceId, id));
  }

  async deliveries(workspaceId: string, granted: readonly string[], id: string, page: PageRequest): Promise<Page<DeliveryWithAttempts>> {
    await this.get(workspaceId, granted, id, 'read');
    return this.store.webhooks.listDeliveries(id, page);
  }

  /** Makes a delivery due now (again, if it was delivered or failed for good). */
  async retry(workspaceId: string, granted: readonly string[], id: string, deliveryId: string): Promise<DeliveryWithAttempts> {
    const hook = await this.get(workspaceId, granted, id, 'write');
    if (hook.disabledAt !== null) throw new DomainError('conflict', `The webhook is disabled (${hook.disabledReason ?? 'no reason recorded'}); create a new one to resume deliveries.`);
    const delivery = await this.store.tx(async (s) => {
      if (!(await s.webhooks.redeliver(id, deliveryId, Date.now()))) return undefined;
      await this.deps.schedule?.(s, hook);
      return s.webhooks.getDelivery(id, deliveryId);
    });
    if (!delivery) throw notFound('Delivery', deliveryId);
    this.deps.wake?.();
    return delivery;
  }

  async test(workspaceId: string, granted: readonly string[], id: string): Promise<SendResult> {
    const hook = await this.get(workspaceId, granted, id, 'write');
    if (!this.deps.ping) throw new DomainError('conflict', 'This server does not send webhooks.');
    return this.deps.ping(hook);
  }

  private parseUrl(raw: unknown): string {
    if (typeof raw !== 'string' || raw === '') throw invalid('url is required: the absolute http(s) URL deliveries are POSTed to.');
    if (raw.length > MAX_WEBHOOK_URL) throw invalid(`url is longer than ${MAX_WEBHOOK_URL} characters.`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid(`url ${JSON.stringify(raw)} is not an absolute URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url must be an http:// or https:// URL.');
    if (url.hash) throw invalid('url must not have a #fragment.');
    const refused = this.deps.refuseUrl?.(url);
    if (refused) throw invalid(refused);
    return url.toString();
  }
}

function parseTarget(raw: unknown): WebhookTarget {
  if (typeof raw === 'string' && (WEBHOOK_TARGETS as readonly string[]).includes(raw)) return raw as WebhookTarget;
  throw invalid(`target must be one of ${WEBHOOK_TARGETS.join(', ')}.`);
}

function parseEvents(target: WebhookTarget, raw: unknown): string[] {
  const catalogue = EVENTS_BY_TARGET[target];
  if (raw === undefined || raw === null) return [...catalogue];
  if (!Array.isArray(raw)) throw invalid('events must be an array of event names.');
  if (raw.length === 0) return [...catalogue];
  const out: string[] = [];
  for (const e of raw) {
    if (typeof e !== 'string' || !catalogue.includes(e)) {
      throw invalid(`${JSON.stringify(e)} is not an event of target ${target} (its events: ${catalogue.join(', ')}).`);
    }
    if (!out.includes(e)) out.push(e);
  }
  return out;
}

function parseSecret(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw invalid('secret must be a string.');
  if (raw.length < MIN_SECRET || raw.length > MAX_SECRET) throw invalid(`secret must be a non-empty string of at most ${MAX_SECRET} characters.`);
  // `whsec_` keeps its Standard Webhooks meaning (the key is the base64 that follows), so it must be base64.
  if (raw.startsWith('whsec_')) {
    const b64 = raw.slice('whsec_'.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || Buffer.from(b64, 'base64').length === 0) {
      throw invalid('A secret starting "whsec_" must continue with base64 (Standard Webhooks): the HMAC key is the bytes it decodes to.');
    }
  }
  return raw;
}

/** The key bytes of a secret: `whsec_<base64>` is decoded (Standard Webhooks), anything else is its UTF-8. */
export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}
