import { parseArgs } from 'node:util';
import { parseDuration, type Config } from '../runtime/config.js';
import type { Services } from './services.js';
import { parseScopes } from '../model/scopes.js';
import type { ApiKeyRecord, WorkspaceRecord } from '../model/records.js';

/** A command line the admin commands cannot use: main.ts prints it with the usage text (exit 2). */
export class UsageError extends Error {}

async function withServices<T>(config: Config, fn: (s: Services) => Promise<T>): Promise<T> {
  const { openServices } = await import('./services.js');
  const services = await openServices(config);
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)';
  const cols = Object.keys(rows[0]!);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => String(r[c] ?? ''))))].join('\n');
}

/** JSON for scripts under `--json`, else the human line or table. */
function say(json: boolean | undefined, value: unknown, human: () => string): void {
  console.log(json ? JSON.stringify(value, null, 2) : human());
}

const JSON_FLAG = { json: { type: 'boolean' } } as const;

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const workspaceJson = (w: WorkspaceRecord) => ({
  id: w.id,
  name: w.name,
  type: w.type,
  createdAt: isoOrNull(w.createdAt),
  expiresAt: isoOrNull(w.expiresAt),
  quota: { pages: w.pageQuotaMax, pagesPerDocument: w.pageQuotaPerDocument, users: w.userQuotaMax },
});

const keyJson = (k: ApiKeyRecord) => ({
  id: k.id,
  workspaceId: k.workspaceId,
  name: k.name,
  prefix: k.keyPrefix,
  scopes: k.scopes,
  createdAt: isoOrNull(k.createdAt),
  revokedAt: isoOrNull(k.revokedAt),
});

/** `never`, an ISO 8601 date (midnight UTC) or a date-time with its zone (`Z` or `+02:00`): ms or null. */
function parseExpiry(when: string): number | null {
  if (when === 'never') return null;
  const ms = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(when) ? Date.parse(when) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`set-expiry: "${when}" is not an ISO 8601 date (2027-01-31) or date-time with a zone (2027-01-31T18:00:00Z), nor never`);
  return ms;
}

/** `quire migrate`: applies the database migrations and exits. */
export async function migrate(config: Config): Promise<void> {
  const { Store } = await import('../store/db/index.js');
  const store = await Store.open(config.database);
  await store.close();
  console.log(`migrations applied (${config.database.kind})`);
}

/** `quire workspaces create|list|set-quota|set-expiry`. */
export async function workspacesCommand(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  if (sub === 'create') {
    const { values, positionals } = parseArgs({ args: rest, options: { type: { type: 'string' }, ...JSON_FLAG }, allowPositionals: true });
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new UsageError('workspaces create takes one NAME');
    const w = await withServices(config, (s) => s.workspaces.create(name, { type: values.type }));
    say(values.json, workspaceJson(w), () => `created workspace ${w.name} (${w.id})`);
    return;
  }
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: JSON_FLAG });
    const list = await withServices(config, (s) => s.workspaces.list());
    say(values.json, list.map(workspaceJson), () => table(list.map((w) => ({ id: w.id, name: w.name, type: w.type, created: iso(w.createdAt), expires: iso(w.expiresAt) }))));
    return;
  }
  if (sub === 'set-quota') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { pages: { type: 'string' }, 'pages-per-document': { type: 'string' }, users: { type: 'string' }, ...JSON_FLAG },
      allowPositionals: true,
    });
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new UsageError('workspaces set-quota takes one NAME');
    const count = (flag: string, raw: string | undefined) => {
      if (raw === undefined) return undefined;
      if (!/^\d{1,15}$/.test(raw)) throw new UsageError(`--${flag} must be a non-negative integer`);
      return Number(raw);
    };
    const quota = {
      pageMax: count('pages', values.pages),
      pagePerDocument: count('pages-per-document', values['pages-per-document']),
      userMax: count('users', values.users),
    };
    if (Object.values(quota).every((v) => v === undefined)) {
      throw new UsageError('workspaces set-quota needs --pages, --pages-per-document or --users');
    }
    const w = await withServices(config, (s) => s.workspaces.setQuota(name, quota));
    say(values.json, workspaceJson(w), () => `workspace ${w.name}: pages ${w.pageQuotaMax}, pages per document ${w.pageQuotaPerDocument}, users ${w.userQuotaMax}`);
    return;
  }
  if (sub === 'set-expiry') {
    const { values, positionals } = parseArgs({ args: rest, options: JSON_FLAG, allowPositionals: true });
    const [name, when] = positionals;
    if (!name || when === undefined || positionals.length > 2) throw new UsageError('workspaces set-expiry takes NAME and WHEN (an ISO 8601 date or date-time, or never)');
    const expiresAt = parseExpiry(when);
    const w = await withServices(config, (s) => s.workspaces.setExpiry(name, expiresAt));
    say(values.json, workspaceJson(w), () => `workspace ${w.name}: ${w.expiresAt === null ? 'never expires' : `expires ${iso(w.expiresAt)}${w.expiresAt <= Date.now() ? ' (expired: its keys get 403)' : ''}`}`);
    return;
  }
  throw new UsageError('workspaces needs create NAME, list, set-quota NAME or set-expiry NAME WHEN');
}

/** `quire keys create|list|revoke`. */
export async function keysCommand(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { workspace: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, ...JSON_FLAG },
    });
    if (!values.workspace) throw new UsageError('keys create needs --workspace NAME');
    if (!values.scopes) throw new UsageError('keys create needs --scopes a,b');
    let scopes;
    try {
      scopes = parseScopes(values.scopes);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const { key, secret } = await withServices(config, (s) => s.workspaces.createKey(values.workspace!, scopes, values.name));
    console.error(`created key ${key.id} in workspace ${values.workspace} with scopes ${key.scopes.join(',')}; it is shown only now:`);
    say(values.json, { ...keyJson(key), secret }, () => secret);
    return;
  }
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: { workspace: { type: 'string' }, ...JSON_FLAG } });
    const keys = await withServices(config, (s) => s.workspaces.listKeys(values.workspace));
    say(values.json, keys.map(keyJson), () =>
      table(
        keys.map((k) => ({ id: k.id, workspace: k.workspaceId, name: k.name, prefix: `${k.keyPrefix}…`, scopes: k.scopes.join(','), created: iso(k.createdAt), revoked: iso(k.revokedAt) })),
      ),
    );
    return;
  }
  if (sub === 'revoke') {
    const { values, positionals } = parseArgs({ args: rest, options: JSON_FLAG, allowPositionals: true });
    const id = positionals[0];
    if (!id || positionals.length > 1) throw new UsageError('keys revoke takes one ID');
    const key = await withServices(config, (s) => s.workspaces.revokeKey(id));
    say(values.json, keyJson(key), () => `revoked key ${key.id}`);
    return;
  }
  throw new UsageError('keys needs create, list or revoke');
}

/** `quire secrets rotate`: every stored secret sealed again with QUIRE_SECRET_KEY (plain ones too). */
export async function secretsCommand(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  if (sub === 'rotate') {
    const { values, positionals } = parseArgs({ args: rest, options: JSON_FLAG, allowPositionals: true });
    if (positionals.length) throw new UsageError('secrets rotate takes no arguments');
    const { count, keyId, left } = await withServices(config, async (s) => {
      const count = await s.store.webhooks.reseal({ rotate: true });
      return { count, keyId: s.secrets.currentKeyId, left: await s.store.webhooks.secretKeyIds() };
    });
    const oldKeysNeeded = left.some((id) => id !== keyId);
    say(values.json, { resealed: count, keyId, oldKeysNeeded }, () =>
      [
        `sealed ${count} webhook secret${count === 1 ? '' : 's'} again with the current key (id ${keyId})`,
        ...(oldKeysNeeded ? [] : ['no secret needs QUIRE_SECRET_KEY_OLD any more: remove it from every process']),
      ].join('\n'),
    );
    return;
  }
  throw new UsageError('secrets needs rotate');
}

/** `quire blobs sweep`: removes the committed blobs no row points to, older than the grace. */
export async function blobsCommand(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  if (sub === 'sweep') {
    const { values, positionals } = parseArgs({ args: rest, options: { ...JSON_FLAG, grace: { type: 'string' } }, allowPositionals: true });
    if (positionals.length) throw new UsageError('blobs sweep takes no arguments');
    const { sweepOrphanBlobs, ORPHAN_GRACE_MS } = await import('../domain/blob-sweep.js');
    const graceMs = values.grace === undefined ? ORPHAN_GRACE_MS : parseDuration('--grace', values.grace);
    const result = await withServices(config, (s) => sweepOrphanBlobs(s.store, s.blobs, graceMs));
    say(values.json, result, () => `checked ${result.checked} blob${result.checked === 1 ? '' : 's'}; removed ${result.removed} that no row points to`);
    return;
  }
  throw new UsageError('blobs needs sweep');
}
