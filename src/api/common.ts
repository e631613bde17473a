import Type from 'typebox';
import type { Scope } from '../model/scopes.js';
import { ID_MAX_LENGTH, ID_PATTERN } from '../model/ids.js';

/** The most items one page of a list holds (`limit`). */
export const MAX_LIMIT = 100;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details' },
);

export const Id = Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH, pattern: ID_PATTERN });
export const IdParams = Type.Object({ id: Id });
export const Timestamp = Type.String({ format: 'date-time' });

export const Limit = Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Items per page, 1..${MAX_LIMIT}; default 30.` });
export const Cursor = Type.String({ minLength: 1, maxLength: 8192, description: 'Opaque continuation token from `next`.' });
export const NonNegative = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** Page counts are 32-bit integers in the database. */
export const PageCount = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
export const Next = Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
  description: 'Absolute URL of the next page (cursor and filters included), or null on the last page.',
});

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid parameters or body',
  401: 'Missing or invalid API key',
  403: 'The key lacks the scope this operation needs',
  404: 'Unknown id in this workspace',
  409: 'Conflict with the current state (x-should-retry: false)',
  413: 'File larger than 300 MB',
  415: 'Unsupported file type or request content type',
  416: 'Range not satisfiable',
  422: 'Well-formed but invalid',
  429: 'A limit of the workspace or the key is reached; retry after `retry-after` seconds',
  503: 'Busy for now: retry after `retry-after` seconds',
};

/**
 * OpenAPI facts of one operation: its operationId (what client generators name the method:
 * `listDocuments`), summary, tag, the scope it needs and the Problem responses it can give.
 * `scope: null` marks a route open without a key.
 */
export function op(o: { id: string; summary: string; tag: string; scope: Scope | 'any' | null; errors?: number[]; description?: string }) {
  const auth = o.scope === null ? [] : [401, ...(o.scope === 'any' ? [] : [403])];
  const codes = [...new Set([...auth, ...(o.errors ?? [])])].sort();
  const scopeText =
    o.scope === null ? 'No API key needed.' : o.scope === 'any' ? 'Any valid API key.' : `Scope: \`${o.scope}\` (or \`admin\`).`;
  const response: Record<number, unknown> = {};
  for (const code of codes) {
    response[code] = {
      description: STATUS_TEXT[code] ?? 'Error',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: Type.Ref('Problem') } },
    };
  }
  return {
    /** Route config read by the auth hook: the one place a route's scope is stated. */
    config: (o.scope === null ? {} : { scope: o.scope }) as { scope?: Scope | 'any' },
    schema: {
      operationId: o.id,
      summary: o.summary,
      tags: [o.tag],
      description: [o.description, scopeText].filter(Boolean).join('\n\n'),
      security: o.scope === null ? [] : [{ bearerAuth: [] }],
      'x-scope': o.scope,
    },
    problemResponses: response,
  };
}
