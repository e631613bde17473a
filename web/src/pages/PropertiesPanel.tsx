import { useEffect, useState } from 'preact/hooks';
import { get, post, put } from '../api/client.js';
import type { PropertyValue } from '../api/types.js';

/** The docset's properties with this document's values: click one to highlight it, edit to set it by hand. */
export function PropertiesPanel({ docsetId, documentId, onPick }: { docsetId: string; documentId: string; onPick: (v: PropertyValue) => void }) {
  const [values, setValues] = useState<PropertyValue[]>([]);
  const [label, setLabel] = useState('');
  const [editing, setEditing] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  const [shown, setShown] = useState<string | null>(null);
  const load = () =>
    get<{ properties: PropertyValue[] }>(`/docsets/${docsetId}/document-properties/${documentId}`).then(
      (r) => setValues(r.properties),
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), [docsetId, documentId, tick]);
  // Values are extracted in the background after a property is added: look again a few times.
  const pending = values.some((v) => v.value === null && v.source === null);
  useEffect(() => {
    if (!pending || tick > 30) return;
    const t = setTimeout(() => setTick((n) => n + 1), 2000);
    return () => clearTimeout(t);
  }, [pending, tick]);

  const add = async (e: Event) => {
    e.preventDefault();
    try {
      await post(`/docsets/${docsetId}/properties`, { label });
      setLabel('');
      setTick(0);
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const save = async (v: PropertyValue) => {
    try {
      await put(`/docsets/${docsetId}/properties/${v.id}/documents/${documentId}`, { value: editing[v.id] ?? '' });
      setEditing(({ [v.id]: _, ...rest }) => rest);
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="panel props" aria-labelledby="props-h">
      <h2 id="props-h">Properties</h2>
      <ul>
        {values.map((v) => (
          <li key={v.id} data-property={v.label} data-source={v.source ?? ''}>
            <span class="prop-label">{v.label}</span>
            {editing[v.id] === undefined ? (
              <>
                <button
                  type="button"
                  class="link value"
                  disabled={!v.location && !v.evidence}
                  aria-expanded={shown === v.id}
                  onClick={() => {
                    setShown(shown === v.id ? null : v.id);
                    if (v.location) onPick(v);
                  }}
                  title={v.location ? `Show on page ${v.location.page}` : 'No location'}
                >
                  {v.value ?? '—'}
                </button>
                {v.source && <span class={`badge source-${v.source}`}>{v.source}</span>}
                <button type="button" class="small" aria-label={`Edit ${v.label}`} onClick={() => setEditing({ ...editing, [v.id]: v.value ?? '' })}>
                  Edit
                </button>
              </>
            ) : (
              <form class="inline" onSubmit={(e) => { e.preventDefault(); void save(v); }}>
                <label class="visually-hidden" for={`edit-${v.id}`}>New value of {v.label}</label>
                <input id={`edit-${v.id}`} value={editing[v.id]} onInput={(e) => setEditing({ ...editing, [v.id]: (e.target as HTMLInputElement).value })} />
                <button type="submit">Save</button>
              </form>
            )}
            {shown === v.id && v.evidence && <Evidence v={v} />}
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={add}>
        <label for="new-prop">New property</label>
        <input id="new-prop" required value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
        <button type="submit">Add</button>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
    </section>
  );
}

/** How a value was found, to check it by: the finder, the words that named it, its sentence, page and confidence. */
function Evidence({ v }: { v: PropertyValue }) {
  const e = v.evidence!;
  return (
    <dl class="evidence" data-evidence={e.method}>
      <dt>Found by</dt>
      <dd>{METHODS[e.method] ?? e.method}</dd>
      {e.cue && (
        <>
          <dt>Named by</dt>
          <dd class="cue">“{e.cue}”</dd>
        </>
      )}
      {e.text && (
        <>
          <dt>In</dt>
          <dd class="sentence">{e.text}</dd>
        </>
      )}
      {v.location && (
        <>
          <dt>Where</dt>
          <dd>page {v.location.page}</dd>
        </>
      )}
      {v.confidence !== null && (
        <>
          <dt>Confidence</dt>
          <dd>{Math.round(v.confidence * 100)}%</dd>
        </>
      )}
    </dl>
  );
}

const METHODS: Record<string, string> = {
  'form-cell': 'a form cell beside its label',
  'label-line': 'a "Label: value" line',
  section: 'a section headed by the label',
  'defined-term': 'a defined term in quotes',
  prose: 'its role in the sentence',
  'found-label': 'the name Quire found for it in the text',
  learned: 'what the docset learned',
  typed: 'its type',
};
