import Type from 'typebox';
import type { PageRecord } from '../domain/pages.js';
import { Id } from './common.js';

const PageDocument = Type.Object(
  { id: Type.String(), url: Type.String({ format: 'uri' }), downloadUrl: Type.String({ format: 'uri', description: "The document's original bytes" }) },
  { description: 'The document the page belongs to' },
);

export const PageSchema = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  width: Type.Integer({ description: 'Pixels at 300 DPI (the space of DGML bounding boxes)' }),
  height: Type.Integer({ description: 'Pixels at 300 DPI' }),
  url: Type.String({ format: 'uri' }),
  downloadUrl: Type.String({ format: 'uri', description: 'PNG of the page; `?dpi=36..300` (default 300)' }),
  document: PageDocument,
});

export const PageListSchema = Type.Object({
  pages: Type.Array(PageSchema),
  document: PageDocument,
});

export const PageParams = Type.Object({ id: Id, pageNumber: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });
export const PageContentQuery = Type.Object(
  { dpi: Type.Optional(Type.Integer({ minimum: 36, maximum: 300, description: 'Resolution of the PNG, 36..300 (default 300)' })) },
  { additionalProperties: true },
);

/** `{id, url, downloadUrl}` of a page's document (each Page and the page list carry it). */
export function toPageDocumentJson(documentId: string, base: string) {
  const url = `${base}/documents/${documentId}`;
  return { id: documentId, url, downloadUrl: `${url}/content` };
}

export function toPageJson(documentId: string, page: PageRecord, base: string, document = toPageDocumentJson(documentId, base)) {
  const url = `${base}/documents/${documentId}/pages/${page.number}`;
  return { number: page.number, width: page.width, height: page.height, url, downloadUrl: `${url}/content`, document };
}
