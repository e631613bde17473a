import type { Kysely, Selectable } from 'kysely';
import { keysetPage } from './keyset.js';
import type { Database, ProjectsTable } from './schema.js';
import type { Page, PageRequest, ProjectFilter } from '../../model/records.js';
import type { PartitionPage, PartitionPageRequest } from '../../model/partition.js';

/** A project as stored: items are property ids (their labels live with the properties). */
export interface StoredProject {
  id: string;
  workspaceId: string;
  docsetId: string;
  name: string;
  type: string;
  autoConfirmDocuments: boolean;
  itemIds: string[];
  latestVersion: number;
  pkey: number;
  dirtyAt: number | null;
  changedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Which inputs a version's files were made from: the ones all files share, and each document's. */
export interface InputHashes {
  common: string;
  documents: Record<string, string>;
}

export interface ProjectVersion {
  projectId: string;
  version: number;
  inputsHash: string;
  inputHashes: InputHashes;
  documentCount: number;
  createdAt: number;
}

function toStored(r: Selectable<ProjectsTable>): StoredProject {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    docsetId: r.docset_id,
    name: r.name,
    type: r.type,
    autoConfirmDocuments: Boolean(Number(r.auto_confirm)),
    itemIds: JSON.parse(r.items) as string[],
    latestVersion: Number(r.latest_version),
    pkey: Number(r.pkey),
    dirtyAt: r.dirty_at === null ? null : Number(r.dirty_at),
    changedAt: r.changed_at === null ? null : Number(r.changed_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class ProjectsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(p: StoredProject): Promise<void> {
    await this.db
      .insertInto('projects')
      .values({
        id: p.id,
        workspace_id: p.workspaceId,
        docset_id: p.docsetId,
        name: p.name,
        type: p.type,
        auto_confirm: p.autoConfirmDocuments ? 1 : 0,
        items: JSON.stringify(p.itemIds),
        latest_version: p.latestVersion,
        pkey: p.pkey,
        dirty_at: p.dirtyAt,
        changed_at: p.changedAt,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
      })
      .execute();
  }

  async get(workspaceId: string, id: string): Promise<StoredProject | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    return row && toStored(row);
  }

  /** For the publish job, which knows only the id. */
  async byId(id: string): Promise<StoredProject | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toStored(row);
  }

  private filtered(workspaceId: string, f: ProjectFilter) {
    let q = this.db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId);
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.docsetId !== undefined) q = q.where('docset_id', '=', f.docsetId);
    if (f.type !== undefined) q = q.where('type', '=', f.type);
    return q;
  }

  async list(workspaceId: string, f: ProjectFilter, page: PageRequest): Promise<Page<StoredProject>> {
    let q = this.filtered(workspaceId, f);
    if (page.after !== undefined) q = q.where('id', '>', page.after);
    return keysetPage(await q.orderBy('id').limit(page.limit + 1).execute(), page.limit, toStored);
  }

  async listPartitioned(workspaceId: string, f: ProjectFilter, page: PartitionPageRequest): Promise<PartitionPage<StoredProject>> {
    let q = this.filtered(workspaceId, f).where('pkey', '>=', page.range.min).where('pkey', '<=', page.range.max);
    if (page.after) {
      const { pkey, id } = page.after;
      q = q.where((eb) => eb.or([eb('pkey', '>', pkey), eb.and([eb('pkey', '=', pkey), eb('id', '>', id)])]));
    }
    const rows = (await q.orderBy('pkey').orderBy('id').limit(page.limit + 1).execute()).map(toStored);
    const more = rows.length > page.limit;
    const items = more ? rows.slice(0, page.limit) : rows;
    const last = items[items.length - 1];
    return { items, nextAfter: more && last ? { pkey: last.pkey, id: last.id } : null };
  }

  async inDocset(docsetId: string): Promise<StoredProject[]> {
    return (await this.db.selectFrom('projects').selectAll().where('docset_id', '=', docsetId).orderBy('id').execute()).map(toStored);
  }

  async update(id: string, set: { name?: string; autoConfirmDocuments?: boolean; itemIds?: string[] }, now: number): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({
        ...(set.name !== undefined ? { name: set.name } : {}),
        ...(set.autoConfirmDocuments !== undefined ? { auto_confirm: set.autoConfirmDocuments ? 1 : 0 } : {}),
        ...(set.itemIds !== undefined ? { items: JSON.stringify(set.itemIds) } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Records that an input changed at `now`. True when the project was clean (the caller then queues
   * the publish job; while dirty, the running job chain picks the change up itself).
   */
  async markDirty(id: string, now: number): Promise<boolean> {
    await this.db.updateTable('projects').set({ changed_at: now }).where('id', '=', id).execute();
    const r = await this.db.updateTable('projects').set({ dirty_at: now }).where('id', '=', id).where('dirty_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Clears the dirty mark unless another change arrived after `changedAt`; true when cleared. */
  async markClean(id: string, changedAt: number | null): Promise<boolean> {
    let q = this.db.updateTable('projects').set({ dirty_at: null }).where('id', '=', id);
    q = changedAt === null ? q.where('changed_at', 'is', null) : q.where('changed_at', '=', changedAt);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async forceClean(id: string): Promise<void> {
    await this.db.updateTable('projects').set({ dirty_at: null }).where('id', '=', id).execute();
  }

  /**
   * Holds the project's row until the transaction ends (PostgreSQL: its row lock; SQLite's
   * transactions hold the database already), so recording a version and uploading into the latest
   * one take turns: an upload lands in the version before (and is carried) or in the new one.
   */
  async lock(id: string): Promise<void> {
    await this.db.updateTable('projects').set((eb) => ({ latest_version: eb.ref('latest_version') })).where('id', '=', id).execute();
  }

  async setLatestVersion(id: string, version: number, now: number): Promise<void> {
    await this.db.updateTable('projects').set({ latest_version: version, updated_at: now }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('project_documents').where('project_id', '=', id).execute();
    await this.db.deleteFrom('project_versions').where('project_id', '=', id).execute();
    await this.db.deleteFrom('artifacts').where('project_id', '=', id).execute();
    await this.db.deleteFrom('projects').where('id', '=', id).execute();
  }

  // ---- confirmed documents ----

  async confirm(projectId: string, documentIds: string[]): Promise<void> {
    for (let i = 0; i < documentIds.length; i += 500) {
      const chunk = documentIds.slice(i, i + 500);
      await this.db
        .insertInto('project_documents')
        .values(chunk.map((document_id) => ({ project_id: projectId, document_id })))
        .onConflict((oc) => oc.columns(['project_id', 'document_id']).doNothing())
        .execute();
    }
  }

  async unconfirm(documentId: string, projectIds?: string[]): Promise<void> {
    let q = this.db.deleteFrom('project_documents').where('document_id', '=', documentId);
    if (projectIds) {
      if (projectIds.length === 0) return;
      q = q.where('project_id', 'in', projectIds);
    }
    await q.execute();
  }

  async confirmedIds(projectId: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('project_documents').select('document_id').where('project_id', '=', projectId).execute();
    return new Set(rows.map((r) => r.document_id));
  }

  /** Projects that have confirmed this document. */
  async confirmingProjects(documentId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('project_documents').select('project_id').where('document_id', '=', documentId).execute();
    return rows.map((r) => r.project_id);
  }

  // ---- versions ----

  async insertVersion(v: ProjectVersion): Promise<void> {
    await this.db
      .insertInto('project_versions')
      .values({ project_id: v.projectId, version: v.version, inputs_hash: v.inputsHash, input_hashes: JSON.stringify(v.inputHashes), document_count: v.documentCount, created_at: v.createdAt })
      .execute();
  }

  async version(projectId: string, version: number): Promise<ProjectVersion | undefined> {
    const r = await this.db.selectFrom('project_versions').selectAll().where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
    return (
      r && {
        projectId: r.project_id,
        version: Number(r.version),
        inputsHash: r.inputs_hash,
        inputHashes: JSON.parse(r.input_hashes) as InputHashes,
        documentCount: Number(r.document_count),
        createdAt: Number(r.created_at),
      }
    );
  }

  /** Labels of live properties by id (deleted ones are absent). */
  async propertyLabels(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('properties').select(['id', 'label']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.label]));
  }
}
