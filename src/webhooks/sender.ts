import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { SendResult } from '../domain/webhooks.js';
import { secretKey } from '../domain/webhooks.js';
import { guardedLookup, hostAllowed, hostOf, isForbiddenAddress, type GuardOptions } from './ssrf.js';
import { QUIRE_VERSION } from '../runtime/version.js';

/** Response bodies are read up to this and discarded; a longer one closes its connection. */
const BODY_CAP = 16 * 1024;

export interface SendOutcome extends SendResult {
  /** 410 Gone: the receiver asks for the webhook to be removed. */
  gone: boolean;
}

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` (Standard Webhooks). */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * POSTs webhook bodies over keep-alive connections. Redirects are not followed (a failure); success is
 * a 2xx whose response completes within the timeout. Hosts outside the allow list connect through a
 * lookup that refuses forbidden addresses.
 */
export class WebhookSender {
  private readonly guarded: { http: http.Agent; https: https.Agent };
  private readonly open: { http: http.Agent; https: https.Agent };

  constructor(private readonly opts: GuardOptions & { timeoutMs: number; maxSocketsPerHost?: number }) {
    const base = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: opts.maxSocketsPerHost ?? 32, maxFreeSockets: 32, scheduling: 'lifo' as const };
    const lookup = guardedLookup();
    this.guarded = { http: new http.Agent({ ...base, lookup }), https: new https.Agent({ ...base, lookup }) };
    this.open = { http: new http.Agent(base), https: new https.Agent(base) };
  }

  async send(target: string, msg: { id: string; body: string; secret: string | null }): Promise<SendOutcome> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null, gone = false): SendOutcome => ({
      ok: error === null,
      statusCode,
      durationMs: Math.round(performance.now() - started),
      error,
      gone,
    });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return done(null, 'the webhook URL is not valid');
    }
    const host = hostOf(url);
    const allowed = hostAllowed(host, this.opts);
    if (!allowed && net.isIP(host) && isForbiddenAddress(host)) {
      return done(null, `${host} is a private, loopback, link-local or reserved address: refused (QUIRE_WEBHOOK_ALLOW_PRIVATE / QUIRE_WEBHOOK_ALLOW_HOSTS)`);
    }
    const secure = url.protocol === 'https:';
    const agents = allowed ? this.open : this.guarded;
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(msg.body),
      'user-agent': `Quire-Webhooks/${QUIRE_VERSION}`,
      'webhook-id': msg.id,
      'webhook-timestamp': String(timestamp),
    };
    if (msg.secret) headers['webhook-signature'] = signature(msg.secret, msg.id, timestamp, msg.body);

    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (o: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      const req = (secure ? https : http).request(url, { method: 'POST', headers, agent: secure ? agents.https : agents.http }, (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > BODY_CAP) res.destroy();
        });
        const outcome = () => {
          if (status >= 200 && status < 300) return done(status, null);
          if (status === 410) return done(status, 'HTTP 410 Gone: the receiver removed this webhook', true);
          if (status >= 300 && status < 400) return done(status, `HTTP ${status} redirect${res.headers.location ? ` to ${res.headers.location}` : ''}: redirects are not followed`);
          return done(status, `HTTP ${status}`);
        };
        res.on('end', () => finish(outcome()));
        // A body cut at the cap still tells the status.
        res.on('close', () => finish(read > BODY_CAP ? outcome() : done(status, `the response ended early (HTTP ${status})`)));
        res.on('error', () => undefined);
      });
      const timer = setTimeout(() => {
        finish(done(null, `no complete response within ${this.opts.timeoutMs} ms`));
        req.destroy();
      }, this.opts.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => finish(done(null, describe(err))));
      req.end(msg.body);
    });
  }

  close(): void {
    for (const a of [this.guarded.http, this.guarded.https, this.open.http, this.open.https]) a.destroy();
  }
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.code === 'EWEBHOOKFORBIDDEN') return err.message;
  const text = err.code ? `${err.code}: ${err.message}` : err.message;
  return text.slice(0, 500);
}
