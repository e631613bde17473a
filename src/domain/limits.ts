import type { Repos } from '../store/db/index.js';
import { DomainError } from './errors.js';

/**
 * What one workspace may hold, so that one tenant cannot take the service's storage or delivery
 * capacity from the others; 0 means no limit. Configured server-wide (QUIRE_WORKSPACE_MAX_*). Each
 * check runs in the transaction that adds the thing, after `usage.lock`, so concurrent requests of a
 * workspace cannot both pass it.
 */
export interface WorkspaceLimits {
  webhooks: number;
  uploadSessions: number;
  storedBytes: number;
}

export const NO_LIMITS: WorkspaceLimits = { webhooks: 0, uploadSessions: 0, storedBytes: 0 };

/** 600 KB, 1 MB, 1.5 GB: binary units, one decimal where it matters. */
function size(bytes: number): string {
  const [unit, div] = bytes >= 1024 ** 3 ? ['GB', 1024 ** 3] : bytes >= 1024 ** 2 ? ['MB', 1024 ** 2] : ['KB', 1024];
  return `${Number((bytes / div).toFixed(bytes >= 1024 ** 2 ? 1 : 0)).toLocaleString('en')} ${unit}`;
}

/** 409: the workspace has as many webhooks as it may have. */
export async function checkWebhookLimit(s: Repos, workspaceId: string, limits: WorkspaceLimits): Promise<void> {
  if (!limits.webhooks) return;
  await s.usage.lock(workspaceId);
  const count = await s.webhooks.count(workspaceId);
  if (count >= limits.webhooks) {
    throw new DomainError('conflict', `This workspace has ${count} webhooks, the most it may have (${limits.webhooks}): delete one before creating another.`, { limit: limits.webhooks });
  }
}

/**
 * 429 with `retry-after`: as many upload sessions are open as a workspace may have (they close when
 * finalized or when they expire). 409: the declared size would take the workspace past its stored bytes,
 * counting what open sessions are about to store.
 */
export async function checkUploadSessionLimits(s: Repos, workspaceId: string, fileSize: number, limits: WorkspaceLimits, now: number): Promise<void> {
  if (!limits.uploadSessions && !limits.storedBytes) return;
  const stored = await s.usage.lock(workspaceId);
  const open = await s.uploadSessions.openSummary(workspaceId, now);
  if (limits.uploadSessions && open.count >= limits.uploadSessions) {
    throw new DomainError(
      'too-many',
      `This workspace has ${open.count} upload sessions open, the most it may have (${limits.uploadSessions}): finalize or wait for one to expire before opening another.`,
      { limit: limits.uploadSessions },
      { 'retry-after': '60' },
    );
  }
  if (limits.storedBytes && stored + open.bytes + fileSize > limits.storedBytes) throw storageFull(stored + open.bytes, fileSize, limits);
}

/** After the document's row is in (its bytes counted): 409 when that took the workspace past its stored bytes. */
export async function checkStoredBytes(s: Repos, workspaceId: string, added: number, limits: WorkspaceLimits): Promise<void> {
  if (!limits.storedBytes) return;
  const stored = await s.usage.lock(workspaceId);
  if (stored > limits.storedBytes) throw storageFull(stored - added, added, limits);
}

function storageFull(stored: number, adding: number, limits: WorkspaceLimits): DomainError {
  return new DomainError(
    'conflict',
    `This workspace stores ${size(stored)} of the ${size(limits.storedBytes)} it may store: ${size(adding)} more does not fit. Delete documents to make room; nothing was stored.`,
    { limit: limits.storedBytes, stored },
  );
}
