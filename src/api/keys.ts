import Type, { type Static } from 'typebox';
import type { ApiKeyRecord } from '../model/records.js';
import { SCOPES } from '../model/scopes.js';
import { Cursor, Limit, Next, Timestamp } from './common.js';

export const ScopeSchema = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
  { description: '`admin` grants every scope; a write scope does not grant the read scope.' },
);

export const ApiKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the secret, to tell keys apart.' }),
    scopes: Type.Array(ScopeSchema),
    createdAt: Timestamp,
    revokedAt: Type.Union([Timestamp, Type.Null()]),
    url: Type.String({ format: 'uri' }),
  },
  { $id: 'ApiKey' },
);

export const CreatedApiKeySchema = Type.Intersect([
  Type.Ref('ApiKey'),
  Type.Object({ secret: Type.String({ description: 'The key itself: shown in this answer only, never again.' }) }),
]);

export const ApiKeyListSchema = Type.Object({ keys: Type.Array(Type.Ref('ApiKey')), next: Next });

export const ListKeysQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    revoked: Type.Optional(Type.Boolean({ description: 'Include revoked keys (default false).' })),
  },
  { additionalProperties: true },
);

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length * 2 }),
  },
  { additionalProperties: false },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export function toApiKeyJson(k: ApiKeyRecord, base: string) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.keyPrefix,
    scopes: k.scopes,
    createdAt: new Date(k.createdAt).toISOString(),
    revokedAt: k.revokedAt === null ? null : new Date(k.revokedAt).toISOString(),
    url: `${base}/workspace/keys/${k.id}`,
  };
}
