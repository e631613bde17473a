import { useEffect, useState } from 'preact/hooks';
import { download, get, post } from '../api/client.js';
import type { Artifact, Docset, Project } from '../api/types.js';

const TYPES = ['TabularReport', 'Abstract', 'ExcelExport', 'SmartsheetExport', 'Chat'];

function Artifacts({ project }: { project: Project }) {
  // A project has a version from the start: "0", holding only what was uploaded into it, until its first is published.
  const version = (project.artifacts as { version: string } | undefined)?.version ?? '0';
  const [list, setList] = useState<Artifact[]>([]);
  useEffect(() => {
    get<{ artifacts: Artifact[] }>(`/projects/${project.id}/artifacts/${version}`).then((r) => setList(r.artifacts), () => undefined);
  }, [project.id, version]);
  if (version === '0' && !list.length) return <span class="hint">No version yet…</span>;
  return (
    <ul class="artifacts">
      {list.map((a) => (
        <li key={a.id}>
          <button type="button" class="link" data-artifact={a.name} onClick={() => void download(`/projects/${project.id}/artifacts/${version}/${a.id}/content`, a.name)}>
            Download {a.name}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function ProjectsPage() {
  const [projects, setProjects] = useState<Project[]>([]);
  const [docsets, setDocsets] = useState<Docset[]>([]);
  const [form, setForm] = useState({ name: '', type: 'TabularReport', docset: '', items: '' });
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    get<{ projects: Project[] }>('/projects?limit=100').then((r) => setProjects(r.projects), (e: Error) => setError(e.message));
  }, [tick]);
  useEffect(() => {
    get<{ docsets: Docset[] }>('/docsets?limit=100').then((r) => {
      setDocsets(r.docsets);
      setForm((f) => ({ ...f, docset: f.docset || (r.docsets[0]?.id ?? '') }));
    }, () => undefined);
  }, []);
  // Versions appear as the project's reports are built: look again every 3 s.
  useEffect(() => {
    const t = setTimeout(() => setTick((n) => n + 1), 3000);
    return () => clearTimeout(t);
  }, [tick]);

  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const items = form.items.split(',').map((s) => s.trim()).filter(Boolean).map((label) => ({ label }));
      await post('/projects', { name: form.name, type: form.type, 'docset.id': form.docset, items });
      setForm({ ...form, name: '' });
      setError('');
      setTick((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  return (
    <div class="stack">
      <section class="panel" aria-labelledby="newproj-h">
        <h2 id="newproj-h">New project</h2>
        <form class="filters" onSubmit={create}>
          <label>Name<input id="project-name" required value={form.name} onInput={set('name')} /></label>
          <label>Type<select id="project-type" value={form.type} onChange={set('type')}>{TYPES.map((t) => <option key={t}>{t}</option>)}</select></label>
          <label>Docset<select id="project-docset" required value={form.docset} onChange={set('docset')}>{docsets.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}</select></label>
          <label>Items (comma separated)<input id="project-items" value={form.items} onInput={set('items')} /></label>
          <button type="submit">Create project</button>
        </form>
        {error && <p role="alert" class="error">{error}</p>}
      </section>
      <section class="panel" aria-labelledby="proj-h">
        <h2 id="proj-h">Projects</h2>
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Version</th><th scope="col">Artifacts</th></tr></thead>
            <tbody>
              {projects.map((p) => (
                <tr key={p.id} data-project={p.name}>
                  <td>{p.name}</td>
                  <td>{p.type}</td>
                  <td data-version>{(p.artifacts as { version: string }).version === '0' ? '—' : (p.artifacts as { version: string }).version}</td>
                  <td><Artifacts project={p} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
