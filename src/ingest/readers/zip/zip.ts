import { PassThrough, Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { formatOfName } from '../../../model/formats.js';
import { MAX_NAME_LENGTH, nameProblem } from '../../../model/names.js';
import { MAX_UPLOAD_BYTES } from '../../../runtime/config.js';
import { IngestError } from '../../../document/pages.js';

/** What one ZIP upload may hold (README, "ZIP archives"). */
export const ZIP_LIMITS = {
  /** Entries of the central directory, skipped ones included. */
  maxEntries: 1000,
  /** Members that become documents. */
  maxMembers: 1000,
  /** Uncompressed bytes of the members together. */
  maxTotalBytes: 1024 ** 3,
  /** One member: the most an uploaded file may have (a bigger one is skipped). */
  maxMemberBytes: MAX_UPLOAD_BYTES,
  /**
   * Past ratioMinBytes, a member may not inflate to more than maxRatio times its compressed size, nor
   * the members together to more than maxRatio times the archive.
   */
  maxRatio: 100,
  ratioMinBytes: 1024 ** 2,
};
export type ZipLimits = typeof ZIP_LIMITS;

const MEMBER_EXTS = new Set(['pdf', 'docx', 'doc', 'txt', 'html']);

export interface ZipMember {
  /** Its path in the archive. */
  name: string;
  ext: string;
  /** Uncompressed bytes, as the archive declares them (an inflated stream of another length fails). */
  size: number;
  /** Its bytes, inflated as they are read. */
  open: () => Readable;
}
export interface ZipSkipped {
  name: string;
  reason: string;
}

/**
 * Failures of the storage an archive is read from (a dropped connection): they pass through as they
 * are, for the job to be retried, instead of becoming an IngestError that condemns the archive.
 */
const storageErrors = new WeakSet<Error>();
function storageError(err: Error): Error {
  storageErrors.add(err);
  return err;
}

function corrupt(err: Error): Error {
  if (storageErrors.has(err)) return err;
  return new IngestError('Corrupt ZIP', `The ZIP archive cannot be read (${err.message}).`);
}

// Names are decoded and checked here: yauzl would fail the whole archive on one bad path.
const YAUZL_OPTIONS = { lazyEntries: true, decodeStrings: false, validateEntrySizes: true } as const;

function open(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, YAUZL_OPTIONS, (err, zip) => (err ? reject(corrupt(err)) : resolve(zip)));
  });
}

/**
 * Random access to an archive's bytes (a stored blob, read a range at a time): `read` streams the
 * bytes `start..end`, inclusive.
 */
export interface ArchiveSource {
  size: number;
  read(start: number, end: number): Promise<Readable>;
}

export function bufferSource(bytes: Buffer): ArchiveSource {
  return { size: bytes.length, read: async (start, end) => new PassThrough().end(bytes.subarray(start, end + 1)) };
}

/**
 * What a small read (a header, a central directory record) fetches: the bytes after it come with it,
 * so the central directory costs a read per 16 KiB and a small member's data is served from the block
 * its local header came in. Two blocks are kept.
 */
const READ_AHEAD = 16 * 1024;
const KEPT_BLOCKS = 2;

/** yauzl's view of an ArchiveSource: every read a range of the source, none of the whole archive. */
class SourceReader extends yauzl.RandomAccessReader {
  private blocks: { start: number; bytes: Buffer }[] = [];

  constructor(private readonly source: ArchiveSource) {
    super();
  }

  private cached(start: number, end: number): Buffer | null {
    const b = this.blocks.find((k) => k.start <= start && end <= k.start + k.bytes.length);
    return b ? b.bytes.subarray(start - b.start, end - b.start) : null;
  }

  /** The bytes `start..end` (end exclusive), as yauzl asks for them. */
  override _readStreamForRange(start: number, end: number): Readable {
    const hit = this.cached(start, end);
    if (hit) return new PassThrough().end(hit);
    const out = new PassThrough();
    this.source.read(start, end - 1).then(
      (stream) => {
        if (out.destroyed) return void stream.destroy();
        stream.on('error', (e) => out.destroy(storageError(e)));
        out.on('close', () => stream.destroy());
        stream.pipe(out);
      },
      (e: Error) => out.destroy(storageError(e)),
    );
    return out;
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    this.readBlock(position, length).then(
      (bytes) => callback(null, bytes.copy(buffer, offset)),
      (e: Error) => callback(storageError(e)),
    );
  }

  private async readBlock(position: number, length: number): Promise<Buffer> {
    const hit = this.cached(position, position + length);
    if (hit) return hit;
    const end = Math.min(this.source.size, position + Math.max(length, READ_AHEAD));
    if (end <= position) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    for await (const c of await this.source.read(position, end - 1)) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    if (length <= READ_AHEAD) this.blocks = [{ start: position, bytes }, ...this.blocks].slice(0, KEPT_BLOCKS);
    return bytes.subarray(0, length);
  }
}

function openSource(source: ArchiveSource): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Not closed when the last entry has been listed: members are inflated after that (autoClose).
    yauzl.fromRandomAccessReader(new SourceReader(source), source.size, { ...YAUZL_OPTIONS, autoClose: false }, (err, zip) =>
      err ? reject(corrupt(err)) : resolve(zip),
    );
  });
}

function decodeName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  if (entry.generalPurposeBitFlag & 0x800) return raw.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return raw.toString('latin1');
  }
}

/** Why a member path is refused, or null when it is a plain relative path. */
function unsafePath(name: string): string | null {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[a-zA-Z]:/.test(n)) return 'absolute path';
  if (n.split('/').includes('..')) return "path escapes the archive ('..')";
  if (n.includes('\0')) return 'invalid path';
  return null;
}

function isSymlink(entry: yauzl.Entry): boolean {
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  return mode === 0o120000;
}

/** Iterates the central directory, calling `visit` for each entry; stops on the first error. */
async function eachEntry(
  zip: yauzl.ZipFile,
  visit: (entry: yauzl.Entry, name: string) => Promise<void>,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      zip.close();
      reject(err instanceof IngestError ? err : corrupt(err as Error));
    };
    zip.on('error', fail);
    zip.on('end', () => {
      if (!failed) resolve();
    });
    zip.on('entry', (entry: yauzl.Entry) => {
      visit(entry, decodeName(entry)).then(() => {
        if (!failed) zip.readEntry();
      }, fail);
    });
    zip.readEntry();
  });
}

/** The given entries of a ZIP archive (named, or chosen by name) as UTF-8 text (those present), inflated within the limits. */
export async function zipTexts(bytes: Buffer, wanted: readonly string[] | ((name: string) => boolean)): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, data] of await zipEntries(bytes, wanted)) out.set(name, data.toString('utf8'));
  return out;
}

/** The given entries of a ZIP archive (named, or chosen by name), in the archive's order, inflated within the limits. */
export async function zipEntries(bytes: Buffer, wanted: readonly string[] | ((name: string) => boolean)): Promise<Map<string, Buffer>> {
  const zip = await open(bytes);
  const out = new Map<string, Buffer>();
  const budget = { total: 0 };
  const isWanted = typeof wanted === 'function' ? wanted : (name: string) => wanted.includes(name);
  await eachEntry(zip, async (entry, name) => {
    if (isWanted(name)) out.set(name, await inflate(zip, entry, name, ZIP_LIMITS, budget));
  });
  return out;
}

/** Inflates one entry, counting real bytes against the limits (headers are not trusted). */
function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, name: string, limits: ZipLimits, budget: { total: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(new IngestError('Corrupt ZIP', `Member ${name} cannot be read (${err.message}).`));
      const chunks: Buffer[] = [];
      let size = 0;
      const compressed = Math.max(entry.compressedSize, 1);
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        budget.total += chunk.length;
        let problem: string | null = null;
        if (budget.total > limits.maxTotalBytes) {
          problem = `more than ${limits.maxTotalBytes} bytes uncompressed in total`;
        } else if (size > limits.ratioMinBytes && size / compressed > limits.maxRatio) {
          problem = `member ${name} expands more than ${limits.maxRatio}:1`;
        }
        if (problem) {
          stream.destroy();
          reject(new IngestError('Unsafe ZIP', problem));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (e) => reject(new IngestError('Corrupt ZIP', `Member ${name} cannot be read (${e.message}).`)));
      stream.on('end', () => resolve(Buffer.concat(chunks, size)));
    });
  });
}

/**
 * The members of a ZIP upload that are documents (one document each), and the skipped entries with
 * their reasons. Nothing is inflated here: the central directory is read, each member's name is held
 * to the rules of an uploaded file's name, and the archive is refused (IngestError "Unsafe ZIP") when
 * it has too many entries or members, when its members would inflate past `maxTotalBytes`, or when
 * they expand more than `maxRatio` times the archive (as a whole, or one member its own compressed
 * size). Each member is then inflated as a stream by `open()`, straight to storage; the stream counts
 * the bytes it really produces against the same limits (and yauzl fails it if they differ from the
 * sizes the headers declare), so a lying archive fails there instead.
 * The archive is read a range at a time from `archive` (a stored blob: never held whole in memory);
 * `close()` once the members have been read.
 */
export async function expandZip(
  archive: Buffer | ArchiveSource,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<{ members: ZipMember[]; skipped: ZipSkipped[]; close: () => void }> {
  const source = Buffer.isBuffer(archive) ? bufferSource(archive) : archive;
  const zip = await openSource(source);
  try {
    return { ...(await listMembers(zip, source.size, limits)), close: () => zip.close() };
  } catch (err) {
    zip.close();
    throw err;
  }
}

async function listMembers(zip: yauzl.ZipFile, archiveBytes: number, limits: ZipLimits): Promise<{ members: ZipMember[]; skipped: ZipSkipped[] }> {
  if (zip.entryCount > limits.maxEntries) {
    throw new IngestError('Unsafe ZIP', `${zip.entryCount} entries, more than ${limits.maxEntries}`);
  }
  const members: ZipMember[] = [];
  const skipped: ZipSkipped[] = [];
  const seen = new Set<string>();
  const budget = { total: 0 };
  let declaredTotal = 0;
  let count = 0;
  await eachEntry(zip, async (entry, name) => {
    if (++count > limits.maxEntries) throw new IngestError('Unsafe ZIP', `more than ${limits.maxEntries} entries`);
    if (name.endsWith('/') || name.endsWith('\\')) return void skipped.push({ name, reason: 'directory' });
    const unsafe = unsafePath(name);
    if (unsafe) return void skipped.push({ name, reason: unsafe });
    if (isSymlink(entry)) return void skipped.push({ name, reason: 'symbolic link' });
    const base = name.split(/[\\/]/).pop() ?? name;
    if (name.startsWith('__MACOSX/') || base.startsWith('._')) return void skipped.push({ name, reason: 'macOS metadata' });
    // The same rules as an uploaded file's name (control characters anywhere in the path, length).
    const badName = nameProblem(base) ?? nameProblem(name.slice(0, MAX_NAME_LENGTH));
    if (badName) return void skipped.push({ name: printable(name), reason: badName });
    const ext = formatOfName(base)?.ext;
    if (ext === 'zip') return void skipped.push({ name, reason: 'nested archive' });
    if (!ext || !MEMBER_EXTS.has(ext)) return void skipped.push({ name, reason: 'file type not supported' });
    if (entry.isEncrypted()) return void skipped.push({ name, reason: 'encrypted member' });
    const key = name.replace(/\\/g, '/');
    if (seen.has(key)) return void skipped.push({ name, reason: 'duplicate name (the first entry of that name is kept)' });
    seen.add(key);
    const size = entry.uncompressedSize;
    if (size === 0) return void skipped.push({ name, reason: 'empty file' });
    if (size > limits.maxMemberBytes) return void skipped.push({ name, reason: `larger than ${limits.maxMemberBytes} bytes, the most a document may have` });
    if (size > limits.ratioMinBytes && size / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
      throw new IngestError('Unsafe ZIP', `member ${name} expands more than ${limits.maxRatio}:1`);
    }
    if (members.length >= limits.maxMembers) throw new IngestError('Unsafe ZIP', `more than ${limits.maxMembers} documents in one archive`);
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) throw new IngestError('Unsafe ZIP', `more than ${limits.maxTotalBytes} bytes uncompressed in total`);
    members.push({ name, ext, size, open: () => inflateStream(zip, entry, name, limits, budget) });
  });
  if (declaredTotal > limits.ratioMinBytes && declaredTotal / Math.max(archiveBytes, 1) > limits.maxRatio) {
    throw new IngestError('Unsafe ZIP', `the archive expands more than ${limits.maxRatio}:1 (${declaredTotal} bytes from ${archiveBytes})`);
  }
  return { members, skipped };
}

/** A name as it can be shown in a skipped entry's list: control characters as \\uXXXX, at most 200 characters. */
function printable(name: string): string {
  // eslint-disable-next-line no-control-regex
  const shown = name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

/**
 * One member's bytes, inflated as they are read; the real bytes count against the limits (the total
 * across the archive's members and the member's own ratio): past one, the stream fails with
 * IngestError "Unsafe ZIP".
 */
function inflateStream(zip: yauzl.ZipFile, entry: yauzl.Entry, name: string, limits: ZipLimits, budget: { total: number }): Readable {
  const compressed = Math.max(entry.compressedSize, 1);
  let size = 0;
  const fail = (e: unknown) =>
    e instanceof IngestError || storageErrors.has(e as Error) ? (e as Error) : new IngestError('Corrupt ZIP', `Member ${name} cannot be read (${(e as Error).message}).`);
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      budget.total += chunk.length;
      if (budget.total > limits.maxTotalBytes) return done(new IngestError('Unsafe ZIP', `more than ${limits.maxTotalBytes} bytes uncompressed in total`));
      if (size > limits.ratioMinBytes && size / compressed > limits.maxRatio) return done(new IngestError('Unsafe ZIP', `member ${name} expands more than ${limits.maxRatio}:1`));
      done(null, chunk);
    },
  });
  zip.openReadStream(entry, (err, stream) => {
    if (err) return void meter.destroy(fail(err));
    // yauzl's own checks (a size other than the declared one, a bad CRC) fail `stream`: the reader sees an IngestError.
    stream.on('error', (e) => meter.destroy(fail(e)));
    meter.on('close', () => stream.destroy());
    stream.pipe(meter);
  });
  return meter;
}
