import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import {
  CreateProjectBody,
  ListProjectsQuery,
  PatchProjectBody,
  ProjectListSchema,
  PutProjectBody,
  projectFilterFromQuery,
  projectFilterToQuery,
  toProjectJson,
} from '../../api/projects.js';
import type { ProjectFilter } from '../../model/records.js';
import { PROJECT_TYPES } from '../../model/projects.js';

const versioning =
  'Version "1" is published once the project exists and its documents are processed and extracted; a new version follows when the inputs change (a document joins or leaves, a value changes, the items change), a burst of changes making one version. Old versions stay readable.';

export function projectRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;
  const projectRef = { $ref: 'Project' } as const;

  const list = op({ id: 'listProjects', summary: 'List projects', tag: 'Projects', scope: 'read:projects', errors: [400, 404] });
  app.get(
    '/projects',
    { config: list.config, schema: { ...list.schema, querystring: ListProjectsQuery, response: { 200: ProjectListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { filter, page } = deps.cursors.resolve<ProjectFilter>(request.query, 'projects', workspace.id, () => projectFilterFromQuery(request.query));
      const result = await deps.projects.list(workspace.id, filter, page);
      return {
        projects: result.items.map((p) => toProjectJson(p, base)),
        next: deps.cursors.nextUrl({ base, path: '/projects', route: 'projects', workspaceId: workspace.id, filter, filterQuery: projectFilterToQuery(filter), limit: page.limit, nextAfter: result.nextAfter }),
      };
    },
  );

  const create = op({
    id: 'createProject',
    summary: 'Create a project',
    tag: 'Projects',
    scope: 'write:projects',
    errors: [400, 404],
    description: `Body \`{name, type, "docset.id" (or docset: {id}), items: [{label}], autoConfirmDocuments}\`. Items name docset properties; missing ones are created on the docset. Types: ${PROJECT_TYPES.join(', ')}. ${versioning}`,
  });
  app.post(
    '/projects',
    { config: create.config, schema: { ...create.schema, body: CreateProjectBody, response: { 201: projectRef, ...create.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const b = request.body;
      const p = await deps.projects.create(workspace.id, {
        name: b.name,
        type: b.type,
        docsetId: b['docset.id'] ?? b.docset?.id,
        items: b.items,
        autoConfirmDocuments: b.autoConfirmDocuments,
      });
      return reply.code(201).send(toProjectJson(p, base));
    },
  );

  const get = op({ id: 'getProject', summary: 'Get a project', tag: 'Projects', scope: 'read:projects', errors: [400, 404] });
  app.get(
    '/projects/:id',
    { config: get.config, schema: { ...get.schema, params: IdParams, response: { 200: projectRef, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toProjectJson(await deps.projects.get(workspace.id, request.params.id), base);
    },
  );

  const put = op({ id: 'updateProject', summary: 'Update a project', tag: 'Projects', scope: 'write:projects', errors: [400, 404], description: '`{autoConfirmDocuments}` (required). Switching it on confirms the documents that joined meanwhile.' });
  app.put(
    '/projects/:id',
    { config: put.config, schema: { ...put.schema, params: IdParams, body: PutProjectBody, response: { 200: projectRef, ...put.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toProjectJson(await deps.projects.update(workspace.id, request.params.id, request.body ?? {}, { requireAutoConfirm: true }), base);
    },
  );

  const patch = op({ id: 'patchProject', summary: 'Change a project', tag: 'Projects', scope: 'write:projects', errors: [400, 404], description: '`{autoConfirmDocuments?, name?, items?}`; new items publish a new version.' });
  app.patch(
    '/projects/:id',
    { config: patch.config, schema: { ...patch.schema, params: IdParams, body: PatchProjectBody, response: { 200: projectRef, ...patch.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toProjectJson(await deps.projects.update(workspace.id, request.params.id, request.body ?? {}), base);
    },
  );

  const del = op({ id: 'deleteProject', summary: 'Delete a project', tag: 'Projects', scope: 'write:projects', errors: [400, 404], description: 'Every version and artifact goes with it.' });
  app.delete(
    '/projects/:id',
    { config: del.config, schema: { ...del.schema, params: IdParams, response: { 204: { type: 'null', description: 'Deleted' }, ...del.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      await deps.projects.delete(workspace.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  const publish = op({
    id: 'publishProject',
    summary: 'Publish a project now (extension)',
    tag: 'Projects',
    scope: 'write:projects',
    errors: [400, 404],
    description: 'Confirms every document now in the docset (what `autoConfirmDocuments: false` holds back) and publishes a new version as soon as the documents are processed, if anything changed. Answers 202 with the project.',
  });
  app.post(
    '/projects/:id/publish',
    { config: publish.config, schema: { ...publish.schema, params: IdParams, response: { 202: projectRef, ...publish.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const p = await deps.projects.publish(workspace.id, request.params.id);
      return reply.code(202).send(toProjectJson(p, base));
    },
  );
}
