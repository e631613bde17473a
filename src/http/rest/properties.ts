import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { op } from '../../api/common.js';
import {
  DocsetParams,
  DocumentPropertiesParams,
  DocumentPropertiesSchema,
  LabelBody,
  LabelValueBody,
  PropertyDocumentParams,
  PropertyListSchema,
  PropertyParams,
  PropertySchema,
  PropertyValueSchema,
  ValueBody,
  toPropertyJson,
  toPropertyValueJson,
} from '../../api/properties.js';

const labelRules =
  'Labels follow XML 1.0 name rules (letters, digits, `.`, `-`, `_`, `:`), except that spaces and a leading digit are allowed; anything else is a 400 naming the character. The label id (`Accident Number` -> `AccidentNumber`, `2nd Party` -> `_2ndParty`) is unique in a docset: a second label with the same id is a 409.';

export function propertyRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const list = op({ id: 'listProperties', summary: "List a docset's properties", tag: 'Properties', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/docsets/:docsetId/properties',
    { config: list.config, schema: { ...list.schema, params: DocsetParams, response: { 200: PropertyListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const properties = await deps.properties.list(workspace.id, request.params.docsetId);
      return { properties: properties.map((p) => toPropertyJson(p, base)) };
    },
  );

  const create = op({
    id: 'createProperty',
    summary: 'Create a property',
    tag: 'Properties',
    scope: 'write:documents',
    errors: [400, 404, 409],
    description: `Its value is then extracted from every Ready document of the docset (a job). ${labelRules}`,
  });
  app.post(
    '/docsets/:docsetId/properties',
    { config: create.config, schema: { ...create.schema, params: DocsetParams, body: LabelBody, response: { 201: PropertySchema, ...create.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const p = await deps.properties.create(workspace.id, request.params.docsetId, request.body);
      return reply.code(201).send(toPropertyJson(p, base));
    },
  );

  const get = op({ id: 'getProperty', summary: 'Get a property', tag: 'Properties', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/docsets/:docsetId/properties/:propertyId',
    { config: get.config, schema: { ...get.schema, params: PropertyParams, response: { 200: PropertySchema, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toPropertyJson(await deps.properties.get(workspace.id, request.params.docsetId, request.params.propertyId), base);
    },
  );

  const relabel = op({
    id: 'relabelProperty',
    summary: 'Relabel a property',
    tag: 'Properties',
    scope: 'write:documents',
    errors: [400, 404, 409],
    description: `The id and the values stay; values are extracted again for the new label (manual values stay). ${labelRules}`,
  });
  app.put(
    '/docsets/:docsetId/properties/:propertyId',
    { config: relabel.config, schema: { ...relabel.schema, params: PropertyParams, body: LabelBody, response: { 200: PropertySchema, ...relabel.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toPropertyJson(await deps.properties.relabel(workspace.id, request.params.docsetId, request.params.propertyId, request.body), base);
    },
  );

  const remove = op({ id: 'deleteProperty', summary: 'Delete a property (extension)', tag: 'Properties', scope: 'write:documents', errors: [400, 404], description: 'Its values in every document go with it.' });
  app.delete(
    '/docsets/:docsetId/properties/:propertyId',
    { config: remove.config, schema: { ...remove.schema, params: PropertyParams, response: { 204: { type: 'null', description: 'Deleted' }, ...remove.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      await deps.properties.delete(workspace.id, request.params.docsetId, request.params.propertyId);
      return reply.code(204).send(null);
    },
  );

  const valueNote =
    'A value carries `source` (`extracted` or `manual`), `confidence` (0..1), `location` ({page, boundingBox} in 300-DPI pixels) and `candidates` (extensions). 404 when the document is not in the docset.';

  const docProps = op({ id: 'getDocumentPropertyValues', summary: "A document's property values", tag: 'Properties', scope: 'read:documents', errors: [400, 404], description: valueNote });
  app.get(
    '/docsets/:docsetId/document-properties/:documentId',
    { config: docProps.config, schema: { ...docProps.schema, params: DocumentPropertiesParams, response: { 200: DocumentPropertiesSchema, ...docProps.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { docsetId, documentId } = request.params;
      const values = await deps.properties.documentProperties(workspace.id, docsetId, documentId);
      return { properties: values.map((v) => toPropertyValueJson(v.property, documentId, v.value, base)), document: { id: documentId, url: `${base}/documents/${documentId}` } };
    },
  );

  const setByLabel = op({
    id: 'setDocumentPropertyValueByLabel',
    summary: "Set a document's value by label",
    tag: 'Properties',
    scope: 'write:documents',
    errors: [400, 404, 409],
    description: `The property is created when the docset lacks it; the value is this document's manual value (null hands it back to extraction). ${valueNote} ${labelRules}`,
  });
  app.post(
    '/docsets/:docsetId/document-properties/:documentId',
    { config: setByLabel.config, schema: { ...setByLabel.schema, params: DocumentPropertiesParams, body: LabelValueBody, response: { 200: PropertyValueSchema, ...setByLabel.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { docsetId, documentId } = request.params;
      const r = await deps.properties.setByLabel(workspace.id, docsetId, documentId, request.body);
      return toPropertyValueJson(r.property, documentId, r.value, base);
    },
  );

  const getValue = op({ id: 'getDocumentPropertyValue', summary: "A document's value for a property", tag: 'Properties', scope: 'read:documents', errors: [400, 404], description: valueNote });
  app.get(
    '/docsets/:docsetId/properties/:propertyId/documents/:documentId',
    { config: getValue.config, schema: { ...getValue.schema, params: PropertyDocumentParams, response: { 200: PropertyValueSchema, ...getValue.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { docsetId, propertyId, documentId } = request.params;
      const r = await deps.properties.documentValue(workspace.id, docsetId, propertyId, documentId);
      return toPropertyValueJson(r.property, documentId, r.value, base);
    },
  );

  const setValue = op({
    id: 'setDocumentPropertyValue',
    summary: "Set a document's value for a property",
    tag: 'Properties',
    scope: 'write:documents',
    errors: [400, 404],
    description: `A manual value wins over extraction and survives re-extraction; \`value: null\` hands it back to extraction. ${valueNote}`,
  });
  app.put(
    '/docsets/:docsetId/properties/:propertyId/documents/:documentId',
    { config: setValue.config, schema: { ...setValue.schema, params: PropertyDocumentParams, body: ValueBody, response: { 200: PropertyValueSchema, ...setValue.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { docsetId, propertyId, documentId } = request.params;
      const r = await deps.properties.setDocumentValue(workspace.id, docsetId, propertyId, documentId, request.body);
      return toPropertyValueJson(r.property, documentId, r.value, base);
    },
  );
}
