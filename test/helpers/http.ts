import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  buffer: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface ReqOptions {
  key?: string | null;
  json?: unknown;
  body?: string | FormData | Buffer;
  headers?: Record<string, string>;
}

/** A thin client over fetch: `key: null` sends no Authorization header. */
export function client(base: string, defaultKey: string) {
  async function req(method: string, url: string, opts: ReqOptions = {}): Promise<Res> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? defaultKey : opts.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    const r = await fetch(url.startsWith('http') ? url : `${base}${url}`, { method, headers, body });
    const buffer = Buffer.from(await r.arrayBuffer());
    const text = buffer.toString('utf8');
    let json: unknown;
    const ct = r.headers.get('content-type') ?? '';
    if (ct.includes('json')) json = text ? JSON.parse(text) : undefined;
    return { status: r.status, headers: r.headers, text, buffer, json };
  }
  return {
    req,
    get: (url: string, opts?: ReqOptions) => req('GET', url, opts),
    post: (url: string, opts?: ReqOptions) => req('POST', url, opts),
    put: (url: string, opts?: ReqOptions) => req('PUT', url, opts),
    patch: (url: string, opts?: ReqOptions) => req('PATCH', url, opts),
    del: (url: string, opts?: ReqOptions) => req('DELETE', url, opts),
    /** Multipart upload: text fields first, then `file` (a corpus path or raw bytes with a name). */
    upload: (
      file: { path: string } | { bytes: Buffer | string; name: string },
      fields: Record<string, string> = {},
      opts: ReqOptions & { fileField?: string } = {},
    ) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const bytes = 'path' in file ? fs.readFileSync(file.path) : Buffer.from(file.bytes);
      const name = 'path' in file ? path.basename(file.path) : file.name;
      form.append(opts.fileField ?? 'file', new Blob([bytes]), name);
      return req('POST', '/documents/content', { ...opts, body: form });
    },
  };
}
export type Client = ReturnType<typeof client>;

/** Asserts an RFC 9457 Problem response with this status. */
export function assertProblem(res: Res, status: number, detailPattern?: RegExp) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.json.status, status);
  assert.equal(typeof res.json.title, 'string');
  assert.equal(typeof res.json.type, 'string');
  assert.equal(typeof res.json.detail, 'string');
  assert.equal(typeof res.json.instance, 'string');
  if (detailPattern) assert.match(res.json.detail, detailPattern);
}

export function assertJson(res: Res, status = 200) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
}

/** Follows `next` from a first list URL and returns every item of `field`, with the URLs fetched. */
export async function collectPages(c: Client, first: string, field: string, mutateNext?: (next: string) => string) {
  const items: { id: string }[] = [];
  const urls: string[] = [];
  let url: string | null = first;
  for (let guard = 0; url && guard < 1000; guard++) {
    urls.push(url);
    const res = await c.get(url);
    assertJson(res);
    assert.ok(Array.isArray(res.json[field]), `${field} array missing`);
    items.push(...res.json[field]);
    const next: string | null = res.json.next ?? null;
    assert.notEqual(next, '');
    url = next && mutateNext ? mutateNext(next) : next;
  }
  return { items, urls };
}

/** Polls `fn` until `done` holds for what it returns (every `everyMs`), or fails after `timeoutMs`. */
async function poll<T>(what: string, fn: () => Promise<T | undefined | false>, done: (v: T | undefined | false) => boolean, timeoutMs: number, everyMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (done(v)) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls `fn` until it returns something other than undefined (every `everyMs`), or fails after `timeoutMs`. */
export function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 180_000, everyMs = 200): Promise<T> {
  return poll(what, fn, (v) => v !== undefined, timeoutMs, everyMs);
}

/** As `until`, stopping on a truthy answer only (false, 0 and '' go on polling). */
export function untilTruthy<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  return poll(what, fn, (v) => Boolean(v), timeoutMs, everyMs);
}

/**
 * A multipart upload written by hand, to control its length: a declared Content-Length (or a chunked
 * body), `sendBytes` of file content from one reused 1 MiB buffer (never held in memory whole), and
 * optionally an abort after `abortAfter` bytes. Resolves with status 0 when no answer came.
 */
export function rawMultipartUpload(
  url: string,
  key: string,
  opts: { declaredLength?: number; sendBytes: number; abortAfter?: number; fileName?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const boundary = '----quire-test-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.fileName ?? 'big.txt'}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` };
    if (opts.declaredLength) headers['content-length'] = String(opts.declaredLength);
    const req = http.request(url, { method: 'POST', headers });
    let settled = false;
    const finish = (status: number, body: string) => {
      if (!settled) {
        settled = true;
        resolve({ status, body });
      }
    };
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        finish(res.statusCode ?? 0, body);
        req.destroy();
      });
    });
    req.on('error', () => finish(0, ''));
    req.on('close', () => setTimeout(() => finish(0, ''), 100));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    req.write(head);
    const pump = () => {
      while (sent < opts.sendBytes && !settled) {
        if (opts.abortAfter !== undefined && sent >= opts.abortAfter) {
          req.destroy();
          return;
        }
        const n = Math.min(chunk.length, opts.sendBytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!settled && sent >= opts.sendBytes) req.end(tail);
    };
    pump();
  });
}

/** One part of a hand-written form: a text field (optionally typed) or, with `filename`, a file. */
export interface FormPart {
  name: string;
  value: string | Buffer;
  /** The part's own Content-Type (`application/json` as curl's `;type=application/json` sends it). */
  type?: string;
  filename?: string;
}

/**
 * A multipart/form-data body written part by part, for what FormData cannot say: a text part with its
 * own Content-Type (FormData sends any typed value as a file). Returns the body and its Content-Type.
 */
export function multipartBody(parts: FormPart[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----quire-form-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
