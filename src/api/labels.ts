import Type from 'typebox';
import type { FoundLabel } from '../domain/semantic-labels.js';
import { MAX_LABEL_NAME_LENGTH } from '../document/label-summary.js';
import { Cursor, Id, Limit, Next, NonNegative } from './common.js';

const Ref = Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) });

export const FoundLabelSchema = Type.Object({
  name: Type.String({ description: 'The element name in DGML (`docset:{name}`): `TenantName`, `CurePeriod`, `_2020Rent`' }),
  label: Type.String({ description: 'The name as a property label ("Tenant Name", "2020 Rent"): what `POST …/labels/{name}/property` creates' }),
  documentCount: Type.Integer({ minimum: 1, description: 'Ready documents of the docset with at least one value of this name' }),
  occurrences: Type.Integer({ minimum: 1, description: 'Values of this name in those documents' }),
  example: Type.Object(
    { value: Type.String({ description: 'The text of one value (at most 500 characters)' }), document: Ref },
    { description: 'One value of this name and the document it is in (the first such document by id)' },
  ),
  property: Type.Union([Ref, Type.Null()], {
    description: 'The docset property this label is (its label id is the name, or the humanised name\'s): made by `POST …/property`, or defined before; null when none',
  }),
});

export const FoundLabelListSchema = Type.Object({
  labels: Type.Array(FoundLabelSchema),
  next: Next,
  pendingDocuments: NonNegative,
});

export const DocsetLabelsParams = Type.Object({ docsetId: Id });
export const DocsetLabelParams = Type.Object({
  docsetId: Id,
  // The name's rules (an XML name) are checked by the domain, which says what a name is.
  name: Type.String({ minLength: 1, maxLength: MAX_LABEL_NAME_LENGTH, description: 'A label name as the labels list gives it (`TenantName`)' }),
});

export const ListLabelsQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: true });

export function toFoundLabelJson(l: FoundLabel, docsetId: string, base: string) {
  const docsetUrl = `${base}/docsets/${docsetId}`;
  return {
    name: l.name,
    label: l.label,
    documentCount: l.documentCount,
    occurrences: l.occurrences,
    example: { value: l.example.value, document: { id: l.example.documentId, url: `${base}/documents/${l.example.documentId}` } },
    property: l.property ? { id: l.property.id, url: `${docsetUrl}/properties/${l.property.id}` } : null,
  };
}
