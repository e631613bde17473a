import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { CreateDocsetBody, DocsetListSchema, RenameDocsetBody, ListDocsetsQuery, docsetFilterFromQuery, docsetFilterToQuery, toDocsetJson } from '../../api/docsets.js';
import type { DocsetFilter } from '../../model/records.js';

export function docsetRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const list = op({ id: 'listDocsets', summary: 'List docsets', tag: 'Docsets', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/docsets',
    { config: list.config, schema: { ...list.schema, querystring: ListDocsetsQuery, response: { 200: DocsetListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { filter, page } = deps.cursors.resolve<DocsetFilter>(request.query, 'docsets', workspace.id, () => docsetFilterFromQuery(request.query));
      const result = await deps.docsets.list(workspace.id, filter, page);
      return {
        docsets: result.items.map((d) => toDocsetJson(d, base)),
        next: deps.cursors.nextUrl({
          base,
          path: '/docsets',
          route: 'docsets',
          workspaceId: workspace.id,
          filter,
          filterQuery: docsetFilterToQuery(filter),
          limit: page.limit,
          nextAfter: result.nextAfter,
        }),
      };
    },
  );

  const create = op({
    id: 'createDocset',
    summary: 'Create a docset',
    tag: 'Docsets',
    scope: 'write:documents',
    errors: [400, 404, 409],
    description: 'Listed documents move into the new docset (out of any docset they were in). Names are unique in a workspace.',
  });
  app.post(
    '/docsets',
    { config: create.config, schema: { ...create.schema, body: CreateDocsetBody, response: { 201: { $ref: 'Docset' }, ...create.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const docset = await deps.docsets.create(workspace.id, request.body);
      return reply.code(201).send(toDocsetJson(docset, base));
    },
  );

  const get = op({ id: 'getDocset', summary: 'Get a docset', tag: 'Docsets', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/docsets/:id',
    { config: get.config, schema: { ...get.schema, params: IdParams, response: { 200: { $ref: 'Docset' }, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toDocsetJson(await deps.docsets.get(workspace.id, request.params.id), base);
    },
  );

  const rename = op({
    id: 'renameDocset',
    summary: 'Rename a docset',
    tag: 'Docsets',
    scope: 'write:documents',
    errors: [400, 404, 409],
    description: 'Quire extension (not in the Docugami API). Names are unique in a workspace; sample docsets keep theirs.',
  });
  app.patch(
    '/docsets/:id',
    {
      config: rename.config,
      schema: { ...rename.schema, params: IdParams, body: RenameDocsetBody, response: { 200: { $ref: 'Docset' }, ...rename.problemResponses } },
    },
    async (request) => {
      const { workspace } = principalOf(request);
      return toDocsetJson(await deps.docsets.rename(workspace.id, request.params.id, request.body.name), base);
    },
  );

  const del = op({
    id: 'deleteDocset',
    summary: 'Delete a docset',
    tag: 'Docsets',
    scope: 'write:documents',
    errors: [400, 404],
    description: 'Its documents stay in the workspace, in no docset.',
  });
  app.delete(
    '/docsets/:id',
    { config: del.config, schema: { ...del.schema, params: IdParams, response: { 204: { type: 'null', description: 'Deleted' }, ...del.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      await deps.docsets.delete(workspace.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
