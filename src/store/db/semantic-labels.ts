import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What a found label names (document/label-summary.ts's LabelKind): a value or a clause. */
export type LabelKind = 'value' | 'clause';

/** One name of a document's found labels, as summarised from its structure. */
export interface LabelRow {
  kind: LabelKind;
  name: string;
  example: string;
  occurrences: number;
}

/** A name found in a docset: how many of its Ready documents have it, and the first of them by id. */
export interface DocsetLabelCount {
  kind: LabelKind;
  name: string;
  documents: number;
  occurrences: number;
  firstDocumentId: string;
}

/** A Ready document whose labels are not summarised for its current processing. */
export interface UnscannedDocument {
  id: string;
  structureBlobKey: string;
  processedAt: number;
}

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_BATCH = 200;

/**
 * The labels found in documents' structures (`semantic_labels`, one row per document and name) and
 * which processing of each document they are of (`semantic_label_scans`). Rows count only while the
 * scan's `processed_at` is the document's: a document processed again is summarised again.
 */
export class SemanticLabelsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The document's labels are `rows`, of the processing at `processedAt` (replacing any earlier summary). */
  async replace(doc: { workspaceId: string; id: string }, processedAt: number, rows: readonly LabelRow[], now: number): Promise<void> {
    await this.db.deleteFrom('semantic_labels').where('document_id', '=', doc.id).execute();
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      const values = rows
        .slice(i, i + INSERT_BATCH)
        .map((r) => ({ document_id: doc.id, workspace_id: doc.workspaceId, kind: r.kind, name: r.name, example: r.example, occurrences: r.occurrences }));
      await this.db
        .insertInto('semantic_labels')
        .values(values)
        // Another summary of the same structure got here first (two requests backfilling at once): the same rows.
        .onConflict((oc) => oc.columns(['document_id', 'kind', 'name']).doUpdateSet((eb) => ({ example: eb.ref('excluded.example'), occurrences: eb.ref('excluded.occurrences') })))
        .execute();
    }
    const scan = { processed_at: processedAt, label_count: rows.length, scanned_at: now };
    await this.db
      .insertInto('semantic_label_scans')
      .values({ document_id: doc.id, workspace_id: doc.workspaceId, ...scan })
      .onConflict((oc) => oc.column('document_id').doUpdateSet(scan))
      .execute();
  }

  /** The docset's Ready documents whose labels are not summarised for their current processing, by id. */
  async unscanned(workspaceId: string, docsetId: string, limit: number): Promise<UnscannedDocument[]> {
    const rows = await this.unscannedQuery(workspaceId, docsetId).select(['d.id', 'd.structure_blob_key', 'd.processed_at']).orderBy('d.id').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, structureBlobKey: r.structure_blob_key!, processedAt: Number(r.processed_at) }));
  }

  async countUnscanned(workspaceId: string, docsetId: string): Promise<number> {
    const row = await this.unscannedQuery(workspaceId, docsetId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private unscannedQuery(workspaceId: string, docsetId: string) {
    return this.db
      .selectFrom('documents as d')
      .leftJoin('semantic_label_scans as s', (j) => j.onRef('s.document_id', '=', 'd.id').onRef('s.processed_at', '=', 'd.processed_at'))
      .where('d.workspace_id', '=', workspaceId)
      .where('d.docset_id', '=', docsetId)
      .where('d.status', '=', 'Ready')
      .where('d.structure_blob_key', 'is not', null)
      .where('d.processed_at', 'is not', null)
      .where('s.document_id', 'is', null);
  }

  /** The summarised labels of the docset's Ready documents, for the documents' current processing. */
  private docsetRows(workspaceId: string, docsetId: string) {
    return this.db
      .selectFrom('documents as d')
      .innerJoin('semantic_label_scans as s', (j) => j.onRef('s.document_id', '=', 'd.id').onRef('s.processed_at', '=', 'd.processed_at'))
      .innerJoin('semantic_labels as l', 'l.document_id', 'd.id')
      .where('d.workspace_id', '=', workspaceId)
      .where('d.docset_id', '=', docsetId)
      .where('d.status', '=', 'Ready');
  }

  /** Every name of every kind found in the docset, with its document count (unordered: the caller sorts). */
  async docsetCounts(workspaceId: string, docsetId: string): Promise<DocsetLabelCount[]> {
    const rows = await this.docsetRows(workspaceId, docsetId)
      .groupBy(['l.kind', 'l.name'])
      .select((eb) => ['l.kind', 'l.name', eb.fn.countAll<number>().as('documents'), eb.fn.sum<number>('l.occurrences').as('occurrences'), eb.fn.min<string>('l.document_id').as('first_document')])
      .execute();
    return rows.map((r) => ({ kind: r.kind as LabelKind, name: r.name, documents: Number(r.documents), occurrences: Number(r.occurrences), firstDocumentId: r.first_document }));
  }

  /** The kinds of the name that Ready documents of the docset have (none: the docset does not have it). */
  async docsetKinds(workspaceId: string, docsetId: string, name: string): Promise<LabelKind[]> {
    const rows = await this.docsetRows(workspaceId, docsetId).where('l.name', '=', name).select('l.kind').distinct().execute();
    return rows.map((r) => r.kind as LabelKind);
  }

  /** The examples of (document, kind, name) triples, keyed by exampleKey. */
  async examples(keys: readonly { documentId: string; kind: LabelKind; name: string }[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (keys.length === 0) return out;
    const rows = await this.db
      .selectFrom('semantic_labels')
      .select(['document_id', 'kind', 'name', 'example'])
      .where((eb) => eb.or(keys.map((k) => eb.and([eb('document_id', '=', k.documentId), eb('kind', '=', k.kind), eb('name', '=', k.name)]))))
      .execute();
    for (const r of rows) out.set(exampleKey({ documentId: r.document_id, kind: r.kind as LabelKind, name: r.name }), r.example);
    return out;
  }

  /** One document's summary, by kind then name, and the processing it is of (null: never summarised). */
  async ofDocument(documentId: string): Promise<{ processedAt: number | null; rows: LabelRow[] }> {
    const scan = await this.db.selectFrom('semantic_label_scans').select('processed_at').where('document_id', '=', documentId).executeTakeFirst();
    const rows = await this.db
      .selectFrom('semantic_labels')
      .select(['kind', 'name', 'example', 'occurrences'])
      .where('document_id', '=', documentId)
      .orderBy('kind', 'desc')
      .orderBy('name')
      .execute();
    return {
      processedAt: scan ? Number(scan.processed_at) : null,
      rows: rows.map((r) => ({ kind: r.kind as LabelKind, name: r.name, example: r.example, occurrences: Number(r.occurrences) })),
    };
  }
}

/** The key of a (document, kind, name) triple in `examples`' answer. */
export function exampleKey(k: { documentId: string; kind: LabelKind; name: string }): string {
  return `${k.documentId}\u0000${k.kind}\u0000${k.name}`;
}
