import client from 'prom-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ingestRegistry } from '../runtime/metrics.js';

/** Prometheus metrics of one process: request counts and latencies by route and status, the standard process and Node.js ones, and Quire's own (src/runtime/metrics.ts). */
export class HttpMetrics {
  readonly registry = new client.Registry();
  private readonly requests = new client.Counter({
    name: 'quire_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new client.Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [this.registry],
  });

  constructor() {
    // Under their usual names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds…): stock dashboards find them.
    client.collectDefaultMetrics({ register: this.registry });
  }

  /** The counter and histogram of each method, route and status, looked up once (prom-client hashes labels per call). */
  private readonly series = new Map<string, { count: client.Counter.Internal; latency: client.Histogram.Internal<string> }>();

  /** Counts one answered request; called from the server's onResponse hook. */
  record(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      s = { count: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.series.set(key, s);
    }
    s.count.inc();
    s.latency.observe(reply.elapsedTime / 1000);
  }

  text(): Promise<string> {
    return client.Registry.merge([this.registry, ingestRegistry]).metrics();
  }
}
