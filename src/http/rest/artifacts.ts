import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { op } from '../../api/common.js';
import {
  ArtifactListSchema,
  ArtifactParams,
  ListArtifactsQuery,
  ListArtifactsWithVersionQuery,
  ProjectParams,
  VersionParams,
  artifactFilterFromQuery,
  artifactFilterToQuery,
  toArtifactJson,
} from '../../api/projects.js';
import type { ArtifactFilter } from '../../model/records.js';
import { ARTIFACT_UPLOAD_EXTENSIONS, type StagedArtifactUpload } from '../../domain/artifacts.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { tooLarge } from '../../domain/documents.js';
import { FORM_LIMITS, formLimitError, fieldText } from '../form-limits.js';
import { sendBytes } from './document-content.js';

/**
 * The filter a cursor carries: the artifact filter, the project and the version `latest` resolved to
 * (null in cursors made before every project had a version: their list was empty).
 */
type ArtifactCursorFilter = ArtifactFilter & { projectId: string; version: number | null };

const MULTIPART_OVERHEAD = 1024 * 1024;

export function artifactRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  async function listArtifacts(
    workspaceId: string,
    projectId: string,
    version: string,
    query: { cursor?: string; limit?: number } & Record<string, unknown>,
    path: string,
    withVersionQuery: boolean,
  ) {
    const { filter, page } = await (async () => {
      if (query.cursor) return deps.cursors.resolve<ArtifactCursorFilter>(query, 'artifacts', workspaceId, () => ({}) as never);
      const n = await deps.artifacts.versionNumber(workspaceId, projectId, version);
      return deps.cursors.resolve<ArtifactCursorFilter>(query, 'artifacts', workspaceId, () => ({ ...artifactFilterFromQuery(query), projectId, version: n }));
    })();
    if (filter.projectId !== projectId) throw invalid('The cursor belongs to another project.');
    const { projectId: _p, version: n, ...artifactFilter } = filter;
    const result = n === null ? { items: [], nextAfter: null } : await deps.artifacts.list(workspaceId, projectId, String(n), artifactFilter, page);
    const filterQuery = artifactFilterToQuery(artifactFilter);
    if (withVersionQuery && n !== null) filterQuery.version = String(n);
    return {
      artifacts: result.items.map((a) => toArtifactJson(a, base)),
      next: deps.cursors.nextUrl({ base, path, route: 'artifacts', workspaceId, filter, filterQuery, limit: page.limit, nextAfter: result.nextAfter }),
    };
  }

  const listDescription =
    '`latest` is the newest version: `0` on a project that has published nothing yet, which holds only what was uploaded into it (an empty list until then). An unknown version: 404. Filters: `name`, `document.id` (or `document[id]`), `minSize`, `maxSize`, `isReadOnly`.';

  const list = op({ id: 'listArtifacts', summary: "List a version's artifacts", tag: 'Artifacts', scope: 'read:projects', errors: [400, 404], description: listDescription });
  app.get(
    '/projects/:projectId/artifacts/:version',
    { config: list.config, schema: { ...list.schema, params: VersionParams, querystring: ListArtifactsQuery, response: { 200: ArtifactListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { projectId, version } = request.params;
      return listArtifacts(workspace.id, projectId, version, request.query, `/projects/${projectId}/artifacts/${version}`, false);
    },
  );

  const listQ = op({ id: 'listArtifactsByQuery', summary: 'List artifacts (version as a query)', tag: 'Artifacts', scope: 'read:projects', errors: [400, 404], description: `\`version\` defaults to \`latest\`. ${listDescription}` });
  app.get(
    '/projects/:projectId/artifacts',
    { config: listQ.config, schema: { ...listQ.schema, params: ProjectParams, querystring: ListArtifactsWithVersionQuery, response: { 200: ArtifactListSchema, ...listQ.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { projectId } = request.params;
      return listArtifacts(workspace.id, projectId, request.query.version ?? 'latest', request.query, `/projects/${projectId}/artifacts`, true);
    },
  );

  const get = op({ id: 'getArtifact', summary: 'Get an artifact', tag: 'Artifacts', scope: 'read:projects', errors: [400, 404] });
  app.get(
    '/projects/:projectId/artifacts/:version/:artifactId',
    { config: get.config, schema: { ...get.schema, params: ArtifactParams, response: { 200: { $ref: 'Artifact' }, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { projectId, version, artifactId } = request.params;
      return toArtifactJson(await deps.artifacts.get(workspace.id, projectId, version, artifactId), base);
    },
  );

  const del = op({ id: 'deleteArtifact', summary: 'Delete an artifact', tag: 'Artifacts', scope: 'write:projects', errors: [400, 403, 404], description: 'Only uploaded artifacts: a generated one is read-only (403).' });
  app.delete(
    '/projects/:projectId/artifacts/:version/:artifactId',
    { config: del.config, schema: { ...del.schema, params: ArtifactParams, response: { 204: { type: 'null', description: 'Deleted' }, ...del.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { projectId, version, artifactId } = request.params;
      await deps.artifacts.delete(workspace.id, projectId, version, artifactId);
      return reply.code(204).send(null);
    },
  );

  const download = op({ id: 'downloadArtifact', summary: 'Download an artifact', tag: 'Artifacts', scope: 'read:projects', errors: [400, 404, 416], description: 'The bytes, Content-Type from the extension, ETag and single-range `Range`; whatever `Accept` says. HEAD gives the headers.' });
  app.get(
    '/projects/:projectId/artifacts/:version/:artifactId/content',
    {
      config: download.config,
      schema: {
        ...download.schema,
        params: ArtifactParams,
        response: { 200: { description: 'The bytes', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, ...download.problemResponses },
      },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { projectId, version, artifactId } = request.params;
      const a = await deps.artifacts.get(workspace.id, projectId, version, artifactId);
      return sendBytes(request, reply, {
        size: a.size,
        etag: `"${a.sha256}"`,
        contentType: a.contentType,
        fileName: a.name,
        open: async (range) => (await deps.artifacts.open(workspace.id, projectId, String(a.version), a.id, range)).body,
      });
    },
  );

  const upload = op({
    id: 'uploadArtifact',
    summary: 'Upload an artifact',
    tag: 'Artifacts',
    scope: 'write:projects',
    errors: [400, 404, 409, 413, 415],
    description: `multipart/form-data: optional text part \`document.id\`, then the part \`file\` (last). Extensions ${ARTIFACT_UPLOAD_EXTENSIONS.join(' ')}; at most 300 MB. The artifact is not read-only; uploading the same name (and document) again replaces its content; the name of a generated artifact is a 409. \`latest\` is the newest version: \`0\` on a new project. Every version the project publishes afterwards carries the uploads of the one before (same id), so an upload stays under \`latest\`.`,
  });
  app.post(
    '/projects/:projectId/artifacts/:version/content',
    { config: upload.config, schema: { ...upload.schema, params: VersionParams, consumes: ['multipart/form-data'], response: { 201: { $ref: 'Artifact' }, ...upload.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { projectId, version } = request.params;
      if (!request.isMultipart()) {
        reply.header('connection', 'close');
        throw new DomainError('unsupported-type', 'Upload with Content-Type multipart/form-data and the file in a part named "file".');
      }
      if (Number(request.headers['content-length']) > deps.config.maxUploadBytes + MULTIPART_OVERHEAD) {
        reply.header('connection', 'close');
        throw tooLarge(deps.config.maxUploadBytes);
      }
      const fields: Record<string, string> = {};
      // The file is staged while the form is read and committed only once the whole form is good:
      // a malformed form (or a part after the file) changes nothing stored, a replaced artifact included.
      let staged: StagedArtifactUpload | undefined;
      let failure: unknown;
      try {
        // The multipart limit is one byte above the artifact limit: the store's own limit (which
        // refuses before anything is kept) sees an overlong file first, and a part cut off at
        // exactly the limit never passes for a whole file.
        for await (const part of request.parts({ limits: { ...FORM_LIMITS, fileSize: deps.config.maxUploadBytes + 1 } })) {
          if (failure !== undefined || staged) {
            if (part.type === 'file') part.file.resume();
            if (staged && failure === undefined) failure = invalid('The "file" part must be the last part of the form.');
            continue;
          }
          if (part.type === 'field') {
            fields[part.fieldname] = fieldText(part);
            continue;
          }
          if (part.fieldname !== 'file') {
            part.file.resume();
            failure = invalid(`Unexpected file part "${part.fieldname}": send the artifact in a part named "file".`);
            continue;
          }
          const documentId = fields['document.id'] ?? fields['document[id]'] ?? null;
          try {
            staged = await deps.artifacts.stageUpload(workspace.id, projectId, version, part.filename, documentId || null, part.file);
          } catch (e) {
            part.file.resume();
            failure = e;
          }
        }
      } catch (e) {
        reply.header('connection', 'close');
        if (staged) await deps.artifacts.discardUpload(staged);
        throw formLimitError(e, () => tooLarge(deps.config.maxUploadBytes)) ?? e;
      }
      if (failure !== undefined) {
        if (staged) await deps.artifacts.discardUpload(staged);
        throw failure;
      }
      if (!staged) throw invalid('The form has no part named "file".');
      const created = await deps.artifacts.commitUpload(staged);
      return reply.code(201).send(toArtifactJson(created, base));
    },
  );
}
