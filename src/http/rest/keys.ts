import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { ApiKeyListSchema, CreateKeyBody, CreatedApiKeySchema, ListKeysQuery, toApiKeyJson } from '../../api/keys.js';

const EXTENSION = 'Quire extension (not in the Docugami API).';

/** The workspace's API keys, managed with an `admin` key (the console's keys page uses these). */
export function keyRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const list = op({ id: 'listApiKeys', summary: "List the workspace's API keys", tag: 'Workspace', scope: 'admin', errors: [400, 404], description: `${EXTENSION} Secrets are never listed.` });
  app.get(
    '/workspace/keys',
    { config: list.config, schema: { ...list.schema, querystring: ListKeysQuery, response: { 200: ApiKeyListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { filter, page } = deps.cursors.resolve<{ revoked?: true }>(request.query, 'keys', workspace.id, () => (request.query.revoked ? { revoked: true } : {}));
      const result = await deps.workspaces.listKeysOf(workspace.id, filter.revoked === true, page);
      return {
        keys: result.items.map((k) => toApiKeyJson(k, base)),
        next: deps.cursors.nextUrl({
          base,
          path: '/workspace/keys',
          route: 'keys',
          workspaceId: workspace.id,
          filter,
          filterQuery: filter.revoked ? { revoked: 'true' } : {},
          limit: page.limit,
          nextAfter: result.nextAfter,
        }),
      };
    },
  );

  const create = op({
    id: 'createApiKey',
    summary: 'Create an API key',
    tag: 'Workspace',
    scope: 'admin',
    errors: [400, 409],
    description: `${EXTENSION} The answer carries the secret, once; only its hash is kept. Active keys count against the workspace's user quota (409 at the quota).`,
  });
  app.post(
    '/workspace/keys',
    { config: create.config, schema: { ...create.schema, body: CreateKeyBody, response: { 201: CreatedApiKeySchema, ...create.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { key, secret } = await deps.workspaces.createKeyIn(workspace, request.body.scopes, request.body.name);
      return reply.code(201).send({ ...toApiKeyJson(key, base), secret });
    },
  );

  const revoke = op({
    id: 'revokeApiKey',
    summary: 'Revoke an API key',
    tag: 'Workspace',
    scope: 'admin',
    errors: [400, 404],
    description: `${EXTENSION} Takes effect at once: the next request with the key is a 401. Revoking is final; revoking again changes nothing.`,
  });
  app.delete(
    '/workspace/keys/:id',
    { config: revoke.config, schema: { ...revoke.schema, params: IdParams, response: { 204: { type: 'null', description: 'Revoked' }, ...revoke.problemResponses } } },
    async (request, reply) => {
      await deps.workspaces.revokeKeyIn(principalOf(request).workspace.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
