import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A refused request body up to this size is read to its end before the answer; a larger one is cut off. */
export const DRAIN_LIMIT = 32 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 10_000;

/** Discards the rest of a request body; resolves at its end, when the connection goes, or after `timeoutMs`. */
function discardRest(raw: IncomingMessage, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      raw.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    raw.on('end', done).on('close', done).on('error', done);
    // A multipart parser that gave up may still be piped in, paused: take it out of the way.
    raw.unpipe();
    raw.resume();
  });
}

/**
 * onSend hook: an error answered while the client is still sending its body (a form refused at a
 * field, a key refused before an upload) would meet a client still writing, which then sees a
 * reset connection (EPIPE) instead of the Problem. A body declared at most DRAIN_LIMIT is read to
 * its end first; larger or unsized ones keep the route's `connection: close`.
 */
export function drainRefusedBody(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  const raw = request.raw;
  if (reply.statusCode < 400 || raw.complete || raw.destroyed) return done(null, payload);
  const declared = Number(request.headers['content-length']);
  if (!(Number.isFinite(declared) && declared <= DRAIN_LIMIT)) return done(null, payload);
  void discardRest(raw, DRAIN_TIMEOUT_MS).then(() => done(null, payload));
}
