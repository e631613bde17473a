import http from 'node:http';
import type net from 'node:net';
import { Webhook } from 'standardwebhooks';

/** What a receiver path does with a request. */
export type Behaviour = 'ok' | 'fail' | 'hang' | 'gone' | 'redirect';

export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string | undefined;
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  receivedAt: number;
}

/**
 * A webhook receiver on 127.0.0.1: every request of a path with a secret is verified with the
 * `standardwebhooks` package (an implementation independent of Quire's); accepted requests are kept in
 * arrival order. It can stop listening (connection refused) and come back on the same port.
 */
export class WebhookReceiver {
  readonly accepted: Received[] = [];
  /** Every request by path, accepted or not. */
  readonly hits = new Map<string, number>();
  /** Requests whose signature did not verify (must stay empty). */
  readonly invalid: { path: string; error: string }[] = [];
  private readonly behaviour = new Map<string, Behaviour>();
  private readonly verifiers = new Map<string, Webhook>();
  private server: http.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  /** `secret` as given to Quire: `whsec_…` is base64, anything else its UTF-8 bytes. */
  expect(path: string, secret: string | null, behaviour: Behaviour = 'ok'): string {
    if (secret) this.verifiers.set(path, secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret) as never, { format: 'raw' }));
    this.behaviour.set(path, behaviour);
    return this.url(path);
  }

  set(path: string, behaviour: Behaviour): void {
    this.behaviour.set(path, behaviour);
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async listen(port = 0): Promise<void> {
    const server = http.createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 30_000;
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** Stops listening and drops every connection: senders get ECONNREFUSED / resets. */
  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    for (const sock of this.sockets) sock.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  }

  /** Accepted deliveries of a path, first arrival of each `webhook-id` only. */
  unique(path: string): Received[] {
    const seen = new Set<string>();
    return this.accepted.filter((r) => r.path === path && !seen.has(r.id) && seen.add(r.id));
  }

  async waitFor(what: string, fn: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!fn()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const raw = Buffer.concat(chunks).toString('utf8');
      const behaviour = this.behaviour.get(path) ?? 'ok';
      if (behaviour === 'hang') return; // never answers; the sender's timeout ends it
      if (behaviour === 'fail') return void res.writeHead(500).end('down for maintenance');
      if (behaviour === 'gone') return void res.writeHead(410).end();
      if (behaviour === 'redirect') return void res.writeHead(302, { location: `${path}/moved` }).end();
      const headers = { 'webhook-id': String(req.headers['webhook-id'] ?? ''), 'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''), 'webhook-signature': String(req.headers['webhook-signature'] ?? '') };
      const verifier = this.verifiers.get(path);
      if (verifier) {
        try {
          verifier.verify(raw, headers);
        } catch (err) {
          this.invalid.push({ path, error: String(err) });
          return void res.writeHead(400).end('bad signature');
        }
      }
      this.accepted.push({
        path,
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: req.headers['webhook-signature'] as string | undefined,
        raw,
        body: JSON.parse(raw),
        receivedAt: Date.now(),
      });
      res.writeHead(204).end();
    });
  }
}
