import Type, { type Static } from 'typebox';
import { EVENTS_BY_TARGET, WEBHOOK_TARGETS, type WebhookTarget } from '../model/events.js';
import type { DeliveryWithAttempts, WebhookRecord } from '../model/records.js';
import type { SendResult } from '../domain/webhooks.js';
import { Cursor, Id, Limit, Next, Timestamp } from './common.js';

const Target = Type.Union([Type.Literal('Documents'), Type.Literal('Docset'), Type.Literal('Project')], { description: 'Documents, Docset or Project.' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

const eventTable = WEBHOOK_TARGETS.map((t) => `${t}: ${EVENTS_BY_TARGET[t].map((e) => `\`${e}\``).join(', ')}`).join('; ');

export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    target: Target,
    targetId: Type.Union([Type.String(), Type.Null()], { description: 'The docset or project whose events it hears; null: the whole workspace.' }),
    url: Type.String({ format: 'uri', description: "The webhook's own absolute URL (`{base}/webhooks/{id}`), as every resource has." }),
    webhookUrl: Type.String({ format: 'uri', description: 'The receiver deliveries are POSTed to (the `url` the webhook was created with).' }),
    events: Type.Array(Type.String()),
    createdAt: Timestamp,
    hasSecret: Type.Boolean({ description: 'Extension: deliveries carry `webhook-signature` (the secret itself is never returned).' }),
    disabled: Type.Boolean({ description: 'Extension: no more deliveries (the receiver answered 410, or every delivery failed for 5 days).' }),
    disabledAt: NullableTimestamp,
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    failingSince: Type.Union([Timestamp, Type.Null()], { description: 'Extension: deliveries fail without a success since then.' }),
    deliveriesUrl: Type.String({ format: 'uri' }),
  },
  { $id: 'Webhook' },
);
export type WebhookJson = Static<typeof WebhookSchema>;

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(Type.Ref('Webhook')), next: Next });

export const CreateWebhookBody = Type.Object(
  {
    target: Type.String({ description: `The kind of events: ${eventTable}.` }),
    url: Type.String({ maxLength: 2048, description: 'The receiver: the absolute http(s) URL deliveries are POSTed to (answered as `webhookUrl`).' }),
    targetId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: 'Docset (target Docset) or project (target Project) id.' })),
    events: Type.Optional(Type.Array(Type.String(), { maxItems: 50, description: "Events of the target; none given: all of the target's events." })),
    secret: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 1024 }), Type.Null()], {
        description:
          'Any non-empty string of at most 1024 characters; never returned (see `hasSecret`). `whsec_<base64>` is used as its decoded bytes (Standard Webhooks), any other string as its UTF-8 bytes.',
      }),
    ),
  },
  { additionalProperties: true },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const ListWebhooksQuery = Type.Object(
  {
    target: Type.Optional(Target),
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: true },
);
export type ListWebhooksQuery = Static<typeof ListWebhooksQuery>;

export interface WebhookListFilter {
  target?: WebhookTarget;
  targetId?: string;
}

export const WebhookParams = Type.Object({ id: Id });
export const DeliveryParams = Type.Object({ id: Id, deliveryId: Id });
export const PageQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: true });

const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  attemptedAt: Timestamp,
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  nextRetryAt: NullableTimestamp,
});

export const DeliverySchema = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  eventId: Type.String({ description: 'Also the `webhook-id` header and the body `id`: the receiver’s idempotency key.' }),
  type: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Of the last attempt.' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Of the last attempt.' }),
  nextRetryAt: NullableTimestamp,
  createdAt: Timestamp,
  deliveredAt: NullableTimestamp,
  attemptLog: Type.Array(AttemptSchema),
});
export const DeliveryListSchema = Type.Object({ deliveries: Type.Array(DeliverySchema), next: Next });

export const TestResultSchema = Type.Object({
  delivered: Type.Boolean({ description: 'A 2xx came back within the timeout.' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toWebhookJson(h: WebhookRecord, base: string): WebhookJson {
  return {
    id: h.id,
    target: h.target,
    targetId: h.targetId,
    url: `${base}/webhooks/${h.id}`,
    webhookUrl: h.url,
    events: h.events,
    createdAt: new Date(h.createdAt).toISOString(),
    hasSecret: h.secret !== null,
    disabled: h.disabledAt !== null,
    disabledAt: iso(h.disabledAt),
    disabledReason: h.disabledReason,
    failingSince: iso(h.failingSince),
    deliveriesUrl: `${base}/webhooks/${h.id}/deliveries`,
  };
}

export function toDeliveryJson(d: DeliveryWithAttempts): Static<typeof DeliverySchema> {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    type: d.eventType,
    state: d.state,
    attempts: d.attempts,
    statusCode: d.lastStatus,
    error: d.lastError,
    nextRetryAt: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
    createdAt: new Date(d.createdAt).toISOString(),
    deliveredAt: iso(d.deliveredAt),
    attemptLog: d.attemptLog.map((a) => ({ ...a, attemptedAt: new Date(a.attemptedAt).toISOString(), nextRetryAt: iso(a.nextRetryAt) })),
  };
}

export function toTestResultJson(r: SendResult): Static<typeof TestResultSchema> {
  return { delivered: r.ok, statusCode: r.statusCode, durationMs: r.durationMs, error: r.error };
}
