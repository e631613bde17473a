import type { Repos, Store } from '../store/db/index.js';
import type { DocumentRecord } from '../model/records.js';
import type { MembershipListener } from './membership.js';
import type { TermWeight } from '../store/db/classification.js';
import { termsOf, type ClassificationFeatures } from '../document/classification.js';

/**
 * Classification of an upload into one of the docsets it named (`a|b|c`).
 *
 * A document is a unit-length vector of term weights: 1 + ln(count) for its words, bigrams and
 * heading words, plus layout pseudo-terms (`@form`, `@prose`, …) weighted by their share of its
 * words. A docset is the sum of its documents' vectors (its centroid, up to scale), kept in the
 * database as per-term sums: adding or removing a document touches only that document's terms.
 *
 * A docset with documents scores the cosine between the query document, weighted by IDF over the
 * candidates' documents, and its centroid. A docset without any has only its name: it scores the
 * cosine between the query and the name's words and bigrams, the name standing in for a centroid.
 * Both are cosines in [0, 1] against a description of the docset, so they compete directly.
 */

/** Fixed-point scale of stored weights (1.0 = 10,000): sums of integers are exact on both databases. */
const WEIGHT_SCALE = 10_000;
/** A layout share of 1 weighs as much as a term seen e^7 times; shares are usually well below 1. */
const LAYOUT_WEIGHT = 8;
/**
 * Fixed-point scale of IDF-weighted query weights: the dot products are integer sums in the
 * database, exact and the same on SQLite and PostgreSQL, and far below 2^63 (weights ≤ 10^4 × IDF
 * (≤ 20) × 100 times sums ≤ 10^4 × documents, over a few hundred terms).
 */
const IDF_SCALE = 100;
/** Scores are reported, and compared, at this many decimals: equal displayed scores are a tie. */
const SCORE_DECIMALS = 4;

export interface ClassificationCandidate {
  id: string;
  name: string;
}

export interface ClassificationResult {
  /** Every candidate, best first; ties keep the order the upload named them in. */
  candidates: { docsetId: string; score: number; basis: 'documents' | 'name' }[];
  chosen: string;
}

/** What the document records (`documents.classification`), as the API shows it. */
export interface ClassificationRecord {
  candidates: { docset: { id: string }; score: number; basis: 'documents' | 'name' }[];
  chosen: { id: string };
}

export function classificationRecord(result: ClassificationResult): ClassificationRecord {
  return {
    candidates: result.candidates.map((c) => ({ docset: { id: c.docsetId }, score: c.score, basis: c.basis })),
    chosen: { id: result.chosen },
  };
}

/** The document's unit vector in fixed point, sorted by term; empty for a document without words. */
export function termWeights(features: ClassificationFeatures): TermWeight[] {
  const raw = new Map<string, number>();
  for (const { term, count } of features.terms) raw.set(term, 1 + Math.log(count));
  if (features.layout.words > 0) {
    const { form, table, prose, list, heading } = features.layout;
    for (const [term, share] of Object.entries({ form, table, prose, list, heading })) {
      if (share > 0) raw.set(`@${term}`, share * LAYOUT_WEIGHT);
    }
  }
  let norm = 0;
  for (const v of raw.values()) norm += v * v;
  norm = Math.sqrt(norm);
  const out: TermWeight[] = [];
  for (const [term, v] of raw) {
    const weight = Math.round((v / norm) * WEIGHT_SCALE);
    if (weight > 0) out.push({ term, weight });
  }
  return out.sort(byTerm);
}

/** A docset name's words and bigrams as document terms ("sec-10-q" also gives "10-q"). */
export function nameTerms(name: string): string[] {
  const terms = new Set<string>();
  const split = termsOf(name.replace(/[-_./]+/g, ' '));
  split.forEach((t, i) => {
    if (!t) return;
    terms.add(t);
    if (split[i + 1]) terms.add(`${t} ${split[i + 1]}`);
  });
  // Hyphenated names keep their compounds too ("10-q"), as documents' words do.
  for (const part of name.toLowerCase().split(/[\s_./]+/)) {
    const pieces = part.split('-');
    for (let i = 0; i + 1 < pieces.length; i++) {
      const [compound] = termsOf(`${pieces[i]}-${pieces[i + 1]}`);
      if (compound?.includes('-')) terms.add(compound);
    }
  }
  return [...terms].sort();
}

/** Code-unit order, the same in every process (not a database collation): see adjustDocsetTerms. */
const byTerm = (a: TermWeight, b: TermWeight) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);

function round(score: number): number {
  const f = 10 ** SCORE_DECIMALS;
  return Math.round(score * f) / f;
}

/**
 * Keeps the statistics and classifies. It is a MembershipListener: moves between docsets (and docset
 * deletion) move a processed document's counted weights without recomputing them.
 */
export class ClassificationService implements MembershipListener {
  constructor(private readonly store: Store) {}

  /**
   * Stores a processed document's weights and counts them in `docsetId` (null: the document is in
   * no docset; they are counted when it joins one). Call it once its text is known, with the docset
   * it is in at that moment, in the transaction that records that. Adding a document again replaces
   * its previous contribution wherever it was counted: a retried job or a re-processed document is
   * not counted twice. A document without words adds nothing. `s`: the caller's transaction.
   */
  async addDocument(workspaceId: string, docsetId: string | null, documentId: string, features: ClassificationFeatures, s?: Repos): Promise<void> {
    await this.inTransaction(s, async (r) => {
      await this.forget(r, workspaceId, documentId);
      const terms = termWeights(features);
      if (terms.length === 0) return;
      await r.classification.insertDocumentTerms(workspaceId, docsetId, documentId, terms);
      if (docsetId) await this.adjust(r, workspaceId, docsetId, terms, 1);
    });
  }

  /** Forgets a deleted document: its weights, and their count in whichever docset they were in. */
  async removeDocument(workspaceId: string, documentId: string, s?: Repos): Promise<void> {
    await this.inTransaction(s, (r) => this.forget(r, workspaceId, documentId));
  }

  /** MembershipListener: the document left `docsetId`; its weights stay, counted nowhere. */
  async left(s: Repos, doc: DocumentRecord, docsetId: string): Promise<void> {
    const stored = await s.classification.documentTerms(doc.workspaceId, doc.id);
    if (!stored || stored.docsetId !== docsetId) return;
    await this.adjust(s, doc.workspaceId, docsetId, stored.terms.sort(byTerm), -1);
    await s.classification.setDocumentDocset(doc.workspaceId, doc.id, null);
  }

  /** MembershipListener: the document joined `docsetId`; its stored weights (if processed) count there. */
  async joined(s: Repos, doc: DocumentRecord, docsetId: string): Promise<void> {
    const stored = await s.classification.documentTerms(doc.workspaceId, doc.id);
    if (!stored || stored.docsetId === docsetId) return;
    const terms = stored.terms.sort(byTerm);
    if (stored.docsetId !== null) await this.adjust(s, doc.workspaceId, stored.docsetId, terms, -1);
    await this.adjust(s, doc.workspaceId, docsetId, terms, 1);
    await s.classification.setDocumentDocset(doc.workspaceId, doc.id, docsetId);
  }

  /** MembershipListener: the docset is being deleted; its documents stay, their weights counted nowhere. */
  async docsetDeleted(s: Repos, workspaceId: string, docsetId: string): Promise<void> {
    await s.classification.deleteDocset(workspaceId, docsetId);
  }

  /** Scores every candidate for a document whose text is known; reads only, in `s` if given. */
  async classify(workspaceId: string, candidates: readonly ClassificationCandidate[], features: ClassificationFeatures, s?: Repos): Promise<ClassificationResult> {
    if (candidates.length === 0) throw new Error('classify needs at least one candidate docset');
    const r = s ?? this.store;
    const query = termWeights(features);
    const stats = new Map((await r.classification.docsetStats(workspaceId, candidates.map((c) => c.id))).map((d) => [d.docsetId, d]));
    const populated = candidates.filter((c) => (stats.get(c.id)?.documents ?? 0) > 0).map((c) => c.id);
    const terms = query.map((t) => t.term);
    const df = await r.classification.termDocumentCounts(populated, terms);

    // The query weighted by IDF over the candidates' documents, in fixed point for the database.
    let documents = 0;
    for (const id of populated) documents += stats.get(id)!.documents;
    const weighted = new Map<string, number>();
    let queryNorm = 0;
    for (const { term, weight } of query) {
      const w = Math.round(weight * IDF_SCALE * (Math.log((1 + documents) / (1 + (df.get(term) ?? 0))) + 1));
      weighted.set(term, w);
      queryNorm += w * w;
    }
    queryNorm = Math.sqrt(queryNorm);
    const dots = await r.classification.dotProducts(populated, [...weighted].map(([term, weight]) => ({ term, weight })));

    const scored = candidates.map((c, order) => {
      const docset = stats.get(c.id);
      if (docset && docset.documents > 0) {
        const score = queryNorm > 0 && docset.normSq > 0 ? (dots.get(c.id) ?? 0) / (queryNorm * Math.sqrt(docset.normSq)) : 0;
        return { docsetId: c.id, score: round(score), basis: 'documents' as const, order };
      }
      const names = nameTerms(c.name);
      let dot = 0;
      for (const term of names) dot += weighted.get(term) ?? 0;
      const score = queryNorm > 0 && names.length > 0 ? dot / (queryNorm * Math.sqrt(names.length)) : 0;
      return { docsetId: c.id, score: round(score), basis: 'name' as const, order };
    });
    scored.sort((a, b) => b.score - a.score || a.order - b.order);
    return { candidates: scored.map(({ docsetId, score, basis }) => ({ docsetId, score, basis })), chosen: scored[0]!.docsetId };
  }

  /** Records the decision on the document (`documents.classification`). */
  async record(workspaceId: string, documentId: string, result: ClassificationResult, s?: Repos): Promise<void> {
    await (s ?? this.store).classification.setDocumentClassification(workspaceId, documentId, classificationRecord(result));
  }

  private inTransaction(s: Repos | undefined, fn: (r: Repos) => Promise<void>): Promise<void> {
    return s ? fn(s) : this.store.tx(fn);
  }

  /** Takes the document's stored weights out of wherever they are counted, and deletes them. */
  private async forget(r: Repos, workspaceId: string, documentId: string): Promise<void> {
    const stored = await r.classification.documentTerms(workspaceId, documentId);
    if (!stored) return;
    if (stored.docsetId !== null) await this.adjust(r, workspaceId, stored.docsetId, stored.terms.sort(byTerm), -1);
    await r.classification.deleteDocumentTerms(workspaceId, documentId);
  }

  /**
   * Applies ±terms to the docset's sums and its squared norm. The norm changes by S'² − S² per
   * term, S' = S ± w, computed from the sum after the change as ±w(2S' ∓ w): integers below 2^53.
   */
  private async adjust(r: Repos, workspaceId: string, docsetId: string, terms: readonly TermWeight[], sign: 1 | -1): Promise<void> {
    const after = await r.classification.adjustDocsetTerms(workspaceId, docsetId, terms, sign);
    let normSq = 0;
    for (const { term, weight } of terms) {
      const sum = after.get(term)!;
      normSq += sign * weight * (2 * sum - sign * weight);
    }
    await r.classification.adjustDocsetStats(workspaceId, docsetId, sign, normSq);
  }
}
