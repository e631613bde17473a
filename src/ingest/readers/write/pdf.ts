// The file structure of a PDF from its objects (numbered from 1 in order), with the cross-reference
// table and trailer. Objects are strings of Latin-1 bytes.

export const LETTER = { width: 612, height: 792 };

/** A Letter-page PDF whose pages show `contents` with Helvetica as /F1 and Helvetica-Bold as /F2. */
export function helveticaPdf(contents: string[], info?: string): Buffer {
  return standardFontPdf(contents, ['Helvetica', 'Helvetica-Bold'], info);
}

/**
 * A Letter-page PDF whose pages show `contents` with two of the standard 14 fonts (not embedded,
 * WinAnsi encoding) as /F1 and /F2.
 */
export function standardFontPdf(contents: string[], fonts: readonly [string, string], info?: string): Buffer {
  // Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, [5 info], then a page and its content each.
  const first = info ? 6 : 5;
  const objects: string[] = [];
  const kids = contents.map((_, i) => `${first + 2 * i} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${contents.length} >>`);
  for (const font of fonts) objects.push(`<< /Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding >>`);
  if (info) objects.push(info);
  contents.forEach((content, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${LETTER.width} ${LETTER.height}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${first + 1 + 2 * i} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  });
  return pdfFile(objects, info ? '/Info 5 0 R' : '');
}

/** The bytes of a PDF whose object 1 is the catalog; `trailer` adds entries to the trailer dictionary. */
export function pdfFile(objects: string[], trailer = ''): Buffer {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailer ? ` ${trailer}` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
