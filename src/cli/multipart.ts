import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { ApiError, CliFailure } from './errors.js';
import type { Client } from './http.js';

export interface FilePart {
  path: string;
  name: string;
  /** Byte range of the file to send: [start, end). */
  start: number;
  end: number;
}

/** RFC 7578 quoting of a part's name and file name. */
const quote = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * POSTs multipart/form-data (text fields first, then the part `file` read from disk in a byte
 * range) with node:http, so that progress counts bytes actually written to the socket, the body
 * is never in memory, and Content-Length is exact. Resolves with the JSON answer; a non-2xx is an
 * ApiError, a connection failure a CliFailure (`retryable`).
 */
export function postMultipart(
  client: Client,
  path: string,
  fields: Record<string, string | undefined>,
  file: FilePart,
  onProgress?: (sent: number) => void,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; json: any }> {
  const boundary = `----quire${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const headBuf = Buffer.from(head, 'utf8');
  const tailBuf = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const size = file.end - file.start;
  const url = new URL(client.url(path));
  const lib = url.protocol === 'https:' ? https : http;
  let stream: fs.ReadStream | null = null;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${client.conn.key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(headBuf.length + size + tailBuf.length),
      },
    });
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    req.on('error', (err) => fail(Object.assign(new CliFailure(`cannot reach ${client.conn.url}: ${(err as { code?: string }).code ?? err.message}`), { retryable: true })));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => fail(Object.assign(new CliFailure(`connection lost: ${err.message}`), { retryable: true })));
      res.on('end', () => {
        if (settled) return;
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | undefined;
        try {
          json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
        } catch {
          // not JSON
        }
        const status = res.statusCode ?? 0;
        settled = true;
        // A refusal can come before the body is sent: stop reading the file.
        if (status >= 300 && stream && !stream.readableEnded) {
          stream.destroy();
          req.destroy();
        }
        if (status >= 200 && status < 300) return resolve({ status, json });
        const title = typeof json?.title === 'string' ? json.title : (res.statusMessage ?? 'Error');
        const detail = typeof json?.detail === 'string' ? json.detail : '';
        const err = new ApiError(status, title, detail === title ? '' : detail, json);
        reject(Object.assign(err, { retryable: status === 429 || status >= 502 }));
      });
    });
    req.write(headBuf);
    let sent = 0;
    stream = size > 0 ? fs.createReadStream(file.path, { start: file.start, end: file.end - 1, highWaterMark: 64 * 1024 }) : null;
    if (!stream) {
      req.end(tailBuf);
      return;
    }
    const file$ = stream;
    file$.on('error', (err) => {
      req.destroy();
      fail(new CliFailure(`cannot read ${file.path}: ${err.message}`));
    });
    file$.on('data', (chunk) => {
      sent += chunk.length;
      if (!req.write(chunk)) file$.pause();
      onProgress?.(sent);
    });
    req.on('drain', () => file$.resume());
    file$.on('end', () => req.end(tailBuf));
  });
}
