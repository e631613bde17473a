import { createCanvas, loadImage } from '@napi-rs/canvas';

export interface PageImage {
  /** The page as an image (PNG or JPEG). */
  image: Buffer;
  /** The resolution it was scanned at: the page measures pixels × 72 / dpi points. */
  dpi: number;
  /** A line of real text drawn at the top of the page, over the scan (an e-filing header, a Bates number). */
  stamp?: string;
}

/**
 * A PDF whose pages are only images, as a scanner makes them: each page one JPEG (/DCTDecode) drawn
 * over the whole page, and no text. Objects and cross-reference table are written by hand.
 */
export async function imageOnlyPdf(pages: PageImage[]): Promise<Buffer> {
  const objects: Buffer[] = [];
  // Object numbers: 1 catalog, 2 page tree, then page, content stream, image for each page.
  const pageRef = (i: number) => 3 + i * 3;
  for (const [i, page] of pages.entries()) {
    const img = await loadImage(page.image);
    const canvas = createCanvas(img.width, img.height);
    canvas.getContext('2d').drawImage(img, 0, 0);
    const jpeg = await canvas.encode('jpeg', 90);
    const w = (img.width * 72) / page.dpi;
    const h = (img.height * 72) / page.dpi;
    const stamp = page.stamp ? ` BT /F1 9 Tf 36 ${h - 20} Td (${page.stamp.replace(/[()\\]/g, '\\$&')}) Tj ET` : '';
    const content = Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Scan Do Q${stamp}`);
    const font = page.stamp ? ' /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>' : '';
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Scan ${pageRef(i) + 2} 0 R >>${font} >> /Contents ${pageRef(i) + 1} 0 R >>`,
      ),
      stream(`<< /Length ${content.length} >>`, content),
      stream(`<< /Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>`, jpeg),
    );
  }
  const kids = pages.map((_, i) => `${pageRef(i)} 0 R`).join(' ');
  objects.unshift(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'), Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`));

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  }
  // Each cross-reference entry is exactly 20 bytes, its end of line included.
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f\r', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n\r`)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${dict}\nstream\n`), data, Buffer.from('\nendstream')]);
}
