import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { op } from '../../api/common.js';
import { WorkspaceSchema, toWorkspaceJson } from '../../api/workspace.js';

export function workspaceRoutes(app: App, deps: HttpDeps) {
  const get = op({
    id: 'getWorkspace',
    summary: "Get the key's workspace",
    tag: 'Workspace',
    scope: 'any',
    description: 'Identity, type, expiry and quotas (pages in use over all counted documents; users = active API keys).',
  });
  app.get(
    '/workspace',
    { config: get.config, schema: { ...get.schema, response: { 200: WorkspaceSchema, ...get.problemResponses } } },
    async (request) => toWorkspaceJson(await deps.workspaces.view(principalOf(request).workspace)),
  );
}
