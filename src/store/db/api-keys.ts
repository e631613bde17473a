import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from './schema.js';
import type { ApiKeyRecord, Page, PageRequest, WorkspaceRecord } from '../../model/records.js';
import { keysetPage } from './keyset.js';
import { toWorkspaceRecord } from './workspaces.js';
import { precompiled } from './precompiled.js';
import type { PointReads } from './point-reads.js';

function toRecord(r: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    name: r.name,
    keyPrefix: r.key_prefix,
    scopes: r.scopes ? r.scopes.split(',') : [],
    createdAt: Number(r.created_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
  };
}

const findLiveKey = precompiled(1, (db: Kysely<Database>, keyHash: string) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .selectAll('k')
    .select([
      'w.name as w_name',
      'w.type as w_type',
      'w.created_at as w_created_at',
      'w.expires_at as w_expires_at',
      'w.page_quota_max as w_page_quota_max',
      'w.page_quota_per_document as w_page_quota_per_document',
      'w.user_quota_max as w_user_quota_max',
    ])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null),
);

type LiveKeyRow = Awaited<ReturnType<typeof findLiveKey>>[number];

function toLiveKey(row: LiveKeyRow): { key: ApiKeyRecord; keyHash: string; workspace: WorkspaceRecord } {
  const workspace = toWorkspaceRecord({
    id: row.workspace_id,
    name: row.w_name,
    type: row.w_type,
    created_at: row.w_created_at,
    expires_at: row.w_expires_at,
    page_quota_max: row.w_page_quota_max,
    page_quota_per_document: row.w_page_quota_per_document,
    user_quota_max: row.w_user_quota_max,
  });
  return { key: toRecord(row), keyHash: row.key_hash, workspace };
}

export class ApiKeysRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pointReads?: PointReads,
  ) {}

  async insert(k: ApiKeyRecord, keyHash: string): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values({
        id: k.id,
        workspace_id: k.workspaceId,
        name: k.name,
        key_hash: keyHash,
        key_prefix: k.keyPrefix,
        scopes: k.scopes.join(','),
        created_at: k.createdAt,
        revoked_at: k.revokedAt,
      })
      .execute();
  }

  /** The key stored under this hash, with the hash itself for a constant-time comparison. */
  async findByHash(keyHash: string): Promise<{ key: ApiKeyRecord; keyHash: string } | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row && { key: toRecord(row), keyHash: row.key_hash };
  }

  /** A live (unrevoked) key by hash, with its workspace, in one query: the per-request auth lookup. */
  async findLiveWithWorkspace(keyHash: string): Promise<{ key: ApiKeyRecord; keyHash: string; workspace: WorkspaceRecord } | undefined> {
    if (this.pointReads) return this.pointReads.first(findLiveKey.compiledFor(this.db), [keyHash], toLiveKey);
    const [row] = await findLiveKey(this.db, keyHash);
    return row && toLiveKey(row);
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(workspaceId?: string): Promise<ApiKeyRecord[]> {
    let q = this.db.selectFrom('api_keys').selectAll();
    if (workspaceId) q = q.where('workspace_id', '=', workspaceId);
    return (await q.orderBy('id').execute()).map(toRecord);
  }

  /** One page of a workspace's keys in id order; revoked keys only when asked for. */
  async listPage(workspaceId: string, includeRevoked: boolean, page: PageRequest): Promise<Page<ApiKeyRecord>> {
    let q = this.db.selectFrom('api_keys').selectAll().where('workspace_id', '=', workspaceId);
    if (!includeRevoked) q = q.where('revoked_at', 'is', null);
    if (page.after !== undefined) q = q.where('id', '>', page.after);
    return keysetPage(await q.orderBy('id').limit(page.limit + 1).execute(), page.limit, toRecord);
  }

  async countActive(workspaceId: string): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async update(id: string, changes: { scopes?: string[]; revokedAt?: number | null; workspaceId?: string }): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({
        ...(changes.scopes && { scopes: changes.scopes.join(',') }),
        ...(changes.revokedAt !== undefined && { revoked_at: changes.revokedAt }),
        ...(changes.workspaceId && { workspace_id: changes.workspaceId }),
      })
      .where('id', '=', id)
      .execute();
  }
}
