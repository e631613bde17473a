import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api/client.js';
import type { ApiKey } from '../api/types.js';

const SCOPES = ['read:documents', 'write:documents', 'read:projects', 'write:projects', 'read:webhooks', 'write:webhooks', 'admin'];

/** The workspace's API keys (needs an admin key): create one (its secret shown once), revoke. */
export function KeysPage() {
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [showRevoked, setShowRevoked] = useState(false);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read:documents']);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    get<{ keys: ApiKey[] }>(`/workspace/keys?limit=100${showRevoked ? '&revoked=true' : ''}`).then(
      (r) => {
        setKeys(r.keys);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
  }, [tick, showRevoked]);
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const made = await post<ApiKey & { secret: string }>('/workspace/keys', { name, scopes });
      setSecret({ name: made.name, value: made.secret });
      setName('');
      setError('');
      setTick((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const revoke = async (k: ApiKey) => {
    if (!confirm(`Revoke key "${k.name}" (${k.prefix}…)? Requests with it fail at once.`)) return;
    try {
      await del(`/workspace/keys/${k.id}`);
      setTick((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const toggle = (s: string) => setScopes((list) => (list.includes(s) ? list.filter((x) => x !== s) : [...list, s]));
  return (
    <div class="stack">
      <section class="panel" aria-labelledby="newkey-h">
        <h2 id="newkey-h">New API key</h2>
        <form onSubmit={create}>
          <label>
            Name <input id="key-name" required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map((s) => (
              <label key={s} class="check">
                <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={scopes.length === 0}>Create key</button>
        </form>
        {secret && (
          <div role="status" class="secret" data-testid="new-secret">
            <p>
              Key "{secret.name}" created. Copy it now: it is not shown again.
            </p>
            <input aria-label="The new key" readOnly value={secret.value} onFocus={(e) => (e.target as HTMLInputElement).select()} />
            <button type="button" class="small" onClick={() => setSecret(null)}>Done</button>
          </div>
        )}
        {error && <p role="alert" class="error">{error}</p>}
      </section>
      <section class="panel" aria-labelledby="keys-h">
        <h2 id="keys-h">API keys</h2>
        <label class="check">
          <input type="checkbox" checked={showRevoked} onChange={() => setShowRevoked((v) => !v)} /> Show revoked keys
        </label>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key={k.name}>
                  <td>{k.name}</td>
                  <td><code>{k.prefix}…</code></td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>{new Date(k.createdAt).toLocaleString()}</td>
                  <td>
                    {k.revokedAt ? (
                      `revoked ${new Date(k.revokedAt).toLocaleString()}`
                    ) : (
                      <button type="button" class="small danger" aria-label={`Revoke key ${k.name}`} onClick={() => void revoke(k)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
