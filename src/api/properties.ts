import Type from 'typebox';
import type { PropertyRecord } from '../model/records.js';
import type { PropertyValue } from '../domain/properties.js';
import { Id, Timestamp } from './common.js';

const Ref = Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) });

const Box = Type.Object({ left: Type.Number(), top: Type.Number(), width: Type.Number(), height: Type.Number() });
const Location = Type.Union([Type.Object({ page: Type.Integer(), boundingBox: Box }), Type.Null()], {
  description: 'Where the value is: page (from 1) and box in 300-DPI pixels from the top-left corner, for highlighting',
});

export const PropertySchema = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    labelId: Type.String({ description: 'The element name of the property in DGML (`docset:{labelId}`), unique in the docset' }),
    docset: Ref,
    url: Type.String({ format: 'uri' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Property' },
);

export const PropertyListSchema = Type.Object({ properties: Type.Array(Type.Ref('Property')) });

const valueFields = {
  value: Type.Union([Type.String(), Type.Null()], { description: "This document's value; null when none was found or set" }),
  source: Type.Union([Type.Literal('extracted'), Type.Literal('manual'), Type.Null()], {
    description: '`manual`: set by a person (wins over extraction, survives re-extraction); `extracted`: found by Quire',
  }),
  confidence: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  location: Location,
  candidates: Type.Array(Type.Object({ value: Type.String(), confidence: Type.Number(), location: Location }), { description: 'Other plausible values, best first' }),
  evidence: Type.Union(
    [
      Type.Object({
        method: Type.String({ description: '`form-cell`, `label-line`, `section`, `defined-term`, `prose` (the role its sentence gives it, or the label\'s words around it), `found-label` (the name the document\'s DGML gives the value, GET …/docsets/{id}/labels), `learned`, `typed`' }),
        cue: Type.Union([Type.String(), Type.Null()], { description: 'The words that named the value: the label beside it, its defined term or role, the label\'s words around it' }),
        text: Type.Union([Type.String(), Type.Null()], { description: 'The sentence or line the value stands in' }),
      }),
      Type.Null(),
    ],
    { description: 'Quire extension: how an extracted value was found (null for manual values and none)' },
  ),
  document: Ref,
};

export const PropertyValueSchema = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    labelId: Type.String(),
    docset: Ref,
    url: Type.String({ format: 'uri' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    ...valueFields,
  },
  { $id: 'PropertyValue' },
);

export const DocumentPropertiesSchema = Type.Object({ properties: Type.Array(Type.Ref('PropertyValue')), document: Ref });

export const DocsetParams = Type.Object({ docsetId: Id });
export const PropertyParams = Type.Object({ docsetId: Id, propertyId: Id });
export const DocumentPropertiesParams = Type.Object({ docsetId: Id, documentId: Id });
export const PropertyDocumentParams = Type.Object({ docsetId: Id, propertyId: Id, documentId: Id });

// Label rules (XML name characters) are checked by the domain, which names the offending character.
const Label = Type.String({ minLength: 1, maxLength: 1000, description: 'XML 1.0 name characters, spaces and a leading digit allowed' });
const Value = Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()]);

export const LabelBody = Type.Object({ label: Label }, { additionalProperties: true });
export const LabelValueBody = Type.Object({ label: Label, value: Value }, { additionalProperties: true });
export const ValueBody = Type.Object({ value: Value }, { additionalProperties: true });

export function toPropertyJson(p: PropertyRecord, base: string) {
  const docsetUrl = `${base}/docsets/${p.docsetId}`;
  return {
    id: p.id,
    label: p.label,
    labelId: p.labelId,
    docset: { id: p.docsetId, url: docsetUrl },
    url: `${docsetUrl}/properties/${p.id}`,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
  };
}

export function toPropertyValueJson(p: PropertyRecord, documentId: string, v: PropertyValue, base: string) {
  return {
    ...toPropertyJson(p, base),
    value: v.value,
    source: v.source,
    confidence: v.confidence,
    location: v.location,
    candidates: v.candidates,
    evidence: v.evidence,
    document: { id: documentId, url: `${base}/documents/${documentId}` },
  };
}
