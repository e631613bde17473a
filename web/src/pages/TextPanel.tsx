import { useEffect, useState } from 'preact/hooks';
import { get } from '../api/client.js';

const FORMATS = [
  { format: 'text', label: 'Text' },
  { format: 'markdown', label: 'Markdown' },
] as const;
type Format = (typeof FORMATS)[number]['format'];

/**
 * The document as Quire read it, as plain text or Markdown (GET …/content?format=). Markdown is shown
 * as its source, in a <pre>: rendering it would put document-controlled HTML in the page.
 */
export function TextPanel({ id, ready }: { id: string; ready: boolean }) {
  const [format, setFormat] = useState<Format | null>(null);
  // Kept with the document and format it is of: the render that switches shows "Loading…", never the other's text.
  const [loaded, setLoaded] = useState<{ id: string; format: Format; text: string } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!format || !ready) return;
    let stop = false;
    setError('');
    get<string>(`/documents/${id}/content?format=${format}`).then(
      (text) => !stop && setLoaded({ id, format, text }),
      (e: Error) => !stop && setError(e.message),
    );
    return () => void (stop = true);
  }, [id, format, ready]);
  const text = loaded && loaded.id === id && loaded.format === format ? loaded.text : null;

  return (
    <section class="panel text-panel" aria-labelledby="text-h">
      <h2 id="text-h">Read as text</h2>
      <div class="toolbar" role="group" aria-label="Format">
        {FORMATS.map((f) => (
          <button type="button" key={f.format} aria-pressed={format === f.format} disabled={!ready} onClick={() => setFormat(format === f.format ? null : f.format)}>
            {f.label}
          </button>
        ))}
      </div>
      {!ready && <p class="hint">The text and Markdown are there once the document is Ready.</p>}
      {error && <p role="alert" class="error">{error}</p>}
      {ready && format && (
        <pre class="raw text-view" data-format={format} aria-label={format === 'text' ? 'Text' : 'Markdown'} tabIndex={0}>
          {text ?? 'Loading…'}
        </pre>
      )}
    </section>
  );
}
