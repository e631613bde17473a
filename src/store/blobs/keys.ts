import { randomBytes } from 'node:crypto';
import { newId } from '../../model/ids.js';

/**
 * Every blob key Quire writes, built here and nowhere else (like supabase/storage's locator.ts):
 *
 *   workspaces/{workspace}/documents/{document}/original             the upload, as received
 *   workspaces/{workspace}/documents/{document}/rendition.pdf        the PDF LibreOffice made of an office document
 *   workspaces/{workspace}/documents/{document}/structure.json.gz    the structure model
 *   workspaces/{workspace}/documents/{document}/pages/{n}-{dpi}.png  a page image, rendered on first request
 *   workspaces/{workspace}/documents/{document}/files/{format}-{sha}  its DGML, text or Markdown, by the SHA-256 of its bytes
 *   workspaces/{workspace}/uploads/{session}/{offset}.{nonce}        a chunk of a resumable upload
 *   projects/{project}/{artifact}[-{id}]                             a project's artifact (generated, or uploaded)
 *
 * Deleting a document, an upload session or a project deletes everything under its prefix.
 */
interface Owned {
  workspaceId: string;
  id: string;
}

/** Everything stored for one document sits under this prefix (with its trailing slash). */
export function documentPrefixOf(d: Owned): string {
  return `workspaces/${d.workspaceId}/documents/${d.id}/`;
}

export function originalKeyOf(d: Owned): string {
  return `${documentPrefixOf(d)}original`;
}

export function renditionKeyOf(d: Owned): string {
  return `${documentPrefixOf(d)}rendition.pdf`;
}

export function structureKeyOf(d: Owned): string {
  return `${documentPrefixOf(d)}structure.json.gz`;
}

/** A file written from the structure (DGML, text, Markdown): named by its bytes, so a new one never overwrites one being read. */
export function structureFileKeyOf(d: Owned, format: string, sha256: string): string {
  return `${documentPrefixOf(d)}files/${format}-${sha256}`;
}

export function pageImageKeyOf(d: Owned, page: number, dpi: number): string {
  return `${documentPrefixOf(d)}pages/${page}-${dpi}.png`;
}

/** Chunk blobs of a session live under this prefix until it is finalized or expires. */
export function uploadPrefixOf(s: Owned): string {
  return `workspaces/${s.workspaceId}/uploads/${s.id}`;
}

/**
 * A fresh key per receipt of a chunk: the row and the bytes it names always agree, even when a commit
 * fails half-way; the superseded blob is deleted once the new row is in.
 */
export function uploadChunkKeyOf(s: Owned, byteOffset: number): string {
  return `${uploadPrefixOf(s)}/${byteOffset}.${randomBytes(6).toString('hex')}`;
}

/** Every blob of a project sits under this prefix. */
export function projectPrefixOf(projectId: string): string {
  return `projects/${projectId}`;
}

/** A generated artifact's key. */
export function artifactKeyOf(projectId: string, artifactId: string): string {
  return `${projectPrefixOf(projectId)}/${artifactId}`;
}

/** An uploaded artifact's key: fresh for each upload, so that a new version never overwrites the bytes of an old one. */
export function uploadedArtifactKeyOf(projectId: string, artifactId: string): string {
  return `${artifactKeyOf(projectId, artifactId)}-${newId()}`;
}

/** What a blob key belongs to (the row that must exist for the blob to be kept), or null for a key of no known layout. */
export type BlobOwner =
  | { kind: 'document'; workspaceId: string; documentId: string }
  | { kind: 'uploadChunk'; workspaceId: string; sessionId: string; byteOffset: number }
  | { kind: 'artifact'; projectId: string };

/** The owner of `key` as the functions above build it (the inverse of their layouts). */
export function ownerOfKey(key: string): BlobOwner | null {
  let m = /^workspaces\/([^/]+)\/documents\/([^/]+)\/./.exec(key);
  if (m) return { kind: 'document', workspaceId: m[1]!, documentId: m[2]! };
  m = /^workspaces\/([^/]+)\/uploads\/([^/]+)\/(\d+)\.[0-9a-f]+$/.exec(key);
  if (m) return { kind: 'uploadChunk', workspaceId: m[1]!, sessionId: m[2]!, byteOffset: Number(m[3]) };
  m = /^projects\/([^/]+)\/[^/]+$/.exec(key);
  if (m) return { kind: 'artifact', projectId: m[1]! };
  return null;
}
