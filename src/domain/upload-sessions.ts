import { Readable } from 'node:stream';
import type { Store } from '../store/db/index.js';
import type { BlobStore, StagedBlob } from '../store/blobs/blob-store.js';
import { runAsLeader } from '../store/db/cluster-lock.js';
import { BlobTooLargeError } from '../store/blobs/blob-store.js';
import type { DocumentRecord, UploadChunkRecord, UploadSessionRecord } from '../model/records.js';
import { DomainError, conflict, invalid, notFound } from './errors.js';
import { tooLarge, type DocumentService, type UploadIntent } from './documents.js';
import { newId } from '../model/ids.js';
import { checkUploadSessionLimits, NO_LIMITS, type WorkspaceLimits } from './limits.js';
import { uploadChunkKeyOf, uploadPrefixOf } from '../store/blobs/keys.js';

export interface UploadSessionState {
  session: UploadSessionRecord;
  status: 'in-progress' | 'finalized';
  receivedOffsets: number[];
  bytesReceived: number;
}

export interface UploadSessionOptions {
  chunkBytes: number;
  ttlMs: number;
  maxUploadBytes: number;
  /** Upload sessions open at once and bytes stored per workspace. */
  limits?: WorkspaceLimits;
}

const SWEEP_BATCH = 100;
const MAX_SWEEP_INTERVAL_MS = 5 * 60 * 1000;
/** A lazy sweep (on session creation) runs at most this often. */
const LAZY_SWEEP_MS = 60 * 1000;
const LISTED_MISSING = 20;

export class UploadSessionService {
  private timer: NodeJS.Timeout | undefined;
  private lastSweep = 0;
  private sweeping: Promise<number> | undefined;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly documents: DocumentService,
    readonly opts: UploadSessionOptions,
  ) {}

  /** Validates everything an upload can be refused for (415, 413, 400, 404) before any byte arrives. */
  async create(
    workspaceId: string,
    input: { fileName: string | undefined; fileSize: string | number | undefined; docsetSpec: string | undefined; metadataJson: string | undefined },
  ): Promise<UploadSessionRecord> {
    this.maybeSweep();
    const intent = await this.documents.prepareUpload(workspaceId, {
      fileName: input.fileName,
      docsetSpec: input.docsetSpec,
      metadataJson: input.metadataJson,
    });
    const fileSize = this.parseFileSize(input.fileSize);
    const now = Date.now();
    const session: UploadSessionRecord = {
      id: newId(),
      workspaceId,
      fileName: intent.name,
      fileSize,
      chunkSize: this.opts.chunkBytes,
      docsetIds: intent.docsetIds,
      metadataJson: intent.metadata.length ? JSON.stringify({ metadata: intent.metadata }) : null,
      documentId: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + this.opts.ttlMs,
    };
    await this.store.tx(async (s) => {
      await checkUploadSessionLimits(s, workspaceId, fileSize, this.opts.limits ?? NO_LIMITS, now);
      await s.uploadSessions.insert(session);
    });
    return session;
  }

  private parseFileSize(raw: string | number | undefined): number {
    if (raw === undefined || raw === '') throw invalid('fileSize is required: the size of the whole file in bytes.');
    const text = typeof raw === 'number' ? String(raw) : raw.trim();
    if (!/^\d{1,16}$/.test(text)) throw invalid(`fileSize must be a whole number of bytes (got ${JSON.stringify(String(raw).slice(0, 40))}).`);
    const size = Number(text);
    if (size < 1) throw invalid('fileSize must be at least 1 byte: empty files cannot be uploaded.');
    if (size > this.opts.maxUploadBytes) throw tooLarge(this.opts.maxUploadBytes);
    return size;
  }

  /** The session, or 404 (unknown, another workspace's, or expired: an expired one is removed now). */
  private async load(workspaceId: string, id: string): Promise<UploadSessionRecord> {
    const s = await this.store.uploadSessions.get(workspaceId, id);
    if (!s) throw notFound('Upload session', id);
    if (s.expiresAt <= Date.now()) {
      await this.removeExpired(s.id, s.workspaceId).catch(() => undefined);
      throw notFound('Upload session', id);
    }
    return s;
  }

  async state(workspaceId: string, id: string): Promise<UploadSessionState> {
    const session = await this.load(workspaceId, id);
    if (session.documentId) {
      return { session, status: 'finalized', receivedOffsets: offsetsOf(session), bytesReceived: session.fileSize };
    }
    const chunks = await this.store.uploadSessions.chunks(session.id);
    return {
      session,
      status: 'in-progress',
      receivedOffsets: chunks.map((c) => c.byteOffset),
      bytesReceived: chunks.reduce((n, c) => n + c.size, 0),
    };
  }

  /**
   * Checks a chunk's offset against the session (400s, 404) without touching `source`; the caller
   * then hands the bytes to `storeChunk`.
   */
  async checkChunk(workspaceId: string, id: string, rawOffset: string | undefined): Promise<{ session: UploadSessionRecord; byteOffset: number; expected: number }> {
    const session = await this.load(workspaceId, id);
    if (session.documentId) throw conflict(`Upload session ${session.id} is already finalized; it takes no more chunks.`);
    if (rawOffset === undefined || rawOffset.trim() === '') {
      throw invalid('byteOffset is required: send the text field "byteOffset" before the "file" part.');
    }
    if (!/^\d{1,16}$/.test(rawOffset.trim())) throw invalid(`byteOffset must be a non-negative whole number (got ${JSON.stringify(rawOffset.slice(0, 40))}).`);
    const byteOffset = Number(rawOffset.trim());
    if (byteOffset >= session.fileSize) {
      throw invalid(`byteOffset ${byteOffset} is not inside the file: it must be less than fileSize ${session.fileSize}.`);
    }
    if (byteOffset % session.chunkSize !== 0) {
      throw invalid(`byteOffset ${byteOffset} is not a multiple of chunkSize ${session.chunkSize}.`);
    }
    return { session, byteOffset, expected: Math.min(session.chunkSize, session.fileSize - byteOffset) };
  }

  /**
   * Streams one chunk to storage and records it; a chunk sent again replaces the earlier one. The
   * chunk must have exactly the expected length (chunkSize, or the rest of the file for the last).
   */
  async storeChunk(
    checked: { session: UploadSessionRecord; byteOffset: number; expected: number },
    source: Readable,
  ): Promise<UploadChunkRecord> {
    const { session, byteOffset, expected } = checked;
    const lengthRule = `a chunk at byteOffset ${byteOffset} must be exactly ${expected} bytes (${
      expected === session.chunkSize ? 'chunkSize' : 'fileSize - byteOffset, the last chunk'
    })`;
    let staged: StagedBlob;
    try {
      staged = await this.blobs.stage(source, { maxBytes: expected });
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw invalid(`The chunk is longer than allowed: ${lengthRule}.`);
      throw err;
    }
    if (staged.size !== expected) {
      await this.blobs.discard(staged.tempKey).catch(() => undefined);
      throw invalid(`The chunk has ${staged.size} bytes: ${lengthRule}.`);
    }
    const now = Date.now();
    const chunk: UploadChunkRecord = {
      sessionId: session.id,
      byteOffset,
      size: staged.size,
      blobKey: uploadChunkKeyOf(session, byteOffset),
      sha256: staged.sha256,
      receivedAt: now,
    };
    let committed = false;
    let superseded: UploadChunkRecord | undefined;
    try {
      await this.store.tx(async (s) => {
        // Takes the session's row lock first: chunk writes of one session (and its finalize and
        // expiry) commit one after another, so `superseded` is the chunk this one really replaces.
        if (!(await s.uploadSessions.touchOpen(session.workspaceId, session.id, now))) {
          const current = await s.uploadSessions.get(session.workspaceId, session.id);
          if (current?.documentId) throw conflict(`Upload session ${session.id} is already finalized; it takes no more chunks.`);
          throw notFound('Upload session', session.id);
        }
        superseded = await s.uploadSessions.getChunk(session.id, byteOffset);
        await s.uploadSessions.putChunk(chunk);
        await this.blobs.commit(staged.tempKey, chunk.blobKey);
        committed = true;
      });
    } catch (err) {
      if (committed) await this.blobs.delete(chunk.blobKey).catch(() => undefined);
      else await this.blobs.discard(staged.tempKey).catch(() => undefined);
      throw err;
    }
    // A finalize reading the old bytes right now fails with ENOENT and answers 409 (finalize again).
    if (superseded && superseded.blobKey !== chunk.blobKey) await this.blobs.delete(superseded.blobKey).catch(() => undefined);
    return chunk;
  }

  /**
   * Assembles the chunks in order into one document through the same path as a plain upload. A
   * session becomes at most one document: finalizing again answers that document.
   */
  async finalize(workspaceId: string, id: string): Promise<{ document: DocumentRecord; created: boolean }> {
    const session = await this.load(workspaceId, id);
    if (session.documentId) return { document: await this.documents.get(workspaceId, session.documentId), created: false };

    const chunks = await this.store.uploadSessions.chunks(session.id);
    const have = new Set(chunks.map((c) => c.byteOffset));
    const missing = offsetsOf(session).filter((o) => !have.has(o));
    if (missing.length) {
      const listed = missing.slice(0, LISTED_MISSING).join(', ');
      const more = missing.length > LISTED_MISSING ? ` and ${missing.length - LISTED_MISSING} more` : '';
      throw invalid(`The upload is incomplete: chunks are missing at byteOffset ${listed}${more}.`, { missingOffsets: missing });
    }

    const intent: UploadIntent = await this.documents.prepareUpload(workspaceId, {
      fileName: session.fileName,
      docsetSpec: session.docsetIds.join('|'),
      metadataJson: session.metadataJson ?? undefined,
    });
    const blobs = this.blobs;
    const assembled = Readable.from(
      (async function* () {
        for (const c of chunks) {
          const part = await blobs.read(c.blobKey);
          for await (const b of part) yield b as Buffer;
        }
      })(),
      { objectMode: false },
    );

    let staged: StagedBlob | undefined;
    try {
      staged = await this.documents.stageUpload(intent, assembled);
      if (staged.size !== session.fileSize) {
        throw invalid(`The assembled file has ${staged.size} bytes, not the declared fileSize ${session.fileSize}.`);
      }
      const lost = Symbol('lost');
      let document: DocumentRecord;
      try {
        document = await this.documents.createFromStaged(intent, staged, async (s, doc) => {
          if (!(await s.uploadSessions.setDocument(workspaceId, session.id, doc.id, Date.now()))) throw lost;
        });
      } catch (err) {
        if (err !== lost) throw err;
        await this.documents.discardStaged(staged);
        staged = undefined;
        return this.finalizedElsewhere(workspaceId, id);
      }
      staged = undefined;
      await this.dropChunks(session);
      return { document, created: true };
    } catch (err) {
      if (staged) await this.documents.discardStaged(staged);
      if (err instanceof DomainError || (err as NodeJS.ErrnoException)?.code !== 'ENOENT') throw err;
      // A chunk vanished while it was read: another finalize (or the expiry sweep) got there first.
      return this.finalizedElsewhere(workspaceId, id, err);
    }
  }

  private async finalizedElsewhere(workspaceId: string, id: string, cause?: unknown): Promise<{ document: DocumentRecord; created: boolean }> {
    const again = await this.load(workspaceId, id);
    if (again.documentId) return { document: await this.documents.get(workspaceId, again.documentId), created: false };
    if (cause) throw conflict(`The chunks of upload session ${id} changed while it was being finalized; finalize again.`);
    throw conflict(`Upload session ${id} could not be finalized; finalize again.`);
  }

  private async dropChunks(session: UploadSessionRecord): Promise<void> {
    await this.blobs.deletePrefix(uploadPrefixOf(session)).catch(() => undefined);
    await this.store.uploadSessions.deleteChunks(session.id).catch(() => undefined);
  }

  /**
   * Removes one expired session: its blobs, then (in one transaction, which waits for a chunk write
   * in flight) its rows, then its blobs again for a chunk that committed in between.
   */
  private async removeExpired(id: string, workspaceId: string): Promise<boolean> {
    const prefix = uploadPrefixOf({ workspaceId, id });
    await this.blobs.deletePrefix(prefix);
    const removed = await this.store.tx((s) => s.uploadSessions.deleteExpired(id, Date.now()));
    if (removed) await this.blobs.deletePrefix(prefix);
    return removed;
  }

  /** Removes every expired session with its chunks. Returns how many. */
  sweepExpired(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.lastSweep = Date.now();
    // Every process ticks; one at a time across the cluster sweeps (the others skip).
    this.sweeping = runAsLeader(this.store, 'uploadSessionSweep', async () => {
      let removed = 0;
      for (;;) {
        const batch = await this.store.uploadSessions.expired(Date.now(), SWEEP_BATCH);
        let progress = 0;
        for (const s of batch) {
          if (await this.removeExpired(s.id, s.workspaceId).catch(() => false)) progress++;
        }
        removed += progress;
        if (batch.length < SWEEP_BATCH || progress === 0) return removed;
      }
    })
      .then((run) => (run.ran ? run.value : 0))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  private maybeSweep(): void {
    if (Date.now() - this.lastSweep < LAZY_SWEEP_MS) return;
    void this.sweepExpired().catch(() => undefined);
  }

  /** Sweeps now and then periodically (every TTL/2, at most every 5 minutes) on an unref'd timer. */
  startSweeper(onError: (err: unknown) => void = () => undefined): Promise<number> {
    if (!this.timer) {
      const every = Math.max(1000, Math.min(MAX_SWEEP_INTERVAL_MS, Math.floor(this.opts.ttlMs / 2)));
      this.timer = setInterval(() => void this.sweepExpired().catch(onError), every);
      this.timer.unref();
    }
    return this.sweepExpired();
  }

  stopSweeper(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Every chunk offset of a session: 0, chunkSize, 2·chunkSize, … below fileSize. */
export function offsetsOf(s: { fileSize: number; chunkSize: number }): number[] {
  const out: number[] = [];
  for (let o = 0; o < s.fileSize; o += s.chunkSize) out.push(o);
  return out;
}
