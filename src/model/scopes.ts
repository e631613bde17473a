export const SCOPES = [
  'read:documents',
  'write:documents',
  'read:projects',
  'write:projects',
  'read:webhooks',
  'write:webhooks',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** `admin` grants every scope; a write scope does not imply the read scope. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('admin') || granted.includes(needed);
}

export function parseScopes(list: string): Scope[] {
  const scopes = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0) throw new Error('no scopes given');
  for (const s of scopes) if (!isScope(s)) throw new Error(`unknown scope "${s}" (known: ${SCOPES.join(', ')})`);
  return [...new Set(scopes)] as Scope[];
}
