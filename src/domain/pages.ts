import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Store } from '../store/db/index.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import type { DocumentRecord } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { pageImageKeyOf } from '../store/blobs/keys.js';
import { WorkspaceTurns } from './workspace-turns.js';

export const DEFAULT_DPI = 300;
export const MIN_DPI = 36;
export const MAX_DPI = 300;

export interface PageRecord {
  number: number;
  /** Pixels at 300 DPI: the coordinate space of DGML bounding boxes. */
  width: number;
  height: number;
}

/** What page images may cost (src/runtime/config.ts `pageImages`). */
export interface PageImageLimits {
  /** Pixels of one image (QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS). */
  maxPixels: number;
  /** Renders in flight at once per workspace in this process (QUIRE_PAGE_RENDERS_PER_WORKSPACE); 0: no limit. */
  rendersPerWorkspace: number;
  /** How long a render waits for one of its workspace's turns before a 503 (QUIRE_PAGE_RENDER_WAIT_MS). */
  renderWaitMs: number;
  /** Bytes of page images kept in storage, all workspaces together (QUIRE_PAGE_IMAGE_CACHE_MB); 0: no bound. */
  cacheBytes: number;
  /** Where the PDF of a store without local files (S3) is copied for the renderer, one copy per document in use. */
  spoolDir: string;
}

/**
 * What a page cannot give: an image over `maxPixels` (`too-large`, nothing allocated), or none at
 * all (`unrenderable`: the PDF cannot be drawn, the page ran out of time or memory).
 */
export class PageImageError extends Error {
  constructor(
    readonly reason: 'too-large' | 'unrenderable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Renders one page (1-based) of the PDF in `source.file` to PNG at `dpi`, off the event loop, never
 * over `maxPixels`; the ingestion side provides it. Fails with PageImageError for what the page cannot give.
 */
export type RenderPage = (source: { file: string }, page: number, dpi: number, maxPixels: number) => Promise<Buffer>;

const NOT_YET: ReadonlySet<string> = new Set(['New', 'Ingesting']);
/** A page image's last use is written at most this often (a GET is otherwise only reads). */
const TOUCH_EVERY_MS = 60_000;
/** A page that could not be drawn is answered from memory this long, not drawn again at each request. */
const FAILURE_KEPT_MS = 10 * 60_000;
const FAILURES_KEPT = 1000;

/**
 * Pages of ingested documents, and their images: rendered on first request, then kept as blobs, the
 * least recently used deleted past `cacheBytes`. One image is at most `maxPixels`; each workspace
 * has `rendersPerWorkspace` renders in flight at once, so one tenant's burst waits its own turns.
 */
export class PageService {
  private readonly inFlight = new Map<string, Promise<number>>();
  private readonly turns: WorkspaceTurns;
  private readonly failures = new Map<string, { message: string; until: number }>();
  private readonly spooled = new Map<string, { file: Promise<string>; users: number }>();
  private evicting: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly render: RenderPage,
    private readonly limits: PageImageLimits,
  ) {
    this.turns = new WorkspaceTurns(limits.rendersPerWorkspace, limits.renderWaitMs);
    removeStaleSpools(limits.spoolDir);
  }

  async list(workspaceId: string, documentId: string): Promise<{ document: DocumentRecord; pages: PageRecord[] }> {
    const document = await this.store.documents.get(workspaceId, documentId);
    if (!document) throw notFound('Document', documentId);
    if (NOT_YET.has(document.status)) {
      throw new DomainError('conflict', `The pages of this document are not known yet: it is ${document.status}. Try again shortly.`, {}, { 'retry-after': '5' });
    }
    const pages = await this.store.ingest.pages(documentId);
    if (pages.length === 0) {
      const why = document.error ? `${document.error.title}: ${document.error.detail}` : `it is ${document.status}`;
      throw new DomainError('conflict', `This document has no pages (${why}).`);
    }
    return { document, pages };
  }

  async get(workspaceId: string, documentId: string, number: number): Promise<{ document: DocumentRecord; page: PageRecord }> {
    const { document, pages } = await this.list(workspaceId, documentId);
    const page = pages.find((p) => p.number === number);
    if (!page) throw new DomainError('not-found', `Page ${number} was not found: this document has ${pages.length} page(s).`);
    return { document, page };
  }

  /** The PNG of a page at `dpi`, rendered once per (page, dpi) and then served from storage. */
  async image(workspaceId: string, documentId: string, number: number, dpi: number): Promise<{ document: DocumentRecord; key: string; size: number }> {
    if (!Number.isInteger(dpi) || dpi < MIN_DPI || dpi > MAX_DPI) throw invalid(`dpi must be an integer from ${MIN_DPI} to ${MAX_DPI}.`);
    const { document, page } = await this.get(workspaceId, documentId, number);
    this.checkPixels(page, dpi);
    const key = pageImageKeyOf(document, number, dpi);
    const stat = await this.blobs.stat(key);
    if (stat) {
      await this.noteUse(key, document.id, stat.size);
      return { document, key, size: stat.size };
    }
    const failed = this.failures.get(key);
    if (failed && failed.until > Date.now()) throw unrenderable(number, failed.message);
    let pending = this.inFlight.get(key);
    if (!pending) {
      const leave = await this.turns.enter(workspaceId);
      // Another request may have started this image while this one waited for its turn.
      pending = this.inFlight.get(key);
      if (pending) leave();
      else {
        pending = this.renderAndStore(document, number, dpi, key).finally(() => {
          leave();
          this.inFlight.delete(key);
        });
        this.inFlight.set(key, pending);
      }
    }
    return { document, key, size: await pending };
  }

  /** The stored image; one deleted since `image` found it (the cache's bound, a document deleted) is a 503 to retry. */
  async openImage(key: string): Promise<Readable> {
    try {
      return await this.blobs.read(key);
    } catch (err) {
      if (await this.blobs.stat(key)) throw err;
      throw new DomainError('unavailable', 'The page image was removed while it was being sent; retry to have it drawn again.', {}, { 'retry-after': '1' });
    }
  }

  /** A 422 naming the largest resolution that fits when the page's image at `dpi` would pass `maxPixels`. */
  private checkPixels(page: PageRecord, dpi: number): void {
    const max = this.limits.maxPixels;
    const pixels = (d: number) => Math.max(1, Math.round((page.width * d) / DEFAULT_DPI)) * Math.max(1, Math.round((page.height * d) / DEFAULT_DPI));
    if (pixels(dpi) <= max) return;
    let fits = Math.min(dpi - 1, Math.floor(DEFAULT_DPI * Math.sqrt(max / (page.width * page.height))));
    while (fits >= MIN_DPI && pixels(fits) > max) fits--;
    const size = `${Math.round((page.width * dpi) / DEFAULT_DPI)} x ${Math.round((page.height * dpi) / DEFAULT_DPI)}`;
    const points = `${Math.round((page.width * 72) / DEFAULT_DPI)} x ${Math.round((page.height * 72) / DEFAULT_DPI)} pt`;
    const limit = `this server's limit of ${+(max / 1e6).toFixed(2)} megapixels (QUIRE_PAGE_IMAGE_MAX_MEGAPIXELS)`;
    const extra = { maxPixels: max, width: Math.round((page.width * dpi) / DEFAULT_DPI), height: Math.round((page.height * dpi) / DEFAULT_DPI) };
    if (fits < MIN_DPI) {
      throw new DomainError('unprocessable', `Page ${page.number} measures ${points}: its image at ${dpi} DPI would be ${size} pixels, and even at ${MIN_DPI} DPI it is over ${limit}.`, { ...extra, maxDpi: null });
    }
    throw new DomainError('unprocessable', `Page ${page.number} measures ${points}: its image at ${dpi} DPI would be ${size} pixels, over ${limit}. Ask for ?dpi=${fits} or less.`, { ...extra, maxDpi: fits });
  }

  private async renderAndStore(document: DocumentRecord, number: number, dpi: number, key: string): Promise<number> {
    const pdfKey = document.format === 'pdf' ? document.blobKey : document.renditionBlobKey;
    if (!pdfKey) throw new DomainError('conflict', 'This document has no paginated rendition yet.', {}, { 'retry-after': '5' });
    const source = await this.pdfFile(pdfKey);
    let png: Buffer;
    try {
      png = await this.render({ file: source.file }, number, dpi, this.limits.maxPixels);
    } catch (err) {
      if (!(err instanceof PageImageError)) throw err;
      if (err.reason === 'too-large') throw new DomainError('unprocessable', `Page ${number} cannot be drawn at ${dpi} DPI: ${err.message}. Ask for a lower dpi.`);
      this.rememberFailure(key, err.message);
      throw unrenderable(number, err.message);
    } finally {
      await source.done();
    }
    const staged = await this.blobs.stage(Readable.from([png]), { maxBytes: 512 * 1024 * 1024 });
    await this.blobs.commit(staged.tempKey, key);
    try {
      await this.store.pageImages.record({ key, documentId: document.id, bytes: png.length, usedAt: Date.now() });
    } catch (err) {
      // The document was deleted while its page was drawn: what was just stored goes too.
      await this.blobs.delete(key).catch(() => undefined);
      if (!(await this.store.documents.get(document.workspaceId, document.id))) throw notFound('Document', document.id);
      throw err;
    }
    await this.evict(key);
    return png.length;
  }

  /** Notes a kept image's use (recording one stored before the ledger, or by a process that crashed before recording it). */
  private async noteUse(key: string, documentId: string, bytes: number): Promise<void> {
    const row = await this.store.pageImages.get(key);
    const now = Date.now();
    if (!row) await this.store.pageImages.record({ key, documentId, bytes, usedAt: now }).catch(() => undefined);
    else if (now - row.usedAt > TOUCH_EVERY_MS) await this.store.pageImages.touch(key, now);
  }

  /**
   * Deletes the least recently used images until the kept ones fit `cacheBytes`, sparing `fresh`
   * (the image about to be sent). One pass at a time in this process; processes sharing the database
   * may both delete an image, which only draws it again on its next request.
   */
  private evict(fresh: string): Promise<void> {
    const bound = this.limits.cacheBytes;
    if (bound <= 0) return Promise.resolve();
    const pass = this.evicting.then(async () => {
      let total = await this.store.pageImages.totalBytes();
      while (total > bound) {
        const oldest = (await this.store.pageImages.leastRecentlyUsed(64)).filter((r) => r.key !== fresh && !this.inFlight.has(r.key));
        if (oldest.length === 0) return;
        for (const image of oldest) {
          if (total <= bound) return;
          await this.blobs.delete(image.key);
          await this.store.pageImages.remove(image.key);
          total -= image.bytes;
        }
      }
    });
    // A failed pass leaves the images for the next one: the request that made this image still gets it.
    this.evicting = pass.catch(() => undefined);
    return this.evicting;
  }

  private rememberFailure(key: string, message: string): void {
    if (this.failures.size >= FAILURES_KEPT) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { message, until: Date.now() + FAILURE_KEPT_MS });
  }

  /**
   * The PDF as a file the renderer reads block by block: the store's own file when it has one;
   * otherwise one copy under `spoolDir` per document, shared by its renders in flight and removed after the last.
   */
  private async pdfFile(pdfKey: string): Promise<{ file: string; done: () => Promise<void> }> {
    const local = this.blobs.localPath?.(pdfKey);
    if (local) return { file: local, done: async () => {} };
    let spool = this.spooled.get(pdfKey);
    if (!spool) {
      const file = path.join(this.limits.spoolDir, `${randomUUID()}.pdf`);
      spool = {
        users: 0,
        file: (async () => {
          await fsp.mkdir(this.limits.spoolDir, { recursive: true });
          await pipeline(await this.blobs.read(pdfKey), fs.createWriteStream(file));
          return file;
        })(),
      };
      this.spooled.set(pdfKey, spool);
    }
    const taken = spool;
    taken.users++;
    const done = async () => {
      if (--taken.users > 0) return;
      if (this.spooled.get(pdfKey) === taken) this.spooled.delete(pdfKey);
      await fsp.rm(await taken.file.catch(() => ''), { force: true }).catch(() => undefined);
    };
    try {
      return { file: await taken.file, done };
    } catch (err) {
      await done();
      throw err;
    }
  }
}

/** Copies left by a process that ended while rendering (an hour old: another process may share the folder). */
function removeStaleSpools(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > 3600_000) fs.rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}

function unrenderable(number: number, why: string): DomainError {
  return new DomainError('unprocessable', `Page ${number} cannot be drawn: ${why}.`);
}
