import Type from 'typebox';
import type { PageRecord } from '../../domain/pages.js';
import { Id } from './common.js';

export const PageSchema = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  width: Type.Integer({ description: 'Pixels at 300 DPI (the space of DGML bounding boxes)' }),
  height: Type.Integer({ description: 'Pixels at 300 DPI' }),
  url: Type.String({ format: 'uri' }),
  downloadUrl: Type.String({ format: 'uri', description: 'PNG of the page; `?dpi=36..300` (default 300)' }),
});

export const PageListSchema = Type.Object({
  pages: Type.Array(PageSchema),
  document: Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) }),
});

export const PageParams = Type.Object({ id: Id, pageNumber: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });
export const PageContentQuery = Type.Object(
  { dpi: Type.Optional(Type.Integer({ minimum: 36, maximum: 300, description: 'Resolution of the PNG, 36..300 (default 300)' })) },
  { additionalProperties: true },
);

export function toPageJson(documentId: string, page: PageRecord, base: string) {
  const url = `${base}/documents/${documentId}/pages/${page.number}`;
  return { number: page.number, width: page.width, height: page.height, url, downloadUrl: `${url}/content` };
}
