import { useEffect, useState } from 'preact/hooks';
import { get } from '../api/client.js';
import { signOut } from '../api/session.js';
import type { Workspace } from '../api/types.js';
import { ProgressBar } from './Progress.js';

export function Header({ route }: { route: string }) {
  const [ws, setWs] = useState<Workspace | null>(null);
  useEffect(() => {
    get<Workspace>('/workspace').then(setWs, () => undefined);
  }, [route]);
  const link = (href: string, text: string) => (
    <a href={href} aria-current={route === href || (href !== '#/' && route.startsWith(href)) ? 'page' : undefined}>
      {text}
    </a>
  );
  return (
    <header class="top">
      <strong class="brand">Quire</strong>
      <nav aria-label="Sections">
        {link('#/', 'Documents')}
        {link('#/projects', 'Projects')}
        {link('#/webhooks', 'Webhooks')}
        {link('#/keys', 'API keys')}
        <a href="/docs" target="_blank" rel="noopener">
          API reference
        </a>
      </nav>
      {ws && (
        <div class="quota" data-testid="quota">
          <span>
            {ws.name} · pages {ws.quota.page.used} / {ws.quota.page.max}
          </span>
          <ProgressBar value={ws.quota.page.used} max={ws.quota.page.max} label="Page quota used" />
        </div>
      )}
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </header>
  );
}
