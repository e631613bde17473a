import crypto, { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/db/index.js';
import type { ApiKeyRecord, Page, PageRequest, WorkspaceRecord } from '../model/records.js';
import { newId } from '../model/ids.js';
import { DomainError, conflict, invalid, notFound } from './errors.js';
import { SCOPES, type Scope } from '../model/scopes.js';

export const DEFAULT_WORKSPACE = 'default';

/** Whether the workspace has an expiry and it has passed (its keys then get 403 everywhere). */
export function isExpired(workspace: WorkspaceRecord, now = Date.now()): boolean {
  return workspace.expiresAt !== null && workspace.expiresAt <= now;
}

/** The Problem's text for a request in an expired workspace. */
export function expiredMessage(workspace: WorkspaceRecord): string {
  return `The workspace "${workspace.name}" expired on ${new Date(workspace.expiresAt!).toISOString()}; its data is kept, but no request is served until the operator extends it (quire workspaces set-expiry).`;
}

export const DEFAULT_QUOTA = { pageMax: 100_000, pagePerDocument: 5_000, userMax: 100 };

export interface Principal {
  workspace: WorkspaceRecord;
  key: ApiKeyRecord;
}

export interface WorkspaceView extends WorkspaceRecord {
  expired: boolean;
  quota: { page: { max: number; used: number; maxPerDocument: number }; user: { max: number; used: number } };
}

// One-shot crypto.hash (Node ≥ 20.12) is a third of createHash's cost: every request hashes its key.
const hashKey: (key: string) => string =
  typeof crypto.hash === 'function'
    ? (key) => crypto.hash('sha256', key, 'hex')
    : (key) => crypto.createHash('sha256').update(key, 'utf8').digest('hex');

/** Workspaces and the API keys that act in them. */
export class WorkspaceService {
  constructor(private readonly store: Store) {}

  async create(name: string, opts: { type?: string; expiresAt?: number | null } = {}): Promise<WorkspaceRecord> {
    if (!/^[\w.-]{1,100}$/.test(name)) throw invalid('Workspace names are 1 to 100 letters, digits, _, . or -.');
    if (await this.store.workspaces.getByName(name)) {
      throw new DomainError('conflict', `A workspace named "${name}" already exists.`);
    }
    const w: WorkspaceRecord = {
      id: newId(),
      name,
      type: opts.type ?? 'Trial',
      createdAt: Date.now(),
      expiresAt: opts.expiresAt ?? null,
      pageQuotaMax: DEFAULT_QUOTA.pageMax,
      pageQuotaPerDocument: DEFAULT_QUOTA.pagePerDocument,
      userQuotaMax: DEFAULT_QUOTA.userMax,
    };
    await this.store.workspaces.insert(w);
    return (await this.store.workspaces.getByName(name))!;
  }

  /** The default workspace, created on first use (safe when several processes start at once). */
  async ensureDefault(): Promise<WorkspaceRecord> {
    const existing = await this.store.workspaces.getByName(DEFAULT_WORKSPACE);
    if (existing) return existing;
    await this.store.workspaces.insert({
      id: newId(),
      name: DEFAULT_WORKSPACE,
      type: 'Trial',
      createdAt: Date.now(),
      expiresAt: null,
      pageQuotaMax: DEFAULT_QUOTA.pageMax,
      pageQuotaPerDocument: DEFAULT_QUOTA.pagePerDocument,
      userQuotaMax: DEFAULT_QUOTA.userMax,
    });
    return (await this.store.workspaces.getByName(DEFAULT_WORKSPACE))!;
  }

  list(): Promise<WorkspaceRecord[]> {
    return this.store.workspaces.list();
  }

  /** Changes the named workspace's quotas (only those given). Lowering one never deletes documents. */
  async setQuota(name: string, q: { pageMax?: number; pagePerDocument?: number; userMax?: number }): Promise<WorkspaceRecord> {
    const w = await this.byName(name);
    await this.store.workspaces.setQuota(w.id, q);
    return this.byName(name);
  }

  /** Sets (a time in ms) or clears (null) the named workspace's expiry; from then on an expired workspace's keys get 403. */
  async setExpiry(name: string, expiresAt: number | null): Promise<WorkspaceRecord> {
    const w = await this.byName(name);
    await this.store.workspaces.setExpiry(w.id, expiresAt);
    return this.byName(name);
  }

  async byName(name: string): Promise<WorkspaceRecord> {
    const w = await this.store.workspaces.getByName(name);
    if (!w) throw notFound('Workspace', name);
    return w;
  }

  async view(workspace: WorkspaceRecord): Promise<WorkspaceView> {
    const [pagesUsed, keysUsed] = await Promise.all([
      this.store.documents.pagesUsed(workspace.id),
      this.store.apiKeys.countActive(workspace.id),
    ]);
    return {
      ...workspace,
      expired: isExpired(workspace),
      quota: {
        page: { max: workspace.pageQuotaMax, used: pagesUsed, maxPerDocument: workspace.pageQuotaPerDocument },
        user: { max: workspace.userQuotaMax, used: keysUsed },
      },
    };
  }

  /** Creates a key; the secret is returned here once and only its hash is kept. */
  async createKey(workspaceName: string, scopes: Scope[], name?: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    const workspace = await this.byName(workspaceName);
    const secret = `qk_${randomBytes(24).toString('base64url')}`;
    const key = await this.insertKey(workspace.id, secret, scopes, name ?? 'key');
    return { key, secret };
  }

  private async insertKey(workspaceId: string, secret: string, scopes: Scope[], name: string): Promise<ApiKeyRecord> {
    const key: ApiKeyRecord = {
      id: newId(),
      workspaceId,
      name,
      keyPrefix: secret.slice(0, 7),
      scopes,
      createdAt: Date.now(),
      revokedAt: null,
    };
    await this.store.apiKeys.insert(key, hashKey(secret));
    return key;
  }

  /**
   * Makes `secret` a key with every scope in the default workspace, unless it was revoked: a revoked
   * bootstrap key stays revoked (the operator sets a new value for a new one). Says which.
   */
  async ensureBootstrapKey(secret: string): Promise<'live' | 'revoked'> {
    const workspace = await this.ensureDefault();
    const found = await this.store.apiKeys.findByHash(hashKey(secret));
    if (!found) {
      try {
        await this.insertKey(workspace.id, secret, [...SCOPES], 'bootstrap');
      } catch (err) {
        // Another process inserted it at the same moment.
        if (!(await this.store.apiKeys.findByHash(hashKey(secret)))) throw err;
      }
      return 'live';
    }
    if (found.key.revokedAt !== null) return 'revoked';
    await this.store.apiKeys.update(found.key.id, { scopes: [...SCOPES], workspaceId: workspace.id });
    return 'live';
  }

  async listKeys(workspaceName?: string): Promise<ApiKeyRecord[]> {
    const workspaceId = workspaceName ? (await this.byName(workspaceName)).id : undefined;
    return this.store.apiKeys.list(workspaceId);
  }

  async revokeKey(id: string): Promise<ApiKeyRecord> {
    const key = await this.store.apiKeys.get(id);
    if (!key) throw notFound('API key', id);
    if (key.revokedAt === null) await this.store.apiKeys.update(id, { revokedAt: Date.now() });
    return (await this.store.apiKeys.get(id))!;
  }

  /** The keys of a workspace, a page at a time (the REST keys routes; never their secrets). */
  listKeysOf(workspaceId: string, includeRevoked: boolean, page: PageRequest): Promise<Page<ApiKeyRecord>> {
    return this.store.apiKeys.listPage(workspaceId, includeRevoked, page);
  }

  /**
   * A new key in `workspace`, its secret returned once. Active keys count against the workspace's
   * user quota: at the quota the request is refused until a key is revoked.
   */
  async createKeyIn(workspace: WorkspaceRecord, scopes: Scope[], name: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100) throw invalid('A key name is 1 to 100 characters.');
    if (scopes.length === 0) throw invalid(`A key needs at least one scope (${SCOPES.join(', ')}).`);
    const active = await this.store.apiKeys.countActive(workspace.id);
    if (active >= workspace.userQuotaMax) {
      throw conflict(`The workspace has its maximum of ${workspace.userQuotaMax} active API keys (quota.user.max): revoke one first.`);
    }
    const secret = `qk_${randomBytes(24).toString('base64url')}`;
    const key = await this.insertKey(workspace.id, secret, [...new Set(scopes)], trimmed);
    return { key, secret };
  }

  /** Revokes a key of this workspace (at once: the next request with it is a 401). */
  async revokeKeyIn(workspaceId: string, id: string): Promise<ApiKeyRecord> {
    const key = await this.store.apiKeys.get(id);
    if (!key || key.workspaceId !== workspaceId) throw notFound('API key', id);
    return this.revokeKey(id);
  }

  /** The workspace and key a bearer secret stands for, or null for an unknown or revoked key. */
  async authenticate(secret: string): Promise<Principal | null> {
    const digest = hashKey(secret);
    const found = await this.store.apiKeys.findLiveWithWorkspace(digest);
    if (!found) return null;
    if (!timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(digest, 'hex'))) return null;
    return { workspace: found.workspace, key: found.key };
  }
}
