import { useEffect, useState } from 'preact/hooks';
import { download, get } from '../api/client.js';
import { outline, type OutlineItem } from '../api/dgml.js';
import type { Box, Document, Page, PropertyValue } from '../api/types.js';
import { AuthImage } from '../components/AuthImage.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { PropertiesPanel } from './PropertiesPanel.js';

const THUMB_DPI = 36;
const VIEW_DPI = 100;
const ZOOM_DPI = 300;

export function DocumentView({ id }: { id: string }) {
  const [doc, setDoc] = useState<Document | null>(null);
  const [pages, setPages] = useState<Page[]>([]);
  const [current, setCurrent] = useState(1);
  const [zoom, setZoom] = useState(false);
  const [box, setBox] = useState<Box | null>(null);
  const [dgml, setDgml] = useState('');
  const [items, setItems] = useState<OutlineItem[]>([]);
  const [error, setError] = useState('');

  useEffect(() => {
    get<Document>(`/documents/${id}`).then(setDoc, (e: Error) => setError(e.message));
    get<{ pages: Page[] }>(`/documents/${id}/pages`).then((r) => setPages(r.pages), () => undefined);
    get<string>(`/documents/${id}/dgml`).then(
      (x) => {
        setDgml(x);
        setItems(outline(x));
      },
      () => undefined,
    );
  }, [id]);

  const page = pages.find((p) => p.number === current);
  const pick = (v: PropertyValue) => {
    if (!v.location) return;
    setCurrent(v.location.page);
    setBox(v.location.boundingBox);
  };
  const pct = (n: number, of: number | undefined) => `${of ? (n / of) * 100 : 0}%`;

  return (
    <div class="doc-view">
      <p>
        <a href="#/">← Documents</a>
      </p>
      {error && <p role="alert" class="error">{error}</p>}
      {doc && (
        <h1 class="doc-title">
          {doc.name} <StatusBadge status={doc.status} />
        </h1>
      )}
      <div class="doc-grid">
        <nav class="thumbs" aria-label="Pages">
          {pages.map((p) => (
            <button type="button" key={p.number} class={p.number === current ? 'thumb selected' : 'thumb'} aria-label={`Page ${p.number}`} aria-current={p.number === current ? 'page' : undefined} onClick={() => { setCurrent(p.number); setBox(null); }}>
              <AuthImage src={`/documents/${id}/pages/${p.number}/content?dpi=${THUMB_DPI}`} alt={`Thumbnail of page ${p.number}`} />
              <span>{p.number}</span>
            </button>
          ))}
        </nav>
        <section class="page-view" aria-label={`Page ${current}`}>
          <div class="toolbar">
            <button type="button" aria-pressed={zoom} onClick={() => setZoom(!zoom)}>
              {zoom ? 'Fit' : 'Zoom (300 DPI)'}
            </button>
          </div>
          {page && (
            <div class={zoom ? 'page-frame zoomed' : 'page-frame'} data-page={page.number} data-width={page.width} data-height={page.height}>
              <AuthImage key={`${current}-${zoom}`} src={`/documents/${id}/pages/${current}/content?dpi=${zoom ? ZOOM_DPI : VIEW_DPI}`} alt={`Page ${current}`} class="page-image" />
              {box && (
                <div
                  class="highlight"
                  data-testid="highlight"
                  style={{ left: pct(box.left, page.width as number), top: pct(box.top, page.height as number), width: pct(box.width, page.width as number), height: pct(box.height, page.height as number) }}
                />
              )}
            </div>
          )}
          {!pages.length && <p>Pages appear once the document is ingested.</p>}
        </section>
        <div class="doc-side">
          {doc?.docset && <PropertiesPanel docsetId={doc.docset.id} documentId={id} onPick={pick} />}
          {doc && !doc.docset && <p class="hint">Properties belong to a docset: this document is in none.</p>}
          <section class="panel" aria-labelledby="outline-h">
            <h2 id="outline-h">Outline</h2>
            <ol class="outline">
              {items.map((it, i) => (
                <li key={i} class={`depth-${Math.min(it.depth, 4)} kind-${it.kind}`}>
                  <button type="button" class="link" disabled={!it.page} onClick={() => it.page && (setCurrent(it.page), setBox(null))}>
                    {it.kind === 'table' ? '▦ ' : '§ '}
                    {it.text || '(untitled)'}
                  </button>
                </li>
              ))}
            </ol>
            {dgml && (
              <>
                <button type="button" onClick={() => void download(`/documents/${id}/dgml`, `${doc?.name ?? id}.xml`)}>
                  Download DGML
                </button>
                <details>
                  <summary>Raw DGML</summary>
                  <pre class="raw">{dgml}</pre>
                </details>
              </>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
