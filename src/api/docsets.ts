import Type, { type Static } from 'typebox';
import type { DocsetFilter, DocsetRecord } from '../model/records.js';
import { Cursor, Limit, Next, NonNegative, Timestamp } from './common.js';

export const DocsetSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    documentCount: Type.Integer(),
    isSample: Type.Boolean(),
    url: Type.String({ format: 'uri' }),
    documentsUrl: Type.String({ format: 'uri' }),
  },
  { $id: 'Docset' },
);
export type DocsetJson = Static<typeof DocsetSchema>;

export const DocsetListSchema = Type.Object({ docsets: Type.Array(Type.Ref('Docset')), next: Next });

export const CreateDocsetBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    documents: Type.Optional(
      Type.Array(Type.Union([Type.String(), Type.Object({ id: Type.String() })]), {
        maxItems: 1000,
        description: 'Documents (ids or {id}) that move into the new docset.',
      }),
    ),
  },
  { additionalProperties: true },
);
export type CreateDocsetBody = Static<typeof CreateDocsetBody>;

export const RenameDocsetBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });
export type RenameDocsetBody = Static<typeof RenameDocsetBody>;

export const ListDocsetsQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    minDocuments: Type.Optional(NonNegative),
    maxDocuments: Type.Optional(NonNegative),
    samples: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
export type ListDocsetsQuery = Static<typeof ListDocsetsQuery>;

export function docsetFilterFromQuery(q: ListDocsetsQuery): DocsetFilter {
  const f: DocsetFilter = {};
  if (q.name !== undefined) f.name = q.name;
  if (q.minDocuments !== undefined) f.minDocuments = q.minDocuments;
  if (q.maxDocuments !== undefined) f.maxDocuments = q.maxDocuments;
  if (q.samples) f.samples = true;
  return f;
}

export function docsetFilterToQuery(f: DocsetFilter): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.name !== undefined) q.name = f.name;
  if (f.minDocuments !== undefined) q.minDocuments = String(f.minDocuments);
  if (f.maxDocuments !== undefined) q.maxDocuments = String(f.maxDocuments);
  if (f.samples) q.samples = 'true';
  return q;
}

export function toDocsetJson(d: DocsetRecord, base: string): DocsetJson {
  const url = `${base}/docsets/${d.id}`;
  return {
    id: d.id,
    name: d.name,
    createdAt: new Date(d.createdAt).toISOString(),
    updatedAt: new Date(d.updatedAt).toISOString(),
    documentCount: d.documentCount,
    isSample: d.isSample,
    url,
    documentsUrl: `${url}/documents`,
  };
}
