import type { Repos, Store } from '../store/db/index.js';
import type { DocsetFilter, DocsetRecord, DocumentFilter, DocumentRecord, Page, PageRequest } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { newId } from '../model/ids.js';
import type { ClassificationService } from './classification.js';
import type { ClassificationFeatures } from '../document/classification.js';
import { DOCUMENT_ADDED, DOCUMENT_REMOVED } from '../model/events.js';
import type { MembershipListener } from './membership.js';

export const MAX_DOCSET_NAME = 255;
const MAX_DOCUMENTS_PER_CREATE = 1000;

function membershipEvent(s: Repos, type: string, workspaceId: string, documentId: string, docsetId: string, now: number): Promise<void> {
  return s.events.insert({ id: newId(), workspaceId, type, payload: { documentId, docsetId }, createdAt: now });
}

export class DocsetService {
  constructor(
    private readonly store: Store,
    private readonly listeners: MembershipListener[] = [],
    /** Chooses among the docsets an upload named; without it the document stays in none. */
    private readonly classification?: ClassificationService,
  ) {}

  /**
   * In the transaction that makes `doc` Ready, once its text is known: its words count in its
   * docset's statistics; an upload that named several docsets joins the one it resembles most (the
   * decision, with every candidate's score, is recorded on the document); and whatever else follows
   * a document into a docset happens (its property values get extracted).
   */
  async documentProcessed(s: Repos, doc: DocumentRecord, features: ClassificationFeatures): Promise<void> {
    await this.classification?.addDocument(doc.workspaceId, doc.docsetId, doc.id, features, s);
    if (doc.docsetId) {
      for (const l of this.listeners) if (l !== this.classification) await l.joined?.(s, doc, doc.docsetId);
      return;
    }
    if (!this.classification || doc.docsetCandidates.length === 0) return;
    const candidates: { id: string; name: string }[] = [];
    for (const id of doc.docsetCandidates) {
      const d = await s.docsets.get(doc.workspaceId, id);
      if (d) candidates.push({ id: d.id, name: d.name });
    }
    if (candidates.length === 0) return; // every named docset was deleted meanwhile
    const result = await this.classification.classify(doc.workspaceId, candidates, features, s);
    await this.classification.record(doc.workspaceId, doc.id, result, s);
    await this.moveInto(s, doc, result.chosen, Date.now());
  }

  /** Moves one document and keeps both docsets' counts true; a concurrent move makes this a 409. */
  private async moveInto(s: Repos, doc: DocumentRecord, to: string | null, now: number) {
    const from = doc.docsetId;
    const moved = await s.documents.moveDocset(doc.workspaceId, doc.id, from, to, now);
    if (!moved) {
      if (!(await s.documents.get(doc.workspaceId, doc.id))) throw notFound('Document', doc.id);
      throw new DomainError('conflict', `Document ${doc.id} was moved by another request; try again.`);
    }
    if (from) await s.docsets.adjustCount(doc.workspaceId, from, -1, now);
    if (to) await s.docsets.adjustCount(doc.workspaceId, to, 1, now);
    for (const l of this.listeners) {
      if (from) await l.left?.(s, doc, from);
      if (to) await l.joined?.(s, doc, to);
    }
    if (from) await membershipEvent(s, DOCUMENT_REMOVED, doc.workspaceId, doc.id, from, now);
    if (to) await membershipEvent(s, DOCUMENT_ADDED, doc.workspaceId, doc.id, to, now);
  }

  async create(workspaceId: string, input: { name: unknown; documents?: unknown }): Promise<DocsetRecord> {
    const name = docsetName(input.name);
    const documentIds = parseDocumentRefs(input.documents);

    return this.store.tx(async (s) => {
      if (await s.docsets.getByName(workspaceId, name)) throw nameTaken(name);
      const docs: DocumentRecord[] = [];
      for (const id of documentIds) {
        const d = await s.documents.get(workspaceId, id);
        if (!d) throw notFound('Document', id);
        docs.push(d);
      }
      const now = Date.now();
      const docset: DocsetRecord = { id: newId(), workspaceId, name, isSample: false, documentCount: 0, createdAt: now, updatedAt: now };
      await s.docsets.insert(docset);
      for (const d of docs) await this.moveInto(s, d, docset.id, now);
      return (await s.docsets.get(workspaceId, docset.id))!;
    });
  }

  async get(workspaceId: string, id: string): Promise<DocsetRecord> {
    const d = await this.store.docsets.get(workspaceId, id);
    if (!d) throw notFound('Docset', id);
    return d;
  }

  list(workspaceId: string, filter: DocsetFilter, page: PageRequest): Promise<Page<DocsetRecord>> {
    return this.store.docsets.list(workspaceId, filter, page);
  }

  /** Gives the docset a new name (unique in the workspace); its documents, properties and projects stay. */
  async rename(workspaceId: string, id: string, rawName: unknown): Promise<DocsetRecord> {
    const name = docsetName(rawName);
    return this.store
      .tx(async (s) => {
        const docset = await s.docsets.get(workspaceId, id);
        if (!docset) throw notFound('Docset', id);
        if (docset.isSample) throw new DomainError('conflict', 'Sample docsets keep their catalogue name.');
        const holder = await s.docsets.getByName(workspaceId, name);
        if (holder && holder.id !== id) throw nameTaken(name);
        if (docset.name !== name) await s.docsets.rename(workspaceId, id, name, Date.now());
        return (await s.docsets.get(workspaceId, id))!;
      })
      .catch(async (err: unknown) => {
        // Another request took the name between the check and the update (the unique index refused it).
        if (!(err instanceof DomainError)) {
          const holder = await this.store.docsets.getByName(workspaceId, name);
          if (holder && holder.id !== id) throw nameTaken(name);
        }
        throw err;
      });
  }

  /** Deletes the docset; its documents stay in the workspace, in no docset. */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.store.tx(async (s) => {
      if (!(await s.docsets.get(workspaceId, id))) throw notFound('Docset', id);
      for (const l of this.listeners) await l.docsetDeleted?.(s, workspaceId, id);
      const now = Date.now();
      for (const documentId of await s.documents.idsInDocset(workspaceId, id)) await membershipEvent(s, DOCUMENT_REMOVED, workspaceId, documentId, id, now);
      await s.documents.clearDocset(workspaceId, id, now);
      await s.docsets.delete(workspaceId, id);
    });
  }

  async listDocuments(workspaceId: string, docsetId: string, filter: DocumentFilter, page: PageRequest): Promise<Page<DocumentRecord>> {
    const docset = await this.get(workspaceId, docsetId);
    // The documents of a sample docset are samples: asking for that docset's documents shows them.
    return this.store.documents.list(workspaceId, { ...filter, docsetId, samples: filter.samples || docset.isSample }, page);
  }

  async getDocument(workspaceId: string, docsetId: string, documentId: string): Promise<DocumentRecord> {
    await this.get(workspaceId, docsetId);
    const doc = await this.store.documents.get(workspaceId, documentId);
    if (!doc || doc.docsetId !== docsetId) throw notFound('Document', documentId);
    return doc;
  }

  /** Puts a document into the docset, taking it out of the one it was in. Returns the docset. */
  async addDocument(workspaceId: string, docsetId: string, documentId: string): Promise<DocsetRecord> {
    return this.store.tx(async (s) => {
      if (!(await s.docsets.get(workspaceId, docsetId))) throw notFound('Docset', docsetId);
      const doc = await s.documents.get(workspaceId, documentId);
      if (!doc) throw notFound('Document', documentId);
      if (doc.docsetId !== docsetId) await this.moveInto(s, doc, docsetId, Date.now());
      return (await s.docsets.get(workspaceId, docsetId))!;
    });
  }

  /** Takes a document out of the docset; the document itself stays. */
  async removeDocument(workspaceId: string, docsetId: string, documentId: string): Promise<void> {
    await this.store.tx(async (s) => {
      if (!(await s.docsets.get(workspaceId, docsetId))) throw notFound('Docset', docsetId);
      const doc = await s.documents.get(workspaceId, documentId);
      if (!doc || doc.docsetId !== docsetId) throw notFound('Document', documentId);
      await this.moveInto(s, doc, null, Date.now());
    });
  }
}

function docsetName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) throw invalid('A docset needs a name.');
  if (name.length > MAX_DOCSET_NAME) throw invalid(`Docset names are limited to ${MAX_DOCSET_NAME} characters.`);
  return name;
}

const nameTaken = (name: string) => new DomainError('conflict', `A docset named "${name}" already exists in this workspace.`);

function parseDocumentRefs(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('documents must be a list of document ids.');
  if (raw.length > MAX_DOCUMENTS_PER_CREATE) throw invalid(`At most ${MAX_DOCUMENTS_PER_CREATE} documents per request.`);
  const ids = raw.map((r, i) => {
    const id = typeof r === 'string' ? r : typeof r === 'object' && r && typeof (r as { id?: unknown }).id === 'string' ? (r as { id: string }).id : undefined;
    if (!id) throw invalid(`documents[${i}] must be a document id or {"id": ...}.`);
    return id;
  });
  return [...new Set(ids)];
}
