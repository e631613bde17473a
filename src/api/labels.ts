import Type from 'typebox';
import type { FoundLabel } from '../domain/semantic-labels.js';
import { MAX_LABEL_NAME_LENGTH } from '../document/label-summary.js';
import { Cursor, Id, Limit, Next, NonNegative } from './common.js';

const Ref = Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) });

export const FoundLabelSchema = Type.Object({
  kind: Type.Union([Type.Literal('value'), Type.Literal('clause')], {
    description:
      'What the name names: `value`, a value by its role (`<docset:TenantName>Bright Owl Bakery Inc.</docset:TenantName>`); `clause`, a clause, list, table or section by what it is, around its blocks (`<docset:SecurityDeposit>`, a section\'s `<docset:{name}-section>`). Only values become properties.',
  }),
  name: Type.String({ description: 'The element name in DGML (`docset:{name}`): `TenantName`, `CurePeriod`, `_2020Rent`, `SecurityDeposit`' }),
  label: Type.String({ description: 'The name as a person writes it ("Tenant Name", "2020 Rent"): for a value, what `POST …/labels/{name}/property` creates' }),
  documentCount: Type.Integer({ minimum: 1, description: 'Ready documents of the docset with at least one value or clause of this name and kind' }),
  occurrences: Type.Integer({ minimum: 1, description: 'Values or clauses of this name and kind in those documents' }),
  example: Type.Object(
    { value: Type.String({ description: "The text of one value, or the opening of one clause's text (at most 500 characters)" }), document: Ref },
    { description: 'One value or clause of this name and the document it is in (the first such document by id)' },
  ),
  property: Type.Union([Ref, Type.Null()], {
    description: 'The docset property this value label is (its label id is the name, or the humanised name\'s): made by `POST …/property`, or defined before; null when none, and always for a clause',
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
    kind: l.kind,
    name: l.name,
    label: l.label,
    documentCount: l.documentCount,
    occurrences: l.occurrences,
    example: { value: l.example.value, document: { id: l.example.documentId, url: `${base}/documents/${l.example.documentId}` } },
    property: l.property ? { id: l.property.id, url: `${docsetUrl}/properties/${l.property.id}` } : null,
  };
}
