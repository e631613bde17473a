import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../runtime/config.js';
import type { RateLimiter } from './rate-limit.js';
import type { Principal } from '../domain/workspaces.js';
import type { DomainServices } from '../domain/services.js';
import type { Scope } from '../model/scopes.js';
import type { Cursors } from './pagination.js';
import type { ChangeScope } from '../store/db/changes.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What route handlers reach: configuration and the domain services (DomainServices), nothing below them. */
export interface HttpDeps extends DomainServices {
  config: Config;
  /** Requests per API key (set by buildServer from config.http; absent = no limit). */
  rateLimiter?: RateLimiter;
  cursors: Cursors;
  /** Readiness probes for /readyz: each throws when its dependency cannot be reached. */
  probes: { database: () => Promise<void>; storage: () => Promise<void>; queue: () => Promise<void> };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Of a request that may change state (not GET, HEAD, OPTIONS): whether it has committed anything. */
    changes: ChangeScope | null;
  }
  interface FastifyContextConfig {
    /** The scope a route needs; 'any' = any valid key; undefined = no key needed. */
    scope?: Scope | 'any';
  }
}

/** The authenticated principal of a request that passed the auth hook. */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route without auth reached a principal lookup');
  return request.principal;
}
