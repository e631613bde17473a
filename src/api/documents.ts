import Type, { type Static } from 'typebox';
import { DOCUMENT_STATUSES, type DocumentStatus } from '../model/lifecycle.js';
import type { DocumentFilter, DocumentRecord } from '../model/records.js';
import { invalid } from '../domain/errors.js';
import { MAX_METADATA_FILTERS, checkMetadataFilterCount } from '../domain/metadata.js';
import { Cursor, Id, Limit, Next, NonNegative, PageCount, Timestamp } from './common.js';

export const DocumentStatusSchema = Type.Union([
  Type.Literal('New'),
  Type.Literal('Ingesting'),
  Type.Literal('Ingested'),
  Type.Literal('Processing'),
  Type.Literal('Ready'),
  Type.Literal('Error'),
  Type.Literal('OverQuota'),
]);
// Fails to compile when the domain gains a status this schema lacks.
void (DOCUMENT_STATUSES satisfies readonly Static<typeof DocumentStatusSchema>[]);

export const DocumentSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: Timestamp,
    size: Type.Integer({ description: 'Bytes' }),
    status: DocumentStatusSchema,
    url: Type.String({ format: 'uri' }),
    downloadUrl: Type.String({ format: 'uri' }),
    docset: Type.Optional(
      Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }), dgmlUrl: Type.String({ format: 'uri' }) }),
    ),
    docsetCandidates: Type.Optional(
      Type.Array(Type.String(), { description: 'Docsets named at upload (`a|b`) that the document will be classified into.' }),
    ),
    error: Type.Optional(Type.Object({ title: Type.String(), detail: Type.String() })),
    progress: Type.Optional(
      Type.Object(
        {
          stage: Type.String({ description: 'reading, extracting, storing, stored, processing, expanding' }),
          pagesDone: Type.Integer(),
          pagesTotal: Type.Union([Type.Integer(), Type.Null()]),
        },
        { description: 'Present while the document is being ingested or processed.' },
      ),
    ),
    processing: Type.Optional(
      Type.Object(
        {
          format: Type.String(),
          pagination: Type.Optional(
            Type.String({ description: '`pdf` (the original), `libreoffice` (converted by LibreOffice: DOCX, DOC, HTML when it is installed) or `text-layout` (laid out by Quire: always for TXT)' }),
          ),
          durationMs: Type.Optional(Type.Integer()),
          analysis: Type.Optional(
            Type.Object(
              {
                ocrPages: Type.Array(Type.Integer(), { description: 'Pages whose text came from OCR' }),
                ocrFailedPages: Type.Optional(Type.Array(Type.Integer(), { description: 'Pages the OCR engine failed on (they keep the text they had)' })),
                ocrTimedOutPages: Type.Optional(
                  Type.Array(Type.Integer(), { description: 'Pages whose OCR ran past the per-page budget (QUIRE_OCR_PAGE_TIMEOUT_MS) and was given up (they keep the text they had)' }),
                ),
                textMs: Type.Integer({ description: 'Text extraction (positions, fonts, drawn rules)' }),
                ocrMs: Type.Integer(),
                layoutMs: Type.Integer(),
                entitiesMs: Type.Integer(),
                storeMs: Type.Integer(),
              },
              { description: 'The `Processing` stage (document understanding): time spent per step, in ms' },
            ),
          ),
          members: Type.Optional(Type.Array(Type.String(), { description: 'ZIP: the ids of the documents made from its members' })),
          skipped: Type.Optional(
            Type.Array(Type.Object({ name: Type.String(), reason: Type.String() }), { description: 'ZIP: entries that were not documents, and why' }),
          ),
        },
        { description: 'Processing details, once ingestion has read the document (or expanded the ZIP).' },
      ),
    ),
    classification: Type.Optional(
      Type.Object(
        {
          candidates: Type.Array(
            Type.Object({
              docset: Type.Object({ id: Type.String() }),
              score: Type.Number({ description: 'Cosine similarity, 0..1' }),
              basis: Type.String({ description: '`documents` (the docset\'s processed documents) or `name` (an empty docset competes on its name)' }),
            }),
          ),
          chosen: Type.Object({ id: Type.String() }),
        },
        { description: 'An upload that named several docsets: how it was classified (extension)' },
      ),
    ),
    isSample: Type.Boolean(),
    pageCount: Type.Optional(Type.Integer()),
    processedAt: Type.Optional(Timestamp),
    contentType: Type.String(),
    sha256: Type.String(),
    metadata: Type.Array(Type.Object({ key: Type.String(), value: Type.String() }), {
      description: 'Its metadata entries in order (at most 10; `GET`/`PUT`/`POST /documents/{id}/metadata`); `[]` when it has none.',
    }),
  },
  { $id: 'Document' },
);
export type DocumentJson = Static<typeof DocumentSchema>;

export const DocumentListSchema = Type.Object({
  documents: Type.Array(Type.Ref('Document')),
  next: Next,
});

export const UploadResponseSchema = Type.Object(
  {
    ...DocumentSchema.properties,
    documents: Type.Array(Type.Ref('Document')),
    errors: Type.Array(Type.Ref('Problem')),
  },
  { description: 'The created Document (the official SDK reads one Document) plus the list envelope `{documents, errors}`.' },
);

/** Query filters shared by `GET /documents` and `GET /docsets/{id}/documents`. */
const documentFilterProps = {
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
  prefix: Type.Optional(Type.String({ maxLength: 1024, description: 'Name starts with (case-sensitive).' })),
  status: Type.Optional(DocumentStatusSchema),
  minPages: Type.Optional(PageCount),
  maxPages: Type.Optional(PageCount),
  minSize: Type.Optional(NonNegative),
  maxSize: Type.Optional(NonNegative),
  samples: Type.Optional(Type.Boolean({ description: 'Include sample documents (default false).' })),
};

export const ListDocumentsQuery = Type.Object(
  {
    ...documentFilterProps,
    name: Type.Optional(Type.String({ maxLength: 1024, description: 'Exact name.' })),
    'docset.id': Type.Optional(Id),
    'docset[id]': Type.Optional(Id),
  },
  {
    additionalProperties: true,
    description: `Also \`metadata.{key}=value\` (key: 1-100 word characters), ANDed, at most ${MAX_METADATA_FILTERS} (more: 400). Unknown parameters are ignored.`,
  },
);
export type ListDocumentsQuery = Static<typeof ListDocumentsQuery>;

export const ListDocsetDocumentsQuery = Type.Object(documentFilterProps, { additionalProperties: true });
export type ListDocsetDocumentsQuery = Static<typeof ListDocsetDocumentsQuery>;

const METADATA_PARAM = /^metadata\.(.*)$/s;
const METADATA_KEY = /^\w{1,100}$/;

/** The filter a documents query asks for; `metadata.{key}` names are checked here (400 if bad). */
export function documentFilterFromQuery(q: Record<string, unknown>): DocumentFilter {
  const f: DocumentFilter = {};
  const s = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : undefined);
  const n = (k: string) => (typeof q[k] === 'number' ? (q[k] as number) : undefined);
  f.name = s('name');
  f.prefix = s('prefix');
  f.docsetId = s('docset.id') ?? s('docset[id]');
  f.status = s('status') as DocumentStatus | undefined;
  f.minPages = n('minPages');
  f.maxPages = n('maxPages');
  f.minSize = n('minSize');
  f.maxSize = n('maxSize');
  f.samples = q.samples === true;
  checkMetadataFilterCount(Object.keys(q).filter((param) => METADATA_PARAM.test(param)).length);
  for (const [param, value] of Object.entries(q)) {
    const m = METADATA_PARAM.exec(param);
    if (!m) continue;
    if (!METADATA_KEY.test(m[1]!)) {
      throw invalid(`query parameter "${param}": metadata keys are 1 to 100 letters, digits or underscores.`);
    }
    f.metadata ??= {};
    f.metadata[m[1]!] = Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  }
  for (const k of Object.keys(f) as (keyof DocumentFilter)[]) if (f[k] === undefined) delete f[k];
  return f;
}

/** The same filter as readable query parameters, for `next` URLs. */
export function documentFilterToQuery(f: DocumentFilter, opts: { docsetInPath?: boolean } = {}): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.name !== undefined) q.name = f.name;
  if (f.prefix !== undefined) q.prefix = f.prefix;
  if (f.docsetId !== undefined && !opts.docsetInPath) q['docset.id'] = f.docsetId;
  if (f.status !== undefined) q.status = f.status;
  for (const k of ['minPages', 'maxPages', 'minSize', 'maxSize'] as const) if (f[k] !== undefined) q[k] = String(f[k]);
  if (f.samples) q.samples = 'true';
  for (const [k, v] of Object.entries(f.metadata ?? {})) q[`metadata.${k}`] = v;
  return q;
}

export function toDocumentJson(d: DocumentRecord, base: string): DocumentJson {
  const url = `${base}/documents/${d.id}`;
  const json: DocumentJson = {
    id: d.id,
    name: d.name,
    createdAt: new Date(d.createdAt).toISOString(),
    size: d.size,
    status: d.status,
    url,
    downloadUrl: `${url}/content`,
    isSample: d.isSample,
    contentType: d.contentType,
    sha256: d.sha256,
    metadata: d.metadata ?? [],
  };
  if (d.docsetId) {
    const docsetUrl = `${base}/docsets/${d.docsetId}`;
    json.docset = { id: d.docsetId, url: docsetUrl, dgmlUrl: `${docsetUrl}/documents/${d.id}/dgml` };
  }
  if (d.docsetCandidates.length) json.docsetCandidates = d.docsetCandidates;
  if (d.error) json.error = d.error;
  if (d.progress) json.progress = d.progress;
  if (d.processing) {
    const { durationMs, analysis, ...rest } = d.processing;
    json.processing = rest;
    if (durationMs !== undefined) json.processing.durationMs = Math.round(durationMs);
    if (analysis) {
      json.processing.analysis = {
        ocrPages: analysis.ocrPages,
        ...(analysis.ocrFailedPages?.length ? { ocrFailedPages: analysis.ocrFailedPages } : {}),
        ...(analysis.ocrTimedOutPages?.length ? { ocrTimedOutPages: analysis.ocrTimedOutPages } : {}),
        textMs: Math.round(analysis.textMs ?? 0),
        ocrMs: Math.round(analysis.ocrMs),
        layoutMs: Math.round(analysis.layoutMs),
        entitiesMs: Math.round(analysis.entitiesMs),
        storeMs: Math.round(analysis.storeMs),
      };
    }
  }
  if (d.classification) json.classification = d.classification;
  if (d.pageCount !== null) json.pageCount = d.pageCount;
  if (d.processedAt !== null) json.processedAt = new Date(d.processedAt).toISOString();
  return json;
}
