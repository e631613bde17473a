import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ApiError, CliFailure, CliUsageError } from './errors.js';

export interface Connection {
  /** The service origin as given (`http://127.0.0.1:8080`); the API base appends /v1preview1. */
  url: string;
  key: string;
}

/** `--url`/`--key` over `QUIRE_URL`/`QUIRE_API_KEY`; the default URL is the server's default. */
export function connectionFrom(flags: { url?: string; key?: string }, env: NodeJS.ProcessEnv = process.env): Connection {
  const url = (flags.url ?? env.QUIRE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const key = flags.key ?? env.QUIRE_API_KEY;
  if (!key) throw new CliUsageError('no API key: set QUIRE_API_KEY or pass --key KEY');
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new CliUsageError(`--url / QUIRE_URL must be an http(s) URL, not "${url}"`);
  }
  return { url, key };
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: FormData | Buffer | string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Statuses answered without throwing (the caller looks at them). */
  accept?: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How many times a request is sent again after a 429, a "not yet" 409, a 502/503/504 or a network error. */
const RETRIES = 4;

/**
 * The REST client the commands share: Bearer key, JSON in and out, Problem JSON turned into
 * ApiError, and the retries the SDKs do (429 and 409 with `x-should-retry: true` after
 * `retry-after`; 502/503/504 and connection errors with back-off). Only idempotent requests are
 * retried on connection errors.
 */
export class Client {
  readonly api: string;
  constructor(readonly conn: Connection) {
    this.api = `${conn.url}/v1preview1`;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(path.startsWith('http') ? path : `${this.api}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async raw(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.conn.key}`, ...opts.headers };
    let body: FormData | Buffer | string | undefined = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    const url = this.url(path, opts.query);
    const idempotent = method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE';
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body, signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        // A refused or reset connection is retried twice (a restarting server), not four times.
        if (idempotent && attempt < 2) {
          await sleep(250 * 2 ** attempt);
          continue;
        }
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new CliFailure(`cannot reach ${this.conn.url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
      }
      const retryable =
        res.status === 429 || (res.status === 409 && res.headers.get('x-should-retry') === 'true') || res.status === 502 || res.status === 503 || res.status === 504;
      if (retryable && attempt < RETRIES && !(opts.accept ?? []).includes(res.status)) {
        await res.arrayBuffer().catch(() => undefined);
        const after = Number(res.headers.get('retry-after'));
        await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 30) * 1000 : 500 * 2 ** attempt);
        continue;
      }
      if (res.ok || (opts.accept ?? []).includes(res.status)) return res;
      throw await problemOf(res);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async json<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.raw(method, path, opts);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  get<T = any>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  /** Every item of a list, following `next` (absolute URLs with the cursor) to the end or `max` items. */
  async all<T>(path: string, field: string, query: RequestOptions['query'] = {}, max = Infinity): Promise<{ items: T[]; more: boolean }> {
    const items: T[] = [];
    let next: string | null = this.url(path, query);
    while (next && items.length < max) {
      const page: Record<string, unknown> = await this.get(next);
      items.push(...((page[field] as T[]) ?? []));
      next = (page.next as string | null) ?? null;
    }
    return { items: items.slice(0, max), more: next !== null || items.length > max };
  }

  /** Streams a response body to standard output. */
  async toStdout(path: string, query?: RequestOptions['query']): Promise<void> {
    const res = await this.raw('GET', path, { query });
    await pipeline(Readable.fromWeb(res.body! as import('node:stream/web').ReadableStream), process.stdout, { end: false });
  }

  /** Streams a response body into a file (written under a temporary name, then renamed). */
  async download(path: string, file: string, query?: RequestOptions['query']): Promise<number> {
    const res = await this.raw('GET', path, { query });
    const tmp = `${file}.part`;
    try {
      await pipeline(Readable.fromWeb(res.body! as import('node:stream/web').ReadableStream), fs.createWriteStream(tmp));
      fs.renameSync(tmp, file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      if (err instanceof ApiError) throw err;
      throw new CliFailure(`cannot write ${file}: ${(err as Error).message}`);
    }
    return fs.statSync(file).size;
  }
}

/** A response that is not 2xx, as one ApiError (Problem JSON when the server sent one). */
export async function problemOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON
  }
  const title = typeof body?.title === 'string' ? body.title : res.statusText || 'Error';
  const detail = typeof body?.detail === 'string' ? body.detail : body ? '' : text.slice(0, 200).trim();
  return new ApiError(res.status, title, detail === title ? '' : detail, body);
}
