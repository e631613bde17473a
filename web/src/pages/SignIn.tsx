import { useState } from 'preact/hooks';
import { setKey } from '../api/session.js';

export function SignIn() {
  const [key, setValue] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await fetch('/v1preview1/workspace', { headers: { authorization: `Bearer ${key.trim()}` } });
    if (r.ok) setKey(key.trim());
    else setError(r.status === 401 ? 'This key is not valid.' : `The server answered ${r.status}.`);
  };
  return (
    <main class="signin">
      <h1>Quire console</h1>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="off" required value={key} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
        <button type="submit">Sign in</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
      <p class="hint" data-testid="key-hint">
        No key yet? On the server run <code>npx quire keys create --workspace default --scopes admin</code> (it prints the key once), or start
        Quire with <code>QUIRE_BOOTSTRAP_KEY=…</code> set.
      </p>
      <p class="hint">The key stays in this tab (session storage) and is sent only to this server's API.</p>
      <p class="hint">
        <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
