import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type, { type TSchema } from 'typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { DEFAULT_LIMIT } from '../pagination.js';
import { MAX_LIMIT } from '../../api/common.js';
import { invalid } from '../../domain/errors.js';
import type { Scope } from '../../model/scopes.js';
import { WHOLE_KEY_SPACE, partitionedPage, type PartitionFetch } from '../../domain/listings.js';
import { PartitionTokens, rangeJson } from './tokens.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** What an operation's handler reaches. */
export interface OpContext {
  deps: HttpDeps;
  workspaceId: string;
  /** `{QUIRE_PUBLIC_URL}/v1preview1`: resource URLs in responses are the REST ones. */
  base: string;
  request: FastifyRequest;
  reply: FastifyReply;
  tokens: PartitionTokens;
}

/**
 * One operation of `POST /ops/{id}`: its body schema (TypeBox; every field with a `title` and a
 * `description`, they become the connector's labels), the scope of the REST route it mirrors, the
 * handler, and the schema of its 200 response.
 */
export interface Operation {
  id: string;
  summary: string;
  description: string;
  /** Groups operations in the connector definition (`tags`). */
  tag: string;
  scope: Scope;
  body: TSchema;
  response: TSchema;
  /** Problem statuses besides 401/403 (always possible). */
  errors: number[];
  /**
   * The body as validated JSON; or, with `streamedBody`, the raw request stream (the handler reads
   * and validates it itself; see upload.ts).
   */
  handler: (ctx: OpContext, body: any) => Promise<unknown>;
  /** Hand the handler the request stream (large base64 content) instead of parsing the body. */
  streamedBody?: boolean;
}

export function defineOperation<B>(o: Omit<Operation, 'handler'> & { handler: (ctx: OpContext, body: B) => Promise<unknown> }): Operation {
  return o as Operation;
}

/** A field of an operation body: `title` is the connector's label (x-ms-summary), `description` its help. */
export function field<T extends TSchema>(schema: T, title: string, description: string): T {
  return { ...schema, title, description } as T;
}

export const LimitField = field(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }), 'Limit', `Items per page, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`);
export const CursorField = field(
  Type.String({ minLength: 1, maxLength: 8192 }),
  'Continuation Token',
  'A `token` from the `next` array of an earlier call with the same body; leave empty for the first page.',
);

export const NextSchema = field(
  Type.Array(
    Type.Object({
      token: field(Type.String(), 'Continuation Token', 'Pass it back as `cursor` (with the same body) to read the next page of this range.'),
      range: field(
        Type.Object({
          min: field(Type.String({ pattern: '^[0-9a-f]{4}$' }), 'Range Start', 'First partition key of the range, 4 hex digits.'),
          max: field(Type.String({ pattern: '^[0-9a-f]{4}$' }), 'Range End', 'Last partition key of the range (inclusive), 4 hex digits.'),
        }),
        'Key Range',
        'The slice of the hashed key space this token continues.',
      ),
    }),
  ),
  'Continuations',
  'One entry per key range still holding unread items; follow them one after another or in parallel. Empty when the listing is complete.',
);

/**
 * A partitioned list operation: body fields are the filters plus `limit` and `cursor`; the response
 * is `{[itemsKey]: [...], next: [{token, range}]}`. `filter` turns a validated body into the
 * normalized filter the tokens carry; `source` checks what must exist (404) and returns the page
 * reader over a repository's `listPartitioned`.
 */
export function listOperation<B, F, T>(o: {
  id: string;
  summary: string;
  description: string;
  tag: string;
  scope: Scope;
  /** The filter fields (and any required ones, such as the id of the parent). */
  fields: Record<string, TSchema>;
  required?: string[];
  itemsKey: string;
  item: TSchema;
  errors?: number[];
  filter: (body: B) => F;
  /**
   * Optional: fixes on the first page what must not move while the listing is followed (for example
   * `version: "latest"` resolved to a number); the tokens carry the result, later pages read with it.
   */
  pin?: (ctx: OpContext, filter: F) => Promise<F>;
  source: (ctx: OpContext, filter: F) => PartitionFetch<T> | Promise<PartitionFetch<T>>;
  toJson: (item: T, base: string) => unknown;
}): Operation {
  const body = Type.Object(
    { ...Object.fromEntries(Object.entries(o.fields).map(([k, s]) => [k, o.required?.includes(k) ? s : Type.Optional(s)])), limit: Type.Optional(LimitField), cursor: Type.Optional(CursorField) },
    { additionalProperties: false },
  );
  return {
    id: o.id,
    summary: o.summary,
    description: `${o.description}\n\nPartitioned continuation: follow every token of \`next\` (sequentially or in parallel) to read every item exactly once.`,
    tag: o.tag,
    scope: o.scope,
    body,
    response: Type.Object({
      [o.itemsKey]: field(Type.Array(o.item), o.itemsKey.replace(/^./, (c) => c.toUpperCase()), `The ${o.itemsKey} of this page (up to \`limit\`).`),
      next: NextSchema,
    }),
    errors: [...new Set([400, 404, ...(o.errors ?? [])])],
    handler: async (ctx, b: B & { limit?: number; cursor?: string }) => {
      const filter = o.filter(b);
      let read = filter;
      let range = WHOLE_KEY_SPACE;
      let after: { pkey: number; id: string } | undefined;
      let limit = b.limit ?? DEFAULT_LIMIT;
      if (b.cursor !== undefined) {
        const state = ctx.tokens.decode<F>(b.cursor, o.id, ctx.workspaceId);
        if (canonical(state.bound) !== canonical(filter)) {
          throw invalid('body field "cursor": the token belongs to a listing with other filters; send the same body as the call that returned it.');
        }
        ({ range, after } = state);
        read = state.filter;
        limit = b.limit ?? state.limit;
      } else if (o.pin) {
        read = await o.pin(ctx, filter);
      }
      const page = await partitionedPage(await o.source(ctx, read), { range, after, limit });
      return {
        [o.itemsKey]: page.items.map((i) => o.toJson(i, ctx.base)),
        next: page.next.map((c) => ({ token: ctx.tokens.encode(o.id, ctx.workspaceId, { bound: filter, read }, c, limit), range: rangeJson(c.range) })),
      };
    },
  };
}

/** JSON with sorted keys and no undefined members, for comparing filters. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** A stream of `"…base64…"`: a JSON string of the bytes of `source`, encoded as they come. */
export function base64JsonString(source: Readable): Readable {
  return Readable.from(
    (async function* () {
      yield '"';
      let carry = Buffer.alloc(0);
      for await (const chunk of source) {
        const all = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
        const whole = all.length - (all.length % 3);
        if (whole) yield all.subarray(0, whole).toString('base64');
        carry = Buffer.from(all.subarray(whole));
      }
      if (carry.length) yield carry.toString('base64');
      yield '"';
    })(),
    { objectMode: false },
  );
}

// Bodies are taken as sent (no coercion): a number where a string belongs is an error.
const ajv = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
addFormats(ajv);
const compiled = new WeakMap<TSchema, ValidateFunction>();

/**
 * Validates an operation body and names the offending field in the 400. Members that are null count
 * as absent (workflow tools send null for fields left empty).
 */
export function validateBody(op: Operation, raw: unknown): Record<string, unknown> {
  if (raw === undefined) raw = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(`The body of ${op.id} must be a JSON object.`);
  const body = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null));
  let validate = compiled.get(op.body);
  if (!validate) {
    validate = ajv.compile(op.body);
    compiled.set(op.body, validate);
  }
  if (!validate(body)) throw invalid(describeError(op, validate.errors![0]!));
  return body;
}

function describeError(op: Operation, e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const named = (f: string) => `body field "${f}"`;
  if (e.keyword === 'required') {
    const f = [path, String(e.params.missingProperty)].filter(Boolean).join('.');
    return `${named(f)} is required.`;
  }
  if (e.keyword === 'additionalProperties') {
    const f = [path, String(e.params.additionalProperty)].filter(Boolean).join('.');
    const known = Object.keys((op.body as { properties?: object }).properties ?? {});
    return path ? `${named(f)} is not allowed.` : `${named(f)} is not a field of ${op.id} (fields: ${known.join(', ')}).`;
  }
  if (e.keyword === 'enum') return `${named(path)} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
  return `${path ? named(path) : 'the body'} ${e.message ?? 'is invalid'}.`;
}

/** Sends what a handler returned: JSON, or a stream that already is JSON. */
export function sendResult(reply: FastifyReply, result: unknown) {
  if (result instanceof Readable) return reply.type('application/json; charset=utf-8').send(result);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
}

export function contextOf(deps: HttpDeps, tokens: PartitionTokens, request: FastifyRequest, reply: FastifyReply): OpContext {
  return { deps, workspaceId: principalOf(request).workspace.id, base: deps.config.apiBase, request, reply, tokens };
}

