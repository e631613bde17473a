import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { App, HttpDeps } from '../context.js';
import { authHook } from '../auth.js';
import { sendProblem } from '../problems.js';
import { contextOf, sendResult, validateBody, type Operation } from './framework.js';
import { PartitionTokens } from './tokens.js';
import { documentOperations } from './documents.js';
import { uploadDocument } from './upload.js';
import { docsetOperations } from './docsets.js';
import { projectOperations } from './projects.js';
import { opsOpenApi } from './openapi.js';

/** Every operation of `POST /ops/{id}`, in the order the connector definition lists them. */
export const OPERATIONS: Operation[] = [...documentOperations, uploadDocument, ...docsetOperations, ...projectOperations];

/**
 * The operation-style interface (register with prefix `/ops`): one route per operation, Bearer auth
 * with the scope of the REST route it mirrors, the same Problem errors, and its connector definition
 * at `GET /ops/openapi.json`. Operations are hidden from the REST reference (`/openapi.json`).
 */
export async function opsRoutes(app: App, deps: HttpDeps, operations: Operation[] = OPERATIONS) {
  const tokens = new PartitionTokens(deps.cursors);
  app.addHook('onRequest', authHook(deps.workspaces, deps.rateLimiter));

  const handler = (op: Operation) => async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = contextOf(deps, tokens, request, reply);
    const body = op.streamedBody ? request.raw : validateBody(op, request.body);
    return sendResult(reply, await op.handler(ctx, body));
  };
  const register = (scope: App, op: Operation) =>
    scope.post(`/${op.id}`, { config: { scope: op.scope }, schema: { hide: true } }, handler(op));

  for (const op of operations) if (!op.streamedBody) register(app, op);
  // Streamed bodies (base64 files up to ~400 MB) are read by their handler, not by the 1 MB JSON parser.
  await app.register(async (streamed) => {
    const s = streamed as unknown as App;
    s.removeContentTypeParser('application/json');
    s.addContentTypeParser('application/json', (_request, _payload, done) => done(null, undefined));
    for (const op of operations) if (op.streamedBody) register(s, op);
  });

  app.post('/:operationId', { schema: { hide: true, params: Type.Object({ operationId: Type.String() }) } }, async (request, reply) => {
    const { operationId } = request.params as { operationId: string };
    return sendProblem(reply, 404, `There is no operation "${operationId}"; known: ${operations.map((o) => o.id).join(', ')}.`);
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => {
    const schemas = app.getSchemas() as Record<string, Record<string, unknown>>;
    return opsOpenApi(operations, deps.config.publicUrl, (id) => schemas[id]);
  });
}
