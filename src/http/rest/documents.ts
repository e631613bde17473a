import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { DocumentListSchema, ListDocumentsQuery, documentFilterFromQuery, documentFilterToQuery, toDocumentJson } from '../../api/documents.js';
import type { DocumentFilter, DocumentRecord } from '../../model/records.js';

export function documentRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;
  const bodies = new WeakMap<DocumentRecord, string>();

  const list = op({ id: 'listDocuments', summary: 'List documents', tag: 'Documents', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/documents',
    {
      config: list.config,
      schema: { ...list.schema, querystring: ListDocumentsQuery, response: { 200: DocumentListSchema, ...list.problemResponses } },
    },
    async (request) => {
      const { workspace } = principalOf(request);
      const query = request.query as ListDocumentsQuery & Record<string, unknown>;
      const { filter, page } = deps.cursors.resolve<DocumentFilter>(query, 'documents', workspace.id, () =>
        documentFilterFromQuery(query),
      );
      const result = await deps.documents.list(workspace.id, filter, page);
      return {
        documents: result.items.map((d) => toDocumentJson(d, base)),
        next: deps.cursors.nextUrl({
          base,
          path: '/documents',
          route: 'documents',
          workspaceId: workspace.id,
          filter,
          filterQuery: documentFilterToQuery(filter),
          limit: page.limit,
          nextAfter: result.nextAfter,
        }),
      };
    },
  );

  const get = op({ id: 'getDocument', summary: 'Get a document', tag: 'Documents', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/documents/:id',
    {
      config: get.config,
      schema: { ...get.schema, params: IdParams, response: { 200: { $ref: 'Document' }, ...get.problemResponses } },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const d = await deps.documents.get(workspace.id, request.params.id);
      // Records served from the store's kept rows are frozen and shared: their body is made once.
      let body = Object.isFrozen(d) ? bodies.get(d) : undefined;
      if (body === undefined) {
        body = reply.serialize(toDocumentJson(d, base)) as string;
        if (Object.isFrozen(d)) bodies.set(d, body);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  const del = op({
    id: 'deleteDocument',
    summary: 'Delete a document',
    tag: 'Documents',
    scope: 'write:documents',
    errors: [400, 404],
    description: 'Removes the document, its metadata, its place in its docset and its stored bytes.',
  });
  app.delete(
    '/documents/:id',
    { config: del.config, schema: { ...del.schema, params: IdParams, response: { 204: { type: 'null', description: 'Deleted' }, ...del.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      await deps.documents.delete(workspace.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
