import Type from 'typebox';
import { Id } from '../../api/common.js';
import { toDocumentJson } from '../../api/documents.js';
import { toDocsetJson } from '../../api/docsets.js';
import type { DocsetFilter, DocsetRecord, DocumentFilter, DocumentRecord } from '../../model/records.js';
import { defineOperation, field, listOperation, type Operation } from './framework.js';
import { documentFilterFields, documentFilterOf, type DocumentFilterBody } from './documents.js';

const DocsetIdField = field(Id, 'Docset ID', 'The id of the docset.');
const DocumentIdField = field(Id, 'Document ID', 'The id of the document.');
const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

interface ListDocsetsBody {
  name?: string;
  minDocuments?: number;
  maxDocuments?: number;
  samples?: boolean;
}

const listDocsets = listOperation<ListDocsetsBody, DocsetFilter, DocsetRecord>({
  id: 'ListDocsets',
  summary: 'List docsets',
  description: 'Lists the docsets of the workspace that match every given filter (as `GET /v1preview1/docsets`).',
  tag: 'Docsets',
  scope: 'read:documents',
  fields: {
    name: field(Type.String({ maxLength: 255 }), 'Name', 'Only the docset with exactly this name.'),
    minDocuments: field(Count, 'Minimum Documents', 'Only docsets holding at least this many documents.'),
    maxDocuments: field(Count, 'Maximum Documents', 'Only docsets holding at most this many documents.'),
    samples: field(Type.Boolean(), 'Include Samples', 'Also list sample docsets (default false: hidden).'),
  },
  itemsKey: 'docsets',
  item: Type.Ref('Docset'),
  // As docsetFilterFromQuery.
  filter: (b) => ({
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.minDocuments !== undefined ? { minDocuments: b.minDocuments } : {}),
    ...(b.maxDocuments !== undefined ? { maxDocuments: b.maxDocuments } : {}),
    ...(b.samples ? { samples: true } : {}),
  }),
  source: (ctx, filter) => ctx.deps.partitions.docsets(ctx.workspaceId, filter),
  toJson: toDocsetJson,
});

const getDocset = defineOperation<{ id: string }>({
  id: 'GetDocset',
  summary: 'Get a docset',
  description: 'One docset by id (as `GET /v1preview1/docsets/{id}`).',
  tag: 'Docsets',
  scope: 'read:documents',
  body: Type.Object({ id: DocsetIdField }, { additionalProperties: false }),
  response: Type.Ref('Docset'),
  errors: [400, 404],
  handler: async (ctx, body) => toDocsetJson(await ctx.deps.docsets.get(ctx.workspaceId, body.id), ctx.base),
});

const deleteDocset = defineOperation<{ id: string }>({
  id: 'DeleteDocset',
  summary: 'Delete a docset',
  description: 'Deletes the docset (as `DELETE /v1preview1/docsets/{id}`). Its documents are kept, in no docset. Answers `true`.',
  tag: 'Docsets',
  scope: 'write:documents',
  body: Type.Object({ id: DocsetIdField }, { additionalProperties: false }),
  response: field(Type.Boolean(), 'Deleted', 'Always true: the docset is gone.'),
  errors: [400, 404],
  handler: async (ctx, body) => {
    await ctx.deps.docsets.delete(ctx.workspaceId, body.id);
    return true;
  },
});

const listDocsetDocuments = listOperation<DocumentFilterBody & { id: string }, DocumentFilter & { id: string }, DocumentRecord>({
  id: 'ListDocsetDocuments',
  summary: "List a docset's documents",
  description: 'Lists the documents of one docset that match every given filter (as `GET /v1preview1/docsets/{id}/documents`).',
  tag: 'Docsets',
  scope: 'read:documents',
  fields: { id: DocsetIdField, ...documentFilterFields },
  required: ['id'],
  itemsKey: 'documents',
  item: Type.Ref('Document'),
  filter: (b) => ({ ...documentFilterOf(b), id: b.id }),
  source: (ctx, { id, ...filter }) => ctx.deps.partitions.docsetDocuments(ctx.workspaceId, id, filter),
  toJson: toDocumentJson,
});

interface MemberBody {
  docsetId: string;
  documentId: string;
}
const MemberBody = Type.Object({ docsetId: DocsetIdField, documentId: DocumentIdField }, { additionalProperties: false });

const addDocument = defineOperation<MemberBody>({
  id: 'AddDocumentToDocset',
  summary: 'Add a document to a docset',
  description:
    'Puts the document into the docset, moving it out of the docset it was in (as `PUT /v1preview1/docsets/{docsetId}/documents/{documentId}`). Answers the docset; idempotent.',
  tag: 'Docsets',
  scope: 'write:documents',
  body: MemberBody,
  response: Type.Ref('Docset'),
  errors: [400, 404, 409],
  handler: async (ctx, b) => toDocsetJson(await ctx.deps.docsets.addDocument(ctx.workspaceId, b.docsetId, b.documentId), ctx.base),
});

const removeDocument = defineOperation<MemberBody>({
  id: 'RemoveDocumentFromDocset',
  summary: 'Remove a document from a docset',
  description:
    'Takes the document out of the docset (as `DELETE /v1preview1/docsets/{docsetId}/documents/{documentId}`); the document is kept, in no docset.',
  tag: 'Docsets',
  scope: 'write:documents',
  body: MemberBody,
  response: Type.Object({
    docset: field(Type.Object({ id: Type.String({ title: 'Docset ID' }) }), 'Docset', 'The docset the document left.'),
    document: field(Type.Object({ id: Type.String({ title: 'Document ID' }) }), 'Document', 'The document, kept in the workspace.'),
    removed: field(Type.Boolean(), 'Removed', 'Always true.'),
  }),
  errors: [400, 404, 409],
  handler: async (ctx, b) => {
    await ctx.deps.docsets.removeDocument(ctx.workspaceId, b.docsetId, b.documentId);
    return { docset: { id: b.docsetId }, document: { id: b.documentId }, removed: true };
  },
});

export const docsetOperations: Operation[] = [listDocsets, getDocset, deleteDocset, listDocsetDocuments, addDocument, removeDocument];
