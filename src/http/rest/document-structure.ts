import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { DocsetDocumentParams } from '../../api/structure.js';

const notReady = 'Available once the document is Ready: before that 409 with `retry-after`; a document that ended in Error or OverQuota has none (409).';
const xmlResponse = { description: 'DGML (../docs: DGML.md)', content: { 'application/xml': { schema: { type: 'string' } } } };

/** Sends a rendered text with an ETag of its bytes, answering 304 to a matching If-None-Match. */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, body: string, contentType: string) {
  const bytes = Buffer.from(body, 'utf8');
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
  reply.header('etag', etag).header('cache-control', 'private, max-age=0, must-revalidate').type(contentType);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.send(bytes);
}

export function documentStructureRoutes(app: App, deps: HttpDeps) {
  const inDocset = op({
    id: 'getDocsetDocumentDgml',
    summary: "Get a document's DGML",
    tag: 'Documents',
    scope: 'read:documents',
    errors: [400, 404, 409],
    description: `The document's structure (sections, paragraphs, lists, tables, entities, with bounding boxes in 300-DPI pixels) as DGML. 404 when the document is not in this docset. ${notReady}`,
  });
  app.get(
    '/docsets/:docsetId/documents/:documentId/dgml',
    { config: inDocset.config, schema: { ...inDocset.schema, params: DocsetDocumentParams, response: { 200: xmlResponse, ...inDocset.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { xml } = await deps.structure.dgml(workspace.id, request.params.documentId, request.params.docsetId);
      return sendRendered(request, reply as unknown as FastifyReply, xml, 'application/xml; charset=utf-8');
    },
  );

  const anyDocument = op({
    id: 'getDocumentDgml',
    summary: "Get a document's DGML, whatever its docset (extension)",
    tag: 'Documents',
    scope: 'read:documents',
    errors: [400, 404, 409],
    description: `As the docset route, also for documents outside any docset (the \`docset\` namespace is then named \`Unassigned\`). ${notReady}`,
  });
  app.get(
    '/documents/:id/dgml',
    { config: anyDocument.config, schema: { ...anyDocument.schema, params: IdParams, response: { 200: xmlResponse, ...anyDocument.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { xml } = await deps.structure.dgml(workspace.id, request.params.id);
      return sendRendered(request, reply as unknown as FastifyReply, xml, 'application/xml; charset=utf-8');
    },
  );
}
