import { writeZip, type ZipEntry } from '../../src/ingest/readers/write/zip.js';

export { crc32 } from '../../src/ingest/readers/write/zip.js';

/** ZIP fixtures: entries are stored unless they ask to be deflated. */
export type ZipInput = ZipEntry;

export function makeZip(entries: ZipInput[]): Buffer {
  return writeZip(entries.map((e) => ({ ...e, deflate: e.deflate ?? false })));
}
