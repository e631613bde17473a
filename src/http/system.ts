import type { App, HttpDeps } from './context.js';
import type { HttpMetrics } from './metrics.js';
import { op } from './schemas/common.js';

/** Unauthenticated operational routes: health, readiness, metrics and the API description. */
export function systemRoutes(app: App, deps: HttpDeps, metrics: HttpMetrics) {
  app.get('/healthz', { schema: { ...op({ summary: 'Liveness', tag: 'System', scope: null }).schema } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { ...op({ summary: 'Readiness: database and storage reachable', tag: 'System', scope: null }).schema } }, async (request, reply) => {
    try {
      await deps.ping();
      return { status: 'ready' };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', detail: String((err as Error).message) });
    }
  });

  app.get('/metrics', { schema: { ...op({ summary: 'Prometheus metrics', tag: 'System', scope: null }).schema } }, async (_request, reply) => {
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.text());
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
