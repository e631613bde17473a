import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { op } from '../../api/common.js';
import {
  CreateWebhookBody,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  ListWebhooksQuery,
  PageQuery,
  TestResultSchema,
  WebhookListSchema,
  WebhookParams,
  toDeliveryJson,
  toTestResultJson,
  toWebhookJson,
  type WebhookListFilter,
} from '../../api/webhooks.js';

// The scope depends on the webhook's target, known only from the body or the stored webhook, so the
// routes admit any valid key and the service checks (403 when the key lacks it).
const READ = 'Scope by target: `Documents` and `Docset` webhooks need `read:documents`, `Project` webhooks `read:projects`; `read:webhooks` (or `admin`) reads webhooks of every target.';
const WRITE = 'Scope by target: `Documents` and `Docset` webhooks need `write:documents`, `Project` webhooks `write:projects`; `write:webhooks` (or `admin`) changes webhooks of every target.';

export function webhookRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const list = op({
    id: 'listWebhooks',
    summary: 'List webhooks',
    tag: 'Webhooks',
    scope: 'any',
    errors: [400, 403],
    description: `Filters: \`target\`, \`targetId\`. Without \`target\` the list holds the webhooks of the targets the key may read (possibly none); with one the key needs its read scope (403). ${READ}`,
  });
  app.get(
    '/webhooks',
    { config: list.config, schema: { ...list.schema, querystring: ListWebhooksQuery, response: { 200: WebhookListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace, key } = principalOf(request);
      const { filter, page } = deps.cursors.resolve<WebhookListFilter>(request.query, 'webhooks', workspace.id, () => {
        const f: WebhookListFilter = {};
        if (request.query.target !== undefined) f.target = request.query.target;
        if (request.query.targetId !== undefined) f.targetId = request.query.targetId;
        return f;
      });
      const result = await deps.webhooks.list(workspace.id, key.scopes, filter, page);
      const filterQuery: Record<string, string> = {};
      if (filter.target) filterQuery.target = filter.target;
      if (filter.targetId) filterQuery.targetId = filter.targetId;
      return {
        webhooks: result.items.map((h) => toWebhookJson(h, base)),
        next: deps.cursors.nextUrl({ base, path: '/webhooks', route: 'webhooks', workspaceId: workspace.id, filter, filterQuery, limit: page.limit, nextAfter: result.nextAfter }),
      };
    },
  );

  const create = op({
    id: 'createWebhook',
    summary: 'Create a webhook',
    tag: 'Webhooks',
    scope: 'any',
    errors: [400, 403, 404, 409],
    description: `Every event of the target (or those in \`events\`) is POSTed to \`url\`, signed per Standard Webhooks when a \`secret\` is given. \`targetId\` names a docset (target Docset) or project (target Project) of the workspace (404 if unknown). A URL naming a private, loopback or link-local address is refused (400) unless the server allows it. 409 when the workspace has as many webhooks as it may (\`QUIRE_WORKSPACE_MAX_WEBHOOKS\`, 100 by default). ${WRITE}`,
  });
  app.post(
    '/webhooks',
    { config: create.config, schema: { ...create.schema, body: CreateWebhookBody, response: { 201: { $ref: 'Webhook' }, ...create.problemResponses } } },
    async (request, reply) => {
      const { workspace, key } = principalOf(request);
      const hook = await deps.webhooks.create(workspace.id, key.scopes, request.body);
      return reply.code(201).send(toWebhookJson(hook, base));
    },
  );

  const get = op({ id: 'getWebhook', summary: 'Get a webhook', tag: 'Webhooks', scope: 'any', errors: [400, 403, 404], description: READ });
  app.get(
    '/webhooks/:id',
    { config: get.config, schema: { ...get.schema, params: WebhookParams, response: { 200: { $ref: 'Webhook' }, ...get.problemResponses } } },
    async (request) => {
      const { workspace, key } = principalOf(request);
      return toWebhookJson(await deps.webhooks.get(workspace.id, key.scopes, request.params.id), base);
    },
  );

  const del = op({ id: 'deleteWebhook', summary: 'Delete a webhook', tag: 'Webhooks', scope: 'any', errors: [400, 403, 404], description: `Pending deliveries are dropped. ${WRITE}` });
  app.delete(
    '/webhooks/:id',
    { config: del.config, schema: { ...del.schema, params: WebhookParams, response: { 204: { type: 'null', description: 'Deleted' }, ...del.problemResponses } } },
    async (request, reply) => {
      const { workspace, key } = principalOf(request);
      await deps.webhooks.delete(workspace.id, key.scopes, request.params.id);
      return reply.code(204).send(null);
    },
  );

  const deliveries = op({
    id: 'listWebhookDeliveries',
    summary: "A webhook's deliveries (extension)",
    tag: 'Webhooks',
    scope: 'any',
    errors: [400, 403, 404],
    description: `Newest first: one per event, with every attempt (status code, duration, error, next retry). ${READ}`,
  });
  app.get(
    '/webhooks/:id/deliveries',
    { config: deliveries.config, schema: { ...deliveries.schema, params: WebhookParams, querystring: PageQuery, response: { 200: DeliveryListSchema, ...deliveries.problemResponses } } },
    async (request) => {
      const { workspace, key } = principalOf(request);
      const { id } = request.params;
      const route = `webhook-deliveries:${id}`;
      const { page } = deps.cursors.resolve<Record<string, never>>(request.query, route, workspace.id, () => ({}));
      const result = await deps.webhooks.deliveries(workspace.id, key.scopes, id, page);
      return {
        deliveries: result.items.map(toDeliveryJson),
        next: deps.cursors.nextUrl({ base, path: `/webhooks/${id}/deliveries`, route, workspaceId: workspace.id, filter: {}, filterQuery: {}, limit: page.limit, nextAfter: result.nextAfter }),
      };
    },
  );

  const retry = op({
    id: 'retryWebhookDelivery',
    summary: 'Deliver again now (extension)',
    tag: 'Webhooks',
    scope: 'any',
    errors: [400, 403, 404, 409],
    description: `The delivery becomes due at once (again, if it was delivered or failed for good), in its place in the webhook's order. 409 when the webhook is disabled. ${WRITE}`,
  });
  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    { config: retry.config, schema: { ...retry.schema, params: DeliveryParams, response: { 202: DeliverySchema, ...retry.problemResponses } } },
    async (request, reply) => {
      const { workspace, key } = principalOf(request);
      const d = await deps.webhooks.retry(workspace.id, key.scopes, request.params.id, request.params.deliveryId);
      return reply.code(202).send(toDeliveryJson(d));
    },
  );

  const test = op({
    id: 'testWebhook',
    summary: 'Send a signed test ping (extension)',
    tag: 'Webhooks',
    scope: 'any',
    errors: [400, 403, 404],
    description: `POSTs \`{"type": "Webhook.Test", …}\` to the webhook's URL now, signed like every delivery, and answers what came back (not recorded as a delivery). ${WRITE}`,
  });
  app.post(
    '/webhooks/:id/test',
    { config: test.config, schema: { ...test.schema, params: WebhookParams, response: { 200: TestResultSchema, ...test.problemResponses } } },
    async (request) => {
      const { workspace, key } = principalOf(request);
      return toTestResultJson(await deps.webhooks.test(workspace.id, key.scopes, request.params.id));
    },
  );
}
