import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { DocsetDocumentParams } from '../../api/structure.js';
import type { StructureFile } from '../../domain/structure.js';

const notReady = 'Available once the document is Ready: before that 409 with `retry-after`; a document that ended in Error or OverQuota has none (409).';
const xmlResponse = { description: 'DGML (../docs: DGML.md)', content: { 'application/xml': { schema: { type: 'string' } } } };

/** A strong ETag of a file, from the SHA-256 (hex) of its bytes. */
export function etagOf(sha256Hex: string): string {
  return `"${Buffer.from(sha256Hex, 'hex').toString('base64url').slice(0, 32)}"`;
}

/** Whether an If-None-Match header names this ETag (or is `*`); weak comparison, as RFC 9110 asks for GET. */
export function noneMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** Sends a stored DGML, text or Markdown file with its strong ETag, answering 304 to a matching If-None-Match without reading it. */
export async function sendStructureFile(request: FastifyRequest, reply: FastifyReply, file: StructureFile, contentType: string) {
  const etag = etagOf(file.sha256);
  reply.header('etag', etag).header('cache-control', 'private, max-age=0, must-revalidate').type(contentType);
  if (noneMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const body = await file.open();
  return reply.header('content-length', file.size).send(body);
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
      const { file } = await deps.structure.dgml(workspace.id, request.params.documentId, request.params.docsetId);
      return sendStructureFile(request, reply as unknown as FastifyReply, file, 'application/xml; charset=utf-8');
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
      const { file } = await deps.structure.dgml(workspace.id, request.params.id);
      return sendStructureFile(request, reply as unknown as FastifyReply, file, 'application/xml; charset=utf-8');
    },
  );
}
