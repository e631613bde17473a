import { crc32, deflateSync } from 'node:zlib';

/**
 * An 8-bit grayscale PNG of `gray` (one byte a pixel, rows top to bottom). Fast deflate: for OCR.
 * Not a PGM, though one costs nothing to write: the tesseract CLI spent ~300 ms more CPU reading a
 * 200-DPI Letter page as PGM than as this PNG, which takes ~12 ms to write (bench/README.md, 2026-12-02).
 */
export function grayPng(gray: Uint8Array, width: number, height: number): Buffer {
  return png(gray, width, height, 1, GRAY, 1);
}

/**
 * An 8-bit RGBA PNG of `rgba` (four bytes a pixel, rows top to bottom): a page image. Rows unfiltered,
 * deflated at zlib's default level: on corpus pages at 300 DPI about 150 ms and 20–30 % smaller than
 * the canvas's encoder, which took about 500 ms with the copy into it (bench/README.md, page-images).
 */
export function rgbaPng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  return png(rgba, width, height, 4, RGBA, 6);
}

const GRAY = 0;
const RGBA = 6;

function png(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, bytesPerPixel: number, colorType: number, level: number): Buffer {
  const row = width * bytesPerPixel;
  const rows = Buffer.alloc((row + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter type 0 (none) before each row.
    rows.set(pixels.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}
