import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client.js';
import type { Sample, SampleCatalogEntry } from '../api/types.js';

/** The sample catalogue: one click loads an entry as a new docset of generated documents. */
export function SamplesPanel({ onLoaded }: { onLoaded: (sample: Sample) => void }) {
  const [entries, setEntries] = useState<SampleCatalogEntry[]>([]);
  const [loading, setLoading] = useState('');
  const [loaded, setLoaded] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    get<{ samples: SampleCatalogEntry[] }>('/sample-catalog?limit=100').then((r) => setEntries(r.samples), (e: Error) => setError(e.message));
  }, []);

  const load = async (entry: SampleCatalogEntry) => {
    setLoading(entry.id);
    setError('');
    setLoaded('');
    try {
      const { samples } = await post<{ samples: Sample[] }>('/samples', { id: entry.id });
      const sample = samples[0]!;
      setLoaded(`Loaded "${sample.name}": ${sample.documentCount} documents, being processed.`);
      onLoaded(sample);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setLoading('');
    }
  };

  return (
    <section class="panel samples" aria-labelledby="samples-h">
      <h2 id="samples-h">Sample docsets</h2>
      <ul>
        {entries.map((s) => (
          <li key={s.id} data-sample={s.id}>
            <div class="sample-head">
              <strong>{s.name}</strong> <span class="count">({s.documentCount} documents)</span>
              <button type="button" class="small" aria-label={`Load sample ${s.name}`} disabled={loading !== ''} onClick={() => void load(s)}>
                {loading === s.id ? 'Loading…' : 'Load'}
              </button>
            </div>
            <p class="hint">{s.description}</p>
          </li>
        ))}
      </ul>
      <p role="status" class="hint">{loaded}</p>
      {error && <p role="alert" class="error">{error}</p>}
    </section>
  );
}
