import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface TermWeight {
  term: string;
  weight: number;
}

export interface DocsetClassStats {
  docsetId: string;
  documents: number;
  normSq: number;
}

/**
 * Classification statistics (migration 0006): per docset, the sum of its documents' term weights
 * and how many documents have each term; per document, the weights it contributed. Weights are
 * integers, so adding and subtracting are exact. Sums change with `weight_sum = weight_sum + ?`,
 * never by writing a value read earlier, so concurrent writers in several processes add up.
 */
export class ClassificationRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The document's stored weights and the docset they are counted in (null: none). */
  async documentTerms(workspaceId: string, documentId: string): Promise<{ docsetId: string | null; terms: TermWeight[] } | undefined> {
    const rows = await this.db
      .selectFrom('document_class_terms')
      .select(['docset_id', 'term', 'weight'])
      .where('document_id', '=', documentId)
      .where('workspace_id', '=', workspaceId)
      .execute();
    if (rows.length === 0) return undefined;
    return { docsetId: rows[0]!.docset_id, terms: rows.map((r) => ({ term: r.term, weight: Number(r.weight) })) };
  }

  async insertDocumentTerms(workspaceId: string, docsetId: string | null, documentId: string, terms: readonly TermWeight[]): Promise<void> {
    if (terms.length === 0) return;
    await this.db
      .insertInto('document_class_terms')
      .values(terms.map((t) => ({ document_id: documentId, term: t.term, workspace_id: workspaceId, docset_id: docsetId, weight: t.weight })))
      .execute();
  }

  /** Records which docset the document's stored weights are counted in (null: none). */
  async setDocumentDocset(workspaceId: string, documentId: string, docsetId: string | null): Promise<void> {
    await this.db.updateTable('document_class_terms').set({ docset_id: docsetId }).where('document_id', '=', documentId).where('workspace_id', '=', workspaceId).execute();
  }

  async deleteDocumentTerms(workspaceId: string, documentId: string): Promise<void> {
    await this.db.deleteFrom('document_class_terms').where('document_id', '=', documentId).where('workspace_id', '=', workspaceId).execute();
  }

  /**
   * Adds (`sign` 1) or subtracts (-1) one document's weights to its docset's term sums, and answers
   * each term's sum after the change. `terms` must be sorted by term (code-unit order, the same in
   * every process): rows are then locked in one order by every writer (no deadlocks on
   * PostgreSQL). Terms no document of the docset has any more are deleted.
   */
  async adjustDocsetTerms(workspaceId: string, docsetId: string, terms: readonly TermWeight[], sign: 1 | -1): Promise<Map<string, number>> {
    const after = new Map<string, number>();
    if (terms.length === 0) return after;
    const rows = await this.db
      .insertInto('docset_class_terms')
      .values(terms.map((t) => ({ docset_id: docsetId, term: t.term, workspace_id: workspaceId, weight_sum: sign * t.weight, documents: sign })))
      .onConflict((oc) =>
        oc.columns(['term', 'docset_id']).doUpdateSet((eb) => ({
          weight_sum: eb('docset_class_terms.weight_sum', '+', eb.ref('excluded.weight_sum')),
          documents: eb('docset_class_terms.documents', '+', eb.ref('excluded.documents')),
        })),
      )
      .returning(['term', 'weight_sum'])
      .execute();
    for (const r of rows) after.set(r.term, Number(r.weight_sum));
    if (sign < 0) {
      await this.db
        .deleteFrom('docset_class_terms')
        .where('docset_id', '=', docsetId)
        .where('documents', '<=', 0)
        .where(
'term', 'in', terms.map((t) => t.term))
        .execute();
    }
    return after;
  }

  /** Adds to a docset's document count and squared norm; the row goes when no document is left. */
  async adjustDocsetStats(workspaceId: string, docsetId: string, documents: number, normSq: number): Promise<void> {
    await this.db
      .insertInto('docset_class_stats')
      .values({ docset_id: docsetId, workspace_id: workspaceId, documents, norm_sq: normSq })
      .onConflict((oc) =>
        oc.column('docset_id').doUpdateSet((eb) => ({
          documents: eb('docset_class_stats.documents', '+', eb.ref('excluded.documents')),
          norm_sq: eb('docset_class_stats.norm_sq', '+', eb.ref('excluded.norm_sq')),
        })),
      )
      .execute();
    if (documents < 0) await this.db.deleteFrom('docset_class_stats').where('docset_id', '=', docsetId).where('documents', '<=', 0).execute();
  }

  async docsetStats(workspaceId: string, docsetIds: readonly string[]): Promise<DocsetClassStats[]> {
    if (docsetIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('docset_class_stats')
      .select(['docset_id', 'documents', 'norm_sq'])
      .where('workspace_id', '=', workspaceId)
      .where('docset_id', 'in', docsetIds)
      .execute();
    return rows.map((r) => ({ docsetId: r.docset_id, documents: Number(r.documents), normSq: Number(r.norm_sq) }));
  }

  /**
   * For each term, how many documents of the given docsets have it (terms no document has are
   * absent). Docset ids are unique across workspaces, so reads stay within the primary key.
   */
  async termDocumentCounts(docsetIds: readonly string[], terms: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (docsetIds.length === 0 || terms.length === 0) return counts;
    const rows = await this.db
      .selectFrom('docset_class_terms')
      .select((eb) => ['term', eb.fn.sum<number | string>('documents').as('documents')])
      .where('term', 'in', terms)
      .where('docset_id', 'in', docsetIds)
      .groupBy('term')
      .execute();
    for (const r of rows) counts.set(r.term, Number(r.documents));
    return counts;
  }

  /**
   * For each docset, Σ over `weights` of weight × the docset's weight_sum of that term: the dot
   * product with its summed document vector, computed in the database (one row per docset instead
   * of one per docset and term). Integer weights keep it exact; docsets sharing no term are absent.
   * The `term in` list repeats the join's terms so that PostgreSQL reads the terms' rows by key
   * rather than scanning the table; SQLite walks the primary key from the terms either way.
   */
  async dotProducts(docsetIds: readonly string[], weights: readonly TermWeight[]): Promise<Map<string, number>> {
    const dots = new Map<string, number>();
    if (docsetIds.length === 0 || weights.length === 0) return dots;
    const query = sql.join(weights.map((w) => sql`(${w.term}, cast(${w.weight} as bigint))`));
    const { rows } = await sql<{ docset_id: string; dot: number | string }>`
      with q(term, weight) as (values ${query})
      select t.docset_id, sum(t.weight_sum * q.weight) as dot
      from q join docset_class_terms t on t.term = q.term
      where t.docset_id in (${sql.join(docsetIds)}) and t.term in (${sql.join(weights.map((w) => w.term))})
      group by t.docset_id`.execute(this.db);
    for (const r of rows) dots.set(r.docset_id, Number(r.dot));
    return dots;
  }

  /** Forgets a docset's statistics; its documents keep their weights, counted nowhere. */
  async deleteDocset(workspaceId: string, docsetId: string): Promise<void> {
    await this.db.updateTable('document_class_terms').set({ docset_id: null }).where('workspace_id', '=', workspaceId).where('docset_id', '=', docsetId).execute();
    await this.db.deleteFrom('docset_class_terms').where('workspace_id', '=', workspaceId).where('docset_id', '=', docsetId).execute();
    await this.db.deleteFrom('docset_class_stats').where('workspace_id', '=', workspaceId).where('docset_id', '=', docsetId).execute();
  }

  async setDocumentClassification(workspaceId: string, documentId: string, classification: unknown): Promise<void> {
    await this.db
      .updateTable('documents')
      .set({ classification: JSON.stringify(classification) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', documentId)
      .execute();
  }

  async documentClassification(workspaceId: string, documentId: string): Promise<unknown> {
    const row = await this.db.selectFrom('documents').select('classification').where('workspace_id', '=', workspaceId).where('id', '=', documentId).executeTakeFirst();
    return row?.classification ? (JSON.parse(row.classification) as unknown) : null;
  }
}
