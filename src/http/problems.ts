import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../domain/errors.js';
import { ConstraintViolationError } from '../store/db/constraints.js';
import { INVALID_JSON_FIELD } from './form-limits.js';
import { PROBLEM_CONTENT_TYPE } from '../api/common.js';

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'range-not-satisfiable': 416,
  'unsupported-type': 415,
  unprocessable: 422,
  'too-many': 429,
  unavailable: 503,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  411: 'Length Required',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  [extra: string]: unknown;
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z]+/g, '-');

export function problem(status: number, detail: string, instance: string, extra: Record<string, unknown> = {}): Problem {
  const title = TITLES[status] ?? 'Error';
  return { type: `urn:quire:problem:${slug(title)}`, title, status, detail, instance, ...extra };
}

export function sendProblem(reply: FastifyReply, status: number, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = problem(status, detail, reply.request.url.split('?')[0] ?? '/', extra);
  // The SDK retries 409: say whether that helps. With retry-after the state will pass (pages being
  // made); without it a repeat would meet the same conflict.
  if (status === 409) reply.header('x-should-retry', headers['retry-after'] ? 'true' : 'false');
  // It retries 5xx too: after this request committed a change, a repeat would make it twice (a second
  // upload, a second create). Before any change (a database outage at the first query) it may.
  else if (status >= 500 && reply.request.changes?.committed) reply.header('x-should-retry', 'false');
  return reply.code(status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/** Maps every error a handler can raise to a Problem response; only true faults become 5xx. */
export function errorHandler(error: FastifyError | DomainError | Error, request: FastifyRequest, reply: FastifyReply) {
  // A transaction refused for a race (a unique or foreign-key violation): the Problem it stands for.
  if (error instanceof ConstraintViolationError) error = new DomainError(error.kind, error.message, {}, error.headers);
  if (error instanceof DomainError) {
    const status = STATUS_OF[error.kind];
    const headers: Record<string, string> = { ...error.headers };
    if (status === 401) headers['www-authenticate'] = 'Bearer';
    return sendProblem(reply, status, error.message, error.extra, headers);
  }
  const fe = error as FastifyError & { validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[]; validationContext?: string };
  if (fe.validation) {
    const where = fe.validationContext === 'querystring' ? 'query' : fe.validationContext ?? 'request';
    const details = fe.validation.map((v) => {
      const field = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : String(v.params?.missingProperty ?? '');
      return `${where}${field ? ` parameter "${field}"` : ''} ${v.message ?? 'is invalid'}`;
    });
    return sendProblem(reply, 400, details.join('; '));
  }
  if (fe.code === 'FST_INVALID_JSON_FIELD_ERROR') return sendProblem(reply, 400, INVALID_JSON_FIELD);
  // The multipart parser (busboy) throws plain errors for a malformed form: the client's fault.
  if (/[\\/]@fastify[\\/]busboy[\\/]/.test(error.stack ?? '')) return sendProblem(reply, 400, `The multipart/form-data body is malformed: ${error.message}`);
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendProblem(reply, 413, 'JSON bodies are limited to 1 MB.');
    if (fe.code === 'FST_REQ_FILE_TOO_LARGE' || status === 413) return sendProblem(reply, 413, 'The request body is larger than allowed (files up to 300 MB).');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendProblem(reply, 415, `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here.`);
    return sendProblem(reply, status, fe.message);
  }
  const outage = unavailability(error);
  if (outage) {
    request.log.warn({ err: error }, `request failed: ${outage.detail}`);
    return sendProblem(reply, outage.status, outage.detail, {}, outage.retryAfter ? { 'retry-after': String(outage.retryAfter) } : {});
  }
  request.log.error({ err: error }, 'request failed');
  return sendProblem(reply, 500, 'An unexpected error occurred; it has been logged.');
}

/** Node's errno codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres reports a lost or refused connection with these messages and no code. */
const PG_CONNECTION_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/**
 * A fault of the infrastructure rather than of the request or the code: the database unreachable
 * (refused, restarting, shutting down, out of connections) or the blob storage full or unwritable.
 * Such a request can succeed later, so it answers 503 with `retry-after` (507 when storage is full),
 * never 500. Wrapped errors are followed through `cause` and AggregateError's `errors`.
 */
export function unavailability(error: unknown): { status: 503 | 507; detail: string; retryAfter?: number } | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift() as (Error & { code?: unknown; cause?: unknown; errors?: unknown[] }) | null | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const code = typeof e.code === 'string' ? e.code : '';
    // Storage (local files; SQLite reports its own disk full as SQLITE_FULL).
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' || code === 'SQLITE_FULL') {
      return { status: 507, detail: 'The storage is full: the upload was not kept. Retry once space has been freed.', retryAfter: 60 };
    }
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') {
      return { status: 503, detail: 'The storage cannot be written at the moment: nothing was kept. Retry later.', retryAfter: 30 };
    }
    // The database: connection errors, and PostgreSQL's SQLSTATE classes 08 (connection exception),
    // 57P01-57P03 (admin/crash shutdown, cannot connect now), 53300 (too many connections).
    if (
      CONNECTION_CODES.has(code) ||
      /^08[0-9A-Z]{3}$/.test(code) ||
      code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' ||
      code.startsWith('SQLITE_BUSY') ||
      (typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message))
    ) {
      return { status: 503, detail: 'The database is not reachable at the moment. Retry shortly.', retryAfter: 5 };
    }
    if (e.cause) queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...e.errors);
  }
  return null;
}

/** Fastify's `frameworkErrors`: URLs the router refuses (bad percent-encoding, overlong parameters). */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') return sendProblem(reply, 400, 'The URL path is not valid: it has malformed percent-encoding.');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(reply, 414, 'A path segment of the URL is too long.');
  reply.log.error({ err: error }, 'request failed');
  return sendProblem(reply, 500, 'An unexpected error occurred; it has been logged.');
}

/**
 * Fastify's `clientErrorHandler`: requests Node cannot parse (headers or URL over the size limit,
 * malformed HTTP, timeouts) get a Problem too, written on the socket before it closes.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431 ? 'The request line and headers are larger than allowed (16 KB).' : status === 408 ? 'The request took too long to arrive.' : 'The request is not valid HTTP.';
  const body = JSON.stringify(problem(status, detail, '/'));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
