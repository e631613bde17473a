import Type from 'typebox';
import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { Id, IdParams, op } from '../../api/common.js';
import { DocumentListSchema, ListDocsetDocumentsQuery, documentFilterFromQuery, documentFilterToQuery, toDocumentJson } from '../../api/documents.js';
import { toDocsetJson } from '../../api/docsets.js';
import type { DocumentFilter } from '../../model/records.js';

const MemberParams = Type.Object({ docsetId: Id, documentId: Id });

export function docsetDocumentRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const list = op({ id: 'listDocsetDocuments', summary: "List a docset's documents", tag: 'Docsets', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/docsets/:id/documents',
    {
      config: list.config,
      schema: { ...list.schema, params: IdParams, querystring: ListDocsetDocumentsQuery, response: { 200: DocumentListSchema, ...list.problemResponses } },
    },
    async (request) => {
      const { workspace } = principalOf(request);
      const docsetId = request.params.id;
      const route = `docsets/${docsetId}/documents`;
      const query = request.query as ListDocsetDocumentsQuery & Record<string, unknown>;
      const { filter, page } = deps.cursors.resolve<DocumentFilter>(query, route, workspace.id, () => {
        const { name: _name, 'docset.id': _a, 'docset[id]': _b, ...rest } = query;
        return documentFilterFromQuery(rest);
      });
      const result = await deps.docsets.listDocuments(workspace.id, docsetId, filter, page);
      return {
        documents: result.items.map((d) => toDocumentJson(d, base)),
        next: deps.cursors.nextUrl({
          base,
          path: `/${route}`,
          route,
          workspaceId: workspace.id,
          filter,
          filterQuery: documentFilterToQuery(filter, { docsetInPath: true }),
          limit: page.limit,
          nextAfter: result.nextAfter,
        }),
      };
    },
  );

  const get = op({ id: 'getDocsetDocument', summary: 'Get a document of a docset', tag: 'Docsets', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/docsets/:docsetId/documents/:documentId',
    { config: get.config, schema: { ...get.schema, params: MemberParams, response: { 200: { $ref: 'Document' }, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toDocumentJson(await deps.docsets.getDocument(workspace.id, request.params.docsetId, request.params.documentId), base);
    },
  );

  const put = op({
    id: 'addDocumentToDocset',
    summary: 'Add a document to a docset',
    tag: 'Docsets',
    scope: 'write:documents',
    errors: [400, 404],
    description: 'Moves the document here from the docset it was in (both document counts stay true). Responds 200 with the Docset; idempotent.',
  });
  app.put(
    '/docsets/:docsetId/documents/:documentId',
    { config: put.config, schema: { ...put.schema, params: MemberParams, response: { 200: { $ref: 'Docset' }, ...put.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toDocsetJson(await deps.docsets.addDocument(workspace.id, request.params.docsetId, request.params.documentId), base);
    },
  );

  const del = op({
    id: 'removeDocumentFromDocset',
    summary: 'Remove a document from a docset',
    tag: 'Docsets',
    scope: 'write:documents',
    errors: [400, 404],
    description: 'The document stays in the workspace, in no docset.',
  });
  app.delete(
    '/docsets/:docsetId/documents/:documentId',
    { config: del.config, schema: { ...del.schema, params: MemberParams, response: { 204: { type: 'null', description: 'Removed' }, ...del.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      await deps.docsets.removeDocument(workspace.id, request.params.docsetId, request.params.documentId);
      return reply.code(204).send(null);
    },
  );
}
