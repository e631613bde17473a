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

/** A German text whose words carry umlauts and ß (for textPageImage: a scanned German page). */
export const GERMAN = [
  'Die Prüfung der Gebühren für Änderungen muss schriftlich erfolgen.',
  'Größe, Maß und Übergabe werden im Anhang näher geregelt.',
  'Über die Höhe der Vergütung entscheidet der Ausschuss nach',
  'Anhörung der Beteiligten; für Schäden haftet der Käufer.',
];
/** The words of GERMAN with an umlaut or ß, each once. */
export const GERMAN_WORDS = [...new Set(GERMAN.join(' ').split(/[\s.,;]+/).filter((w) => /[äöüßÄÖÜ]/.test(w)))];

/**
 * A page of `lines` of text in 12-point Liberation Serif, as a scanner gives it at `dpi`: an A4 image
 * (PNG) of black text on white, to make into a scanned PDF with imageOnlyPdf.
 */
export async function textPageImage(lines: readonly string[], dpi = 300): Promise<PageImage> {
  const canvas = createCanvas(Math.round(8.27 * dpi), Math.round(11.69 * dpi));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = 'black';
  const size = (12 * dpi) / 72;
  ctx.font = `${Math.round(size)}px "Liberation Serif"`;
  lines.forEach((line, i) => ctx.fillText(line, dpi, dpi + i * 1.5 * size));
  return { image: await canvas.encode('png'), dpi };
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${dict}\nstream\n`), data, Buffer.from('\nendstream')]);
}
