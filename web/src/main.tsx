import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { getKey, onSessionChange } from './api/session.js';
import { Header } from './components/Header.js';
import { SignIn } from './pages/SignIn.js';
import { DocumentsPage } from './pages/Documents.js';
import { DocumentView } from './pages/DocumentView.js';
import { ProjectsPage } from './pages/Projects.js';
import { WebhooksPage } from './pages/Webhooks.js';
import { KeysPage } from './pages/Keys.js';

function useHash(): string {
  const [hash, setHash] = useState(location.hash || '#/');
  useEffect(() => {
    const on = () => setHash(location.hash || '#/');
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function App() {
  const [key, setKeyState] = useState(getKey());
  useEffect(() => onSessionChange(() => setKeyState(getKey())), []);
  const route = useHash();
  if (!key) return <SignIn />;
  const doc = /^#\/documents\/([^/]+)$/.exec(route);
  return (
    <>
      <Header route={route} />
      <main id="main">
        {doc ? <DocumentView key={doc[1]} id={decodeURIComponent(doc[1]!)} /> : route.startsWith('#/projects') ? <ProjectsPage /> : route.startsWith('#/webhooks') ? <WebhooksPage /> : route.startsWith('#/keys') ? <KeysPage /> : <DocumentsPage />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
