import http from 'node:http';
import { HttpMetrics } from './metrics.js';

/**
 * `GET /metrics` alone, for a process that serves no API (`quire worker` with QUIRE_METRICS_PORT):
 * its ingestion and process metrics, as `serve` answers them beside the API.
 */
export async function serveMetrics(host: string, port: number): Promise<http.Server> {
  const metrics = new HttpMetrics();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      metrics.text().then(
        (body) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(body),
        () => res.writeHead(500).end(),
      );
      return;
    }
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'This port serves only GET /metrics.' };
    res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
