import type { FastifyReply } from 'fastify';
import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { PageContentQuery, PageListSchema, PageParams, PageSchema, toPageDocumentJson, toPageJson } from '../../api/pages.js';
import { DEFAULT_DPI } from '../../domain/pages.js';

export function pageRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;
  const notReady = 'Pages are known once the document is Ingested: before that 409 with `retry-after`.';

  const list = op({ id: 'listPages', summary: "List a document's pages", tag: 'Pages', scope: 'read:documents', errors: [400, 404, 409], description: notReady });
  app.get(
    '/documents/:id/pages',
    { config: list.config, schema: { ...list.schema, params: IdParams, response: { 200: PageListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { document, pages } = await deps.pages.list(workspace.id, request.params.id);
      const ref = toPageDocumentJson(document.id, base);
      return { pages: pages.map((p) => toPageJson(document.id, p, base, ref)), document: ref };
    },
  );

  const get = op({ id: 'getPage', summary: 'Get a page', tag: 'Pages', scope: 'read:documents', errors: [400, 404, 409], description: notReady });
  app.get(
    '/documents/:id/pages/:pageNumber',
    { config: get.config, schema: { ...get.schema, params: PageParams, response: { 200: PageSchema, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { document, page } = await deps.pages.get(workspace.id, request.params.id, request.params.pageNumber);
      return toPageJson(document.id, page, base);
    },
  );

  const content = op({
    id: 'getPageImage',
    summary: 'Get the image of a page',
    tag: 'Pages',
    scope: 'read:documents',
    errors: [400, 404, 409, 422, 503],
    description: [
      `PNG rendered at \`dpi\` (36..300, default 300) on first request and kept, so HEAD and later GETs do not render again (the least recently served are deleted past QUIRE_PAGE_IMAGE_CACHE_MB, and drawn again when asked). ${notReady}`,
      'An image over QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS is 422 with `maxDpi` (the largest `dpi` that fits, or null), `maxPixels`, `width` and `height`; a page that cannot be drawn (a damaged PDF, over the renderer\'s time or memory) is 422 saying why.',
      'A workspace drawing QUIRE_PAGE_RENDERS_PER_WORKSPACE images already makes this one wait its turn up to QUIRE_PAGE_RENDER_WAIT_MS, then 503 with `retry-after`.',
    ].join(' '),
  });
  app.get(
    '/documents/:id/pages/:pageNumber/content',
    {
      config: content.config,
      schema: {
        ...content.schema,
        params: PageParams,
        querystring: PageContentQuery,
        response: { 200: { description: 'PNG', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } }, ...content.problemResponses },
      },
    },
    async (request, typedReply) => {
      // The schema describes the PNG for OpenAPI; the handler sends a stream or a 304.
      const reply = typedReply as unknown as FastifyReply;
      const { workspace } = principalOf(request);
      const dpi = request.query.dpi ?? DEFAULT_DPI;
      const { document, key, size } = await deps.pages.image(workspace.id, request.params.id, request.params.pageNumber, dpi);
      const etag = `"${document.sha256.slice(0, 32)}-${request.params.pageNumber}-${dpi}"`;
      reply.header('etag', etag).header('cache-control', 'private, max-age=86400').type('image/png');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      reply.header('content-length', String(size));
      return reply.send(await deps.pages.openImage(key));
    },
  );
}
