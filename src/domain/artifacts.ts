import type { Readable } from 'node:stream';
import type { Repos, Store } from '../store/db/index.js';
import type { InputHashes, StoredProject } from '../store/db/projects.js';
import type { BlobStore, StagedBlob } from '../store/blobs/blob-store.js';
import { BlobTooLargeError } from '../store/blobs/blob-store.js';
import type { ArtifactFilter, ArtifactRecord, Page, PageRequest } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { newId } from '../model/ids.js';
import type { PartitionPage, PartitionPageRequest } from '../model/partition.js';
import { ARTIFACT_CREATED, ARTIFACT_DELETED, ARTIFACT_MODIFIED, VERSION_PUBLISHED } from '../model/events.js';
import { artifactKeyOf, projectPrefixOf, uploadedArtifactKeyOf } from '../store/blobs/keys.js';

/** Extensions a user may upload as an artifact. */
export const ARTIFACT_UPLOAD_EXTENSIONS = ['.xml', '.json', '.csv', '.xlsx', '.pdf', '.docx'] as const;
export const MAX_ARTIFACT_NAME = 255;

const CONTENT_TYPES: Record<string, string> = {
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
};

export function artifactContentType(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[name.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

/** An uploaded artifact's bytes, staged and checked, waiting to be committed or discarded. */
export interface StagedArtifactUpload {
  workspaceId: string;
  projectId: string;
  version: string;
  fileName: string;
  documentId: string | null;
  staged: StagedBlob;
}

/** One generated file of a version, staged in the blob store, waiting for its row. */
export interface GeneratedArtifact {
  name: string;
  documentId: string | null;
  staged: StagedBlob;
}

function artifactEvent(s: Repos, type: string, a: ArtifactRecord, docsetId: string, now: number) {
  return s.events.insert({
    id: newId(),
    workspaceId: a.workspaceId,
    type,
    payload: { projectId: a.projectId, docsetId, version: String(a.version), artifactId: a.id, name: a.name, documentId: a.documentId },
    createdAt: now,
  });
}

/**
 * The versioned files of projects: generated ones (read-only, recorded a version at a time) and
 * uploaded ones. A project has a version from the moment it exists: `0`, which holds uploads only,
 * until the first one is published. `latest` resolves to the newest version everywhere a version is
 * named. Each new version carries the uploads of the version before it (same ids, shared bytes), so
 * what a user uploaded into `latest` stays under `latest` when a report is regenerated.
 */
export class ArtifactService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly maxUploadBytes: number,
  ) {}

  private async project(s: Repos, workspaceId: string, projectId: string): Promise<StoredProject> {
    const p = await s.projects.get(workspaceId, projectId);
    if (!p) throw notFound('Project', projectId);
    return p;
  }

  /** The version a path names: `latest` (the newest, `0` before the first is published) or an existing number; else 404. */
  private resolveVersion(p: StoredProject, version: string): number {
    if (version === 'latest') return p.latestVersion;
    const n = /^(0|[1-9][0-9]{0,8})$/.test(version) ? Number(version) : NaN;
    if (!(n >= 0 && n <= p.latestVersion)) {
      throw new DomainError('not-found', `Project ${p.id} has no version ${JSON.stringify(version)} (its versions are 0 to ${p.latestVersion}, or latest).`);
    }
    return n;
  }

  /** Resolves `latest` to a number (for a cursor, which keeps listing the version it began with). */
  async versionNumber(workspaceId: string, projectId: string, version: string): Promise<number> {
    return this.resolveVersion(await this.project(this.store, workspaceId, projectId), version);
  }

  async list(workspaceId: string, projectId: string, version: string, filter: ArtifactFilter, page: PageRequest): Promise<Page<ArtifactRecord>> {
    const n = await this.versionNumber(workspaceId, projectId, version);
    return this.store.artifacts.list(projectId, n, filter, page);
  }

  async listPartitioned(workspaceId: string, projectId: string, version: string, filter: ArtifactFilter, page: PartitionPageRequest): Promise<PartitionPage<ArtifactRecord>> {
    const n = await this.versionNumber(workspaceId, projectId, version);
    return this.store.artifacts.listPartitioned(projectId, n, filter, page);
  }

  async get(workspaceId: string, projectId: string, version: string, artifactId: string): Promise<ArtifactRecord> {
    const n = await this.versionNumber(workspaceId, projectId, version);
    const a = await this.store.artifacts.get(projectId, n, artifactId);
    if (!a) throw notFound('Artifact', artifactId);
    return a;
  }

  async open(workspaceId: string, projectId: string, version: string, artifactId: string, range?: { start: number; end: number }): Promise<{ artifact: ArtifactRecord; body: Readable }> {
    const artifact = await this.get(workspaceId, projectId, version, artifactId);
    return { artifact, body: await this.blobs.read(artifact.blobKey, range) };
  }

  async delete(workspaceId: string, projectId: string, version: string, artifactId: string): Promise<void> {
    const removed = await this.store.tx(async (s) => {
      const p = await this.project(s, workspaceId, projectId);
      const n = this.resolveVersion(p, version);
      const a = await s.artifacts.get(projectId, n, artifactId);
      if (!a) throw notFound('Artifact', artifactId);
      if (a.isReadOnly) throw new DomainError('forbidden', 'artifact is read-only: generated artifacts change only with a new version.');
      await s.artifacts.delete(a);
      await artifactEvent(s, ARTIFACT_DELETED, a, p.docsetId, Date.now());
      return a;
    });
    // Another version's row (the upload carried there, or kept from before) may still serve the bytes.
    if (!(await this.store.artifacts.blobInUse(removed.blobKey).catch(() => true))) await this.blobs.delete(removed.blobKey).catch(() => undefined);
  }

  /** Checks an upload before any byte is stored: 404 for the project, version or document, 415 for the extension. */
  async prepareUpload(workspaceId: string, projectId: string, version: string, fileName: string, documentId: string | null): Promise<void> {
    validateUploadName(fileName);
    this.resolveVersion(await this.project(this.store, workspaceId, projectId), version);
    if (documentId !== null && !(await this.store.documents.get(workspaceId, documentId))) throw notFound('Document', documentId);
  }

  /**
   * A user artifact (`isReadOnly: false`) in a version (`latest`: the newest, `0` on a project that has
   * published nothing yet). Uploading the name (and document) of an earlier upload replaces its
   * content in that version; the name of a generated artifact of that version is a 409.
   */
  async upload(workspaceId: string, projectId: string, version: string, fileName: string, documentId: string | null, source: Readable): Promise<ArtifactRecord> {
    return this.commitUpload(await this.stageUpload(workspaceId, projectId, version, fileName, documentId, source));
  }

  /**
   * The first half of an upload: checks it and stages its bytes, changing nothing a client can see.
   * The caller then commits it (`commitUpload`) once the whole request is known to be good, or
   * discards it (`discardUpload`): a form that turns out malformed after its file part loses nothing.
   */
  async stageUpload(workspaceId: string, projectId: string, version: string, fileName: string, documentId: string | null, source: Readable): Promise<StagedArtifactUpload> {
    await this.prepareUpload(workspaceId, projectId, version, fileName, documentId);
    let staged: StagedBlob;
    try {
      staged = await this.blobs.stage(source, { maxBytes: this.maxUploadBytes });
    } catch (e) {
      if (e instanceof BlobTooLargeError) throw new DomainError('too-large', `Artifacts are limited to ${e.limit} bytes.`);
      throw e;
    }
    return { workspaceId, projectId, version, fileName, documentId, staged };
  }

  discardUpload(upload: StagedArtifactUpload): Promise<void> {
    return this.blobs.discard(upload.staged.tempKey).catch(() => undefined);
  }

  /** The second half of an upload: the staged bytes become the artifact (created, or replacing its content). */
  async commitUpload(upload: StagedArtifactUpload): Promise<ArtifactRecord> {
    const { workspaceId, projectId, version, fileName, documentId, staged } = upload;
    let committedKey: string | null = null;
    try {
      const { artifact, replacedKey } = await this.store.tx(async (s) => {
        // Takes turns with recordVersion: the upload lands in the version it names as it is now.
        await s.projects.lock(projectId);
        const p = await this.project(s, workspaceId, projectId);
        const n = this.resolveVersion(p, version);
        if (documentId !== null && !(await s.documents.get(workspaceId, documentId))) throw notFound('Document', documentId);
        const now = Date.now();
        const named = await s.artifacts.named(projectId, n, fileName, documentId);
        if (named.some((a) => a.isReadOnly)) throw new DomainError('conflict', `Version ${n} has a generated artifact named "${fileName}"; give the upload another name.`);
        const existing = named[0];
        const id = existing?.id ?? newId();
        const key = uploadedArtifactKeyOf(projectId, id);
        const contentType = artifactContentType(fileName);
        let record: ArtifactRecord;
        if (existing) {
          await s.artifacts.replaceContent(existing, { size: staged.size, sha256: staged.sha256, blobKey: key, contentType }, now);
          record = { ...existing, size: staged.size, sha256: staged.sha256, blobKey: key, contentType, updatedAt: now };
          await artifactEvent(s, ARTIFACT_MODIFIED, record, p.docsetId, now);
        } else {
          record = { id, workspaceId, projectId, version: n, name: fileName, documentId, size: staged.size, contentType, sha256: staged.sha256, blobKey: key, isReadOnly: false, createdAt: now, updatedAt: now };
          await s.artifacts.insertMany([record]);
          await artifactEvent(s, ARTIFACT_CREATED, record, p.docsetId, now);
        }
        await this.blobs.commit(staged.tempKey, key);
        committedKey = key;
        return { artifact: record, replacedKey: existing?.blobKey ?? null };
      });
      // Committed: the row holds the new bytes now, whatever happens below.
      committedKey = null;
      // The replaced bytes go unless another version's row (a carried upload) still serves them; when that cannot be told, they stay.
      if (replacedKey && !(await this.store.artifacts.blobInUse(replacedKey).catch(() => true))) await this.blobs.delete(replacedKey).catch(() => undefined);
      return artifact;
    } catch (e) {
      if (committedKey) await this.blobs.delete(committedKey).catch(() => undefined);
      else await this.blobs.discard(staged.tempKey).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Records version `latestVersion + 1` of a project with its generated files, in one transaction.
   * A file is unchanged when its bytes equal the previous version's file of the same name and
   * document, or when it is a document's own file and neither that document's inputs nor the shared
   * ones changed (office files embed their creation time: their bytes always differ); an unchanged
   * file keeps the previous bytes. The previous version's uploads are carried into the new one as
   * they are (same ids, same bytes, no events: nothing about them changed), also where a generated
   * file now has an upload's name. Events say what was created, modified and dropped. Returns the
   * version, or null when the project changed meanwhile (deleted, or another version recorded).
   */
  async recordVersion(
    p: StoredProject,
    generated: GeneratedArtifact[],
    inputs: { inputsHash: string; inputHashes: InputHashes; documentCount: number },
  ): Promise<{ version: number; clean: boolean } | null> {
    const version = p.latestVersion + 1;
    const committed: string[] = [];
    const shared: StagedBlob[] = [];
    try {
      const result = await this.store.tx(async (s) => {
        // Takes turns with uploads into the latest version: none can slip in between the carry and the switch.
        await s.projects.lock(p.id);
        const current = await s.projects.get(p.workspaceId, p.id);
        if (!current || current.latestVersion !== p.latestVersion) return null;
        const previousAll = await s.artifacts.ofVersion(p.id, p.latestVersion);
        const previous = previousAll.filter((a) => a.isReadOnly);
        const carried = previousAll.filter((a) => !a.isReadOnly).map((a): ArtifactRecord => ({ ...a, version }));
        const before = p.latestVersion > 0 ? (await s.projects.version(p.id, p.latestVersion))?.inputHashes : undefined;
        const sameInputs = (documentId: string | null) =>
          documentId !== null && before !== undefined && before.common === inputs.inputHashes.common && before.documents[documentId] !== undefined && before.documents[documentId] === inputs.inputHashes.documents[documentId];
        const prevByKey = new Map(previous.map((a) => [`${a.documentId ?? ''}\u0000${a.name}`, a]));
        const now = Date.now();
        const rows: ArtifactRecord[] = [];
        const events: [string, ArtifactRecord][] = [];
        for (const g of generated) {
          const key = `${g.documentId ?? ''}\u0000${g.name}`;
          const prev = prevByKey.get(key);
          prevByKey.delete(key);
          const id = newId();
          const unchanged = prev !== undefined && (prev.sha256 === g.staged.sha256 || sameInputs(g.documentId));
          let content = { blobKey: artifactKeyOf(p.id, id), size: g.staged.size, sha256: g.staged.sha256 };
          if (unchanged) {
            content = { blobKey: prev.blobKey, size: prev.size, sha256: prev.sha256 };
            shared.push(g.staged);
          } else {
            await this.blobs.commit(g.staged.tempKey, content.blobKey);
            committed.push(content.blobKey);
          }
          const row: ArtifactRecord = {
            id,
            workspaceId: p.workspaceId,
            projectId: p.id,
            version,
            name: g.name,
            documentId: g.documentId,
            ...content,
            contentType: artifactContentType(g.name),
            isReadOnly: true,
            createdAt: now,
            updatedAt: now,
          };
          rows.push(row);
          if (!prev) events.push([ARTIFACT_CREATED, row]);
          else if (!unchanged) events.push([ARTIFACT_MODIFIED, row]);
        }
        await s.artifacts.insertMany([...rows, ...carried]);
        await s.projects.insertVersion({ projectId: p.id, version, inputsHash: inputs.inputsHash, inputHashes: inputs.inputHashes, documentCount: inputs.documentCount, createdAt: now });
        await s.projects.setLatestVersion(p.id, version, now);
        for (const [type, row] of events) await artifactEvent(s, type, row, p.docsetId, now);
        for (const gone of prevByKey.values()) await artifactEvent(s, ARTIFACT_DELETED, gone, p.docsetId, now);
        await s.events.insert({
          id: newId(),
          workspaceId: p.workspaceId,
          type: VERSION_PUBLISHED,
          payload: { projectId: p.id, docsetId: p.docsetId, version: String(version), artifactCount: rows.length + carried.length },
          createdAt: now,
        });
        const clean = await s.projects.markClean(p.id, p.changedAt);
        return { version, clean };
      });
      if (result === null) {
        for (const g of generated) await this.blobs.discard(g.staged.tempKey).catch(() => undefined);
      }
      for (const st of shared) await this.blobs.discard(st.tempKey).catch(() => undefined);
      return result;
    } catch (e) {
      for (const key of committed) await this.blobs.delete(key).catch(() => undefined);
      for (const g of generated) await this.blobs.discard(g.staged.tempKey).catch(() => undefined);
      throw e;
    }
  }

  /** Removes every blob of a deleted project. */
  async deleteProjectBlobs(projectId: string): Promise<void> {
    await this.blobs.deletePrefix(projectPrefixOf(projectId));
  }
}

function validateUploadName(name: string): void {
  if (!name || name.length > MAX_ARTIFACT_NAME || /[\u0000-\u001f/\\]/.test(name)) throw invalid(`Artifact names are 1..${MAX_ARTIFACT_NAME} characters without slashes or control characters.`);
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot).toLowerCase() : '';
  if (!(ARTIFACT_UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new DomainError('unsupported-type', `Artifacts must be one of ${ARTIFACT_UPLOAD_EXTENSIONS.join(' ')}; "${name}" is not.`);
  }
}
