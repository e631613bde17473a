import type { FastifyReply, FastifyRequest } from 'fastify';
import { expiredMessage, isExpired, type WorkspaceService } from '../domain/workspaces.js';
import { hasScope } from '../model/scopes.js';
import { sendProblem } from './problems.js';
import type { RateLimiter } from './rate-limit.js';

/**
 * onRequest hook: resolves `Authorization: Bearer <key>` before any body is read, then checks the
 * route's scope and the key's rate. Missing or unknown key: 401; a key of an expired workspace or
 * without the scope: 403; over its rate: 429 with `retry-after`.
 */
export function authHook(workspaces: WorkspaceService, limiter?: RateLimiter) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const needed = request.routeOptions.config?.scope;
    if (needed === undefined) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      return sendProblem(reply, 401, 'Send an API key as "Authorization: Bearer <key>".', {}, { 'www-authenticate': 'Bearer' });
    }
    const principal = await workspaces.authenticate(match[1]!);
    if (!principal) {
      return sendProblem(reply, 401, 'The API key is invalid or has been revoked.', {}, { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    if (isExpired(principal.workspace)) return sendProblem(reply, 403, expiredMessage(principal.workspace));
    if (needed !== 'any' && !hasScope(principal.key.scopes, needed)) {
      return sendProblem(reply, 403, `This operation needs the "${needed}" scope, which this API key does not have.`);
    }
    const wait = limiter?.take(principal.key.id) ?? 0;
    if (wait > 0) {
      return sendProblem(reply, 429, `This API key has made more requests than its limit allows; retry in ${wait} s.`, {}, { 'retry-after': String(wait) });
    }
    request.principal = principal;
  };
}
