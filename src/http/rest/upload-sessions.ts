import type { Readable } from 'node:stream';
import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { op } from '../../api/common.js';
import { UploadResponseSchema, toDocumentJson } from '../../api/documents.js';
import {
  SessionParams,
  UploadChunkResponseSchema,
  UploadSessionCreatedSchema,
  UploadSessionStateSchema,
  toChunkJson,
  toSessionCreatedJson,
  toSessionStateJson,
} from '../../api/upload-sessions.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { ALLOWED_EXTENSIONS } from '../../model/formats.js';
import type { UploadChunkRecord } from '../../model/records.js';
import { formLimitError, fieldText } from '../form-limits.js';

/** Room for the multipart framing and the byteOffset field around a maximal chunk. */
const CHUNK_OVERHEAD = 64 * 1024;

/** Reads a part to its end (bounded by the multipart limits), so a refusal reaches the client intact. */
async function drain(stream: Readable): Promise<void> {
  try {
    for await (const _ of stream) {
      // discard
    }
  } catch {
    // a limit hit while draining: the connection closes anyway
  }
}

/** Text of a JSON body field: strings as sent, numbers as text; anything else is a 400. */
function textField(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && name === 'fileSize') return String(v);
  throw invalid(`${name} must be a ${name === 'fileSize' ? 'number' : 'string'}.`);
}

export function uploadSessionRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;
  const chunkBytes = deps.config.uploadChunkBytes;
  const ttlHours = deps.config.uploadSessionTtlSeconds / 3600;

  const create = op({
    id: 'startUploadSession',
    summary: 'Start a chunked upload',
    tag: 'Documents',
    scope: 'write:documents',
    errors: [400, 404, 409, 413, 415, 429],
    description: [
      'Starts a resumable upload of one file sent in chunks. Fields (multipart/form-data text fields, or the same names in a JSON object): `fileName` and `fileSize` (bytes) required; optional `docset.id` (one id, or several joined by `|`) and `metadata` (`{"metadata": [{"key", "value"}]}`), as for a plain upload.',
      `Everything is checked before any byte is sent: allowed extensions ${ALLOWED_EXTENSIONS.join(' ')} (else 415), 1 byte to 300 MB (else 400/413), unknown docset 404; 429 (with \`retry-after\`) when the workspace has as many sessions open as it may (\`QUIRE_WORKSPACE_MAX_UPLOAD_SESSIONS\`), 409 when \`fileSize\` would take it past the bytes it may store (\`QUIRE_WORKSPACE_MAX_STORED_MB\`, open sessions counted).`,
      `Then send chunks of exactly \`chunkSize\` bytes (${chunkBytes} on this server; the last chunk is the rest) to \`…/chunk\`, in any order and in parallel, and \`…/finalize\`. The session expires after ${ttlHours} h (\`expiration\`).`,
    ].join('\n\n'),
  });
  app.post(
    '/documents/uploads/session',
    {
      config: create.config,
      schema: {
        ...create.schema,
        consumes: ['multipart/form-data', 'application/json'],
        response: { 201: UploadSessionCreatedSchema, ...create.problemResponses },
      },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const fields: Record<string, string | undefined> = {};
      if (request.isMultipart()) {
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              await drain(part.file);
              throw invalid(`A session takes only text fields; send the bytes in chunks to ${base}/documents/uploads/session/{sessionId}/chunk.`);
            }
            fields[part.fieldname] = fieldText(part);
          }
        } catch (err) {
          reply.header('connection', 'close');
          throw err;
        }
      } else {
        const body = request.body;
        if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
          throw invalid('Send the session fields as multipart/form-data text fields or as a JSON object.');
        }
        const b = (body ?? {}) as Record<string, unknown>;
        fields.fileName = textField(b, 'fileName');
        fields.fileSize = textField(b, 'fileSize');
        const docset = b.docset as { id?: unknown } | undefined;
        fields['docset.id'] = textField(b, 'docset.id') ?? textField(b, 'docsetId') ?? (typeof docset?.id === 'string' ? docset.id : undefined);
        const metadata = b.metadata;
        fields.metadata = metadata === undefined || metadata === null ? undefined : typeof metadata === 'string' ? metadata : JSON.stringify(metadata);
      }
      const session = await deps.uploads.create(workspace.id, {
        fileName: fields.fileName,
        fileSize: fields.fileSize,
        docsetSpec: fields['docset.id'] ?? fields['docset[id]'] ?? fields.docsetId,
        metadataJson: fields.metadata,
      });
      return reply.code(201).send(toSessionCreatedJson(session, base));
    },
  );

  const get = op({
    id: 'getUploadSession',
    summary: 'Get a chunked upload',
    tag: 'Documents',
    scope: 'read:documents',
    errors: [400, 404],
    description: 'The offsets received so far (to resume), and the document once finalized. Expired sessions answer 404.',
  });
  app.get(
    '/documents/uploads/session/:sessionId',
    { config: get.config, schema: { ...get.schema, params: SessionParams, response: { 200: UploadSessionStateSchema, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toSessionStateJson(await deps.uploads.state(workspace.id, request.params.sessionId), base);
    },
  );

  const chunk = op({
    id: 'uploadChunk',
    summary: 'Send one chunk of a chunked upload',
    tag: 'Documents',
    scope: 'write:documents',
    errors: [400, 404, 409, 415],
    description: [
      'multipart/form-data: the text field `byteOffset`, then the part `file` with the chunk. `byteOffset` must be a multiple of `chunkSize` below `fileSize`; the chunk must be exactly `chunkSize` bytes, or `fileSize - byteOffset` for the last one (each rule is a 400 naming it).',
      'Chunks may arrive in any order and in parallel; a chunk sent again replaces the earlier one. A finalized session answers 409.',
    ].join('\n\n'),
  });
  app.post(
    '/documents/uploads/session/:sessionId/chunk',
    {
      config: chunk.config,
      schema: { ...chunk.schema, params: SessionParams, consumes: ['multipart/form-data'], response: { 200: UploadChunkResponseSchema, ...chunk.problemResponses } },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const sessionId = request.params.sessionId;
      if (!request.isMultipart()) {
        reply.header('connection', 'close');
        throw new DomainError('unsupported-type', 'Send a chunk as multipart/form-data: the text field "byteOffset", then the part "file".');
      }
      const declared = Number(request.headers['content-length']);
      if (declared > chunkBytes + CHUNK_OVERHEAD) {
        reply.header('connection', 'close');
        throw invalid(`The request is larger than a chunk can be: chunks are at most chunkSize (${chunkBytes}) bytes.`);
      }
      const fields: Record<string, string> = {};
      let stored: UploadChunkRecord | undefined;
      // The multipart limit is one byte above a chunk, so the store's exact-length check (which
      // refuses before anything is kept) always sees an overlong chunk first; a truncated part never
      // passes for a whole one.
      try {
        for await (const part of request.parts({ limits: { fileSize: chunkBytes + 1, files: 1 } })) {
          if (stored) {
            if (part.type === 'file') part.file.resume();
            throw invalid('The "file" part must be the last part of the form.');
          }
          if (part.type === 'field') {
            fields[part.fieldname] = fieldText(part);
            continue;
          }
          if (part.fieldname !== 'file') {
            await drain(part.file);
            throw invalid(`Unexpected file part "${part.fieldname}": send the chunk in a part named "file".`);
          }
          let checked;
          try {
            checked = await deps.uploads.checkChunk(workspace.id, sessionId, fields.byteOffset);
          } catch (err) {
            await drain(part.file);
            throw err;
          }
          stored = await deps.uploads.storeChunk(checked, part.file);
        }
        if (!stored) {
          await deps.uploads.checkChunk(workspace.id, sessionId, fields.byteOffset);
          throw invalid('The form has no part named "file".');
        }
        return toChunkJson(stored);
      } catch (err) {
        reply.header('connection', 'close');
        throw formLimitError(err, () => invalid(`The chunk is longer than chunkSize (${chunkBytes} bytes).`)) ?? err;
      }
    },
  );

  const finalize = op({
    id: 'finalizeUploadSession',
    summary: 'Finalize a chunked upload',
    tag: 'Documents',
    scope: 'write:documents',
    errors: [400, 404, 409, 415],
    description:
      'Assembles the chunks in order into the Document (201, same body as a plain upload) and removes the chunks. Missing chunks: 400 listing their offsets (also in `missingOffsets`). Finalizing again answers the same document (200). 409 when the file would take the workspace past the bytes it may store; the chunks are kept, so it can be finalized again once documents are deleted.',
  });
  app.post(
    '/documents/uploads/session/:sessionId/finalize',
    {
      config: finalize.config,
      schema: { ...finalize.schema, params: SessionParams, response: { 200: UploadResponseSchema, 201: UploadResponseSchema, ...finalize.problemResponses } },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { document, created } = await deps.uploads.finalize(workspace.id, request.params.sessionId);
      const json = toDocumentJson(document, base);
      return reply.code(created ? 201 : 200).send({ ...json, documents: [json], errors: [] });
    },
  );
}

