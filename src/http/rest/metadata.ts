import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { MetadataBody, MetadataResponse } from '../../api/metadata.js';
import { parseMetadataRequest } from '../../domain/metadata.js';
import type { MetadataEntry } from '../../model/records.js';

export function metadataRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;
  const respond = (id: string, metadata: MetadataEntry[]) => ({ metadata, document: { id, url: `${base}/documents/${id}` } });

  const get = op({ id: 'getDocumentMetadata', summary: "Get a document's metadata", tag: 'Metadata', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/documents/:id/metadata',
    { config: get.config, schema: { ...get.schema, params: IdParams, response: { 200: MetadataResponse, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return respond(request.params.id, await deps.metadata.get(workspace.id, request.params.id));
    },
  );

  const put = op({
    id: 'replaceDocumentMetadata',
    summary: "Replace a document's metadata",
    tag: 'Metadata',
    scope: 'write:documents',
    errors: [400, 404],
    description: 'The metadata becomes exactly the entries sent (at most 10).',
  });
  app.put(
    '/documents/:id/metadata',
    { config: put.config, schema: { ...put.schema, params: IdParams, body: MetadataBody, response: { 200: MetadataResponse, ...put.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const entries = parseMetadataRequest(request.body);
      return respond(request.params.id, await deps.metadata.replace(workspace.id, request.params.id, entries));
    },
  );

  const post = op({
    id: 'mergeDocumentMetadata',
    summary: "Merge into a document's metadata",
    tag: 'Metadata',
    scope: 'write:documents',
    errors: [400, 404],
    description: 'Entries sent (at most 10) are added or overwrite the same key; other keys stay.',
  });
  app.post(
    '/documents/:id/metadata',
    { config: post.config, schema: { ...post.schema, params: IdParams, body: MetadataBody, response: { 200: MetadataResponse, ...post.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const entries = parseMetadataRequest(request.body);
      return respond(request.params.id, await deps.metadata.merge(workspace.id, request.params.id, entries));
    },
  );
}
