import { Document, HeadingLevel, Packer, Paragraph, TextRun, type IParagraphOptions } from 'docx';
import { xmlSafe } from './xml.js';

type Heading = (typeof HeadingLevel)[keyof typeof HeadingLevel];

/** Runs for a text: XML-forbidden characters dropped, line breaks kept as breaks. */
export function runs(text: string, style: { bold?: boolean; italics?: boolean } = {}): TextRun[] {
  return xmlSafe(text)
    .split(/\r\n|\r|\n/)
    .map((line, i) => new TextRun({ text: line, ...style, ...(i > 0 ? { break: 1 } : {}) }));
}

export function heading(text: string, level: Heading): Paragraph {
  return new Paragraph({ heading: level, children: runs(text) });
}

export function paragraph(children: TextRun[], options: Omit<IParagraphOptions, 'children'> = {}): Paragraph {
  return new Paragraph({ ...options, children });
}

/** A one-section Word document of the paragraphs. */
export function docxBuffer(title: string, paragraphs: Paragraph[]): Promise<Buffer> {
  const doc = new Document({ creator: 'Quire', title: xmlSafe(title), sections: [{ children: paragraphs }] });
  return Packer.toBuffer(doc);
}

export { HeadingLevel };
