import { Readable } from 'node:stream';
import type { Repos, Store } from '../store/db/index.js';
import { keysetPage } from '../store/db/keyset.js';
import { SAMPLE_CATALOG, findSampleSet, renderSampleDocument, type SampleSet } from '../samples/index.js';
import type { DocumentService } from './documents.js';
import type { Page, PageRequest, SampleFilter, SampleRecord } from '../model/records.js';
import { MAX_DOCSET_NAME, type DocsetService } from './docsets.js';
import { notFound } from './errors.js';
import { newId } from '../model/ids.js';

export interface CatalogFilter {
  name?: string;
}

/** Creates one suggested property of a new sample's docset (the properties service, once wired). */
export type AddSuggestedProperty = (workspaceId: string, docsetId: string, label: string) => Promise<unknown>;

interface SampleFile {
  fileName: string;
  bytes: Buffer;
}

/**
 * The sample catalogue and the samples made from it: a sample is a docset (`isSample`) of generated
 * documents (`isSample`), created through the document service so each is ingested like an upload.
 */
export class SampleService {
  /** Rendered files per catalogue id: generation is deterministic, so once is enough. */
  private readonly files = new Map<string, SampleFile[]>();

  constructor(
    private readonly store: Store,
    private readonly documents: DocumentService,
    private readonly docsets: DocsetService,
    private readonly addSuggestedProperty?: AddSuggestedProperty,
  ) {}

  listCatalog(filter: CatalogFilter, page: PageRequest): Page<SampleSet> {
    const rows = SAMPLE_CATALOG.filter((s) => (filter.name === undefined || s.name === filter.name) && (page.after === undefined || s.id > page.after));
    return keysetPage(rows.slice(0, page.limit + 1), page.limit, (s) => s);
  }

  getCatalogEntry(id: string): SampleSet {
    const set = findSampleSet(id);
    if (!set) throw notFound('Sample catalog entry', id);
    return set;
  }

  /** The number of documents a catalogue entry creates. */
  documentCountOf(set: SampleSet): number {
    return this.filesOf(set).length;
  }

  private filesOf(set: SampleSet): SampleFile[] {
    let files = this.files.get(set.id);
    if (!files) {
      files = set.generate().map((d) => ({ fileName: d.fileName, bytes: renderSampleDocument(d) }));
      this.files.set(set.id, files);
    }
    return files;
  }

  /**
   * Creates a sample: its docset, named after the catalogue entry (numbered when the name is taken),
   * the suggested properties, then every document with its ingest job. A failure part-way removes
   * what was created.
   */
  async create(workspaceId: string, catalogId: string): Promise<SampleRecord> {
    const set = this.getCatalogEntry(catalogId);
    const files = this.filesOf(set);
    const now = Date.now();
    const id = newId();
    const docsetId = newId();
    await this.store.tx(async (s) => {
      const name = await freeDocsetName(s, workspaceId, set.name);
      await s.docsets.insert({ id: docsetId, workspaceId, name, isSample: true, documentCount: 0, createdAt: now, updatedAt: now });
      await s.samples.insert({ id, workspaceId, catalogId, catalogVersion: set.version, name, docsetId, suggestedProperties: [...set.suggestedProperties], createdAt: now, updatedAt: now });
    });
    const created: string[] = [];
    try {
      if (this.addSuggestedProperty) for (const label of set.suggestedProperties) await this.addSuggestedProperty(workspaceId, docsetId, label);
      for (const f of files) {
        const intent = await this.documents.prepareUpload(workspaceId, { fileName: f.fileName, docsetSpec: docsetId, metadataJson: undefined });
        const staged = await this.documents.stageUpload(intent, Readable.from([f.bytes]));
        try {
          const doc = await this.documents.createFromStaged(intent, staged, (r, d) => r.samples.addDocument(workspaceId, id, d.id));
          created.push(doc.id);
        } catch (err) {
          await this.documents.discardStaged(staged);
          throw err;
        }
      }
    } catch (err) {
      await this.undo(workspaceId, id, docsetId, created);
      throw err;
    }
    return (await this.store.samples.get(workspaceId, id))!;
  }

  /** Removes a sample that failed part-way: its documents, its docset (and that docset's properties), its rows. */
  private async undo(workspaceId: string, id: string, docsetId: string, documentIds: string[]): Promise<void> {
    for (const documentId of documentIds) await this.documents.delete(workspaceId, documentId).catch(() => undefined);
    await this.docsets.delete(workspaceId, docsetId).catch(() => undefined);
    await this.store.samples.delete(workspaceId, id);
  }

  async get(workspaceId: string, id: string): Promise<SampleRecord> {
    const sample = await this.store.samples.get(workspaceId, id);
    if (!sample) throw notFound('Sample', id);
    return sample;
  }

  list(workspaceId: string, filter: SampleFilter, page: PageRequest): Promise<Page<SampleRecord>> {
    return this.store.samples.list(workspaceId, filter, page);
  }
}

/** `name`, or `name (2)`, `name (3)`, … : the first no docset of the workspace has. */
async function freeDocsetName(s: Repos, workspaceId: string, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : ` (${n})`;
    const name = base.slice(0, MAX_DOCSET_NAME - suffix.length) + suffix;
    if (!(await s.docsets.getByName(workspaceId, name))) return name;
  }
}
