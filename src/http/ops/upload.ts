import { PassThrough, type Readable } from 'node:stream';
import Type from 'typebox';
import { toDocumentJson } from '../../api/documents.js';
import { DomainError } from '../../domain/errors.js';
import { tooLarge, type UploadIntent } from '../../domain/documents.js';
import { ALLOWED_EXTENSIONS, FORMATS, sniffFormat } from '../../model/formats.js';
import type { StagedBlob } from '../../store/blobs/blob-store.js';
import { defineOperation, field, validateBody, type OpContext, type Operation } from './framework.js';
import { readStreamedObject, SinkClosedError } from './json-stream.js';

/** Fields other than the content: a file name, docset ids (small). */
const MAX_OTHER_CHARS = 1024 * 1024;
/** The base64 of the largest file, with room for MIME line breaks (2 per 76 characters) and the other fields. */
export function maxUploadBodyBytes(maxUploadBytes: number): number {
  return Math.ceil((Math.ceil(maxUploadBytes / 3) * 4 * 78) / 76) + 2 * MAX_OTHER_CHARS;
}

interface UploadBody {
  fileName: string;
  base64Content: string;
  docsetIds?: string;
}

const UploadBody = Type.Object(
  {
    fileName: field(
      Type.String({ minLength: 1, maxLength: 1024 }),
      'File Name',
      `The document's name, with its extension: ${ALLOWED_EXTENSIONS.join(' ')} (\`.htm\` counts as HTML).`,
    ),
    base64Content: field(Type.String({ format: 'byte', contentEncoding: 'base64' }), 'File Content', 'The file\'s bytes, base64-encoded (at most 300 MB once decoded).'),
    docsetIds: Type.Optional(
      field(
        Type.String({ maxLength: 4096 }),
        'Docset IDs',
        'Optional. One docset id: the document joins that docset. Several ids joined by `|` (for example `ds1|ds2`): the document is classified, once its text is known, into the docset whose documents it resembles most (see `classification` on the Document). Empty or absent: the document joins no docset.',
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * UploadDocument reads its body as a stream: the base64 content is decoded while it arrives and
 * streamed into the blob store, so memory stays bounded (about one network chunk plus the stream
 * buffers) whatever the file size. The file name and docsets are checked as soon as they are read:
 * when they come before the content (as the connector sends them), a refusal costs no upload.
 */
export const uploadDocument: Operation = defineOperation<Readable>({
  id: 'UploadDocument',
  summary: 'Upload a document',
  description: [
    'Creates a document from base64 content (as `POST /v1preview1/documents/content`), then it is ingested.',
    `Allowed extensions: ${ALLOWED_EXTENSIONS.join(' ')}. At most 300 MB decoded. Errors: invalid base64 400, other extension 415, over 300 MB 413, unknown docset 404, empty file 400.`,
    'Answers `{documents: [Document], next: []}`.',
  ].join('\n\n'),
  tag: 'Documents',
  scope: 'write:documents',
  body: UploadBody,
  response: Type.Object({
    documents: field(Type.Array(Type.Ref('Document')), 'Documents', 'The created document.'),
    next: field(Type.Array(Type.Object({})), 'Continuations', 'Always empty.'),
  }),
  errors: [400, 404, 409, 413, 415],
  streamedBody: true,
  handler: async (ctx, source) => upload(ctx, source),
});

async function upload(ctx: OpContext, source: Readable) {
  const { deps, workspaceId, reply } = ctx;
  const maxBytes = maxUploadBodyBytes(deps.config.maxUploadBytes);
  const refuseTooLarge = () => tooLarge(deps.config.maxUploadBytes);
  if (Number(ctx.request.headers['content-length']) > maxBytes) {
    reply.header('connection', 'close');
    throw refuseTooLarge();
  }
  let staging: Promise<StagedBlob> | undefined;
  let committed = false;
  try {
    let read: Awaited<ReturnType<typeof readStreamedObject>>;
    try {
      read = await readStreamedObject(source, {
        field: 'base64Content',
        maxBytes,
        maxOtherChars: MAX_OTHER_CHARS,
        tooLarge: refuseTooLarge,
        onStream: async (before) => {
          if (typeof before.fileName === 'string') await prepare(ctx, before);
          const sink = new PassThrough();
          // The name is checked once the body is read (it may come after the content); until then the
          // bytes are staged as they are, not typed by their first bytes.
          const provisional: UploadIntent = { workspaceId, name: 'upload', format: FORMATS[0]!, docsetIds: [], metadata: [] };
          staging = deps.documents.stageUpload(provisional, sink);
          staging.catch(() => undefined);
          return sink;
        },
      });
    } catch (err) {
      reply.header('connection', 'close');
      // A sink that stopped taking bytes failed for a reason its consumer knows (too large, say).
      if (err instanceof SinkClosedError && staging) await staging;
      throw err;
    }
    const body = validateBody(uploadDocument, read.streamed ? { ...read.fields, base64Content: '' } : read.fields) as unknown as UploadBody;
    const staged = await staging!;
    const intent = await prepare(ctx, { ...body });
    if (!intent.format && !sniffFormat(staged.head)) {
      throw new DomainError('unsupported-type', `"${intent.name}" has no extension and its content is not a supported type; allowed: ${ALLOWED_EXTENSIONS.join(' ')}.`);
    }
    const doc = await deps.documents.createFromStaged(intent, staged);
    committed = true;
    return { documents: [toDocumentJson(doc, ctx.base)], next: [] };
  } finally {
    const staged = committed || !staging ? undefined : await staging.catch(() => undefined);
    if (staged) await deps.documents.discardStaged(staged);
  }
}

/** The checks of a plain upload: extension (415), docsets (404), name (400). */
function prepare(ctx: OpContext, fields: Record<string, unknown>): Promise<UploadIntent> {
  const fileName = fields.fileName as string;
  const docsetIds = typeof fields.docsetIds === 'string' ? fields.docsetIds : undefined;
  return ctx.deps.documents.prepareUpload(ctx.workspaceId, { fileName, docsetSpec: docsetIds, metadataJson: undefined });
}
