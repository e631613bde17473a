import type { Kysely, Selectable } from 'kysely';
import { keysetPage } from './keyset.js';
import type { ArtifactsTable, Database } from './schema.js';
import type { ArtifactFilter, ArtifactRecord, Page, PageRequest } from '../../model/records.js';
import type { PartitionPage, PartitionPageRequest } from '../../model/partition.js';
import { partitionKeyOf } from '../../model/partition.js';

function toRecord(r: Selectable<ArtifactsTable>): ArtifactRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    projectId: r.project_id,
    version: Number(r.version),
    name: r.name,
    documentId: r.document_id,
    size: Number(r.size),
    contentType: r.content_type,
    sha256: r.sha256,
    blobKey: r.blob_key,
    isReadOnly: Boolean(Number(r.is_read_only)),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class ArtifactsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(list: ArtifactRecord[]): Promise<void> {
    for (let i = 0; i < list.length; i += 200) {
      await this.db
        .insertInto('artifacts')
        .values(
          list.slice(i, i + 200).map((a) => ({
            id: a.id,
            workspace_id: a.workspaceId,
            project_id: a.projectId,
            version: a.version,
            name: a.name,
            document_id: a.documentId,
            size: a.size,
            content_type: a.contentType,
            sha256: a.sha256,
            blob_key: a.blobKey,
            is_read_only: a.isReadOnly ? 1 : 0,
            pkey: partitionKeyOf(a.id),
            created_at: a.createdAt,
            updated_at: a.updatedAt,
          })),
        )
        .execute();
    }
  }

  async get(projectId: string, version: number, id: string): Promise<ArtifactRecord | undefined> {
    const r = await this.db.selectFrom('artifacts').selectAll().where('id', '=', id).where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
    return r && toRecord(r);
  }

  /**
   * The artifacts of a version with this name and document: at most one generated and one uploaded
   * (an upload carried into a version whose generated files took its name stays beside them).
   */
  async named(projectId: string, version: number, name: string, documentId: string | null): Promise<ArtifactRecord[]> {
    let q = this.db.selectFrom('artifacts').selectAll().where('project_id', '=', projectId).where('version', '=', version).where('name', '=', name);
    q = documentId === null ? q.where('document_id', 'is', null) : q.where('document_id', '=', documentId);
    return (await q.orderBy('id').execute()).map(toRecord);
  }

  /** Every artifact of a version (the publish job compares versions). */
  async ofVersion(projectId: string, version: number): Promise<ArtifactRecord[]> {
    return (await this.db.selectFrom('artifacts').selectAll().where('project_id', '=', projectId).where('version', '=', version).orderBy('id').execute()).map(toRecord);
  }

  private filtered(projectId: string, version: number, f: ArtifactFilter) {
    let q = this.db.selectFrom('artifacts').selectAll().where('project_id', '=', projectId).where('version', '=', version);
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.documentId !== undefined) q = q.where('document_id', '=', f.documentId);
    if (f.minSize !== undefined) q = q.where('size', '>=', f.minSize);
    if (f.maxSize !== undefined) q = q.where('size', '<=', f.maxSize);
    if (f.isReadOnly !== undefined) q = q.where('is_read_only', '=', f.isReadOnly ? 1 : 0);
    return q;
  }

  async list(projectId: string, version: number, f: ArtifactFilter, page: PageRequest): Promise<Page<ArtifactRecord>> {
    let q = this.filtered(projectId, version, f);
    if (page.after !== undefined) q = q.where('id', '>', page.after);
    return keysetPage(await q.orderBy('id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  async listPartitioned(projectId: string, version: number, f: ArtifactFilter, page: PartitionPageRequest): Promise<PartitionPage<ArtifactRecord>> {
    let q = this.filtered(projectId, version, f).where('pkey', '>=', page.range.min).where('pkey', '<=', page.range.max);
    if (page.after) {
      const { pkey, id } = page.after;
      q = q.where((eb) => eb.or([eb('pkey', '>', pkey), eb.and([eb('pkey', '=', pkey), eb('id', '>', id)])]));
    }
    const rows = await q.orderBy('pkey').orderBy('id').limit(page.limit + 1).execute();
    const more = rows.length > page.limit;
    const kept = more ? rows.slice(0, page.limit) : rows;
    const last = kept[kept.length - 1];
    return { items: kept.map(toRecord), nextAfter: more && last ? { pkey: Number(last.pkey), id: last.id } : null };
  }

  /** New content for an artifact in one version (the same id in other versions keeps theirs). */
  async replaceContent(a: { projectId: string; version: number; id: string }, set: { size: number; sha256: string; blobKey: string; contentType: string }, now: number): Promise<void> {
    await this.db
      .updateTable('artifacts')
      .set({ size: set.size, sha256: set.sha256, blob_key: set.blobKey, content_type: set.contentType, updated_at: now })
      .where('project_id', '=', a.projectId)
      .where('version', '=', a.version)
      .where('id', '=', a.id)
      .execute();
  }

  /** Removes an artifact from one version (a carried upload stays in the versions before). */
  async delete(a: { projectId: string; version: number; id: string }): Promise<void> {
    await this.db.deleteFrom('artifacts').where('project_id', '=', a.projectId).where('version', '=', a.version).where('id', '=', a.id).execute();
  }

  /** Whether any artifact row still refers to the blob (unchanged content is shared across versions). */
  async blobInUse(blobKey: string): Promise<boolean> {
    return (await this.db.selectFrom('artifacts').select('id').where('blob_key', '=', blobKey).limit(1).executeTakeFirst()) !== undefined;
  }
}
