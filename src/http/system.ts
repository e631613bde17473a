import type { App, HttpDeps } from './context.js';
import type { HttpMetrics } from './metrics.js';
import { op } from '../api/common.js';

const PROBE_TIMEOUT_MS = 3000;

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

/** Unauthenticated operational routes: health, readiness, metrics and the API description. */
export function systemRoutes(app: App, deps: HttpDeps, metrics: HttpMetrics) {
  app.get('/healthz', { schema: { ...op({ id: 'getLiveness', summary: 'Liveness', tag: 'System', scope: null }).schema } }, async () => ({ status: 'ok' }));

  const readyz = op({
    id: 'getReadiness',
    summary: 'Readiness: database, storage and queue reachable',
    tag: 'System',
    scope: null,
    description: '200 `{status: "ready", checks}` when each dependency answers within 3 s; otherwise 503 with `retry-after` and, in `checks`, which one failed (`"failed"`; why is logged, not answered). It only reads.',
  });
  app.get('/readyz', { schema: { ...readyz.schema } }, async (request, reply) => {
    const entries = await Promise.all(
      Object.entries(deps.probes).map(async ([name, probe]) => {
        try {
          await withTimeout(probe(), PROBE_TIMEOUT_MS, `no answer within ${PROBE_TIMEOUT_MS} ms`);
          return [name, 'ok'] as const;
        } catch (err) {
          request.log.warn({ err, dependency: name }, 'readiness check failed');
          // Why is for the log only: error text names hosts, paths and database internals.
          return [name, 'failed'] as const;
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    const failed = entries.filter(([, v]) => v !== 'ok').map(([k]) => k);
    if (failed.length === 0) return { status: 'ready', checks };
    return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', failed, checks, detail: `Not reachable: ${failed.join(', ')}.` });
  });

  app.get('/metrics', { schema: { ...op({ id: 'getMetrics', summary: 'Prometheus metrics', tag: 'System', scope: null }).schema } }, async (_request, reply) => {
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.text());
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
