import type { FastifyReply, FastifyRequest } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import { UploadResponseSchema, toDocumentJson } from '../../api/documents.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { tooLarge, type UploadIntent } from '../../domain/documents.js';
import type { StagedBlob } from '../../store/blobs/blob-store.js';
import { ALLOWED_EXTENSIONS } from '../../model/formats.js';
import { ContentQuery } from '../../api/structure.js';
import { sendStructureFile } from './document-structure.js';
import { DRAIN_LIMIT } from '../unread-body.js';
import { formLimitError, fieldText } from '../form-limits.js';

/** Room for the multipart framing and the text parts around a maximal file. */
const MULTIPART_OVERHEAD = 1024 * 1024;

export function documentContentRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const upload = op({
    id: 'uploadDocument',
    summary: 'Upload a document',
    tag: 'Documents',
    scope: 'write:documents',
    errors: [400, 404, 409, 413, 415],
    description: [
      'multipart/form-data. Text parts first: optional `docset.id` (one id, or several joined by `|` to have the document classified into one of them) and `metadata` (JSON `{"metadata": [{"key", "value"}]}`); the part `file` comes last.',
      `Allowed extensions: ${ALLOWED_EXTENSIONS.join(' ')}; a nameless part (\`upload\`) is typed by its content. At most 300 MB; 409 when the file would take the workspace past the bytes it may store (\`QUIRE_WORKSPACE_MAX_STORED_MB\`), and nothing is stored.`,
      'The file is streamed to storage, never held in memory. Responds with the created Document, which also carries the list envelope `{documents, errors}`.',
    ].join('\n\n'),
  });
  app.post(
    '/documents/content',
    {
      config: upload.config,
      schema: {
        ...upload.schema,
        consumes: ['multipart/form-data'],
        response: { 201: UploadResponseSchema, ...upload.problemResponses },
      },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      if (!request.isMultipart()) {
        reply.header('connection', 'close');
        throw new DomainError('unsupported-type', 'Upload with Content-Type multipart/form-data and the file in a part named "file".');
      }
      const declared = Number(request.headers['content-length']);
      if (declared > deps.config.maxUploadBytes + MULTIPART_OVERHEAD) {
        reply.header('connection', 'close');
        throw tooLarge(deps.config.maxUploadBytes);
      }
      const tooLargeFile = () => tooLarge(deps.config.maxUploadBytes);
      const fields: Record<string, string> = {};
      let intent: UploadIntent | undefined;
      let staged: StagedBlob | undefined;
      // A refused small upload is read to its end so the client can read the answer; a large or
      // unsized one is cut off (Connection: close) rather than read for nothing.
      const drain = Number.isFinite(declared) && declared <= DRAIN_LIMIT;
      let refusal: unknown;
      let bodyRead = false;
      try {
        for await (const part of request.parts()) {
          if (refusal !== undefined) {
            if (part.type === 'file') part.file.resume();
            continue;
          }
          try {
            if (staged) throw invalid('The "file" part must be the last part of the form.');
            if (part.type === 'field') {
              fields[part.fieldname] = fieldText(part);
              continue;
            }
            if (part.fieldname !== 'file') {
              throw invalid(`Unexpected file part "${part.fieldname}": send the document in a part named "file".`);
            }
            intent = await deps.documents.prepareUpload(workspace.id, {
              fileName: part.filename,
              docsetSpec: fields['docset.id'] ?? fields['docset[id]'] ?? fields.docsetId,
              metadataJson: fields.metadata,
            });
            staged = await deps.documents.stageUpload(intent, part.file);
          } catch (err) {
            // A file part whose stream was destroyed (storage failed mid-write) cannot be read to
            // its end: the answer goes out now and the connection closes.
            if (!drain || formLimitError(err, tooLargeFile) || (part.type === 'file' && part.file.destroyed)) throw err;
            refusal = err;
            if (part.type === 'file') part.file.resume();
          }
        }
        bodyRead = true;
        if (refusal !== undefined) throw refusal;
        if (!intent || !staged) throw invalid('The form has no part named "file".');
        const doc = await deps.documents.createFromStaged(intent, staged);
        staged = undefined;
        const json = toDocumentJson(doc, base);
        return reply.code(201).send({ ...json, documents: [json], errors: [] });
      } catch (err) {
        if (staged) await deps.documents.discardStaged(staged);
        if (!bodyRead) reply.header('connection', 'close');
        throw formLimitError(err, tooLargeFile) ?? err;
      }
    },
  );

  const download = op({
    id: 'downloadDocument',
    summary: 'Download a document',
    tag: 'Documents',
    scope: 'read:documents',
    errors: [400, 404, 409, 416],
    description:
      'The exact bytes as uploaded, with ETag and single-range `Range` support; whatever `Accept` says. Extension: `format=text` or `format=markdown` answers the document as Quire understood it (headings, lists, tables; page headers and footers left out), once it is Ready (before that 409 with `retry-after`).',
  });
  app.get(
    '/documents/:id/content',
    {
      config: download.config,
      schema: {
        ...download.schema,
        params: IdParams,
        querystring: ContentQuery,
        response: {
          200: {
            description: 'The bytes; or the text or Markdown rendering with `format`',
            content: {
              'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
              'text/plain': { schema: { type: 'string' } },
              'text/markdown': { schema: { type: 'string' } },
            },
          },
          ...download.problemResponses,
        },
      },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const format = request.query.format ?? 'original';
      if (format !== 'original') {
        const { file } = await deps.structure.text(workspace.id, request.params.id, format);
        return sendStructureFile(request, reply as unknown as FastifyReply, file, format === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/plain; charset=utf-8');
      }
      const doc = await deps.documents.get(workspace.id, request.params.id);
      return sendBytes(request, reply, {
        size: doc.size,
        etag: `"${doc.sha256}"`,
        contentType: doc.contentType,
        fileName: doc.name,
        open: (range) => deps.documents.openContent(doc, range),
      });
    },
  );
}


/** Sends stored bytes with ETag, conditional GET and a single byte range. */
export async function sendBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  blob: { size: number; etag: string; contentType: string; fileName: string; open: (range?: { start: number; end: number }) => Promise<NodeJS.ReadableStream> },
) {
  reply.header('etag', blob.etag);
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', 'private, max-age=0, must-revalidate');
  reply.header('content-disposition', contentDisposition(baseName(blob.fileName)));
  reply.type(blob.contentType);
  const inm = request.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim() === blob.etag || t.trim() === '*')) return reply.code(304).send();

  const range = parseRange(request.headers.range, blob.size, request.headers['if-range'] as string | undefined, blob.etag);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${blob.size}`);
    throw new DomainError('range-not-satisfiable', `The range ${request.headers.range} is outside the ${blob.size} bytes of this content.`);
  }
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${blob.size}`);
    reply.header('content-length', String(range.end - range.start + 1));
    return reply.send(await blob.open(range));
  }
  reply.header('content-length', String(blob.size));
  return reply.send(await blob.open());
}

const baseName = (name: string) => name.split(/[\\/]/).pop() || 'document';

/** One `bytes=` range (RFC 9110); multiple ranges or a stale If-Range fall back to the whole body. */
function parseRange(header: string | undefined, size: number, ifRange: string | undefined, etag: string) {
  if (!header) return undefined;
  if (ifRange && ifRange.trim() !== etag) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return header.includes(',') || !header.startsWith('bytes=') ? undefined : ('unsatisfiable' as const);
  const [, a, b] = m;
  let start: number;
  let end: number;
  if (a === '' && b === '') return 'unsatisfiable' as const;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable' as const;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
    if (b !== '' && Number(b) < start) return 'unsatisfiable' as const;
  }
  if (start >= size || size === 0) return 'unsatisfiable' as const;
  return { start, end };
}
