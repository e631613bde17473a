import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';
import type { App } from './context.js';

/**
 * The browser console (web/, bundled by `npm run build` into dist/web) served at `/`. It is a
 * client of the public API only. Its policy: own scripts, styles and images only (no inline code),
 * API calls to this origin, no framing, no plugins.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const ASSET = /^[a-z0-9-]+\.(js|css|svg)$/;

export function consoleRoutes(app: App, webDir = WEB_DIR) {
  const send = (reply: FastifyReply, file: string) => {
    const full = path.join(webDir, file);
    if (!fs.existsSync(full)) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.');
    }
    reply.header('content-security-policy', CONSOLE_CSP).header('cache-control', 'no-cache');
    return reply.type(TYPES[path.extname(file)] ?? 'application/octet-stream').send(fs.readFileSync(full));
  };
  const hidden = { schema: { hide: true } };
  app.get('/', hidden, async (_request, reply) => send(reply as unknown as FastifyReply, 'index.html'));
  app.get<{ Params: { file: string } }>('/console/:file', hidden, async (request, reply) => {
    const file = (request.params as { file: string }).file;
    if (!ASSET.test(file)) return reply.code(404).send();
    return send(reply as unknown as FastifyReply, file);
  });
}
