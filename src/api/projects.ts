import Type, { type Static } from 'typebox';
import type { ArtifactFilter, ArtifactRecord, ProjectFilter, ProjectRecord } from '../model/records.js';
import { PROJECT_TYPES } from '../model/projects.js';
import { Cursor, Id, Limit, Next, NonNegative, Timestamp } from './common.js';

const Ref = Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) });
const ProjectType = Type.Union(PROJECT_TYPES.map((t) => Type.Literal(t)), { description: 'What the project publishes (see the Projects section of the README)' });

export const ProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: ProjectType,
    docset: Ref,
    artifacts: Type.Object(
      {
        url: Type.String({ format: 'uri', description: 'The artifacts of the latest version (`…/artifacts/latest`); append `?name=…`' }),
        version: Type.String({
          description: 'The latest version: "0" from the moment the project exists (it holds what is uploaded into it), then "1", "2", … as versions are published',
        }),
      },
    ),
    items: Type.Array(Type.Object({ label: Type.String(), property: Ref }), { description: 'The docset properties the project reports, in order (extension)' }),
    autoConfirmDocuments: Type.Boolean({ description: 'Documents joining the docset are included in the next version at once; when false they wait for `POST /projects/{id}/publish`' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    url: Type.String({ format: 'uri' }),
  },
  { $id: 'Project' },
);

export const ProjectListSchema = Type.Object({ projects: Type.Array(Type.Ref('Project')), next: Next });

const Item = Type.Union([Type.Object({ label: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: true }), Type.String({ minLength: 1, maxLength: 1000 })]);
const Items = Type.Array(Item, { maxItems: 100, description: 'Properties to report, by label; missing ones are created on the docset' });

export const CreateProjectBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    type: ProjectType,
    'docset.id': Type.Optional(Id),
    docset: Type.Optional(Type.Object({ id: Id }, { additionalProperties: true })),
    items: Type.Optional(Items),
    autoConfirmDocuments: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: true },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const PutProjectBody = Type.Object({ autoConfirmDocuments: Type.Boolean() }, { additionalProperties: true });
export const PatchProjectBody = Type.Object(
  { autoConfirmDocuments: Type.Optional(Type.Boolean()), name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), items: Type.Optional(Items) },
  { additionalProperties: true },
);

export const ListProjectsQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    type: Type.Optional(ProjectType),
    'docset.id': Type.Optional(Id),
    'docset[id]': Type.Optional(Id),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: true },
);
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;

export function projectFilterFromQuery(q: ListProjectsQuery): ProjectFilter {
  const f: ProjectFilter = {};
  if (q.name !== undefined) f.name = q.name;
  if (q.type !== undefined) f.type = q.type;
  const docsetId = q['docset.id'] ?? q['docset[id]'];
  if (docsetId !== undefined) f.docsetId = docsetId;
  return f;
}

export function projectFilterToQuery(f: ProjectFilter): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.name !== undefined) q.name = f.name;
  if (f.type !== undefined) q.type = f.type;
  if (f.docsetId !== undefined) q['docset.id'] = f.docsetId;
  return q;
}

export function toProjectJson(p: ProjectRecord, base: string) {
  const url = `${base}/projects/${p.id}`;
  const docsetUrl = `${base}/docsets/${p.docsetId}`;
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    docset: { id: p.docsetId, url: docsetUrl },
    artifacts: { url: `${url}/artifacts/latest`, version: String(p.latestVersion) },
    items: p.items.map((i) => ({ label: i.label, property: { id: i.propertyId, url: `${docsetUrl}/properties/${i.propertyId}` } })),
    autoConfirmDocuments: p.autoConfirmDocuments,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
    url,
  };
}

// ---- artifacts ----

export const ArtifactSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.String(),
    size: Type.Integer(),
    contentType: Type.String({ description: 'From the extension (extension)' }),
    isReadOnly: Type.Boolean({ description: 'Generated artifacts are read-only; uploaded ones are not' }),
    document: Type.Union([Ref, Type.Null()], { description: 'The document the artifact is about, or null for docset-wide artifacts' }),
    project: Ref,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    url: Type.String({ format: 'uri', description: '`{base}/projects/{p}/artifacts/{version}/{id}`; append `/content` for the bytes' }),
    downloadUrl: Type.String({ format: 'uri' }),
  },
  { $id: 'Artifact' },
);

export const ArtifactListSchema = Type.Object({ artifacts: Type.Array(Type.Ref('Artifact')), next: Next });

export const VersionParams = Type.Object({
  projectId: Id,
  version: Type.String({ minLength: 1, maxLength: 20, description: 'A version ("0" before the first is published, then "1", "2", …) or `latest`: the newest' }),
});
export const ProjectParams = Type.Object({ projectId: Id });
export const ArtifactParams = Type.Object({ projectId: Id, version: VersionParams.properties.version, artifactId: Id });

const artifactFilterProps = {
  name: Type.Optional(Type.String({ maxLength: 255 })),
  'document.id': Type.Optional(Id),
  'document[id]': Type.Optional(Id),
  minSize: Type.Optional(NonNegative),
  maxSize: Type.Optional(NonNegative),
  isReadOnly: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
};
export const ListArtifactsQuery = Type.Object(artifactFilterProps, { additionalProperties: true });
export type ListArtifactsQuery = Static<typeof ListArtifactsQuery>;
export const ListArtifactsWithVersionQuery = Type.Object(
  { ...artifactFilterProps, version: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Default `latest`' })) },
  { additionalProperties: true },
);

export function artifactFilterFromQuery(q: ListArtifactsQuery): ArtifactFilter {
  const f: ArtifactFilter = {};
  if (q.name !== undefined) f.name = q.name;
  const documentId = q['document.id'] ?? q['document[id]'];
  if (documentId !== undefined) f.documentId = documentId;
  if (q.minSize !== undefined) f.minSize = q.minSize;
  if (q.maxSize !== undefined) f.maxSize = q.maxSize;
  if (q.isReadOnly !== undefined) f.isReadOnly = q.isReadOnly;
  return f;
}

export function artifactFilterToQuery(f: ArtifactFilter): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.name !== undefined) q.name = f.name;
  if (f.documentId !== undefined) q['document.id'] = f.documentId;
  if (f.minSize !== undefined) q.minSize = String(f.minSize);
  if (f.maxSize !== undefined) q.maxSize = String(f.maxSize);
  if (f.isReadOnly !== undefined) q.isReadOnly = String(f.isReadOnly);
  return q;
}

export function toArtifactJson(a: ArtifactRecord, base: string) {
  const url = `${base}/projects/${a.projectId}/artifacts/${a.version}/${a.id}`;
  return {
    id: a.id,
    name: a.name,
    version: String(a.version),
    size: a.size,
    contentType: a.contentType,
    isReadOnly: a.isReadOnly,
    document: a.documentId ? { id: a.documentId, url: `${base}/documents/${a.documentId}` } : null,
    project: { id: a.projectId, url: `${base}/projects/${a.projectId}` },
    createdAt: new Date(a.createdAt).toISOString(),
    updatedAt: new Date(a.updatedAt).toISOString(),
    url,
    downloadUrl: `${url}/content`,
  };
}
