import { useState } from 'preact/hooks';
import { del, post } from '../api/client.js';
import type { Docset } from '../api/types.js';

/** The docsets with their document counts: create, delete, pick one to filter the documents. */
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
        {docsets.map((d) => (
          <li key={d.id} data-docset={d.name}>
            <button type="button" class={selected === d.id ? 'link selected' : 'link'} onClick={() => onSelect(d.id)}>
              {d.name} <span class="count">({String(d.documentCount ?? 0)})</span>
            </button>
            <button type="button" class="small danger" aria-label={`Delete docset ${d.name}`} onClick={() => remove(d)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={create} class="inline">
        <label for="new-docset">New docset</label>
        <input id="new-docset" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="submit">Create</button>
      </form>
      <p class="hint">Renaming is not offered: the API has no route to rename a docset.</p>
      {error && <p role="alert" class="error">{error}</p>}
    </section>
  );
}
