import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './context.js';

/**
 * API responses are data, never pages: nothing may load, frame or submit from them. HTML pages
 * (the `/docs` reference) carry their own policy (see `docsCsp`).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const BASE_HEADERS = {
  'content-security-policy': API_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** Security headers on every response (a route may replace the CSP with its own). */
export function securityHeaders(app: App) {
  app.addHook('onRequest', (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.headers(BASE_HEADERS);
    done();
  });
}

/**
 * The policy of the `/docs` page (Swagger UI): its own scripts and styles, its two inline ones
 * allowed by hash only (as @fastify/swagger-ui computes them), no framing, no other origin.
 */
export function docsCsp(): Record<string, string[]> {
  const hashes = createRequire(import.meta.url)('@fastify/swagger-ui/static/csp.json') as { script: string[]; style: string[] };
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'none'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'script-src': ["'self'", ...hashes.script],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...hashes.style],
  };
}

const EXPOSED = 'location, retry-after, etag, content-range, content-disposition, x-should-retry';
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * CORS for an allow-list of origins (`QUIRE_CORS_ORIGINS`); with none configured no CORS header is
 * ever sent, so browsers on other origins cannot read responses. A preflight from an allowed origin
 * is answered here, before authentication (browsers send it without credentials).
 */
export function cors(app: App, origins: string[]) {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (!origin) return;
    reply.header('vary', 'origin');
    if (!any && !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSED);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      const requested = request.headers['access-control-request-headers'];
      return reply
        .code(204)
        .headers({
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': typeof requested === 'string' && /^[\w\-, ]{1,1000}$/.test(requested) ? requested : 'authorization, content-type, range',
          'access-control-max-age': '600',
        })
        .send();
    }
  });
}
