import { useState } from 'preact/hooks';
import { del, patch, post } from '../api/client.js';
import type { Docset } from '../api/types.js';

/** The docsets with their document counts: create, rename, delete, pick one to filter the documents. */
export function DocsetsPanel({ docsets, selected, onSelect, onChange }: { docsets: Docset[]; selected: string; onSelect: (id: string) => void; onChange: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      await post('/docsets', { name });
      setName('');
      setError('');
      onChange();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const rename = async (e: Event) => {
    e.preventDefault();
    if (!editing) return;
    try {
      await patch(`/docsets/${editing.id}`, { name: editing.name });
      setEditing(null);
      setError('');
      onChange();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (d: Docset) => {
    if (!confirm(`Delete docset "${d.name}"?`)) return;
    try {
      await del(`/docsets/${d.id}`);
      onChange();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="panel docsets" aria-labelledby="docsets-h">
      <h2 id="docsets-h">Docsets</h2>
      <ul>
        <li>
          <button type="button" class={selected === '' ? 'link selected' : 'link'} onClick={() => onSelect('')}>
            All documents
          </button>
        </li>
        {docsets.map((d) =>
          editing?.id === d.id ? (
            <li key={d.id} data-docset={d.name}>
              <form class="inline" onSubmit={rename} onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}>
                <label class="visually-hidden" for={`rename-${d.id}`}>{`New name for docset ${d.name}`}</label>
                <input id={`rename-${d.id}`} required autoFocus value={editing.name} onInput={(e) => setEditing({ id: d.id, name: (e.target as HTMLInputElement).value })} />
                <button type="submit" class="small">Save</button>
                <button type="button" class="small" onClick={() => setEditing(null)}>Cancel</button>
              </form>
            </li>
          ) : (
            <li key={d.id} data-docset={d.name}>
              <button type="button" class={selected === d.id ? 'link selected' : 'link'} onClick={() => onSelect(d.id)}>
                {d.name} <span class="count">({String(d.documentCount ?? 0)})</span>
              </button>
              {d.isSample ? (
                <span class="tag">sample</span>
              ) : (
                <button type="button" class="small" aria-label={`Rename docset ${d.name}`} onClick={() => setEditing({ id: d.id, name: d.name })}>
                  ✎
                </button>
              )}
              <button type="button" class="small danger" aria-label={`Delete docset ${d.name}`} onClick={() => remove(d)}>
                ✕
              </button>
            </li>
          ),
        )}
      </ul>
      <form onSubmit={create} class="inline">
        <label for="new-docset">New docset</label>
        <input id="new-docset" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="submit">Create</button>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
    </section>
  );
}
