import Type from 'typebox';
import { Id } from '../../api/common.js';
import { toDocumentJson } from '../../api/documents.js';
import { DOCUMENT_STATUSES, type DocumentStatus } from '../../model/lifecycle.js';
import type { DocumentFilter, DocumentRecord } from '../../model/records.js';
import { MAX_METADATA_FILTERS, MAX_VALUE_LENGTH, checkMetadataFilterCount } from '../../domain/metadata.js';
import { invalid } from '../../domain/errors.js';
import { defineOperation, field, listOperation, type Operation } from './framework.js';

export const StatusField = field(
  Type.Unsafe<DocumentStatus>({ type: 'string', enum: [...DOCUMENT_STATUSES] }),
  'Status',
  `Only documents in this status: ${DOCUMENT_STATUSES.join(', ')}.`,
);

/** Filters shared by SearchDocuments and ListDocsetDocuments, as in the REST lists. */
export const documentFilterFields = {
  prefix: field(Type.String({ maxLength: 1024 }), 'Name Prefix', 'Only documents whose name starts with this text (case-sensitive).'),
  status: StatusField,
  minPages: field(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), 'Minimum Pages', 'Only documents with at least this many pages.'),
  maxPages: field(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), 'Maximum Pages', 'Only documents with at most this many pages.'),
  minSize: field(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), 'Minimum Size', 'Only documents of at least this many bytes.'),
  maxSize: field(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), 'Maximum Size', 'Only documents of at most this many bytes.'),
  samples: field(Type.Boolean(), 'Include Samples', 'Also list sample documents (default false: hidden).'),
};

/** The operation body's filter: the domain's, with metadata as a list of pairs. */
export type DocumentFilterBody = Omit<DocumentFilter, 'metadata'> & { metadata?: { key: string; value: string }[] };

/** The same filter REST builds from a query (documentFilterFromQuery), from an operation body. */
export function documentFilterOf(b: DocumentFilterBody): DocumentFilter {
  const f: DocumentFilter = {
    name: b.name,
    prefix: b.prefix,
    docsetId: b.docsetId,
    status: b.status,
    minPages: b.minPages,
    maxPages: b.maxPages,
    minSize: b.minSize,
    maxSize: b.maxSize,
    samples: b.samples === true,
  };
  checkMetadataFilterCount(b.metadata?.length ?? 0);
  for (const [i, m] of (b.metadata ?? []).entries()) {
    f.metadata ??= {};
    if (m.key in f.metadata) throw invalid(`body field "metadata.${i}.key": the key "${m.key}" is given twice.`);
    f.metadata[m.key] = m.value;
  }
  for (const k of Object.keys(f) as (keyof DocumentFilter)[]) if (f[k] === undefined) delete f[k];
  return f;
}

const searchDocuments = listOperation<DocumentFilterBody, DocumentFilter, DocumentRecord>({
  id: 'SearchDocuments',
  summary: 'Search documents',
  description: 'Lists the documents of the workspace that match every given filter (as `GET /v1preview1/documents`).',
  tag: 'Documents',
  scope: 'read:documents',
  fields: {
    name: field(Type.String({ maxLength: 1024 }), 'Name', 'Only documents with exactly this name (use Name Prefix to match its beginning).'),
    ...documentFilterFields,
    docsetId: field(Id, 'Docset ID', 'Only documents in this docset.'),
    metadata: field(
      Type.Array(
        Type.Object(
          {
            key: field(Type.String({ pattern: '^\\w{1,100}$' }), 'Metadata Key', '1 to 100 letters, digits or underscores.'),
            value: field(Type.String({ maxLength: MAX_VALUE_LENGTH }), 'Metadata Value', 'The exact value the document has for the key.'),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_METADATA_FILTERS },
      ),
      'Metadata',
      'Only documents having every one of these key/value pairs.',
    ),
  },
  itemsKey: 'documents',
  item: Type.Ref('Document'),
  filter: documentFilterOf,
  source: (ctx, filter) => ctx.deps.partitions.documents(ctx.workspaceId, filter),
  toJson: toDocumentJson,
});

const getDocument = defineOperation<{ id: string }>({
  id: 'GetDocument',
  summary: 'Get a document',
  description: 'One document by id (as `GET /v1preview1/documents/{id}`).',
  tag: 'Documents',
  scope: 'read:documents',
  body: Type.Object({ id: field(Id, 'Document ID', 'The id of the document.') }, { additionalProperties: false }),
  response: Type.Ref('Document'),
  errors: [400, 404],
  handler: async (ctx, body) => toDocumentJson(await ctx.deps.documents.get(ctx.workspaceId, body.id), ctx.base),
});

export const documentOperations: Operation[] = [searchDocuments, getDocument];
