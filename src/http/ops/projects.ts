import Type from 'typebox';
import { Id, NonNegative } from '../../api/common.js';
import { toArtifactJson, toProjectJson } from '../../api/projects.js';
import type { ArtifactFilter, ArtifactRecord, ProjectFilter, ProjectRecord } from '../../model/records.js';
import { PROJECT_TYPES } from '../../model/projects.js';
import { base64JsonString, defineOperation, field, listOperation, type Operation } from './framework.js';

const ProjectIdField = field(Id, 'Project ID', 'The id of the project.');
const VersionField = field(Type.String({ minLength: 1, maxLength: 20 }), 'Version', 'A version ("0" before the first is published, then "1", "2", …) or `latest` (the default): the newest.');
const ProjectTypeField = field(Type.Union(PROJECT_TYPES.map((t) => Type.Literal(t))), 'Project Type', `Only projects of this type: ${PROJECT_TYPES.join(', ')}.`);

interface ListProjectsBody {
  name?: string;
  docsetId?: string;
  type?: string;
}

const listProjects = listOperation<ListProjectsBody, ProjectFilter, ProjectRecord>({
  id: 'ListProjects',
  summary: 'List projects',
  description: 'Lists the projects of the workspace that match every given filter (as `GET /v1preview1/projects`).',
  tag: 'Projects',
  scope: 'read:projects',
  fields: {
    name: field(Type.String({ maxLength: 255 }), 'Name', 'Only projects with exactly this name.'),
    docsetId: field(Id, 'Docset ID', 'Only projects over this docset.'),
    type: ProjectTypeField,
  },
  itemsKey: 'projects',
  item: Type.Ref('Project'),
  // As projectFilterFromQuery.
  filter: (b) => ({
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.type !== undefined ? { type: b.type } : {}),
    ...(b.docsetId !== undefined ? { docsetId: b.docsetId } : {}),
  }),
  source: (ctx, filter) => (req) => ctx.deps.projects.listPartitioned(ctx.workspaceId, filter, req),
  toJson: toProjectJson,
});

const getProject = defineOperation<{ id: string }>({
  id: 'GetProject',
  summary: 'Get a project',
  description: 'One project by id (as `GET /v1preview1/projects/{id}`); `artifacts.version` is its latest version (`"0"` until the first is published).',
  tag: 'Projects',
  scope: 'read:projects',
  body: Type.Object({ id: ProjectIdField }, { additionalProperties: false }),
  response: Type.Ref('Project'),
  errors: [400, 404],
  handler: async (ctx, body) => toProjectJson(await ctx.deps.projects.get(ctx.workspaceId, body.id), ctx.base),
});

interface ListArtifactsBody {
  projectId: string;
  version?: string;
  name?: string;
  documentId?: string;
  minSize?: number;
  maxSize?: number;
  isReadOnly?: boolean;
}
type ArtifactListFilter = ArtifactFilter & { projectId: string; version: string };

const listArtifacts = listOperation<ListArtifactsBody, ArtifactListFilter, ArtifactRecord>({
  id: 'ListArtifacts',
  summary: "List a project's artifacts",
  description:
    'Lists the files of one version of a project that match every given filter (as `GET /v1preview1/projects/{projectId}/artifacts/{version}`). `latest` on a project that has published nothing yet is its version `0`: what was uploaded into it, or an empty list; an unknown version is a 404.',
  tag: 'Artifacts',
  scope: 'read:projects',
  fields: {
    projectId: ProjectIdField,
    version: VersionField,
    name: field(Type.String({ maxLength: 255 }), 'Name', 'Only artifacts with exactly this file name (for example `report-values.xml`).'),
    documentId: field(Id, 'Document ID', 'Only artifacts about this document.'),
    minSize: field(NonNegative, 'Minimum Size', 'Only artifacts of at least this many bytes.'),
    maxSize: field(NonNegative, 'Maximum Size', 'Only artifacts of at most this many bytes.'),
    isReadOnly: field(Type.Boolean(), 'Read-only', 'true: only generated artifacts; false: only uploaded ones.'),
  },
  required: ['projectId'],
  itemsKey: 'artifacts',
  item: Type.Ref('Artifact'),
  filter: (b) => ({
    projectId: b.projectId,
    version: b.version ?? 'latest',
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.documentId !== undefined ? { documentId: b.documentId } : {}),
    ...(b.minSize !== undefined ? { minSize: b.minSize } : {}),
    ...(b.maxSize !== undefined ? { maxSize: b.maxSize } : {}),
    ...(b.isReadOnly !== undefined ? { isReadOnly: b.isReadOnly } : {}),
  }),
  // `latest` is fixed on the first page: a version published meanwhile does not mix into the listing.
  pin: async (ctx, f) => ({ ...f, version: String(await ctx.deps.artifacts.versionNumber(ctx.workspaceId, f.projectId, f.version)) }),
  source: (ctx, { projectId, version, ...filter }) => (req) => ctx.deps.artifacts.listPartitioned(ctx.workspaceId, projectId, version, filter, req),
  toJson: toArtifactJson,
});

interface DownloadBody {
  projectId: string;
  version?: string;
  artifactId: string;
}

const downloadArtifact = defineOperation<DownloadBody>({
  id: 'DownloadArtifact',
  summary: 'Download an artifact',
  description: 'The bytes of one artifact as a base64 JSON string (as `GET /v1preview1/projects/{projectId}/artifacts/{version}/{artifactId}/content`).',
  tag: 'Artifacts',
  scope: 'read:projects',
  body: Type.Object(
    { projectId: ProjectIdField, version: Type.Optional(VersionField), artifactId: field(Id, 'Artifact ID', 'The id of the artifact.') },
    { additionalProperties: false },
  ),
  response: field(Type.String({ format: 'byte' }), 'Content', 'The file content, base64-encoded.'),
  errors: [400, 404],
  handler: async (ctx, b) => base64JsonString((await ctx.deps.artifacts.open(ctx.workspaceId, b.projectId, b.version ?? 'latest', b.artifactId)).body),
});

export const projectOperations: Operation[] = [listProjects, getProject, listArtifacts, downloadArtifact];
