import { Transform, type Readable } from 'node:stream';
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

function open(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are decoded and checked here: yauzl would fail the whole archive on one bad path.
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (err, zip) =>
      err ? reject(new IngestError('Corrupt ZIP', `The ZIP archive cannot be read (${err.message}).`)) : resolve(zip),
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
      reject(err instanceof IngestError ? err : new IngestError('Corrupt ZIP', `The ZIP archive cannot be read (${(err as Error).message}).`));
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
 */
export async function expandZip(
  bytes: Buffer,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<{ members: ZipMember[]; skipped: ZipSkipped[] }> {
  const zip = await open(bytes);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
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
  if (declaredTotal > limits.ratioMinBytes && declaredTotal / Math.max(bytes.length, 1) > limits.maxRatio) {
    throw new IngestError('Unsafe ZIP', `the archive expands more than ${limits.maxRatio}:1 (${declaredTotal} bytes from ${bytes.length})`);
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
  const fail = (e: unknown) => (e instanceof IngestError ? e : new IngestError('Corrupt ZIP', `Member ${name} cannot be read (${(e as Error).message}).`));
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
