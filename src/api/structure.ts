import Type from 'typebox';
import { Id } from './common.js';

export const DocsetDocumentParams = Type.Object({ docsetId: Id, documentId: Id });

export const ContentQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('original'), Type.Literal('text'), Type.Literal('markdown')], {
        description: '`original` (default): the uploaded bytes. `text` or `markdown` (extension): the document as Quire understood it, once Ready.',
      }),
    ),
  },
  // Clients add their own parameters to download URLs: unknown ones are ignored, as everywhere.
  { additionalProperties: true },
);
