import Type, { type Static } from 'typebox';
import { findSampleSet, type SampleSet } from '../samples/index.js';
import { SAMPLE_STATUSES } from '../model/lifecycle.js';
import type { CatalogFilter } from '../domain/samples.js';
import type { SampleFilter, SampleRecord } from '../model/records.js';
import { Cursor, Id, Limit, Next, Timestamp } from './common.js';

export const SampleStatusSchema = Type.Union([Type.Literal('InProgress'), Type.Literal('Ready'), Type.Literal('Error')], {
  description: '`InProgress` while its documents are processed, then `Ready`, or `Error` when any of them failed.',
});
// Fails to compile when the domain gains a status this schema lacks.
void (SAMPLE_STATUSES satisfies readonly Static<typeof SampleStatusSchema>[]);

const SuggestedProperties = Type.Array(Type.Object({ label: Type.String() }), {
  description: 'Properties worth extracting from these documents.',
});

export const SampleCatalogEntrySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    version: Type.String({ description: 'The version of the generated documents ("1", "2", …): a new one when they change' }),
    documentCount: Type.Integer(),
    suggestedProperties: SuggestedProperties,
    createdAt: { ...Timestamp, description: 'When the entry was first shipped' },
    updatedAt: { ...Timestamp, description: 'When its documents last changed (its current version)' },
    url: Type.String({ format: 'uri' }),
  },
  { $id: 'SampleCatalogEntry' },
);
export type SampleCatalogEntryJson = Static<typeof SampleCatalogEntrySchema>;

export const SampleSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String({ description: "The catalogue entry's description" }),
    version: Type.String({ description: 'The version of the catalogue entry it was made from' }),
    status: SampleStatusSchema,
    catalog: Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) }),
    docset: Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) }),
    documentCount: Type.Integer(),
    suggestedProperties: SuggestedProperties,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    url: Type.String({ format: 'uri' }),
  },
  { $id: 'Sample' },
);
export type SampleJson = Static<typeof SampleSchema>;

export const SampleCatalogListSchema = Type.Object({ samples: Type.Array(Type.Ref('SampleCatalogEntry')), next: Next });
export const SampleListSchema = Type.Object({ samples: Type.Array(Type.Ref('Sample')), next: Next });

export const ListSampleCatalogQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    name: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: true },
);
export type ListSampleCatalogQuery = Static<typeof ListSampleCatalogQuery>;

export const ListSamplesQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    status: Type.Optional(SampleStatusSchema),
  },
  { additionalProperties: true },
);
export type ListSamplesQuery = Static<typeof ListSamplesQuery>;

export const CreateSampleBody = Type.Object({ id: { ...Id, description: 'The id of a sample catalog entry.' } }, { additionalProperties: true });
export type CreateSampleBody = Static<typeof CreateSampleBody>;

export function catalogFilterFromQuery(q: ListSampleCatalogQuery): CatalogFilter {
  return q.name === undefined ? {} : { name: q.name };
}

export function catalogFilterToQuery(f: CatalogFilter): Record<string, string> {
  return f.name === undefined ? {} : { name: f.name };
}

export function sampleFilterFromQuery(q: ListSamplesQuery): SampleFilter {
  const f: SampleFilter = {};
  if (q.name !== undefined) f.name = q.name;
  if (q.status !== undefined) f.status = q.status;
  return f;
}

export function sampleFilterToQuery(f: SampleFilter): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.name !== undefined) q.name = f.name;
  if (f.status !== undefined) q.status = f.status;
  return q;
}

function labels(properties: readonly string[]) {
  return properties.map((label) => ({ label }));
}

export function toCatalogEntryJson(set: SampleSet, documentCount: number, base: string): SampleCatalogEntryJson {
  return {
    id: set.id,
    name: set.name,
    description: set.description,
    version: set.version,
    documentCount,
    suggestedProperties: labels(set.suggestedProperties),
    createdAt: set.createdAt,
    updatedAt: set.updatedAt,
    url: `${base}/sample-catalog/${set.id}`,
  };
}

export function toSampleJson(s: SampleRecord, base: string): SampleJson {
  return {
    id: s.id,
    name: s.name,
    description: findSampleSet(s.catalogId)?.description ?? '',
    version: s.catalogVersion,
    status: s.status,
    catalog: { id: s.catalogId, url: `${base}/sample-catalog/${s.catalogId}` },
    docset: { id: s.docsetId, url: `${base}/docsets/${s.docsetId}` },
    documentCount: s.documentCount,
    suggestedProperties: labels(s.suggestedProperties),
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
    url: `${base}/samples/${s.id}`,
  };
}
