import Type, { type Static } from 'typebox';
import { Id, Timestamp } from './common.js';
import type { UploadChunkRecord, UploadSessionRecord } from '../model/records.js';
import type { UploadSessionState } from '../domain/upload-sessions.js';

export const SessionParams = Type.Object({ sessionId: Id });

const Bytes = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const UploadSessionCreatedSchema = Type.Object(
  {
    sessionId: Type.String(),
    fileName: Type.String(),
    fileSize: Bytes,
    chunkSize: Type.Integer({ description: 'Every chunk but the last has exactly this many bytes; the last has fileSize - byteOffset.' }),
    expiration: Timestamp,
    url: Type.String({ format: 'uri', description: 'The session: GET it to resume.' }),
  },
  { description: 'A new upload session.' },
);

export const UploadChunkResponseSchema = Type.Object(
  {
    sessionId: Type.String(),
    blockId: Type.String({ description: 'The SHA-256 (hex) of the stored chunk: the same bytes sent again give the same blockId.' }),
    status: Type.Literal('in-progress'),
    byteOffset: Bytes,
    size: Bytes,
  },
  { description: 'The chunk is stored (it replaced any chunk sent earlier at this offset).' },
);

export const UploadSessionStateSchema = Type.Object(
  {
    sessionId: Type.String(),
    fileName: Type.String(),
    fileSize: Bytes,
    chunkSize: Type.Integer(),
    expiration: Timestamp,
    createdAt: Timestamp,
    status: Type.Union([Type.Literal('in-progress'), Type.Literal('finalized')]),
    receivedOffsets: Type.Array(Bytes, { description: 'byteOffset of every chunk received, ascending.' }),
    bytesReceived: Bytes,
    document: Type.Optional(Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) }, { description: 'Once finalized.' })),
  },
  { description: 'What the session has received, to resume an interrupted upload.' },
);
export type UploadSessionStateJson = Static<typeof UploadSessionStateSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

export function toSessionCreatedJson(s: UploadSessionRecord, base: string): Static<typeof UploadSessionCreatedSchema> {
  return {
    sessionId: s.id,
    fileName: s.fileName,
    fileSize: s.fileSize,
    chunkSize: s.chunkSize,
    expiration: iso(s.expiresAt),
    url: `${base}/documents/uploads/session/${s.id}`,
  };
}

export function toChunkJson(c: UploadChunkRecord): Static<typeof UploadChunkResponseSchema> {
  return { sessionId: c.sessionId, blockId: c.sha256, status: 'in-progress', byteOffset: c.byteOffset, size: c.size };
}

export function toSessionStateJson(st: UploadSessionState, base: string): UploadSessionStateJson {
  const s = st.session;
  const json: UploadSessionStateJson = {
    sessionId: s.id,
    fileName: s.fileName,
    fileSize: s.fileSize,
    chunkSize: s.chunkSize,
    expiration: iso(s.expiresAt),
    createdAt: iso(s.createdAt),
    status: st.status,
    receivedOffsets: st.receivedOffsets,
    bytesReceived: st.bytesReceived,
  };
  if (s.documentId) json.document = { id: s.documentId, url: `${base}/documents/${s.documentId}` };
  return json;
}
