import yauzl from 'yauzl';
import { formatOfName } from '../../../model/formats.js';
import { IngestError } from '../../../document/pages.js';

export const ZIP_LIMITS = {
  maxEntries: 1000,
  maxTotalBytes: 2 * 1024 ** 3,
  /** Entries inflating beyond ratioMinBytes may not exceed maxRatio times their compressed size. */
  maxRatio: 100,
  ratioMinBytes: 1024 ** 2,
};
export type ZipLimits = typeof ZIP_LIMITS;

const MEMBER_EXTS = new Set(['pdf', 'docx', 'doc', 'txt', 'html']);

export interface ZipMember {
  name: string;
  ext: string;
  bytes: Buffer;
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
 * their reasons. Nothing is written to the file system. Throws IngestError("Unsafe ZIP") when the
 * archive exceeds the entry count, total size, or compression-ratio limits.
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
  const budget = { total: 0 };
  let count = 0;
  await eachEntry(zip, async (entry, name) => {
    if (++count > limits.maxEntries) throw new IngestError('Unsafe ZIP', `more than ${limits.maxEntries} entries`);
    if (name.endsWith('/') || name.endsWith('\\')) return void skipped.push({ name, reason: 'directory' });
    const unsafe = unsafePath(name);
    if (unsafe) return void skipped.push({ name, reason: unsafe });
    if (isSymlink(entry)) return void skipped.push({ name, reason: 'symbolic link' });
    const base = name.split(/[\\/]/).pop() ?? name;
    if (name.startsWith('__MACOSX/') || base.startsWith('._')) return void skipped.push({ name, reason: 'macOS metadata' });
    const ext = formatOfName(base)?.ext;
    if (ext === 'zip') return void skipped.push({ name, reason: 'nested archive' });
    if (!ext || !MEMBER_EXTS.has(ext)) return void skipped.push({ name, reason: 'file type not supported' });
    if (entry.isEncrypted()) return void skipped.push({ name, reason: 'encrypted member' });
    const data = await inflate(zip, entry, name, limits, budget);
    if (data.length === 0) return void skipped.push({ name, reason: 'empty file' });
    members.push({ name, ext, bytes: data });
  });
  return { members, skipped };
}
